/**
 * Template analysis: reads a presentation package into the DESIGN.md `results` structure
 * (see ./types.ts). Synchronous and CPU-bound: the worker runs it off the event loop.
 */
import { PackageError } from '../ooxml/errors.js';
import type { OpcPackage } from '../ooxml/opc/package.js';
import { graphicKind, oleProgId, readChart, readChartEx, readPicture, readTable } from '../ooxml/pml/graphic.js';
import type { LayoutPart, MasterPart, ShapeTreePart, SlidePart } from '../ooxml/pml/parts.js';
import { openedTemplates } from '../ooxml/pml/opened-templates.js';
import type { Shape } from '../ooxml/pml/shapes.js';
import { bodyText, effectiveFont, effectiveParagraph, effectiveTextFrame, readParagraphs } from '../ooxml/pml/text.js';
import type { Theme } from '../ooxml/pml/theme.js';
import { NS, child, attr } from '../ooxml/xml.js';
import { repairsOf, type PackageRepair } from '../ooxml/repair.js';
import type {
  AnalysisOptions,
  AnalysisResults,
  AnalyzedLayout,
  AnalyzedMaster,
  AnalyzedShape,
  AnalyzedSlide,
  ResolvedAnalysisOptions,
  ThemeColors,
  ThemeFonts,
} from './types.js';

export type { AnalysisOptions, AnalysisResults } from './types.js';

/** What {@link analyzePresentation} needs. */
export interface AnalyzeInput {
  /** The opened package. */
  pkg: OpcPackage;
  options: AnalysisOptions;
  /**
   * The stable id of a slide or layout, from its part name (the caller keeps ids stable
   * across re-analysis of the same file and unique per organization).
   */
  idFor: (kind: 'slide' | 'layout', partName: string) => string;
  /**
   * The repairs made to the package as it was read (`repairTemplate` of
   * core/src/ooxml/repair.ts), listed as `results.repairs`; default: those recorded with the
   * package.
   */
  repairs?: readonly PackageRepair[];
}

/** Applies the option defaults: everything on except `parse_master_template_layout`. */
export function resolveOptions(o: AnalysisOptions | undefined): ResolvedAnalysisOptions {
  return {
    parse_master_template_layout: o?.parse_master_template_layout ?? false,
    parse_slides: o?.parse_slides ?? true,
    include_placeholder_positions: o?.include_placeholder_positions ?? true,
    include_placeholder_content: o?.include_placeholder_content ?? true,
    include_custom_shapes: o?.include_custom_shapes ?? true,
    include_table_details: o?.include_table_details ?? true,
  };
}

/**
 * Analyzes a presentation: presentation facts, masters, every layout, and (unless
 * `parse_slides` is false) every slide in `p:sldIdLst` order, each with its shapes in
 * document order, placeholder geometry resolved slide → layout → master and effective fonts.
 *
 * @throws PackageError `bad_structure` with a precise reason when the package cannot be a
 *   usable presentation (no presentation part, no slide master, a slide without a layout, a
 *   layout without a master, a part of the wrong kind); `not_presentation`,
 *   `macro_enabled`; `xml_*` for a hostile or malformed part.
 */
export function analyzePresentation(input: AnalyzeInput): AnalysisResults {
  const opts = resolveOptions(input.options);
  // the package's one reading model, which the doctor and previews of the same package object read too
  const model = openedTemplates.modelOf(input.pkg);
  const pres = model.presentation;
  if (pres.masters.length === 0) {
    throw new PackageError('bad_structure', `${pres.partName} has no slide master: a presentation needs at least one (p:sldMasterIdLst is empty and no slideMaster relationship exists)`);
  }

  // Slides first resolve their layouts and masters, so a missing link fails early.
  const slideParts = model.slidesInOrder();
  const layouts = model.layoutsInOrder();
  const masters: MasterPart[] = model.mastersInOrder();
  const masterIndex = new Map<MasterPart, number>();
  masters.forEach((m, i) => masterIndex.set(m, i));
  // A layout whose master is not listed in p:sldMasterIdLst still gets its master listed.
  for (const l of layouts) {
    if (!masterIndex.has(l.masterPart)) {
      masterIndex.set(l.masterPart, masters.length);
      masters.push(l.masterPart);
    }
  }

  const layoutIds = new Map<LayoutPart, string>();
  for (const l of layouts) layoutIds.set(l, input.idFor('layout', l.partName));

  const first = masters[0]!;
  const results: AnalysisResults = {
    presentation: {
      slide_width_emu: pres.slideWidthEmu,
      slide_height_emu: pres.slideHeightEmu,
      slide_count: pres.slides.length,
      layout_count: layouts.length,
      master_count: masters.length,
      theme_fonts: themeFonts(first.theme),
      theme_colors: themeColors(first.theme),
      theme_name: first.theme.name,
      is_template: pres.isTemplate,
      hidden_slide_count: slideParts.filter((s) => !s.shown).length,
    },
    masters: masters.map((m, i): AnalyzedMaster => {
      const entry: AnalyzedMaster = {
        master_index: i,
        name: m.name || m.theme.name,
        theme_name: m.theme.name,
        layout_ids: layouts.filter((l) => l.masterPart === m).map((l) => layoutIds.get(l)!),
        part_name: m.partName,
        theme_fonts: themeFonts(m.theme),
        theme_colors: themeColors(m.theme),
      };
      if (opts.parse_master_template_layout) entry.shapes = analyzeShapes(m, opts);
      return entry;
    }),
    layouts: layouts.map(
      (l, i): AnalyzedLayout => ({
        slide_id: layoutIds.get(l)!,
        layout_index: i,
        name: l.name,
        type: l.layoutType,
        master_index: masterIndex.get(l.masterPart)!,
        shapes: analyzeShapes(l, opts),
        part_name: l.partName,
        master_part_name: l.masterPart.partName,
      }),
    ),
    slides: opts.parse_slides
      ? slideParts.map(
          (s, i): AnalyzedSlide => ({
            slide_id: input.idFor('slide', s.partName),
            slide_index: i,
            slide_number: i + 1,
            title: slideTitle(s),
            layout_slide_id: layoutIds.get(s.layoutPart)!,
            layout_name: s.layoutPart.name,
            hidden: !s.shown,
            section: pres.sectionBySlideId.get(pres.slides[i]!.sldId) ?? null,
            shapes: analyzeShapes(s, opts),
            part_name: s.partName,
            layout_part_name: s.layoutPart.partName,
          }),
        )
      : [],
    repairs: (input.repairs ?? repairsOf(input.pkg)).map((r) => ({ part: r.part, element: r.element, action: r.action, detail: r.detail })),
  };
  return results;
}

function themeFonts(t: Theme): ThemeFonts {
  return { major: t.major.latin, minor: t.minor.latin, major_east_asian: t.major.eastAsian, minor_east_asian: t.minor.eastAsian };
}

function themeColors(t: Theme): ThemeColors {
  const out: ThemeColors = {};
  for (const [k, v] of Object.entries(t.colors)) if (v !== undefined) out[k] = v;
  return out;
}

/** Text of the slide's title or centred-title placeholder, '' when it has none. */
function slideTitle(s: SlidePart): string {
  for (const ph of s.placeholders) {
    if (ph.placeholder?.type === 'title' || ph.placeholder?.type === 'ctrTitle') return bodyText(ph.txBody).replace(/\v/g, ' ');
  }
  return '';
}

function analyzeShapes(part: ShapeTreePart, opts: ResolvedAnalysisOptions): AnalyzedShape[] {
  const out: AnalyzedShape[] = [];
  for (const s of part.shapes) {
    const a = analyzeShape(s, opts);
    if (a) out.push(a);
  }
  return out;
}

function analyzeShape(s: Shape, opts: ResolvedAnalysisOptions): AnalyzedShape | undefined {
  const ph = s.placeholder;
  if (!ph && !opts.include_custom_shapes) return undefined;
  const frame = ph && !opts.include_placeholder_positions ? undefined : s.frame;
  const showText = !ph || opts.include_placeholder_content;
  const font = effectiveFont(s);
  const frameProps = effectiveTextFrame(s);
  const para = effectiveParagraph(s, font?.sizePt);
  const graphic = s.kind === 'graphicFrame' ? graphicKind(s.graphicData) : null;
  const table = graphic === 'table' && opts.include_table_details ? readTable(s.graphicData) : undefined;
  const pkg = s.part.model.pkg;
  const chart = graphic === 'chart' ? readChart(pkg, s.part.partName, s.graphicData) : graphic === 'chartex' ? readChartEx(pkg, s.part.partName, s.graphicData) : undefined;
  const picture = s.kind === 'pic' ? readPicture(pkg, s.part.partName, s.element) : undefined;
  const children: AnalyzedShape[] = [];
  for (const c of s.children) {
    const a = analyzeShape(c, opts);
    if (a) children.push(a);
  }
  return {
    shape_id: s.id,
    name: s.name,
    kind: s.kind,
    placeholder: ph
      ? {
          type: ph.type,
          idx: ph.idx,
          orient: ph.orient,
          size: ph.size,
          inherited_from: s.basePlaceholder ? (s.basePlaceholder.part.kind === 'layout' ? 'layout' : 'master') : null,
        }
      : null,
    x: frame?.x ?? null,
    y: frame?.y ?? null,
    cx: frame?.cx ?? null,
    cy: frame?.cy ?? null,
    rotation: frame?.rotation ?? 0,
    flip_h: frame?.flipH ?? false,
    flip_v: frame?.flipV ?? false,
    hidden: s.hidden,
    text: showText ? bodyText(s.txBody) : '',
    paragraphs: showText ? readParagraphs(s.txBody) : [],
    font: font
      ? {
          name: font.name,
          east_asian_name: font.eastAsianName,
          complex_script_name: font.complexScriptName,
          size_pt: font.sizePt,
          bold: font.bold,
          italic: font.italic,
          color: font.color,
        }
      : null,
    text_frame: frameProps
      ? {
          inset_left: frameProps.insetLeft,
          inset_top: frameProps.insetTop,
          inset_right: frameProps.insetRight,
          inset_bottom: frameProps.insetBottom,
          anchor: frameProps.anchor,
          wrap: frameProps.wrap,
          autofit: frameProps.autofit,
          font_scale: frameProps.fontScale,
          vertical: frameProps.vertical,
          columns: frameProps.columns,
        }
      : null,
    paragraph_format: para
      ? {
          alignment: para.alignment,
          rtl: para.rtl,
          line_spacing: para.lineSpacing,
          line_spacing_pt: para.lineSpacingPt,
          space_before_pt: para.spaceBeforePt,
          space_after_pt: para.spaceAfterPt,
          margin_left: para.marginLeft,
          indent: para.indent,
          bullet: para.bullet,
        }
      : null,
    graphic,
    table: table ? { rows: table.rows, cols: table.cols, cells: table.cells, header_rows: table.headerRows, merged_cells: table.mergedCells } : null,
    chart: chart ? { chart_type: chart.chartType, series_count: chart.seriesCount, category_count: chart.categoryCount, plot_types: chart.plotTypes, part_name: chart.partName } : null,
    media: picture?.media ?? null,
    image_part_name: picture?.imagePartName ?? null,
    ole_prog_id: graphic === 'ole' ? (oleProgId(s.graphicData) ?? null) : null,
    geometry: geometryOf(s),
    children,
  };
}

/** `a:prstGeom/@prst`, `custom` for `a:custGeom`, null when the shape has neither. */
function geometryOf(s: Shape): string | null {
  if (s.kind !== 'sp' && s.kind !== 'cxnSp' && s.kind !== 'pic') return null;
  const spPr = child(s.element, NS.p, 'spPr');
  const prst = child(spPr, NS.a, 'prstGeom');
  if (prst) return attr(prst, 'prst') ?? null;
  return child(spPr, NS.a, 'custGeom') ? 'custom' : null;
}
