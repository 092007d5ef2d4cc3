from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from slidewright.v1 import content_pb2 as _content_pb2
from slidewright.v1 import rules_pb2 as _rules_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MatchItem(_message.Message):
    __slots__ = ["is_exact_match", "layout_name", "matched_counts", "overflow_counts", "reasons", "score", "slide_id", "slide_index", "template_id", "unused_counts"]
    IS_EXACT_MATCH_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_NAME_FIELD_NUMBER: _ClassVar[int]
    MATCHED_COUNTS_FIELD_NUMBER: _ClassVar[int]
    OVERFLOW_COUNTS_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SLIDE_ID_FIELD_NUMBER: _ClassVar[int]
    SLIDE_INDEX_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    UNUSED_COUNTS_FIELD_NUMBER: _ClassVar[int]
    is_exact_match: bool
    layout_name: str
    matched_counts: PlaceholderCounts
    overflow_counts: PlaceholderCounts
    reasons: _containers.RepeatedScalarFieldContainer[str]
    score: float
    slide_id: str
    slide_index: int
    template_id: str
    unused_counts: PlaceholderCounts
    def __init__(self, template_id: _Optional[str] = ..., slide_id: _Optional[str] = ..., slide_index: _Optional[int] = ..., score: _Optional[float] = ..., is_exact_match: bool = ..., layout_name: _Optional[str] = ..., matched_counts: _Optional[_Union[PlaceholderCounts, _Mapping]] = ..., overflow_counts: _Optional[_Union[PlaceholderCounts, _Mapping]] = ..., unused_counts: _Optional[_Union[PlaceholderCounts, _Mapping]] = ..., reasons: _Optional[_Iterable[str]] = ...) -> None: ...

class MatchTemplatesRequest(_message.Message):
    __slots__ = ["match_against", "org_name", "slide_data", "top_k"]
    MATCH_AGAINST_FIELD_NUMBER: _ClassVar[int]
    ORG_NAME_FIELD_NUMBER: _ClassVar[int]
    SLIDE_DATA_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    match_against: str
    org_name: str
    slide_data: _content_pb2.SlideDataInput
    top_k: int
    def __init__(self, slide_data: _Optional[_Union[_content_pb2.SlideDataInput, _Mapping]] = ..., org_name: _Optional[str] = ..., match_against: _Optional[str] = ..., top_k: _Optional[int] = ...) -> None: ...

class MatchTemplatesResponse(_message.Message):
    __slots__ = ["best_match", "input_signature", "matches", "total_slides_searched", "total_templates_searched"]
    BEST_MATCH_FIELD_NUMBER: _ClassVar[int]
    INPUT_SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_SLIDES_SEARCHED_FIELD_NUMBER: _ClassVar[int]
    TOTAL_TEMPLATES_SEARCHED_FIELD_NUMBER: _ClassVar[int]
    best_match: MatchItem
    input_signature: _struct_pb2.Struct
    matches: _containers.RepeatedCompositeFieldContainer[MatchItem]
    total_slides_searched: int
    total_templates_searched: int
    def __init__(self, input_signature: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., matches: _Optional[_Iterable[_Union[MatchItem, _Mapping]]] = ..., total_templates_searched: _Optional[int] = ..., total_slides_searched: _Optional[int] = ..., best_match: _Optional[_Union[MatchItem, _Mapping]] = ...) -> None: ...

class PlaceholderCounts(_message.Message):
    __slots__ = ["body", "chart", "custom_field", "footer", "object", "subtitle", "table", "textbox", "title"]
    BODY_FIELD_NUMBER: _ClassVar[int]
    CHART_FIELD_NUMBER: _ClassVar[int]
    CUSTOM_FIELD_FIELD_NUMBER: _ClassVar[int]
    FOOTER_FIELD_NUMBER: _ClassVar[int]
    OBJECT_FIELD_NUMBER: _ClassVar[int]
    SUBTITLE_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    TEXTBOX_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    body: int
    chart: int
    custom_field: int
    footer: int
    object: int
    subtitle: int
    table: int
    textbox: int
    title: int
    def __init__(self, title: _Optional[int] = ..., subtitle: _Optional[int] = ..., body: _Optional[int] = ..., footer: _Optional[int] = ..., table: _Optional[int] = ..., chart: _Optional[int] = ..., textbox: _Optional[int] = ..., object: _Optional[int] = ..., custom_field: _Optional[int] = ...) -> None: ...
