/**
 * The template doctor's report (`results.doctor`): what each layout and slide of an analyzed
 * template is for (its role), how much it holds (capacity), which fonts the template names and
 * whether Slidewright can measure them, and which constructs generation cannot fill.
 *
 * JSON names are snake_case like the rest of the analysis results. Lengths are points unless
 * a name says EMU; line and row counts are whole numbers.
 */
import type { QualityReport } from '../quality/types.js';

/**
 * What a layout or slide is for, read from its placeholders (types, idx, geometry) and
 * graphic frames. The layout `type` attribute is only a tie-breaker between `title` and
 * `section` (real files get it wrong: ONLYOFFICE writes `blank` on every layout).
 *
 * - `title`: a centred title (`ctrTitle`) or a title with a subtitle, no content area.
 * - `section`: a title with one small text placeholder (section header), or a title-like
 *   layout that names itself a section (type `secHead`, or "section"/"divider" in its name).
 * - `content`: a title with one content area (`obj`, or a large `body`).
 * - `two-content`: two content areas of similar size.
 * - `comparison`: two content areas, each with a small heading placeholder above it.
 * - `table` / `chart` / `picture`: a table, chart or picture placeholder (or frame) is the
 *   main content.
 * - `title-only`: a title and nothing else to fill.
 * - `blank`: nothing to fill (footer-area placeholders aside).
 * - `other`: anything else (three or more content areas, text without a title, ...).
 */
export type SlideRole =
  | 'title'
  | 'section'
  | 'content'
  | 'two-content'
  | 'comparison'
  | 'table'
  | 'chart'
  | 'picture'
  | 'title-only'
  | 'blank'
  | 'other';

/** Placeholder (and fillable frame) counts of one layout or slide, by kind. */
export interface DoctorPlaceholderCounts {
  /** `title` and `ctrTitle` placeholders. */
  title: number;
  /** `subTitle` placeholders. */
  subtitle: number;
  /** `body` placeholders (text). */
  body: number;
  /** Footer-area placeholders: `dt`, `ftr`, `sldNum`, `hdr`. */
  footer: number;
  /** `tbl` placeholders and table graphic frames. */
  table: number;
  /** `chart` placeholders and chart graphic frames. */
  chart: number;
  /** `pic` placeholders. */
  picture: number;
  /** Text boxes (shapes that are not placeholders and hold text). */
  textbox: number;
  /** `obj` placeholders (generic content: text, table, chart or picture). */
  object: number;
  /** Other placeholder types (`dgm`, `media`, `clipArt`, `sldImg`) and text boxes with a `{{field}}` marker. */
  custom: number;
}

/** What kind of content an area naturally takes. */
export type ContentAreaKind = 'text' | 'content' | 'table' | 'chart' | 'picture' | 'object';

/**
 * One fillable content area (a body/obj/tbl/chart/pic placeholder or an existing table or
 * chart frame) with its measured capacity.
 */
export interface DoctorContentArea {
  /** `p:cNvPr/@id` of the shape. */
  shape_id: number;
  name: string;
  /** Placeholder type and idx; null for a table or chart frame that is not a placeholder. */
  placeholder: { type: string; idx: number } | null;
  kind: ContentAreaKind;
  /** Box in EMU (resolved geometry); 0 when unknown. */
  x: number;
  y: number;
  cx: number;
  cy: number;
  /** True for vertical text (`orient="vert"` or a vertical `bodyPr`). */
  vertical: boolean;
  /** Effective latin typeface of the area's text (theme minor font when it holds none). */
  font_name: string;
  /** The template's text size in the area, pt. */
  font_size_pt: number;
  /** Line width left for level-0 text (box width minus insets and margin), pt. */
  text_width_pt: number;
  /** One-line bullet paragraphs that fit at the template's size (text-capable areas; 0 otherwise). */
  lines_at_template_size: number;
  /** One-line bullet paragraphs that fit at the minimum size (8 pt). */
  lines_at_min_size: number;
  /** Table text size used for rows, pt (18 unless the area is an existing table with known text size). */
  table_font_size_pt: number;
  /** Table rows (one line each, default cell margins) that fit at the table text size (table-capable areas; 0 otherwise). */
  table_rows_at_template_size: number;
  /** Table rows that fit at 8 pt. */
  table_rows_at_min_size: number;
  /**
   * Present only on the layout's (or slide's) header-like placeholder: `header`, a short
   * text band spanning the slide above the content (above the title or between title and
   * content) that generation fills with `slide_data.header` when the slide has no `hdr`
   * placeholder (rule: `headerLikePlaceholder` in ./header.ts). At most one area per entry.
   */
  role?: 'header';
  /** Why the area has its `role`, e.g. "1-line body band between title and content, 90% of the slide width"; present with `role`. */
  role_reason?: string;
}

/** Capacity of one layout or slide. */
export interface DoctorCapacity {
  /** The main body area: the largest text-capable `obj`/`body` placeholder; null when there is none. */
  main_body_shape_id: number | null;
  /** Bullet lines the main body holds at the template's size. */
  body_lines_at_template_size: number;
  /** Bullet lines the main body holds at 8 pt. */
  body_lines_at_min_size: number;
  /** The main body's text size, pt (0 when there is no body). */
  body_font_size_pt: number;
  /** The main table area: the largest `tbl`/`obj` placeholder or table frame (a large `body` when there is neither); null when none. */
  main_table_shape_id: number | null;
  /** Table rows the main table area holds at the template's table text size. */
  table_rows_at_template_size: number;
  /** Table rows it holds at 8 pt. */
  table_rows_at_min_size: number;
  /** Placeholder counts by kind. */
  placeholders: DoctorPlaceholderCounts;
  /** Every content area, in document order. */
  areas: DoctorContentArea[];
}

/** A construct generation cannot fill (it is kept as it is). */
export interface UnfillableConstruct {
  /** `smartart` (dgm diagram), `ole` (embedded or linked object), `video`, `audio`, `chartex` (Office 2016 chart types). */
  kind: 'smartart' | 'ole' | 'video' | 'audio' | 'chartex';
  shape_id: number;
  /** Shape name, e.g. "Diagram 3". */
  name: string;
  /** Short description, e.g. "OLE object Excel.Sheet.12" or "chartEx waterfall". */
  detail: string;
}

/** The doctor's view of one layout or slide. */
export interface DoctorEntry {
  /** Layout or slide id (as in `results.layouts[]` / `results.slides[]`). */
  slide_id: string;
  /** `layout_index` or `slide_index`. */
  index: number;
  /** Layout name (for a slide, the name of its layout). */
  name: string;
  role: SlideRole;
  /** Short reasons for the role, e.g. "ctrTitle + subTitle". */
  role_reasons: string[];
  capacity: DoctorCapacity;
  /** Constructs on it that generation cannot fill. */
  unfillable: UnfillableConstruct[];
}

/** How Slidewright measures a font (from `core/src/text`). */
export type FontMetricsSupport = 'exact' | 'nearest' | 'fallback';

/** A font the template names. */
export interface TemplateFont {
  /** Typeface name as the template writes it. */
  name: string;
  /** Where it is named: `theme_major`, `theme_minor` (any master's theme) and/or `shapes` (an explicit latin typeface, theme references resolved). */
  sources: Array<'theme_major' | 'theme_minor' | 'shapes'>;
  /** Text shapes (layouts, slides, and masters when listed) whose effective font it is. */
  shape_count: number;
  /**
   * `exact`: metric-compatible open twin (e.g. Calibri → Carlito); `nearest`: a known font
   * mapped to the nearest metric class (e.g. Georgia → DejaVu Serif); `fallback`: unknown,
   * measured with a generic face by keyword (text fitting is approximate).
   */
  metrics: FontMetricsSupport;
  /** The shipped family measured with, e.g. "Carlito". */
  metrics_family: string;
  /** True for `exact` and `nearest`. */
  has_metrics: boolean;
}

/** How a picture past the pixel limits is shown: by a picture shape, as a slide background, in a table cell, as another shape's fill, in a theme's fill styles, otherwise, or by nothing (a relationship no element uses). */
export type OversizedPictureUsage = 'picture' | 'background' | 'table_cell' | 'shape_fill' | 'theme_fill' | 'other' | 'unreferenced';

/**
 * A picture of the template whose header says it is past the pixel limits (a
 * decompression bomb, or an oversized photograph), at one place that shows it. Generated
 * decks never get it as it is: `downsampled` (decoding it takes at most 100 megapixels)
 * or `replaced` by a plain grey picture of its aspect; the generation warns `image_too_large`.
 */
export interface OversizedPictureFinding {
  /** The picture's part, e.g. `/ppt/media/image1.png`. */
  image_part_name: string;
  /** `png`, `jpeg`, `gif`, `bmp`, `webp` or `tiff`, from the header. */
  format: string;
  /** Pixels, from the header. */
  width_px: number;
  height_px: number;
  /** width × height. */
  pixels: number;
  /** Largest picture delivered, pixels (50000000). */
  limit_pixels: number;
  /** Largest side delivered, pixels (32767). */
  limit_side_px: number;
  /** What generated decks get instead. */
  generation: 'downsampled' | 'replaced';
  /** The part that shows it (slide, layout, master, theme, chart, ...). */
  part_name: string;
  part_kind: 'slide' | 'layout' | 'master' | 'theme' | 'chart' | 'other';
  /** The slide or layout id (`sld_`, `lay_`) when `part_name` is one; null otherwise. */
  slide_id: string | null;
  /** `p:cNvPr/@id` and `@name` of the shape that shows it; null for backgrounds, theme fills and unreferenced pictures. */
  shape_id: number | null;
  shape_name: string | null;
  usage: OversizedPictureUsage;
}

/**
 * A repair made to the template as it was read (one per `results.repairs[]` entry, same
 * order): what PowerPoint would have repaired when opening the file, and where.
 */
export interface DoctorRepairFinding {
  /** The part repaired (for a relationship, its source part; `/` is the package). */
  part_name: string;
  part_kind: 'slide' | 'layout' | 'master' | 'other';
  /** The slide or layout id (`sld_`, `lay_`) when the part is one; null otherwise. */
  slide_id: string | null;
  /** `slide_index`, `layout_index` or `master_index` of the part; null for other parts. */
  index: number | null;
  /** The element repaired (`a:blip`, `p:graphicFrame`, `p:cNvPr`, …), `Relationship` or `part`. */
  element: string;
  /** `reference_removed`, `shape_removed`, `relationship_dropped`, `content_type_added`, `part_dropped` or `shape_id_renumbered`. */
  action: string;
  /** What was found and done, in words. */
  detail: string;
}

/** The template doctor's report, attached to the analysis results as `results.doctor`. */
export interface TemplateDoctorReport {
  /** Report format version (1). */
  version: 1;
  /** The minimum text size capacities are also given at, pt (8). */
  min_font_size_pt: number;
  /** One entry per `results.layouts[]`, same order. */
  layouts: DoctorEntry[];
  /** One entry per `results.slides[]`, same order. */
  slides: DoctorEntry[];
  /** Fonts the template names, theme fonts first, then by name. */
  fonts: TemplateFont[];
  /** Names of fonts without metrics (`has_metrics` false). */
  fonts_without_metrics: string[];
  /** Number of unfillable constructs over all layouts and slides. */
  unfillable_count: number;
  /** Pictures past the pixel limits, one per place that shows one (empty when the report is made without the package). */
  oversized_pictures: OversizedPictureFinding[];
  /** Repairs made to the template as it was read (`results.repairs`), with the slide or layout each touched; empty for a sound template. */
  repairs: DoctorRepairFinding[];
  /**
   * The accessibility and brand checks of the quality report (core/src/quality) over the
   * template's slides (`slide_index` 0-based in the template; brand against the theme
   * alone); absent when the report is made without the package.
   */
  quality?: QualityReport;
}
