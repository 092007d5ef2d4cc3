from google.api import annotations_pb2 as _annotations_pb2
from google.api import httpbody_pb2 as _httpbody_pb2
from slidewright.v1 import content_pb2 as _content_pb2
from slidewright.v1 import quality_pb2 as _quality_pb2
from slidewright.v1 import rules_pb2 as _rules_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ChartUpdate(_message.Message):
    __slots__ = ["categories", "chart_index", "chart_name", "series", "slide_index", "title"]
    CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    CHART_INDEX_FIELD_NUMBER: _ClassVar[int]
    CHART_NAME_FIELD_NUMBER: _ClassVar[int]
    SERIES_FIELD_NUMBER: _ClassVar[int]
    SLIDE_INDEX_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    categories: _containers.RepeatedScalarFieldContainer[str]
    chart_index: int
    chart_name: str
    series: _containers.RepeatedCompositeFieldContainer[_content_pb2.ChartSeries]
    slide_index: int
    title: str
    def __init__(self, slide_index: _Optional[int] = ..., chart_index: _Optional[int] = ..., chart_name: _Optional[str] = ..., title: _Optional[str] = ..., categories: _Optional[_Iterable[str]] = ..., series: _Optional[_Iterable[_Union[_content_pb2.ChartSeries, _Mapping]]] = ...) -> None: ...

class DeckSlideInput(_message.Message):
    __slots__ = ["options", "slide_data", "template_slide_id"]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SLIDE_DATA_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_SLIDE_ID_FIELD_NUMBER: _ClassVar[int]
    options: _content_pb2.GenerationOptions
    slide_data: _content_pb2.SlideDataInput
    template_slide_id: str
    def __init__(self, template_slide_id: _Optional[str] = ..., slide_data: _Optional[_Union[_content_pb2.SlideDataInput, _Mapping]] = ..., options: _Optional[_Union[_content_pb2.GenerationOptions, _Mapping]] = ...) -> None: ...

class DownloadPresentationRequest(_message.Message):
    __slots__ = ["format", "pdfa", "presentation_id"]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    PDFA_FIELD_NUMBER: _ClassVar[int]
    PRESENTATION_ID_FIELD_NUMBER: _ClassVar[int]
    format: str
    pdfa: bool
    presentation_id: str
    def __init__(self, presentation_id: _Optional[str] = ..., format: _Optional[str] = ..., pdfa: bool = ...) -> None: ...

class DownloadPresentationResponse(_message.Message):
    __slots__ = ["file", "filename"]
    FILENAME_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    file: _httpbody_pb2.HttpBody
    filename: str
    def __init__(self, file: _Optional[_Union[_httpbody_pb2.HttpBody, _Mapping]] = ..., filename: _Optional[str] = ...) -> None: ...

class GenerateDeckRequest(_message.Message):
    __slots__ = ["options", "org_name", "slides", "webhook_url"]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ORG_NAME_FIELD_NUMBER: _ClassVar[int]
    SLIDES_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_URL_FIELD_NUMBER: _ClassVar[int]
    options: _content_pb2.GenerationOptions
    org_name: str
    slides: _containers.RepeatedCompositeFieldContainer[DeckSlideInput]
    webhook_url: str
    def __init__(self, slides: _Optional[_Iterable[_Union[DeckSlideInput, _Mapping]]] = ..., org_name: _Optional[str] = ..., options: _Optional[_Union[_content_pb2.GenerationOptions, _Mapping]] = ..., webhook_url: _Optional[str] = ...) -> None: ...

class GenerateDeckResponse(_message.Message):
    __slots__ = ["job"]
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: GenerationJob
    def __init__(self, job: _Optional[_Union[GenerationJob, _Mapping]] = ...) -> None: ...

class GenerateSlideRequest(_message.Message):
    __slots__ = ["options", "org_name", "slide_data", "template_slide_id", "webhook_url"]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ORG_NAME_FIELD_NUMBER: _ClassVar[int]
    SLIDE_DATA_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_SLIDE_ID_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_URL_FIELD_NUMBER: _ClassVar[int]
    options: _content_pb2.GenerationOptions
    org_name: str
    slide_data: _content_pb2.SlideDataInput
    template_slide_id: str
    webhook_url: str
    def __init__(self, template_slide_id: _Optional[str] = ..., slide_data: _Optional[_Union[_content_pb2.SlideDataInput, _Mapping]] = ..., org_name: _Optional[str] = ..., options: _Optional[_Union[_content_pb2.GenerationOptions, _Mapping]] = ..., webhook_url: _Optional[str] = ...) -> None: ...

class GenerateSlideResponse(_message.Message):
    __slots__ = ["job"]
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: GenerationJob
    def __init__(self, job: _Optional[_Union[GenerationJob, _Mapping]] = ...) -> None: ...

class GenerationIssue(_message.Message):
    __slots__ = ["code", "message", "slide_index", "template_slide_id"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    SLIDE_INDEX_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_SLIDE_ID_FIELD_NUMBER: _ClassVar[int]
    code: str
    message: str
    slide_index: int
    template_slide_id: str
    def __init__(self, slide_index: _Optional[int] = ..., template_slide_id: _Optional[str] = ..., code: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class GenerationJob(_message.Message):
    __slots__ = ["created_at", "generation_id", "message", "status", "status_url"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    GENERATION_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    STATUS_URL_FIELD_NUMBER: _ClassVar[int]
    created_at: str
    generation_id: str
    message: str
    status: str
    status_url: str
    def __init__(self, generation_id: _Optional[str] = ..., status: _Optional[str] = ..., message: _Optional[str] = ..., status_url: _Optional[str] = ..., created_at: _Optional[str] = ...) -> None: ...

class GetGenerationStatusRequest(_message.Message):
    __slots__ = ["generation_id"]
    GENERATION_ID_FIELD_NUMBER: _ClassVar[int]
    generation_id: str
    def __init__(self, generation_id: _Optional[str] = ...) -> None: ...

class GetGenerationStatusResponse(_message.Message):
    __slots__ = ["completed_at", "created_at", "download_url", "download_url_expires_in", "errors", "generation_id", "message", "progress", "report_summary", "status", "total_pages_generated", "total_slides_requested", "updated_at", "warnings"]
    COMPLETED_AT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DOWNLOAD_URL_EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    DOWNLOAD_URL_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    GENERATION_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    REPORT_SUMMARY_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_PAGES_GENERATED_FIELD_NUMBER: _ClassVar[int]
    TOTAL_SLIDES_REQUESTED_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    completed_at: str
    created_at: str
    download_url: str
    download_url_expires_in: int
    errors: _containers.RepeatedCompositeFieldContainer[GenerationIssue]
    generation_id: str
    message: str
    progress: float
    report_summary: _quality_pb2.QualitySummary
    status: str
    total_pages_generated: int
    total_slides_requested: int
    updated_at: str
    warnings: _containers.RepeatedCompositeFieldContainer[GenerationIssue]
    def __init__(self, generation_id: _Optional[str] = ..., status: _Optional[str] = ..., message: _Optional[str] = ..., progress: _Optional[float] = ..., total_slides_requested: _Optional[int] = ..., total_pages_generated: _Optional[int] = ..., download_url: _Optional[str] = ..., download_url_expires_in: _Optional[int] = ..., created_at: _Optional[str] = ..., updated_at: _Optional[str] = ..., completed_at: _Optional[str] = ..., errors: _Optional[_Iterable[_Union[GenerationIssue, _Mapping]]] = ..., warnings: _Optional[_Iterable[_Union[GenerationIssue, _Mapping]]] = ..., report_summary: _Optional[_Union[_quality_pb2.QualitySummary, _Mapping]] = ...) -> None: ...

class GetPresentationSlidePreviewRequest(_message.Message):
    __slots__ = ["generation_id", "slide_number", "width"]
    GENERATION_ID_FIELD_NUMBER: _ClassVar[int]
    SLIDE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    generation_id: str
    slide_number: int
    width: int
    def __init__(self, generation_id: _Optional[str] = ..., slide_number: _Optional[int] = ..., width: _Optional[int] = ...) -> None: ...

class GetPresentationSlidePreviewResponse(_message.Message):
    __slots__ = ["etag", "font_substitutions", "height_emu", "height_px", "image", "width_emu", "width_px"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FONT_SUBSTITUTIONS_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_EMU_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_PX_FIELD_NUMBER: _ClassVar[int]
    IMAGE_FIELD_NUMBER: _ClassVar[int]
    WIDTH_EMU_FIELD_NUMBER: _ClassVar[int]
    WIDTH_PX_FIELD_NUMBER: _ClassVar[int]
    etag: str
    font_substitutions: str
    height_emu: int
    height_px: int
    image: _httpbody_pb2.HttpBody
    width_emu: int
    width_px: int
    def __init__(self, image: _Optional[_Union[_httpbody_pb2.HttpBody, _Mapping]] = ..., width_px: _Optional[int] = ..., height_px: _Optional[int] = ..., width_emu: _Optional[int] = ..., height_emu: _Optional[int] = ..., etag: _Optional[str] = ..., font_substitutions: _Optional[str] = ...) -> None: ...

class UpdateChartsRequest(_message.Message):
    __slots__ = ["charts", "id", "org_name", "webhook_url"]
    CHARTS_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    ORG_NAME_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_URL_FIELD_NUMBER: _ClassVar[int]
    charts: _containers.RepeatedCompositeFieldContainer[ChartUpdate]
    id: str
    org_name: str
    webhook_url: str
    def __init__(self, id: _Optional[str] = ..., charts: _Optional[_Iterable[_Union[ChartUpdate, _Mapping]]] = ..., org_name: _Optional[str] = ..., webhook_url: _Optional[str] = ...) -> None: ...

class UpdateChartsResponse(_message.Message):
    __slots__ = ["job"]
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: GenerationJob
    def __init__(self, job: _Optional[_Union[GenerationJob, _Mapping]] = ...) -> None: ...
