from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ValidationErrorDetail(_message.Message):
    __slots__ = ["violations"]
    VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    violations: _containers.RepeatedCompositeFieldContainer[ValidationViolation]
    def __init__(self, violations: _Optional[_Iterable[_Union[ValidationViolation, _Mapping]]] = ...) -> None: ...

class ValidationViolation(_message.Message):
    __slots__ = ["ctx", "input", "loc", "msg", "type"]
    CTX_FIELD_NUMBER: _ClassVar[int]
    INPUT_FIELD_NUMBER: _ClassVar[int]
    LOC_FIELD_NUMBER: _ClassVar[int]
    MSG_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    ctx: _struct_pb2.Struct
    input: _struct_pb2.Value
    loc: _struct_pb2.ListValue
    msg: str
    type: str
    def __init__(self, loc: _Optional[_Union[_struct_pb2.ListValue, _Mapping]] = ..., msg: _Optional[str] = ..., type: _Optional[str] = ..., input: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., ctx: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...
