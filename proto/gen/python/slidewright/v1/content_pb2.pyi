from slidewright.v1 import rules_pb2 as _rules_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Block(_message.Message):
    __slots__ = ["chart", "image", "table", "text", "type"]
    CHART_FIELD_NUMBER: _ClassVar[int]
    IMAGE_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    chart: ChartBlock
    image: ImageBlock
    table: TableBlock
    text: TextBlock
    type: str
    def __init__(self, type: _Optional[str] = ..., text: _Optional[_Union[TextBlock, _Mapping]] = ..., table: _Optional[_Union[TableBlock, _Mapping]] = ..., chart: _Optional[_Union[ChartBlock, _Mapping]] = ..., image: _Optional[_Union[ImageBlock, _Mapping]] = ...) -> None: ...

class ChartBlock(_message.Message):
    __slots__ = ["alt_text", "categories", "chart_type", "series", "title"]
    ALT_TEXT_FIELD_NUMBER: _ClassVar[int]
    CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    CHART_TYPE_FIELD_NUMBER: _ClassVar[int]
    SERIES_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    alt_text: str
    categories: _containers.RepeatedScalarFieldContainer[str]
    chart_type: str
    series: _containers.RepeatedCompositeFieldContainer[ChartSeries]
    title: str
    def __init__(self, chart_type: _Optional[str] = ..., title: _Optional[str] = ..., categories: _Optional[_Iterable[str]] = ..., series: _Optional[_Iterable[_Union[ChartSeries, _Mapping]]] = ..., alt_text: _Optional[str] = ...) -> None: ...

class ChartSeries(_message.Message):
    __slots__ = ["name", "values"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    name: str
    values: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, name: _Optional[str] = ..., values: _Optional[_Iterable[float]] = ...) -> None: ...

class Column(_message.Message):
    __slots__ = ["blocks", "header"]
    BLOCKS_FIELD_NUMBER: _ClassVar[int]
    HEADER_FIELD_NUMBER: _ClassVar[int]
    blocks: _containers.RepeatedCompositeFieldContainer[Block]
    header: str
    def __init__(self, blocks: _Optional[_Iterable[_Union[Block, _Mapping]]] = ..., header: _Optional[str] = ...) -> None: ...

class GenerationOptions(_message.Message):
    __slots__ = ["allow_textbox_reposition", "auto_paginate_tables", "footer_font_name", "footer_font_size", "footer_text", "language", "show_slide_numbers", "table_min_font_size", "textbox_min_font_size"]
    ALLOW_TEXTBOX_REPOSITION_FIELD_NUMBER: _ClassVar[int]
    AUTO_PAGINATE_TABLES_FIELD_NUMBER: _ClassVar[int]
    FOOTER_FONT_NAME_FIELD_NUMBER: _ClassVar[int]
    FOOTER_FONT_SIZE_FIELD_NUMBER: _ClassVar[int]
    FOOTER_TEXT_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    SHOW_SLIDE_NUMBERS_FIELD_NUMBER: _ClassVar[int]
    TABLE_MIN_FONT_SIZE_FIELD_NUMBER: _ClassVar[int]
    TEXTBOX_MIN_FONT_SIZE_FIELD_NUMBER: _ClassVar[int]
    allow_textbox_reposition: bool
    auto_paginate_tables: bool
    footer_font_name: str
    footer_font_size: int
    footer_text: str
    language: str
    show_slide_numbers: bool
    table_min_font_size: int
    textbox_min_font_size: int
    def __init__(self, auto_paginate_tables: bool = ..., allow_textbox_reposition: bool = ..., table_min_font_size: _Optional[int] = ..., textbox_min_font_size: _Optional[int] = ..., show_slide_numbers: bool = ..., footer_text: _Optional[str] = ..., footer_font_size: _Optional[int] = ..., footer_font_name: _Optional[str] = ..., language: _Optional[str] = ...) -> None: ...

class ImageBlock(_message.Message):
    __slots__ = ["alt_text", "asset_id", "content_type", "data_base64"]
    ALT_TEXT_FIELD_NUMBER: _ClassVar[int]
    ASSET_ID_FIELD_NUMBER: _ClassVar[int]
    CONTENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    DATA_BASE64_FIELD_NUMBER: _ClassVar[int]
    alt_text: str
    asset_id: str
    content_type: str
    data_base64: str
    def __init__(self, data_base64: _Optional[str] = ..., asset_id: _Optional[str] = ..., content_type: _Optional[str] = ..., alt_text: _Optional[str] = ...) -> None: ...

class SlideDataInput(_message.Message):
    __slots__ = ["content", "footer", "footnote", "header", "notes", "slide_format", "subtitle", "title"]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    FOOTER_FIELD_NUMBER: _ClassVar[int]
    FOOTNOTE_FIELD_NUMBER: _ClassVar[int]
    HEADER_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    SLIDE_FORMAT_FIELD_NUMBER: _ClassVar[int]
    SUBTITLE_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    content: _containers.RepeatedCompositeFieldContainer[Column]
    footer: str
    footnote: str
    header: str
    notes: str
    slide_format: SlideFormat
    subtitle: str
    title: str
    def __init__(self, title: _Optional[str] = ..., subtitle: _Optional[str] = ..., header: _Optional[str] = ..., footer: _Optional[str] = ..., footnote: _Optional[str] = ..., content: _Optional[_Iterable[_Union[Column, _Mapping]]] = ..., slide_format: _Optional[_Union[SlideFormat, _Mapping]] = ..., notes: _Optional[str] = ...) -> None: ...

class SlideFormat(_message.Message):
    __slots__ = ["body", "subtitle", "textbox", "title"]
    BODY_FIELD_NUMBER: _ClassVar[int]
    SUBTITLE_FIELD_NUMBER: _ClassVar[int]
    TEXTBOX_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    body: TextFormat
    subtitle: TextFormat
    textbox: TextFormat
    title: TextFormat
    def __init__(self, title: _Optional[_Union[TextFormat, _Mapping]] = ..., subtitle: _Optional[_Union[TextFormat, _Mapping]] = ..., body: _Optional[_Union[TextFormat, _Mapping]] = ..., textbox: _Optional[_Union[TextFormat, _Mapping]] = ...) -> None: ...

class Table(_message.Message):
    __slots__ = ["rows"]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    rows: _containers.RepeatedCompositeFieldContainer[TableRow]
    def __init__(self, rows: _Optional[_Iterable[_Union[TableRow, _Mapping]]] = ...) -> None: ...

class TableBlock(_message.Message):
    __slots__ = ["table"]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    table: Table
    def __init__(self, table: _Optional[_Union[Table, _Mapping]] = ...) -> None: ...

class TableCell(_message.Message):
    __slots__ = ["value"]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    value: str
    def __init__(self, value: _Optional[str] = ...) -> None: ...

class TableRow(_message.Message):
    __slots__ = ["cells", "is_header"]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    IS_HEADER_FIELD_NUMBER: _ClassVar[int]
    cells: _containers.RepeatedCompositeFieldContainer[TableCell]
    is_header: bool
    def __init__(self, cells: _Optional[_Iterable[_Union[TableCell, _Mapping]]] = ..., is_header: bool = ...) -> None: ...

class TextBlock(_message.Message):
    __slots__ = ["bullets", "language"]
    BULLETS_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    bullets: _containers.RepeatedScalarFieldContainer[str]
    language: str
    def __init__(self, bullets: _Optional[_Iterable[str]] = ..., language: _Optional[str] = ...) -> None: ...

class TextFormat(_message.Message):
    __slots__ = ["alignment", "bold", "color", "font_name", "font_size", "italic"]
    ALIGNMENT_FIELD_NUMBER: _ClassVar[int]
    BOLD_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    FONT_NAME_FIELD_NUMBER: _ClassVar[int]
    FONT_SIZE_FIELD_NUMBER: _ClassVar[int]
    ITALIC_FIELD_NUMBER: _ClassVar[int]
    alignment: str
    bold: bool
    color: str
    font_name: str
    font_size: int
    italic: bool
    def __init__(self, font_name: _Optional[str] = ..., font_size: _Optional[int] = ..., bold: bool = ..., italic: bool = ..., color: _Optional[str] = ..., alignment: _Optional[str] = ...) -> None: ...
