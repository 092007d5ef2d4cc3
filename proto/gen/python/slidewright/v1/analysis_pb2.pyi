from google.protobuf import struct_pb2 as _struct_pb2
from slidewright.v1 import rules_pb2 as _rules_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Analysis(_message.Message):
    __slots__ = ["analysis_id", "completed_at", "error", "metadata", "options", "org_name", "results", "started_at", "status", "template_id"]
    ANALYSIS_ID_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_AT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ORG_NAME_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    analysis_id: str
    completed_at: str
    error: _struct_pb2.Struct
    metadata: _struct_pb2.Struct
    options: AnalysisOptions
    org_name: str
    results: _struct_pb2.Struct
    started_at: str
    status: str
    template_id: str
    def __init__(self, analysis_id: _Optional[str] = ..., status: _Optional[str] = ..., started_at: _Optional[str] = ..., options: _Optional[_Union[AnalysisOptions, _Mapping]] = ..., org_name: _Optional[str] = ..., completed_at: _Optional[str] = ..., results: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., template_id: _Optional[str] = ..., error: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class AnalysisOptions(_message.Message):
    __slots__ = ["include_custom_shapes", "include_placeholder_content", "include_placeholder_positions", "include_table_details", "parse_master_template_layout", "parse_slides"]
    INCLUDE_CUSTOM_SHAPES_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_PLACEHOLDER_CONTENT_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_PLACEHOLDER_POSITIONS_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_TABLE_DETAILS_FIELD_NUMBER: _ClassVar[int]
    PARSE_MASTER_TEMPLATE_LAYOUT_FIELD_NUMBER: _ClassVar[int]
    PARSE_SLIDES_FIELD_NUMBER: _ClassVar[int]
    include_custom_shapes: bool
    include_placeholder_content: bool
    include_placeholder_positions: bool
    include_table_details: bool
    parse_master_template_layout: bool
    parse_slides: bool
    def __init__(self, parse_master_template_layout: bool = ..., parse_slides: bool = ..., include_placeholder_positions: bool = ..., include_placeholder_content: bool = ..., include_custom_shapes: bool = ..., include_table_details: bool = ...) -> None: ...

class AnalysisSummary(_message.Message):
    __slots__ = ["analysis_id", "completed_at", "layout_count", "options", "org_name", "slide_count", "slide_ids", "started_at", "status"]
    ANALYSIS_ID_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_AT_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_COUNT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ORG_NAME_FIELD_NUMBER: _ClassVar[int]
    SLIDE_COUNT_FIELD_NUMBER: _ClassVar[int]
    SLIDE_IDS_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    analysis_id: str
    completed_at: str
    layout_count: int
    options: AnalysisOptions
    org_name: str
    slide_count: int
    slide_ids: _containers.RepeatedScalarFieldContainer[str]
    started_at: str
    status: str
    def __init__(self, status: _Optional[str] = ..., options: _Optional[_Union[AnalysisOptions, _Mapping]] = ..., analysis_id: _Optional[str] = ..., org_name: _Optional[str] = ..., started_at: _Optional[str] = ..., completed_at: _Optional[str] = ..., slide_count: _Optional[int] = ..., slide_ids: _Optional[_Iterable[str]] = ..., layout_count: _Optional[int] = ...) -> None: ...
