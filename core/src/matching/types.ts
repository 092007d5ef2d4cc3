/**
 * Types of template matching (`POST /templates/match`): the input signature, the candidates
 * (analyzed slides or layouts) and the ranked match items. Match items follow the generated
 * proto type `MatchItem` (proto/gen/ts/slidewright/v1/match_service.ts) field for field.
 */
import type { AnalyzedShape } from '../analysis/types.js';
import type { DoctorEntry, SlideRole } from '../doctor/types.js';

/** The nine count keys of DESIGN.md, in contract order. */
export const COUNT_KEYS = ['title', 'subtitle', 'body', 'footer', 'table', 'chart', 'textbox', 'object', 'custom_field'] as const;

/** One of the nine count keys. */
export type CountKey = (typeof COUNT_KEYS)[number];

/** Counts over the nine keys (the proto `PlaceholderCounts`). */
export type MatchCounts = Record<CountKey, number>;

/** What one column of the input holds. */
export interface ColumnSignature {
  /**
   * The column's main content: `table` if it has a table, else `text` if it has bullets
   * (either takes one content area, counted under `table` / `body`), else `chart` or
   * `image`; `empty` when it has no blocks (a header alone). Charts and images are counted
   * one by one whatever the kind (`charts`, `images`).
   */
  kind: 'text' | 'table' | 'chart' | 'image' | 'empty';
  /** True when the column has a non-empty header (counted as one more `body`). */
  header: boolean;
  /** Bullet paragraphs over its text blocks. */
  bullets: number;
  /**
   * Width of each bullet in em of the reference face (Carlito) at 1 pt: lines needed in a
   * box are estimated from these and the box's font and width.
   */
  bullet_widths_em: number[];
  /** Rows of its largest table (header rows included); 0 when none. */
  table_rows: number;
  /** Columns of its largest table; 0 when none. */
  table_cols: number;
  /** Leading `is_header` rows of that table. */
  table_header_rows: number;
  /** Chart blocks. */
  charts: number;
  /** Image blocks. */
  images: number;
}

/** The parsed input (`input_signature` of the response). */
export interface InputSignature {
  /** What the content asks for over the nine keys. */
  counts: MatchCounts;
  /**
   * True when the slide has a (non-blank) `header`. It is one of the `footer` count, but goes
   * elsewhere: a `hdr` placeholder, else the layout's header band (the doctor's area with
   * role `header`), never the `ftr` placeholder.
   */
  header: boolean;
  /** The role a layout for this content would naturally have. */
  expected_role: SlideRole;
  /** Columns with content or a header. */
  columns: number;
  /** Bullet paragraphs over all columns. */
  bullets: number;
  /** Rows of the largest table; 0 when none. */
  table_rows: number;
  /** Columns of the largest table; 0 when none. */
  table_cols: number;
  /** One entry per column with content or a header, in input order. */
  column_details: ColumnSignature[];
}

/** One analyzed slide or layout to rank. */
export interface MatchCandidate {
  template_id: string;
  /** Slide or layout id (usable as `template_slide_id`). */
  slide_id: string;
  /** `slide_index` for a slide, `layout_index` for a layout. */
  slide_index: number;
  /** The layout name (a slide's layout). */
  layout_name: string;
  /** Its shapes (`results.slides[].shapes` / `results.layouts[].shapes`). */
  shapes: AnalyzedShape[];
  /** The doctor's entry for it (role and capacity); computed from `shapes` when absent. */
  doctor?: DoctorEntry;
  /**
   * Footer-area placeholder types (`ftr`, `hdr`, `dt`, `sldNum`) its layout or master offers
   * beyond its own shapes: generation copies them onto the slide when filled.
   */
  inherited_footer_types?: string[];
  /** Position of its template in the search (ties rank the lower first); by first appearance when absent. */
  template_order?: number;
}

/** One ranked match (the proto `MatchItem`, counts always present). */
export interface MatchItem {
  template_id: string;
  slide_id: string;
  slide_index: number;
  /** In [0, 1], rounded to 4 decimals. */
  score: number;
  /** True exactly when every overflow and unused count is 0. */
  is_exact_match: boolean;
  layout_name: string;
  /** Input elements that found a place, by key. */
  matched_counts: MatchCounts;
  /** Input elements without a place, by key (`matched + overflow = input`). */
  overflow_counts: MatchCounts;
  /** Candidate places left empty, by key (`matched + unused = what the candidate offers`). */
  unused_counts: MatchCounts;
  /** Short reasons for the score. */
  reasons: string[];
}

/** Zero counts. */
export function zeroCounts(): MatchCounts {
  return { title: 0, subtitle: 0, body: 0, footer: 0, table: 0, chart: 0, textbox: 0, object: 0, custom_field: 0 };
}
