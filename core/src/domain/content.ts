/**
 * The content a caller sends for one slide, and the generation options, as plain data.
 *
 * Field names are the contract's JSON names (`../../shared/spec/interface.md`), which are
 * also the proto JSON names; requests arrive here already validated. `content` is always
 * a list: a single Column sent by a client is normalized to a list of one.
 */

/** A bullet list. Each string is one paragraph at level 0. */
export interface TextBlock {
  bullets: string[];
  /** BCP 47 language of the bullets (e.g. "ar", "he-IL", "ja-JP"): sets direction and run language. */
  language?: string;
}

export interface TableCell {
  value: string;
}

export interface TableRow {
  cells: TableCell[];
  /** Header rows are styled as header and repeated on continuation slides. */
  is_header?: boolean;
}

export interface Table {
  rows: TableRow[];
}

export interface ChartSeries {
  name: string;
  values: number[];
}

/** A chart to place in a chart placeholder or the template slide's chart. */
export interface ChartBlock {
  /** `bar`, `column`, `line`, `pie`, ... */
  chart_type: string;
  title?: string;
  categories: string[];
  series: ChartSeries[];
  /** Alternative text (`p:cNvPr/@descr`); generated from type, title and data when absent. */
  alt_text?: string;
}

/** A picture to place in a picture placeholder: base64 data or an uploaded asset id. */
export interface ImageBlock {
  data_base64?: string;
  asset_id?: string;
  content_type?: string;
  alt_text?: string;
}

/** One content block; `type` says which payload is set. */
export interface Block {
  type: 'text' | 'table' | 'chart' | 'image';
  text?: TextBlock;
  /** The contract nests the table one level: `{ table: { table: { rows } } }`. */
  table?: { table: Table };
  chart?: ChartBlock;
  image?: ImageBlock;
}

export interface Column {
  header?: string;
  blocks: Block[];
}

/** Font overrides for one kind of element. Sizes in points. */
export interface TextFormat {
  font_name?: string;
  font_size?: number;
  bold?: boolean;
  italic?: boolean;
  /** `RRGGBB` hex. */
  color?: string;
  /** `left`, `center`, `right`, `justify`. */
  alignment?: string;
}

export interface SlideFormat {
  title?: TextFormat;
  subtitle?: TextFormat;
  body?: TextFormat;
  textbox?: TextFormat;
}

export interface SlideData {
  title?: string;
  subtitle?: string;
  header?: string;
  footer?: string;
  footnote?: string;
  content?: Column[];
  slide_format?: SlideFormat;
  /**
   * Speaker notes: each line (split on newlines) one paragraph of the slide's notes page.
   * Absent: a copied template slide keeps its own notes; an empty string: no notes.
   */
  notes?: string;
}

/** Generation options; every field optional, defaults as the contract says. */
export interface GenerationOptions {
  /** BCP 47 language of the text (deck default; a slide's options replace it): sets direction and run language. */
  language?: string;
  auto_paginate_tables?: boolean;
  allow_textbox_reposition?: boolean;
  /** Points, 6–72. */
  table_min_font_size?: number;
  /** Points, 6–72. */
  textbox_min_font_size?: number;
  show_slide_numbers?: boolean;
  footer_text?: string;
  /** Points, 6–72. */
  footer_font_size?: number;
  footer_font_name?: string;
}

/** A problem with one requested slide; the others are still produced. */
export interface SlideError {
  slide_index: number;
  template_slide_id: string;
  code: string;
  message: string;
}

/**
 * Something about one requested slide that did not stop it from being generated (text
 * still overflowing at the minimum size, content without a place, ...). `slide_index` is
 * -1 for warnings about the whole deck.
 */
export interface SlideWarning {
  slide_index: number;
  template_slide_id: string;
  /** `text_overflow`, `table_overflow`, `content_not_placed`, `slide_size_mismatch`, ... */
  code: string;
  message: string;
}
