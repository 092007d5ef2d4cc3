from google.api import annotations_pb2 as _annotations_pb2
from google.api import httpbody_pb2 as _httpbody_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from slidewright.v1 import rules_pb2 as _rules_pb2
from slidewright.v1 import template_pb2 as _template_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CreateTemplateRequest(_message.Message):
    __slots__ = ["file_size", "filename", "metadata", "org_name"]
    FILENAME_FIELD_NUMBER: _ClassVar[int]
    FILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    ORG_NAME_FIELD_NUMBER: _ClassVar[int]
    file_size: int
    filename: str
    metadata: _template_pb2.TemplateMetadata
    org_name: str
    def __init__(self, filename: _Optional[str] = ..., org_name: _Optional[str] = ..., file_size: _Optional[int] = ..., metadata: _Optional[_Union[_template_pb2.TemplateMetadata, _Mapping]] = ...) -> None: ...

class CreateTemplateResponse(_message.Message):
    __slots__ = ["allowed_extensions", "expires_in", "max_file_size", "status", "template_id", "upload_method", "upload_url"]
    ALLOWED_EXTENSIONS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    MAX_FILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    UPLOAD_METHOD_FIELD_NUMBER: _ClassVar[int]
    UPLOAD_URL_FIELD_NUMBER: _ClassVar[int]
    allowed_extensions: _containers.RepeatedScalarFieldContainer[str]
    expires_in: int
    max_file_size: int
    status: str
    template_id: str
    upload_method: str
    upload_url: str
    def __init__(self, template_id: _Optional[str] = ..., upload_url: _Optional[str] = ..., expires_in: _Optional[int] = ..., status: _Optional[str] = ..., upload_method: _Optional[str] = ..., max_file_size: _Optional[int] = ..., allowed_extensions: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteTemplateRequest(_message.Message):
    __slots__ = ["permanent", "template_id"]
    PERMANENT_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    permanent: bool
    template_id: str
    def __init__(self, template_id: _Optional[str] = ..., permanent: bool = ...) -> None: ...

class DeleteTemplateResponse(_message.Message):
    __slots__ = ["template"]
    TEMPLATE_FIELD_NUMBER: _ClassVar[int]
    template: _template_pb2.Template
    def __init__(self, template: _Optional[_Union[_template_pb2.Template, _Mapping]] = ...) -> None: ...

class DownloadTemplateRequest(_message.Message):
    __slots__ = ["format", "pdfa", "template_id"]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    PDFA_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    format: str
    pdfa: bool
    template_id: str
    def __init__(self, template_id: _Optional[str] = ..., format: _Optional[str] = ..., pdfa: bool = ...) -> None: ...

class DownloadTemplateResponse(_message.Message):
    __slots__ = ["file", "filename"]
    FILENAME_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    file: _httpbody_pb2.HttpBody
    filename: str
    def __init__(self, file: _Optional[_Union[_httpbody_pb2.HttpBody, _Mapping]] = ..., filename: _Optional[str] = ...) -> None: ...

class GetTemplateRequest(_message.Message):
    __slots__ = ["template_id"]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    template_id: str
    def __init__(self, template_id: _Optional[str] = ...) -> None: ...

class GetTemplateResponse(_message.Message):
    __slots__ = ["template"]
    TEMPLATE_FIELD_NUMBER: _ClassVar[int]
    template: _template_pb2.Template
    def __init__(self, template: _Optional[_Union[_template_pb2.Template, _Mapping]] = ...) -> None: ...

class GetTemplateSlidePreviewRequest(_message.Message):
    __slots__ = ["slide_number", "template_id", "width"]
    SLIDE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    slide_number: int
    template_id: str
    width: int
    def __init__(self, template_id: _Optional[str] = ..., slide_number: _Optional[int] = ..., width: _Optional[int] = ...) -> None: ...

class GetTemplateSlidePreviewResponse(_message.Message):
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

class GetTemplateSlideRequest(_message.Message):
    __slots__ = ["slide_number", "template_id"]
    SLIDE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    slide_number: int
    template_id: str
    def __init__(self, template_id: _Optional[str] = ..., slide_number: _Optional[int] = ...) -> None: ...

class GetTemplateSlideResponse(_message.Message):
    __slots__ = ["slide"]
    SLIDE_FIELD_NUMBER: _ClassVar[int]
    slide: _template_pb2.TemplateSlide
    def __init__(self, slide: _Optional[_Union[_template_pb2.TemplateSlide, _Mapping]] = ...) -> None: ...

class ListTemplatesRequest(_message.Message):
    __slots__ = ["category", "include_deleted", "limit", "page", "q", "status", "tag"]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_DELETED_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    Q_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TAG_FIELD_NUMBER: _ClassVar[int]
    category: str
    include_deleted: bool
    limit: int
    page: int
    q: str
    status: str
    tag: str
    def __init__(self, page: _Optional[int] = ..., limit: _Optional[int] = ..., category: _Optional[str] = ..., tag: _Optional[str] = ..., status: _Optional[str] = ..., q: _Optional[str] = ..., include_deleted: bool = ...) -> None: ...

class ListTemplatesResponse(_message.Message):
    __slots__ = ["aggregations", "filters", "pagination", "templates"]
    AGGREGATIONS_FIELD_NUMBER: _ClassVar[int]
    FILTERS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    TEMPLATES_FIELD_NUMBER: _ClassVar[int]
    aggregations: _struct_pb2.Struct
    filters: _struct_pb2.Struct
    pagination: _template_pb2.Pagination
    templates: _containers.RepeatedCompositeFieldContainer[_template_pb2.Template]
    def __init__(self, templates: _Optional[_Iterable[_Union[_template_pb2.Template, _Mapping]]] = ..., pagination: _Optional[_Union[_template_pb2.Pagination, _Mapping]] = ..., filters: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., aggregations: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class RestoreTemplateRequest(_message.Message):
    __slots__ = ["template_id"]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    template_id: str
    def __init__(self, template_id: _Optional[str] = ...) -> None: ...

class RestoreTemplateResponse(_message.Message):
    __slots__ = ["template"]
    TEMPLATE_FIELD_NUMBER: _ClassVar[int]
    template: _template_pb2.Template
    def __init__(self, template: _Optional[_Union[_template_pb2.Template, _Mapping]] = ...) -> None: ...

class UpdateTemplateRequest(_message.Message):
    __slots__ = ["metadata", "template_id"]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    metadata: _template_pb2.TemplateMetadata
    template_id: str
    def __init__(self, template_id: _Optional[str] = ..., metadata: _Optional[_Union[_template_pb2.TemplateMetadata, _Mapping]] = ...) -> None: ...

class UpdateTemplateResponse(_message.Message):
    __slots__ = ["template"]
    TEMPLATE_FIELD_NUMBER: _ClassVar[int]
    template: _template_pb2.Template
    def __init__(self, template: _Optional[_Union[_template_pb2.Template, _Mapping]] = ...) -> None: ...

class UploadTemplateContentRequest(_message.Message):
    __slots__ = ["file", "template_id"]
    FILE_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    file: _httpbody_pb2.HttpBody
    template_id: str
    def __init__(self, template_id: _Optional[str] = ..., file: _Optional[_Union[_httpbody_pb2.HttpBody, _Mapping]] = ...) -> None: ...

class UploadTemplateContentResponse(_message.Message):
    __slots__ = ["confirmed", "error", "file_hash", "file_size", "status", "template_id"]
    CONFIRMED_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    FILE_HASH_FIELD_NUMBER: _ClassVar[int]
    FILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    confirmed: bool
    error: str
    file_hash: str
    file_size: int
    status: str
    template_id: str
    def __init__(self, confirmed: bool = ..., template_id: _Optional[str] = ..., status: _Optional[str] = ..., file_size: _Optional[int] = ..., file_hash: _Optional[str] = ..., error: _Optional[str] = ...) -> None: ...
