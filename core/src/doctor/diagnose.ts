/**
 * The template doctor: a pure pass over the analysis results that says what each layout
 * and slide is for (role), how much it holds (capacity, measured with `core/src/text`),
 * which fonts the template names and whether Slidewright has metrics for them, and which
 * constructs generation cannot fill. See ./types.ts for the report.
 */
import type { AnalysisResults, AnalyzedLayout, AnalyzedShape } from '../analysis/types.js';
import { NEAREST_CLASS, resolveFace } from '../text/font-metrics.js';
import { DEFAULT_TABLE_FONT_PT, MIN_FONT_SIZE_PT, newTextCapacity, tableRowCapacity, textCapacity, type NewTextCapacity } from './capacity.js';
import type { Shape } from '../ooxml/pml/shapes.js';
import type { OpcPackage } from '../ooxml/opc/package.js';
import { headerLikePlaceholder, headerRuleShapeOfAnalyzed } from './header.js';
import { oversizedPictures } from './pictures.js';
import { repairFindings } from './repairs.js';
import type { PmlModel, SlidePart } from '../ooxml/pml/parts.js';
import { openedTemplates } from '../ooxml/pml/opened-templates.js';
import { checkAccessibility } from '../quality/accessibility.js';
import { checkBrand } from '../quality/brand.js';
import { summarize, type QualityReport } from '../quality/types.js';
import type {
  ContentAreaKind,
  DoctorCapacity,
  DoctorContentArea,
  DoctorEntry,
  DoctorPlaceholderCounts,
  FontMetricsSupport,
  SlideRole,
  TemplateDoctorReport,
  TemplateFont,
  UnfillableConstruct,
} from './types.js';

/** Placeholder types of the footer area (ECMA-376 §19.7.10): date, footer, slide number, header. */
export const FOOTER_AREA_TYPES: ReadonlySet<string> = new Set(['dt', 'ftr', 'sldNum', 'hdr']);

/** Placeholder types counted as `custom`. */
const CUSTOM_PLACEHOLDER_TYPES: ReadonlySet<string> = new Set(['dgm', 'media', 'clipArt', 'sldImg']);

/** A `{{name}}` marker in a text box. */
export const CUSTOM_FIELD_MARKER = /\{\{[^{}]+\}\}/;

/** Slide geometry the role rules need, EMU. */
interface SlideBox {
  width: number;
  height: number;
}

/** Zero counts. */
export function emptyDoctorCounts(): DoctorPlaceholderCounts {
  return { title: 0, subtitle: 0, body: 0, footer: 0, table: 0, chart: 0, picture: 0, textbox: 0, object: 0, custom: 0 };
}

/** Top-level shapes that take part in filling (hidden shapes do not). */
function visible(shapes: readonly AnalyzedShape[]): AnalyzedShape[] {
  return shapes.filter((s) => !s.hidden);
}

/** The kind of content area a shape is, or undefined when it is not one. */
export function areaKindOf(s: AnalyzedShape): ContentAreaKind | undefined {
  const t = s.placeholder?.type;
  if (t !== undefined) {
    if (s.kind === 'graphicFrame') {
      if (s.graphic === 'table') return 'table';
      if (s.graphic === 'chart') return 'chart';
      return undefined;
    }
    if (s.kind === 'pic') return t === 'pic' || t === 'obj' ? 'picture' : undefined;
    if (s.kind !== 'sp') return undefined;
    switch (t) {
      case 'body':
        return 'text';
      case 'obj':
        return 'content';
      case 'tbl':
        return 'table';
      case 'chart':
        return 'chart';
      case 'pic':
        return 'picture';
      default:
        return CUSTOM_PLACEHOLDER_TYPES.has(t) ? 'object' : undefined;
    }
  }
  if (s.kind === 'graphicFrame' && s.graphic === 'table') return 'table';
  if (s.kind === 'graphicFrame' && s.graphic === 'chart') return 'chart';
  return undefined;
}

/** Counts of one shape list (top level, visible shapes). */
export function countPlaceholders(shapes: readonly AnalyzedShape[]): DoctorPlaceholderCounts {
  const c = emptyDoctorCounts();
  for (const s of visible(shapes)) {
    const t = s.placeholder?.type;
    if (t !== undefined) {
      if (t === 'title' || t === 'ctrTitle') c.title++;
      else if (t === 'subTitle') c.subtitle++;
      else if (FOOTER_AREA_TYPES.has(t)) c.footer++;
      else {
        const k = areaKindOf(s);
        if (k === 'text') c.body++;
        else if (k === 'content') c.object++;
        else if (k === 'table') c.table++;
        else if (k === 'chart') c.chart++;
        else if (k === 'picture') c.picture++;
        else c.custom++;
      }
      continue;
    }
    const k = areaKindOf(s);
    if (k === 'table') c.table++;
    else if (k === 'chart') c.chart++;
    else if (s.kind === 'sp' && s.text.trim() !== '') {
      if (CUSTOM_FIELD_MARKER.test(s.text)) c.custom++;
      else c.textbox++;
    }
  }
  return c;
}

/**
 * Measures the text a slide would put in a layout placeholder as fitting measures it
 * ({@link newTextCapacity}); undefined where it cannot (not a placeholder, unknown shape):
 * the area is then measured from the analysis's facts.
 */
type NewTextMeasure = (s: AnalyzedShape) => NewTextCapacity | undefined;

/** A {@link NewTextMeasure} for the placeholders of one layout part, or undefined when the part cannot be read. */
function newTextMeasure(model: PmlModel, layoutPartName: string): NewTextMeasure | undefined {
  let shapes: Map<number, Shape>;
  try {
    shapes = new Map();
    for (const top of model.layout(layoutPartName).shapes) for (const s of top.walk()) if (s.placeholder && !shapes.has(s.id)) shapes.set(s.id, s);
  } catch {
    return undefined;
  }
  return (a) => {
    const shape = a.placeholder ? shapes.get(a.shape_id) : undefined;
    return shape && a.cx && a.cy ? newTextCapacity(shape, a.cx, a.cy) : undefined;
  };
}

/** Measures one content area. */
function measureArea(s: AnalyzedShape, kind: ContentAreaKind, themeMinor: string, measure?: NewTextMeasure): DoctorContentArea {
  const cx = s.cx ?? 0;
  const cy = s.cy ?? 0;
  const fontName = s.font?.name ?? (themeMinor || 'Calibri');
  const textCapableSp = s.kind === 'sp' && (kind === 'text' || kind === 'content' || kind === 'table');
  const measured = textCapableSp && cx > 0 && cy > 0 ? measure?.(s) : undefined;
  const sizePt = measured?.sizePt ?? s.font?.size_pt ?? 18;
  const vertical = s.placeholder?.orient === 'vert' || (!!s.text_frame && s.text_frame.vertical !== 'horz' && s.text_frame.vertical !== '');
  const textCapable = s.kind === 'sp' && (kind === 'text' || kind === 'content' || kind === 'table');
  const tableCapable = kind === 'table' || kind === 'content' || (kind === 'text' && s.kind === 'sp');
  let linesT = 0;
  let lines8 = 0;
  let width = 0;
  if (textCapable && cx > 0 && cy > 0) {
    const area = { cx, cy, frame: s.text_frame, paragraph: s.paragraph_format, font: { name: fontName, size_pt: sizePt, bold: s.font?.bold ?? false, italic: s.font?.italic ?? false } };
    const atT = textCapacity(area, sizePt);
    const at8 = textCapacity(area, Math.min(MIN_FONT_SIZE_PT, sizePt));
    linesT = measured?.lines ?? atT.lines;
    lines8 = measured ? measured.linesAtMin : Math.max(at8.lines, atT.lines);
    width = atT.width_pt;
  }
  const tableFont = themeMinor || fontName;
  const rowsT = tableCapable ? tableRowCapacity(cy, tableFont, DEFAULT_TABLE_FONT_PT) : 0;
  const rows8 = tableCapable ? tableRowCapacity(cy, tableFont, MIN_FONT_SIZE_PT) : 0;
  return {
    shape_id: s.shape_id,
    name: s.name,
    placeholder: s.placeholder ? { type: s.placeholder.type, idx: s.placeholder.idx } : null,
    kind,
    x: s.x ?? 0,
    y: s.y ?? 0,
    cx,
    cy,
    vertical,
    font_name: fontName,
    font_size_pt: sizePt,
    text_width_pt: width,
    lines_at_template_size: linesT,
    lines_at_min_size: lines8,
    table_font_size_pt: DEFAULT_TABLE_FONT_PT,
    table_rows_at_template_size: rowsT,
    table_rows_at_min_size: rows8,
  };
}

/** Content areas of a shape list, in document order, measured. */
export function contentAreas(shapes: readonly AnalyzedShape[], themeMinor: string, measure?: NewTextMeasure): DoctorContentArea[] {
  const out: DoctorContentArea[] = [];
  for (const s of visible(shapes)) {
    const k = areaKindOf(s);
    if (k) out.push(measureArea(s, k, themeMinor, measure));
  }
  return out;
}

function largest<T extends { cx: number; cy: number }>(xs: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const x of xs) if (!best || x.cx * x.cy > best.cx * best.cy) best = x;
  return best;
}

/**
 * Marks the header-like placeholder among `areas` (role `header`, see ./header.ts) in place.
 * @param shapes - the top-level shapes the areas were measured from
 * @param slide - slide size, EMU
 */
function markHeader(areas: DoctorContentArea[], shapes: readonly AnalyzedShape[], slide: SlideBox): void {
  const found = headerLikePlaceholder(shapes.flatMap((s) => headerRuleShapeOfAnalyzed(s) ?? []), { cx: slide.width, cy: slide.height });
  const area = found && areas.find((a) => a.shape_id === found.shape.source.shape_id && a.placeholder !== null);
  if (area) {
    area.role = 'header';
    area.role_reason = found.reason;
  }
}

/** Capacity of a shape list; with `slide` given, the header-like placeholder's area gets role `header`. */
export function capacityOf(shapes: readonly AnalyzedShape[], themeMinor: string, measure?: NewTextMeasure, slide?: SlideBox): DoctorCapacity {
  const areas = contentAreas(shapes, themeMinor, measure);
  if (slide) markHeader(areas, shapes, slide);
  const textAreas = areas.filter((a) => (a.kind === 'content' || a.kind === 'text') && a.lines_at_template_size + a.lines_at_min_size > 0);
  // The main body: the largest horizontal obj/body; a vertical one only when there is nothing else.
  const body = largest(textAreas.filter((a) => !a.vertical)) ?? largest(textAreas);
  const tableAreas = areas.filter((a) => a.kind === 'table' || a.kind === 'content');
  const table = largest(tableAreas) ?? largest(areas.filter((a) => a.kind === 'text' && a.table_rows_at_template_size > 0));
  return {
    main_body_shape_id: body?.shape_id ?? null,
    body_lines_at_template_size: body?.lines_at_template_size ?? 0,
    body_lines_at_min_size: body?.lines_at_min_size ?? 0,
    body_font_size_pt: body?.font_size_pt ?? 0,
    main_table_shape_id: table?.shape_id ?? null,
    table_rows_at_template_size: table?.table_rows_at_template_size ?? 0,
    table_rows_at_min_size: table?.table_rows_at_min_size ?? 0,
    placeholders: countPlaceholders(shapes),
    areas,
  };
}

/** Layout `type` attributes (ST_SlideLayoutType) that say "section header" or "title slide". */
const TYPE_HINT: Readonly<Record<string, SlideRole>> = { secHead: 'section', title: 'title' };

/**
 * The role of a layout or slide from its placeholders and frames (see {@link SlideRole}).
 *
 * @param shapes - its top-level shapes
 * @param slide - slide size, EMU
 * @param layoutType - the layout's `type` attribute (only used between `title` and `section`)
 * @param name - the layout name (same use: "Section", "Divider")
 */
export function inferRole(shapes: readonly AnalyzedShape[], slide: SlideBox, layoutType: string, name: string, isLayout = true): { role: SlideRole; reasons: string[] } {
  const vis = visible(shapes);
  const phs = vis.filter((s) => s.placeholder && !FOOTER_AREA_TYPES.has(s.placeholder.type));
  const titles = phs.filter((s) => s.placeholder!.type === 'title' || s.placeholder!.type === 'ctrTitle');
  const ctr = phs.some((s) => s.placeholder!.type === 'ctrTitle');
  const subs = phs.filter((s) => s.placeholder!.type === 'subTitle');
  const kinds = vis.map((s) => ({ s, k: areaKindOf(s) }));
  const tables = kinds.filter((x) => x.k === 'table');
  const charts = kinds.filter((x) => x.k === 'chart');
  const pics = kinds.filter((x) => x.k === 'picture');
  const others = kinds.filter((x) => x.k === 'object');
  const textual = kinds.filter((x) => x.k === 'text' || x.k === 'content').map((x) => x.s);
  const h = slide.height || 6858000;
  const big = (s: AnalyzedShape): boolean => (s.cy ?? 0) >= 0.2 * h;
  const contentAreas = textual.filter((s) => s.placeholder?.type === 'obj' || big(s));
  const small = textual.filter((s) => !contentAreas.includes(s));
  const title = titles[0];
  const hint = TYPE_HINT[layoutType] ?? (/section|divider|chapter|abschnitt/i.test(name) ? 'section' : undefined);
  const titleOrSection = (base: SlideRole, why: string): { role: SlideRole; reasons: string[] } =>
    hint && hint !== base ? { role: hint, reasons: [why, `layout ${TYPE_HINT[layoutType] ? `type "${layoutType}"` : `name "${name}"`} says ${hint}`] } : { role: base, reasons: [why] };

  if (phs.length === 0 && tables.length === 0 && charts.length === 0) {
    // A layout's own shapes are decoration; a slide's are content that stays.
    const fixed = vis.some((s) => !s.placeholder && ((s.kind === 'sp' && s.text.trim() !== '') || s.kind === 'pic' || s.kind === 'graphicFrame' || s.kind === 'grpSp'));
    return !isLayout && fixed ? { role: 'other', reasons: ['no placeholders; fixed shapes only'] } : { role: 'blank', reasons: ['nothing to fill'] };
  }
  if (tables.length > 0 && contentAreas.length <= 1) return { role: 'table', reasons: [`${tables.length} table area${tables.length > 1 ? 's' : ''}`] };
  if (charts.length > 0 && contentAreas.length <= 1) return { role: 'chart', reasons: [`${charts.length} chart area${charts.length > 1 ? 's' : ''}`] };
  if (pics.length > 0 && contentAreas.length === 0) return { role: 'picture', reasons: [`${pics.length} picture placeholder${pics.length > 1 ? 's' : ''}`] };
  if (title && (ctr || subs.length > 0) && contentAreas.length === 0) {
    return titleOrSection('title', ctr ? (subs.length ? 'ctrTitle + subTitle' : 'ctrTitle') : 'title + subTitle');
  }
  // Section header: a title and one text placeholder (type body) covering under a quarter of the slide.
  if (title && textual.length === 1 && textual[0]!.placeholder?.type === 'body' && subs.length === 0 && pics.length === 0 && others.length === 0) {
    const b = textual[0]!;
    if ((b.cx ?? 0) * (b.cy ?? 0) < 0.25 * (slide.width || 9144000) * h) {
      return titleOrSection('section', 'title + one small text placeholder');
    }
  }
  if (contentAreas.length === 2) {
    const [a, b] = contentAreas as [AnalyzedShape, AnalyzedShape];
    const headersAbove = contentAreas.filter((area) =>
      small.some((hd) => {
        const hx = hd.x ?? 0, hw = hd.cx ?? 0, ax = area.x ?? 0, aw = area.cx ?? 0;
        const overlap = Math.min(hx + hw, ax + aw) - Math.max(hx, ax);
        const bottom = (hd.y ?? 0) + (hd.cy ?? 0);
        return overlap > 0.5 * Math.min(hw, aw) && bottom <= (area.y ?? 0) + 0.05 * h && bottom >= (area.y ?? 0) - 0.15 * h;
      }),
    );
    if (headersAbove.length === 2) return { role: 'comparison', reasons: ['two content areas, each with a heading above'] };
    const areaA = (a.cx ?? 0) * (a.cy ?? 0);
    const areaB = (b.cx ?? 0) * (b.cy ?? 0);
    const ratio = Math.min(areaA, areaB) / Math.max(areaA, areaB, 1);
    if (ratio >= 0.6) return { role: 'two-content', reasons: ['two content areas of similar size'] };
    return { role: 'content', reasons: ['one main content area with a caption'] };
  }
  if (contentAreas.length > 2) return { role: 'other', reasons: [`${contentAreas.length} content areas`] };
  if (contentAreas.length === 1) {
    if (pics.length > 0) return { role: 'picture', reasons: ['picture placeholder with text'] };
    return { role: 'content', reasons: [title ? 'title + one content area' : 'one content area'] };
  }
  if (pics.length > 0) return { role: 'picture', reasons: ['picture placeholder'] };
  if (title && small.length === 1 && others.length === 0) {
    return titleOrSection('section', 'title + one small text placeholder');
  }
  if (title && small.length === 0 && subs.length === 0 && others.length === 0) return { role: 'title-only', reasons: ['title only'] };
  return { role: 'other', reasons: [title ? 'title with several small text placeholders' : 'text placeholders without a title'] };
}

/** Unfillable constructs among the shapes (at any depth). */
export function unfillableOf(shapes: readonly AnalyzedShape[]): UnfillableConstruct[] {
  const out: UnfillableConstruct[] = [];
  const walk = (list: readonly AnalyzedShape[]): void => {
    for (const s of list) {
      if (s.graphic === 'diagram') out.push({ kind: 'smartart', shape_id: s.shape_id, name: s.name, detail: 'SmartArt diagram' });
      else if (s.graphic === 'ole') out.push({ kind: 'ole', shape_id: s.shape_id, name: s.name, detail: s.ole_prog_id ? `OLE object ${s.ole_prog_id}` : 'OLE object' });
      else if (s.graphic === 'chartex') out.push({ kind: 'chartex', shape_id: s.shape_id, name: s.name, detail: `chartEx ${s.chart?.chart_type ?? 'chart'}` });
      if (s.media === 'video' || s.media === 'audio') out.push({ kind: s.media, shape_id: s.shape_id, name: s.name, detail: `${s.media} (poster frame ${s.image_part_name ?? 'none'})` });
      walk(s.children);
    }
  };
  walk(shapes);
  return out;
}

/** How Slidewright measures a typeface. */
export function fontSupport(name: string): { metrics: FontMetricsSupport; family: string } {
  const r = resolveFace(name);
  if (r.exact) return { metrics: 'exact', family: r.family };
  if (NEAREST_CLASS[name.trim().toLowerCase()]) return { metrics: 'nearest', family: r.family };
  return { metrics: 'fallback', family: r.family };
}

function collectFonts(results: AnalysisResults): TemplateFont[] {
  const byName = new Map<string, TemplateFont>();
  const get = (name: string): TemplateFont => {
    let f = byName.get(name);
    if (!f) {
      const sup = fontSupport(name);
      f = { name, sources: [], shape_count: 0, metrics: sup.metrics, metrics_family: sup.family, has_metrics: sup.metrics !== 'fallback' };
      byName.set(name, f);
    }
    return f;
  };
  const addSource = (f: TemplateFont, src: TemplateFont['sources'][number]): void => {
    if (!f.sources.includes(src)) f.sources.push(src);
  };
  const themes = [results.presentation.theme_fonts, ...results.masters.map((m) => m.theme_fonts)];
  for (const tf of themes) {
    if (tf.major) addSource(get(tf.major), 'theme_major');
    if (tf.minor) addSource(get(tf.minor), 'theme_minor');
  }
  const walk = (list: readonly AnalyzedShape[]): void => {
    for (const s of list) {
      if (s.font?.name) {
        const f = get(s.font.name);
        addSource(f, 'shapes');
        f.shape_count++;
      }
      walk(s.children);
    }
  };
  for (const m of results.masters) walk(m.shapes ?? []);
  for (const l of results.layouts) walk(l.shapes);
  for (const s of results.slides) walk(s.shapes);
  const theme = (f: TemplateFont): number => (f.sources.includes('theme_major') || f.sources.includes('theme_minor') ? 0 : 1);
  return [...byName.values()].sort((a, b) => theme(a) - theme(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Diagnoses an analyzed template: a role, a capacity and the unfillable constructs for every
 * layout and slide, and the fonts it names. Pure and synchronous (CPU only, no I/O); runs
 * after analysis in the same worker thread.
 *
 * @param results - the analysis results (any options; with `parse_slides` off `slides` is empty)
 * @returns the report to attach as `results.doctor`
 */
export function diagnose(results: AnalysisResults, pkg?: OpcPackage): TemplateDoctorReport {
  const slideBox: SlideBox = { width: results.presentation.slide_width_emu, height: results.presentation.slide_height_emu };
  const minorOf = (masterIndex: number): string => results.masters[masterIndex]?.theme_fonts.minor || results.presentation.theme_fonts.minor;
  const layoutsById = new Map<string, AnalyzedLayout>();
  for (const l of results.layouts) layoutsById.set(l.slide_id, l);

  const model = pkg ? openedTemplates.modelOf(pkg) : undefined;
  const layouts: DoctorEntry[] = results.layouts.map((l) => {
    const r = inferRole(l.shapes, slideBox, l.type, l.name);
    return { slide_id: l.slide_id, index: l.layout_index, name: l.name, role: r.role, role_reasons: r.reasons, capacity: capacityOf(l.shapes, minorOf(l.master_index), model && newTextMeasure(model, l.part_name), slideBox), unfillable: unfillableOf(l.shapes) };
  });
  const slides: DoctorEntry[] = results.slides.map((s) => {
    const layout = layoutsById.get(s.layout_slide_id);
    const r = inferRole(s.shapes, slideBox, layout?.type ?? '', s.layout_name, false);
    return { slide_id: s.slide_id, index: s.slide_index, name: s.layout_name, role: r.role, role_reasons: r.reasons, capacity: capacityOf(s.shapes, minorOf(layout?.master_index ?? 0), undefined, slideBox), unfillable: unfillableOf(s.shapes) };
  });
  const fonts = collectFonts(results);
  return {
    version: 1,
    min_font_size_pt: MIN_FONT_SIZE_PT,
    layouts,
    slides,
    fonts,
    fonts_without_metrics: fonts.filter((f) => !f.has_metrics).map((f) => f.name),
    unfillable_count: layouts.reduce((n, e) => n + e.unfillable.length, 0) + slides.reduce((n, e) => n + e.unfillable.length, 0),
    oversized_pictures: pkg ? oversizedPictures(pkg, results) : [],
    repairs: repairFindings(results),
    ...(model ? { quality: templateQuality(model) } : {}),
  };
}

/**
 * The quality report's accessibility and brand checks over a template's slides (the
 * package is checked when the template is accepted, fitting only happens in decks).
 * Brand compares with the theme alone: every font and colour of a template is in its own text.
 */
function templateQuality(model: PmlModel): QualityReport | undefined {
  let slides: SlidePart[];
  try {
    slides = model.slidesInOrder();
  } catch {
    return undefined;
  }
  const findings = [...checkAccessibility(slides), ...checkBrand(slides, undefined)];
  const rank = { error: 0, warning: 1, info: 2 } as const;
  findings.sort((a, b) => a.slide_index - b.slide_index || rank[a.severity] - rank[b.severity]);
  return { summary: summarize(findings), checks: ['accessibility', 'brand'], findings };
}
