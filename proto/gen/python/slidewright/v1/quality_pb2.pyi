from google.protobuf import struct_pb2 as _struct_pb2
from slidewright.v1 import rules_pb2 as _rules_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GetGenerationReportRequest(_message.Message):
    __slots__ = ["generation_id"]
    GENERATION_ID_FIELD_NUMBER: _ClassVar[int]
    generation_id: str
    def __init__(self, generation_id: _Optional[str] = ...) -> None: ...

class GetGenerationReportResponse(_message.Message):
    __slots__ = ["checks", "findings", "summary"]
    CHECKS_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    checks: _containers.RepeatedScalarFieldContainer[str]
    findings: _containers.RepeatedCompositeFieldContainer[QualityFinding]
    summary: QualitySummary
    def __init__(self, summary: _Optional[_Union[QualitySummary, _Mapping]] = ..., checks: _Optional[_Iterable[str]] = ..., findings: _Optional[_Iterable[_Union[QualityFinding, _Mapping]]] = ...) -> None: ...

class QualityFinding(_message.Message):
    __slots__ = ["category", "code", "details", "message", "severity", "shape_id", "shape_name", "slide_index"]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    SHAPE_ID_FIELD_NUMBER: _ClassVar[int]
    SHAPE_NAME_FIELD_NUMBER: _ClassVar[int]
    SLIDE_INDEX_FIELD_NUMBER: _ClassVar[int]
    category: str
    code: str
    details: _struct_pb2.Struct
    message: str
    severity: str
    shape_id: int
    shape_name: str
    slide_index: int
    def __init__(self, slide_index: _Optional[int] = ..., shape_id: _Optional[int] = ..., shape_name: _Optional[str] = ..., category: _Optional[str] = ..., code: _Optional[str] = ..., severity: _Optional[str] = ..., message: _Optional[str] = ..., details: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class QualitySummary(_message.Message):
    __slots__ = ["errors", "info", "warnings"]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    INFO_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    errors: int
    info: int
    warnings: int
    def __init__(self, errors: _Optional[int] = ..., warnings: _Optional[int] = ..., info: _Optional[int] = ...) -> None: ...
