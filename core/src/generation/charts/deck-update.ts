/**
 * Update-charts on a finished deck: finding a chart by slide and chart index or name,
 * and writing new data into its chart part and embedded workbook (`chart-part.ts`).
 *
 * Charts of a slide are counted in document order (z order, as the analysis lists shapes),
 * including charts inside groups and the chosen branch of `mc:AlternateContent`; both
 * DrawingML charts (`c:chart`) and Office 2016 extended charts (`cx:chart`, which cannot be
 * updated) count. A chart part or workbook that something else also uses is copied before
 * it is changed, so no other slide or chart changes with it.
 */
import { OpcPackage } from '../../ooxml/opc/package.js';
import { CT } from '../../ooxml/opc/constants.js';
import { sourceOfRelsPart } from '../../ooxml/opc/part-names.js';
import { readPresentation } from '../../ooxml/pml/presentation.js';
import { NS, attr, attrNS, child, children, path, type Element } from '../../ooxml/xml.js';
import { cNvPr, shapeTree } from '../slide/shapes.js';
import { CHART_URI } from './blocks.js';
import { ChartError, checkChartData, type ChartSeriesData } from './chart-data.js';
import { packageStore, updateChartPart } from './chart-part.js';
import { chartPlots, setChartTitle, unsupportedReason } from './chart-xml.js';

const CHARTEX_URI = 'http://schemas.microsoft.com/office/drawing/2014/chartex';

/** Which chart: a slide (0-based) and the chart's 0-based index on it or its shape name. */
export interface ChartRef {
  slide_index: number;
  chart_index?: number;
  chart_name?: string;
}

/** One update of an update-charts request. Empty categories and series with a title change the title only. */
export interface ChartUpdateSpec extends ChartRef {
  title?: string;
  categories: string[];
  series: ChartSeriesData[];
}

/** A chart of a slide as update-charts sees it. */
export interface ChartEntry {
  chart_index: number;
  /** `p:cNvPr/@name` of the graphic frame. */
  name: string;
  kind: 'chart' | 'chartex';
  /** Absolute part name of the chart part (undefined when the relationship is broken). */
  part_name: string | undefined;
  /** Why the chart cannot be updated, or undefined when it can. */
  unsupported?: string;
}

/** The charts of every slide, in deck order. */
export interface DeckChartInventory {
  slides: Array<{ slide_index: number; part_name: string; charts: ChartEntry[] }>;
}

/** Chart graphic frames under a shape container, in document order. */
function chartFrames(container: Element, out: Array<{ frame: Element; kind: 'chart' | 'chartex' }> = []): Array<{ frame: Element; kind: 'chart' | 'chartex' }> {
  for (const el of children(container)) {
    if (el.namespaceURI === NS.p && el.localName === 'graphicFrame') {
      const uri = attr(path(el, [NS.a, 'graphic'], [NS.a, 'graphicData']), 'uri');
      if (uri === CHART_URI) out.push({ frame: el, kind: 'chart' });
      else if (uri === CHARTEX_URI) out.push({ frame: el, kind: 'chartex' });
    } else if (el.namespaceURI === NS.p && el.localName === 'grpSp') chartFrames(el, out);
    else if (el.namespaceURI === NS.mc && el.localName === 'AlternateContent') {
      const branch = children(el, NS.mc, 'Choice')[0] ?? child(el, NS.mc, 'Fallback');
      if (branch) chartFrames(branch, out);
    }
  }
  return out;
}

function chartRelId(frame: Element): string | undefined {
  const gd = path(frame, [NS.a, 'graphic'], [NS.a, 'graphicData']);
  for (const c of children(gd ?? frame)) if (c.localName === 'chart') return attrNS(c, NS.r, 'id');
  return undefined;
}

/** Lists the charts of each slide of a deck. */
export function chartInventory(pkg: OpcPackage): DeckChartInventory {
  const slides = readPresentation(pkg).slides;
  return {
    slides: slides.map((s, slide_index) => {
      const doc = pkg.getXml(s.partName);
      const tree = shapeTree(doc);
      const charts: ChartEntry[] = (tree ? chartFrames(tree) : []).map(({ frame, kind }, chart_index) => {
        const rId = chartRelId(frame);
        const rel = rId ? pkg.rel(s.partName, rId) : undefined;
        const part = rel && !rel.external && rel.targetPartName && pkg.hasPart(rel.targetPartName) ? rel.targetPartName : undefined;
        let unsupported: string | undefined;
        if (kind === 'chartex') unsupported = 'Office 2016 extended charts (waterfall, treemap, ...; cx:chart) cannot be updated';
        else if (!part) unsupported = 'the chart part is missing';
        else {
          try {
            unsupported = unsupportedReason(pkg.getXml(part));
          } catch (err) {
            unsupported = `the chart part cannot be read: ${(err as Error).message}`;
          }
        }
        return { chart_index, name: attr(cNvPr(frame), 'name') ?? '', kind, part_name: part, ...(unsupported ? { unsupported } : {}) };
      });
      return { slide_index, part_name: s.partName, charts };
    }),
  };
}

/** A problem with one chart update: the request field it concerns (relative to the update) and why. */
export interface ChartRefProblem {
  field: string;
  message: string;
}

/** The chart an update names, or the problem with the reference. */
export function resolveChartRef(inv: DeckChartInventory, ref: ChartRef): { slide: DeckChartInventory['slides'][number]; chart: ChartEntry } | ChartRefProblem {
  const hasIndex = ref.chart_index !== undefined && ref.chart_index !== null;
  const hasName = ref.chart_name !== undefined && ref.chart_name !== null && ref.chart_name !== '';
  if (!hasIndex && !hasName) return { field: 'chart_index', message: 'give chart_index or chart_name' };
  if (hasIndex && hasName) return { field: 'chart_name', message: 'give chart_index or chart_name, not both' };
  const slide = inv.slides[ref.slide_index];
  if (!slide) return { field: 'slide_index', message: `slide_index ${ref.slide_index} is past the presentation's ${inv.slides.length} slides (0-based)` };
  let chart: ChartEntry | undefined;
  if (hasIndex) {
    chart = slide.charts[ref.chart_index!];
    if (!chart) return { field: 'chart_index', message: `slide ${ref.slide_index} has ${slide.charts.length} chart${slide.charts.length === 1 ? '' : 's'}; chart_index ${ref.chart_index} does not exist (0-based)` };
  } else {
    const want = ref.chart_name!;
    chart = slide.charts.find((c) => c.name === want) ?? slide.charts.find((c) => c.name.trim().toLowerCase() === want.trim().toLowerCase());
    if (!chart) return { field: 'chart_name', message: `slide ${ref.slide_index} has no chart named "${want}"${slide.charts.length ? ` (its charts: ${slide.charts.map((c) => `"${c.name}"`).join(', ')})` : ' (it has no charts)'}` };
  }
  if (chart.unsupported) return { field: hasIndex ? 'chart_index' : 'chart_name', message: chart.unsupported };
  return { slide, chart };
}

/** Whether an update changes only the title. */
export function isTitleOnly(u: ChartUpdateSpec): boolean {
  return (u.categories?.length ?? 0) === 0 && (u.series?.length ?? 0) === 0 && u.title !== undefined && u.title !== null;
}

/** Every problem of an update that can be known from the deck: data (unless title only) and the chart reference. */
export function checkChartUpdate(inv: DeckChartInventory | undefined, u: ChartUpdateSpec): ChartRefProblem[] {
  const out: ChartRefProblem[] = [];
  if (!isTitleOnly(u)) out.push(...checkChartData({ categories: u.categories ?? [], series: u.series ?? [] }));
  if (inv) {
    const r = resolveChartRef(inv, u);
    if ('field' in r) out.push(r);
  }
  return out;
}

/** One failed update (index in the request). */
export interface ChartUpdateFailure {
  update_index: number;
  slide_index: number;
  code: string;
  message: string;
}

export interface DeckChartsResult {
  bytes: Uint8Array | undefined;
  slideCount: number;
  /** Updates applied. */
  applied: number;
  errors: ChartUpdateFailure[];
  warnings: Array<{ update_index: number; slide_index: number; message: string }>;
}

/** How many relationships (from any part) target each part. */
function referenceCounts(pkg: OpcPackage): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of pkg.partNames()) {
    const source = sourceOfRelsPart(name);
    if (source === undefined) continue;
    for (const r of pkg.rels(source)) {
      if (r.external || !r.targetPartName) continue;
      const k = r.targetPartName.toLowerCase();
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * Applies chart updates to a deck. Each update is all or nothing; a failed one is
 * reported and the others still applied. `bytes` is undefined when none was applied.
 */
export async function updateDeckCharts(deck: Uint8Array, updates: readonly ChartUpdateSpec[]): Promise<DeckChartsResult> {
  const pkg = await OpcPackage.open(deck);
  const inv = chartInventory(pkg);
  const errors: ChartUpdateFailure[] = [];
  const warnings: DeckChartsResult['warnings'] = [];
  let applied = 0;
  for (const [i, u] of updates.entries()) {
    try {
      const problems = checkChartUpdate(inv, u);
      if (problems.length) throw new ChartError('chart_invalid', problems.map((p) => `${p.field}: ${p.message}`).join('; '));
      const r = resolveChartRef(inv, u) as { slide: DeckChartInventory['slides'][number]; chart: ChartEntry };
      let chartPart = r.chart.part_name!;
      let counts = referenceCounts(pkg);
      const shared = (p: string): boolean => (counts.get(p.toLowerCase()) ?? 0) > 1;
      if (shared(chartPart)) {
        // copy on write: this slide gets its own chart part (its workbook is then shared, so copied too)
        const copy = pkg.newPartName(chartPart);
        pkg.setBytes(copy, pkg.getBytes(chartPart), CT.chart);
        pkg.setRels(copy, pkg.rels(chartPart).map((x) => ({ ...x })));
        const rels = pkg.rels(r.slide.part_name).map((x) => (x.targetPartName === chartPart && !x.external ? { ...x, targetPartName: copy } : { ...x }));
        pkg.setRels(r.slide.part_name, rels);
        r.chart.part_name = copy;
        chartPart = copy;
        counts = referenceCounts(pkg); // the copy's workbook is now shared with the original's
      }
      const before = pkg.getBytes(chartPart);
      const chartRels = pkg.rels(chartPart).map((x) => ({ ...x }));
      try {
        await applyOne(pkg, chartPart, u, shared, (w) => warnings.push({ update_index: i, slide_index: u.slide_index, message: w }));
      } catch (err) {
        // all or nothing: the chart part and its relationships as they were
        pkg.setBytes(chartPart, before, CT.chart);
        pkg.setRels(chartPart, chartRels);
        throw err;
      }
      applied++;
    } catch (err) {
      const code = err instanceof ChartError ? err.code : 'chart_update_failed';
      errors.push({ update_index: i, slide_index: u.slide_index, code, message: `charts[${i}]: ${(err as Error).message}` });
    }
  }
  return { bytes: applied > 0 ? await pkg.toBytes() : undefined, slideCount: inv.slides.length, applied, errors, warnings };
}

async function applyOne(pkg: OpcPackage, chartPart: string, u: ChartUpdateSpec, shared: (p: string) => boolean, warn: (m: string) => void): Promise<void> {
  if (isTitleOnly(u)) {
    const doc = pkg.getXml(chartPart);
    chartPlots(doc);
    setChartTitle(doc, u.title!);
    pkg.markDirty(chartPart);
  } else {
    const res = await updateChartPart(packageStore(pkg, shared), chartPart, { title: u.title ?? undefined, categories: u.categories, series: u.series });
    for (const w of res.warnings) warn(w);
  }
}
