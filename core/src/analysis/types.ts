/**
 * The analysis `results` structure (shared DESIGN.md, "Analysis results"): what clients read
 * back from `GET /templates/{id}/analysis`. JSON names are snake_case. Lengths are EMU
 * (914400 per inch, 12700 per point), font sizes points, angles degrees, colours `RRGGBB`.
 *
 * Fields beyond DESIGN.md's list (`part_name`, `flip_h`, `graphic`, ...) are additions that
 * clients may ignore.
 */
import type { RepairAction } from '../ooxml/repair.js';

export type { RepairAction } from '../ooxml/repair.js';

/** Analysis options (the `options` object of `POST /templates/{id}/analysis`). */
export interface AnalysisOptions {
  /** List master shapes (`masters[].shapes`). Default false; masters themselves are always listed. */
  parse_master_template_layout?: boolean;
  /** Analyze slides (`slides[]`); when false `slides` is empty but `presentation.slide_count` still counts them. Default true. */
  parse_slides?: boolean;
  /** Resolve placeholder geometry; when false placeholder shapes carry null x/y/cx/cy. Default true. */
  include_placeholder_positions?: boolean;
  /** Report placeholder text; when false placeholder shapes carry '' text and no paragraphs. Default true. */
  include_placeholder_content?: boolean;
  /** List shapes that are not placeholders (text boxes, pictures, drawings, ...). Default true. */
  include_custom_shapes?: boolean;
  /** Read tables (`shape.table`); when false it is null. Default true. */
  include_table_details?: boolean;
}

/** Options with every default applied. */
export type ResolvedAnalysisOptions = Required<AnalysisOptions>;

/** Theme fonts (`a:fontScheme`, ECMA-376 Part 1, §20.1.4.1.18): latin typefaces. */
export interface ThemeFonts {
  /** Major (headings) latin typeface, e.g. "Calibri Light"; '' when the theme names none. */
  major: string;
  /** Minor (body) latin typeface, e.g. "Calibri". */
  minor: string;
  /** East Asian typefaces, '' when empty. */
  major_east_asian: string;
  minor_east_asian: string;
}

/** Theme colour scheme (§20.1.6.2) as `RRGGBB`, keyed by slot name (`dk1`, `lt1`, `accent1`, ...). */
export type ThemeColors = Record<string, string>;

/** `results.presentation`. */
export interface AnalyzedPresentation {
  /** `p:sldSz/@cx` in EMU (9144000 when absent). */
  slide_width_emu: number;
  /** `p:sldSz/@cy` in EMU (6858000 when absent). */
  slide_height_emu: number;
  /** Slides in the file (counted even when `parse_slides` is false). */
  slide_count: number;
  layout_count: number;
  master_count: number;
  /** Fonts of the first master's theme. */
  theme_fonts: ThemeFonts;
  /** Colours of the first master's theme. */
  theme_colors: ThemeColors;
  /** Name of the first master's theme. */
  theme_name: string;
  /** True for a template package (`.potx`). */
  is_template: boolean;
  /** Slides with `show="0"`. */
  hidden_slide_count: number;
}

/** A placeholder reference (`p:ph`, §19.3.1.36). */
export interface AnalyzedPlaceholder {
  /** ST_PlaceholderType (§19.7.10); `obj` when the file gives none. */
  type: string;
  /** `idx`; 0 when the file gives none. */
  idx: number;
  /** `orient`: `horz` or `vert`. */
  orient: string;
  /** `sz`: `full`, `half` or `quarter`. */
  size: string;
  /** The placeholder it inherits from was found on the layout (or master, for a layout placeholder). */
  inherited_from: 'layout' | 'master' | null;
}

/** Effective character properties of a shape's text (resolved through the whole inheritance chain). */
export interface AnalyzedFont {
  /** Latin typeface, theme references resolved; null when nothing names one. */
  name: string | null;
  /** East Asian typeface; null when unset. */
  east_asian_name: string | null;
  /** Complex-script typeface; null when unset. */
  complex_script_name: string | null;
  /** Points (`sz` / 100); 18 when unset anywhere. */
  size_pt: number;
  bold: boolean;
  italic: boolean;
  /** `RRGGBB`; null when it cannot be resolved, or when the text has no fill (`a:noFill`, ECMA-376 Part 1 §20.1.8.44). */
  color: string | null;
}

/** Text frame (`a:bodyPr`) of a text shape, resolved through the placeholder chain. */
export interface AnalyzedTextFrame {
  /** Insets in EMU. */
  inset_left: number;
  inset_top: number;
  inset_right: number;
  inset_bottom: number;
  /** `t`, `ctr`, `b`, `just`, `dist`. */
  anchor: string;
  wrap: boolean;
  /** `none`, `normal` (shrink text on overflow) or `shape` (resize the shape to fit). */
  autofit: 'none' | 'normal' | 'shape';
  /** The shrink already applied by PowerPoint (`normAutofit/@fontScale`), 1 = none. */
  font_scale: number;
  /** `horz`, `vert`, `vert270`, `eaVert`, ... */
  vertical: string;
  columns: number;
}

/** Paragraph format of a text shape's first paragraph, resolved through the inheritance chain. */
export interface AnalyzedParagraphFormat {
  /** `l`, `ctr`, `r`, `just`, `dist`. */
  alignment: string;
  rtl: boolean;
  /** Multiple of single line spacing (0.9 = 90 %); null when spacing is fixed in points. */
  line_spacing: number | null;
  /** Fixed line spacing in points; null when it is a multiple. */
  line_spacing_pt: number | null;
  space_before_pt: number;
  space_after_pt: number;
  /** EMU. */
  margin_left: number;
  /** First-line indent, EMU (negative for a hanging bullet). */
  indent: number;
  bullet: boolean;
}

/** One paragraph of a shape's text. */
export interface AnalyzedParagraph {
  /** `a:pPr/@lvl`, 0–8. */
  level: number;
  /** Runs and fields; a line break is `\v`. */
  text: string;
}

/** A table (§21.1.3.13). */
export interface AnalyzedTable {
  rows: number;
  cols: number;
  /** Text of each cell, row by row (cells covered by a merge are ''). */
  cells: string[][];
  /** 1 when the table styles its first row as a header (`a:tblPr/@firstRow`), else 0. */
  header_rows: number;
  /** Merge origins (cells with gridSpan or rowSpan > 1). */
  merged_cells: number;
}

/** A chart (§21.2.2). */
export interface AnalyzedChart {
  /** `column`, `bar`, `line`, `pie`, `doughnut`, `area`, `scatter`, `bubble`, `radar`, `stock`, `surface`, or the plot element's name. */
  chart_type: string;
  series_count: number;
  category_count: number;
  /** Plot element names of `c:plotArea` (more than one for a combo chart). */
  plot_types: string[];
  /** The chart part, e.g. `/ppt/charts/chart1.xml`. */
  part_name: string;
}

/** One shape of a shape tree. */
export interface AnalyzedShape {
  /** `p:cNvPr/@id`. */
  shape_id: number;
  /** `p:cNvPr/@name`. */
  name: string;
  kind: 'sp' | 'pic' | 'graphicFrame' | 'grpSp' | 'cxnSp' | 'contentPart';
  placeholder: AnalyzedPlaceholder | null;
  /**
   * Left edge on the slide, EMU, resolved through layout and master (and through enclosing
   * groups); null when unknown or not requested. x, y, cx, cy describe the unrotated box;
   * `rotation` turns it about its centre.
   */
  x: number | null;
  /** Top edge, EMU. */
  y: number | null;
  /** Width, EMU. */
  cx: number | null;
  /** Height, EMU. */
  cy: number | null;
  /** Clockwise rotation in degrees (`rot` / 60000). */
  rotation: number;
  flip_h: boolean;
  flip_v: boolean;
  /** `p:cNvPr/@hidden`. */
  hidden: boolean;
  /** Paragraph texts joined by `\n`. */
  text: string;
  paragraphs: AnalyzedParagraph[];
  /** Effective font of the text (first run with text); null for shapes that hold no text. */
  font: AnalyzedFont | null;
  /** Text frame of a text shape; null for shapes that hold no text. */
  text_frame: AnalyzedTextFrame | null;
  /** Paragraph format of the first paragraph with text; null for shapes that hold no text. */
  paragraph_format: AnalyzedParagraphFormat | null;
  /** For graphic frames: `table`, `chart`, `chartex`, `diagram`, `ole`, `other`; null otherwise. */
  graphic: string | null;
  table: AnalyzedTable | null;
  chart: AnalyzedChart | null;
  /** For pictures: `image`, `video` or `audio` (a media poster frame); null otherwise. */
  media: 'image' | 'video' | 'audio' | null;
  /** For pictures: the image part shown, e.g. `/ppt/media/image1.png`; null when linked or absent. */
  image_part_name: string | null;
  /** For OLE objects: `p:oleObj/@progId`, e.g. `Excel.Sheet.12`; null otherwise. */
  ole_prog_id: string | null;
  /** Preset geometry name (`rect`, `ellipse`, ...), `custom` for `a:custGeom`, null when none. */
  geometry: string | null;
  /** Group members in document order (empty unless `kind` is `grpSp`). */
  children: AnalyzedShape[];
}

/** `results.masters[]`. */
export interface AnalyzedMaster {
  /** 0-based, in `p:sldMasterIdLst` order. */
  master_index: number;
  /** `p:cSld/@name`, else the theme name. */
  name: string;
  theme_name: string;
  /** Ids of its layouts, in `p:sldLayoutIdLst` order. */
  layout_ids: string[];
  part_name: string;
  theme_fonts: ThemeFonts;
  theme_colors: ThemeColors;
  /** Only with `parse_master_template_layout`. */
  shapes?: AnalyzedShape[];
}

/** `results.layouts[]`. */
export interface AnalyzedLayout {
  slide_id: string;
  /** 0-based over all layouts, master by master. */
  layout_index: number;
  /** `p:cSld/@name`. */
  name: string;
  /** ST_SlideLayoutType (§19.7.15), `cust` when absent. */
  type: string;
  master_index: number;
  shapes: AnalyzedShape[];
  part_name: string;
  master_part_name: string;
}

/** `results.slides[]`. */
export interface AnalyzedSlide {
  slide_id: string;
  /** 0-based position in `p:sldIdLst`. */
  slide_index: number;
  /** 1-based, for display. */
  slide_number: number;
  /** Text of the title (or centred title) placeholder; '' when none. */
  title: string;
  layout_slide_id: string;
  layout_name: string;
  /** `p:sld/@show="0"`. */
  hidden: boolean;
  /** Name of the slide's section (`p14:sectionLst`); null when the deck has none or the slide is in none. */
  section: string | null;
  shapes: AnalyzedShape[];
  part_name: string;
  layout_part_name: string;
}

/**
 * One repair made to the template as it was read (`results.repairs[]`): a fault PowerPoint
 * repairs when it opens the file (a dangling relationship id, a relationship to a missing
 * part, a part without a content type, a shape id used twice), made the way PowerPoint's
 * repaired file ends up. Previews and generated decks use the repaired template. See
 * `core/src/ooxml/repair.ts` for the rules.
 */
export interface AnalyzedRepair {
  /** The part repaired, e.g. `/ppt/slides/slide1.xml` (for a relationship, its source part; `/` is the package). */
  part: string;
  /** The element repaired (`a:blip`, `a:hlinkClick`, `p:graphicFrame`, `p:cNvPr`, …), `Relationship`, or `part`. */
  element: string;
  /** What was done. */
  action: RepairAction;
  /** The ids, names and targets involved, in words. */
  detail: string;
}

/** The `results` object of an analysis. */
export interface AnalysisResults {
  presentation: AnalyzedPresentation;
  masters: AnalyzedMaster[];
  layouts: AnalyzedLayout[];
  slides: AnalyzedSlide[];
  /** Repairs made to the template as it was read, in the order made; empty for a sound template. */
  repairs: AnalyzedRepair[];
}
