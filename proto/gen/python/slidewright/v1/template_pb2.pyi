from google.protobuf import struct_pb2 as _struct_pb2
from slidewright.v1 import analysis_pb2 as _analysis_pb2
from slidewright.v1 import rules_pb2 as _rules_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Pagination(_message.Message):
    __slots__ = ["limit", "page", "pages", "total"]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PAGES_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    limit: int
    page: int
    pages: int
    total: int
    def __init__(self, page: _Optional[int] = ..., limit: _Optional[int] = ..., total: _Optional[int] = ..., pages: _Optional[int] = ...) -> None: ...

class Template(_message.Message):
    __slots__ = ["analysis", "content_type", "created_at", "download_url", "download_url_expires_in", "error", "file_hash", "file_hash_algorithm", "file_size", "filename", "metadata", "org_name", "status", "template_id", "updated_at"]
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    CONTENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DOWNLOAD_URL_EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    DOWNLOAD_URL_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    FILENAME_FIELD_NUMBER: _ClassVar[int]
    FILE_HASH_ALGORITHM_FIELD_NUMBER: _ClassVar[int]
    FILE_HASH_FIELD_NUMBER: _ClassVar[int]
    FILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    ORG_NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    analysis: _analysis_pb2.AnalysisSummary
    content_type: str
    created_at: str
    download_url: str
    download_url_expires_in: int
    error: str
    file_hash: str
    file_hash_algorithm: str
    file_size: int
    filename: str
    metadata: TemplateMetadata
    org_name: str
    status: str
    template_id: str
    updated_at: str
    def __init__(self, template_id: _Optional[str] = ..., org_name: _Optional[str] = ..., filename: _Optional[str] = ..., file_size: _Optional[int] = ..., status: _Optional[str] = ..., metadata: _Optional[_Union[TemplateMetadata, _Mapping]] = ..., created_at: _Optional[str] = ..., updated_at: _Optional[str] = ..., download_url: _Optional[str] = ..., download_url_expires_in: _Optional[int] = ..., file_hash: _Optional[str] = ..., file_hash_algorithm: _Optional[str] = ..., content_type: _Optional[str] = ..., analysis: _Optional[_Union[_analysis_pb2.AnalysisSummary, _Mapping]] = ..., error: _Optional[str] = ...) -> None: ...

class TemplateMetadata(_message.Message):
    __slots__ = ["category", "description", "tags", "version"]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    category: str
    description: str
    tags: _containers.RepeatedScalarFieldContainer[str]
    version: str
    def __init__(self, category: _Optional[str] = ..., tags: _Optional[_Iterable[str]] = ..., description: _Optional[str] = ..., version: _Optional[str] = ...) -> None: ...

class TemplateSlide(_message.Message):
    __slots__ = ["dimension", "hidden", "layout_name", "layout_slide_id", "shapes", "slide_id", "slide_index", "slide_number", "title"]
    DIMENSION_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_NAME_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_SLIDE_ID_FIELD_NUMBER: _ClassVar[int]
    SHAPES_FIELD_NUMBER: _ClassVar[int]
    SLIDE_ID_FIELD_NUMBER: _ClassVar[int]
    SLIDE_INDEX_FIELD_NUMBER: _ClassVar[int]
    SLIDE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    dimension: _struct_pb2.Struct
    hidden: bool
    layout_name: str
    layout_slide_id: str
    shapes: _containers.RepeatedCompositeFieldContainer[_struct_pb2.Struct]
    slide_id: str
    slide_index: int
    slide_number: int
    title: str
    def __init__(self, slide_id: _Optional[str] = ..., slide_index: _Optional[int] = ..., slide_number: _Optional[int] = ..., title: _Optional[str] = ..., shapes: _Optional[_Iterable[_Union[_struct_pb2.Struct, _Mapping]]] = ..., dimension: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., layout_slide_id: _Optional[str] = ..., layout_name: _Optional[str] = ..., hidden: bool = ...) -> None: ...
