from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from slidewright.v1 import analysis_pb2 as _analysis_pb2
from slidewright.v1 import rules_pb2 as _rules_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CancelAnalysisRequest(_message.Message):
    __slots__ = ["analysis_id", "template_id"]
    ANALYSIS_ID_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    analysis_id: str
    template_id: str
    def __init__(self, template_id: _Optional[str] = ..., analysis_id: _Optional[str] = ...) -> None: ...

class CancelAnalysisResponse(_message.Message):
    __slots__ = ["analysis"]
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    analysis: _analysis_pb2.Analysis
    def __init__(self, analysis: _Optional[_Union[_analysis_pb2.Analysis, _Mapping]] = ...) -> None: ...

class GetAnalysisRequest(_message.Message):
    __slots__ = ["analysis_id", "template_id"]
    ANALYSIS_ID_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    analysis_id: str
    template_id: str
    def __init__(self, template_id: _Optional[str] = ..., analysis_id: _Optional[str] = ...) -> None: ...

class GetAnalysisResponse(_message.Message):
    __slots__ = ["analysis"]
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    analysis: _analysis_pb2.Analysis
    def __init__(self, analysis: _Optional[_Union[_analysis_pb2.Analysis, _Mapping]] = ...) -> None: ...

class GetAnalysisStatusRequest(_message.Message):
    __slots__ = ["analysis_id", "template_id"]
    ANALYSIS_ID_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    analysis_id: str
    template_id: str
    def __init__(self, template_id: _Optional[str] = ..., analysis_id: _Optional[str] = ...) -> None: ...

class GetAnalysisStatusResponse(_message.Message):
    __slots__ = ["analysis_id", "current_step", "elapsed_time", "error", "estimated_completion_at", "message", "progress", "started_at", "status", "steps"]
    ANALYSIS_ID_FIELD_NUMBER: _ClassVar[int]
    CURRENT_STEP_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_TIME_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    ESTIMATED_COMPLETION_AT_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    analysis_id: str
    current_step: str
    elapsed_time: float
    error: _struct_pb2.Struct
    estimated_completion_at: str
    message: str
    progress: float
    started_at: str
    status: str
    steps: _containers.RepeatedCompositeFieldContainer[_struct_pb2.Struct]
    def __init__(self, status: _Optional[str] = ..., progress: _Optional[float] = ..., current_step: _Optional[str] = ..., message: _Optional[str] = ..., steps: _Optional[_Iterable[_Union[_struct_pb2.Struct, _Mapping]]] = ..., started_at: _Optional[str] = ..., estimated_completion_at: _Optional[str] = ..., elapsed_time: _Optional[float] = ..., error: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., analysis_id: _Optional[str] = ...) -> None: ...

class StartAnalysisRequest(_message.Message):
    __slots__ = ["description", "name", "options", "priority", "template_id", "webhook_url"]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_URL_FIELD_NUMBER: _ClassVar[int]
    description: str
    name: str
    options: _analysis_pb2.AnalysisOptions
    priority: str
    template_id: str
    webhook_url: str
    def __init__(self, template_id: _Optional[str] = ..., options: _Optional[_Union[_analysis_pb2.AnalysisOptions, _Mapping]] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., priority: _Optional[str] = ..., webhook_url: _Optional[str] = ...) -> None: ...

class StartAnalysisResponse(_message.Message):
    __slots__ = ["analysis"]
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    analysis: _analysis_pb2.Analysis
    def __init__(self, analysis: _Optional[_Union[_analysis_pb2.Analysis, _Mapping]] = ...) -> None: ...
