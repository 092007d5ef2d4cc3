from google.protobuf import descriptor_pb2 as _descriptor_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor
HTTP_EMPTY_STATUS_FIELD_NUMBER: _ClassVar[int]
HTTP_HEADER_FIELD_NUMBER: _ClassVar[int]
HTTP_STATUS_FIELD_NUMBER: _ClassVar[int]
RULES_FIELD_NUMBER: _ClassVar[int]
http_empty_status: _descriptor.FieldDescriptor
http_header: _descriptor.FieldDescriptor
http_status: _descriptor.FieldDescriptor
rules: _descriptor.FieldDescriptor

class FieldRules(_message.Message):
    __slots__ = ["allowed", "exclusive_max", "exclusive_min", "format", "max", "max_items", "max_length", "min", "min_items", "min_length", "nullable", "required", "single_or_list"]
    ALLOWED_FIELD_NUMBER: _ClassVar[int]
    EXCLUSIVE_MAX_FIELD_NUMBER: _ClassVar[int]
    EXCLUSIVE_MIN_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    MAX_ITEMS_FIELD_NUMBER: _ClassVar[int]
    MAX_LENGTH_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MIN_ITEMS_FIELD_NUMBER: _ClassVar[int]
    MIN_LENGTH_FIELD_NUMBER: _ClassVar[int]
    NULLABLE_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_FIELD_NUMBER: _ClassVar[int]
    SINGLE_OR_LIST_FIELD_NUMBER: _ClassVar[int]
    allowed: _containers.RepeatedScalarFieldContainer[str]
    exclusive_max: float
    exclusive_min: float
    format: str
    max: float
    max_items: int
    max_length: int
    min: float
    min_items: int
    min_length: int
    nullable: bool
    required: bool
    single_or_list: bool
    def __init__(self, required: bool = ..., min: _Optional[float] = ..., max: _Optional[float] = ..., exclusive_min: _Optional[float] = ..., exclusive_max: _Optional[float] = ..., min_items: _Optional[int] = ..., max_items: _Optional[int] = ..., min_length: _Optional[int] = ..., max_length: _Optional[int] = ..., allowed: _Optional[_Iterable[str]] = ..., single_or_list: bool = ..., nullable: bool = ..., format: _Optional[str] = ...) -> None: ...
