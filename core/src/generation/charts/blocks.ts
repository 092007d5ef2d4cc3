/**
 * Chart and image blocks on a slide being generated.
 *
 * - A chart block fills, in this order: the template slide's own charts (graphic frames
 *   holding `c:chart`, ECMA-376 Part 1 §21.2.2.27, left to right then top to bottom), whose
 *   chart part and workbook get the new data (the template's chart type and formatting
 *   are kept); then a free chart placeholder (`p:ph type="chart"`), then a free content
 *   placeholder (`obj`), each replaced by a graphic frame (§19.3.1.21) holding a new chart
 *   part of the requested `chart_type`, with its embedded workbook.
 * - An image block fills a free picture placeholder (`p:ph type="pic"`, also one a
 *   template slide has already filled), else a free content placeholder, with a picture
 *   (`p:pic`) cropped to fill the placeholder with the picture's aspect kept
 *   (see `images.ts`). Picture parts are stored once per content.
 *
 * Placement is synchronous (the slide's XML and relationships are written right after
 * filling); the chart parts and their workbooks are written by {@link SlideRichContent.finish}.
 * A block that cannot be used (bad data, an unknown chart type, a picture that is not
 * PNG/JPEG/GIF or too large) fails its slide with the error's code.
 */
import type { Block, ChartBlock, Column, ImageBlock, SlideData } from '../../domain/content.js';
import { RT } from '../../ooxml/opc/constants.js';
import type { OpcPackage } from '../../ooxml/opc/package.js';
import { NS, attr, attrNS, child, children, createElement, path, type Document, type Element } from '../../ooxml/xml.js';
import { buildPicture, cropToFill, decodeImageBlock, ImageError } from '../slide/images.js';
import { nonVisualProps, ownRect, setRect, type PlaceholderShape, type Rect } from '../slide/shapes.js';
import { xmlSafeText } from '../slide/text.js';
import { assertChartData, ChartError, newChartSpec, type ChartData } from './chart-data.js';
import { createChartPart, updateChartPart, type PartStore } from './chart-part.js';
import { chartPlots } from './chart-xml.js';

/** `a:graphicData/@uri` of a chart (§21.2.2.27). */
export const CHART_URI = 'http://schemas.openxmlformats.org/drawingml/2006/chart';

/** Codes of the slide errors chart and image blocks raise. */
export type BlockErrorCode = ChartError['code'] | ImageError['code'];

/** The code and message of a chart or image block error, or undefined for other errors. */
export function blockFailure(err: unknown): { code: BlockErrorCode; message: string } | undefined {
  if (err instanceof ChartError || err instanceof ImageError) return { code: err.code, message: err.message };
  return undefined;
}

/** What the deck writer provides for one slide. */
export interface RichHost {
  /** The output package. */
  pkg: OpcPackage;
  /** A new part name like `example` (numbered). */
  newPartName(example: string): string;
  /** Told about each part created, so a failed slide can take it back. */
  created(partName: string): void;
  /** Adds a relationship from the slide; returns its id. */
  addSlideRel(type: string, targetPartName: string): string;
  /** Output part the slide's relationship `rId` targets. */
  slideRelTarget(rId: string): string | undefined;
  /** Stores picture bytes once per content; returns the part name. */
  storeMedia(bytes: Uint8Array, contentType: string, extension: string): string;
  /** A problem that does not fail the slide; `code` defaults to `content_not_placed`. */
  warn(message: string, code?: string): void;
}

/** The state of `fillSlide` chart and image blocks work with. */
export interface RichFillArgs {
  doc: Document;
  tree: Element;
  /** The slide's placeholders (a replaced one is removed from the list). */
  phs: PlaceholderShape[];
  /** Placeholders already taken by other content. */
  used: Set<Element>;
  /** Shapes filled (kept on a slide made from a layout). */
  filled: Set<Element>;
  rectOf(p: PlaceholderShape): Rect | undefined;
  newId(): number;
  columns: readonly Column[];
}

/** Whether a shape is a graphic frame holding a chart. */
export function isChartFrame(shape: Element): boolean {
  if (shape.localName !== 'graphicFrame' || shape.namespaceURI !== NS.p) return false;
  const gd = path(shape, [NS.a, 'graphic'], [NS.a, 'graphicData']);
  return attr(gd, 'uri') === CHART_URI && !!child(gd, NS.c, 'chart');
}

/** Whether slide data holds a chart block. */
export function hasChartBlocks(data: SlideData): boolean {
  return (data.content ?? []).some((c) => c.blocks.some((b) => b.type === 'chart' && !!b.chart));
}

function byPosition<T extends { rect: Rect | undefined }>(items: T[]): T[] {
  return items.map((it, i) => ({ it, i })).sort((a, b) => (a.it.rect?.x ?? 0) - (b.it.rect?.x ?? 0) || (a.it.rect?.y ?? 0) - (b.it.rect?.y ?? 0) || a.i - b.i).map((e) => e.it);
}

function chartData(block: ChartBlock): ChartData {
  return { title: block.title, categories: block.categories ?? [], series: (block.series ?? []).map((s) => ({ name: s.name ?? '', values: s.values ?? [] })) };
}

/** Chart and image blocks of one slide. */
export class SlideRichContent {
  private readonly deferred: Array<() => Promise<void>> = [];

  constructor(private readonly host: RichHost) {}

  /** Places the slide's chart and image blocks (called by `fillSlide` after text and tables). */
  place(a: RichFillArgs): void {
    const charts: ChartBlock[] = [];
    const images: ImageBlock[] = [];
    for (const col of a.columns) for (const b of col.blocks as Block[]) {
      if (b.type === 'chart' && b.chart) charts.push(b.chart);
      else if (b.type === 'image' && b.image) images.push(b.image);
    }
    if (charts.length) this.placeCharts(a, charts);
    if (images.length) this.placeImages(a, images);
  }

  /** Writes the chart parts and workbooks of the placed chart blocks. */
  async finish(): Promise<void> {
    for (const task of this.deferred.splice(0)) await task();
  }

  private store(): PartStore {
    const h = this.host;
    return { pkg: h.pkg, newPartName: (e) => h.newPartName(e), created: (p) => h.created(p) };
  }

  private freePlaceholders(a: RichFillArgs, types: readonly string[], kinds: readonly string[]): Array<{ ph: PlaceholderShape; rect: Rect | undefined }> {
    return byPosition(
      a.phs
        .filter((p) => types.includes(p.type) && kinds.includes(p.shape.localName ?? '') && !a.used.has(p.shape) && !a.filled.has(p.shape) && p.shape.parentNode)
        .map((ph) => ({ ph, rect: a.rectOf(ph) })),
    );
  }

  private placeCharts(a: RichFillArgs, blocks: ChartBlock[]): void {
    const frames = byPosition(children(a.tree, NS.p, 'graphicFrame').filter(isChartFrame).map((frame) => ({ frame, rect: ownRect(frame) })));
    const holders = [...this.freePlaceholders(a, ['chart'], ['sp']), ...this.freePlaceholders(a, ['obj'], ['sp'])];
    blocks.forEach((block, i) => {
      const data = chartData(block);
      assertChartData(data);
      const existing = frames.shift();
      if (existing) {
        const rId = attrNS(child(path(existing.frame, [NS.a, 'graphic'], [NS.a, 'graphicData']), NS.c, 'chart'), NS.r, 'id');
        const part = rId ? this.host.slideRelTarget(rId) : undefined;
        if (!part) throw new ChartError('chart_corrupt', 'the template chart has no chart part');
        a.filled.add(existing.frame);
        this.deferred.push(async () => {
          const wanted = newChartSpec(block.chart_type ?? '');
          const plot = chartPlots(this.host.pkg.getXml(part))[0]?.localName ?? '';
          if (block.chart_type && wanted && plot.replace('3D', '') !== wanted.plot && !(wanted.plot === 'pieChart' && plot === 'ofPieChart')) {
            this.host.warn(`chart ${i + 1}: the template's chart is a ${plot}; it keeps its type and look (chart_type "${block.chart_type}" applies to new charts only)`, 'chart_type_kept');
          }
          const r = await updateChartPart(this.store(), part, data);
          for (const w of r.warnings) this.host.warn(`chart ${i + 1}: ${w}`, 'chart_workbook_replaced');
        });
        return;
      }
      const spec = newChartSpec(block.chart_type ?? '');
      if (!spec) throw new ChartError('chart_unsupported', `chart_type "${block.chart_type}" is not one of column, bar, line, pie, doughnut, area, scatter, radar (and their _stacked variants)`);
      const holder = holders.shift();
      if (!holder || !holder.rect) {
        this.host.warn(`chart ${i + 1}: the slide has no chart or free content placeholder; chart not placed`);
        return;
      }
      const partName = this.host.newPartName('/ppt/charts/chart1.xml');
      const rId = this.host.addSlideRel(RT.chart, partName);
      const id = a.newId();
      const frame = chartFrame(a.doc, { id, name: `Chart ${id - 1}`, rId, rect: holder.rect, ph: holder.ph.ph, descr: chartAltText(block) });
      a.tree.replaceChild(frame, holder.ph.shape);
      a.used.add(holder.ph.shape);
      a.filled.add(frame);
      const at = a.phs.indexOf(holder.ph);
      if (at >= 0) a.phs.splice(at, 1);
      this.deferred.push(async () => {
        await createChartPart(this.store(), spec, data, partName);
      });
    });
  }

  private placeImages(a: RichFillArgs, blocks: ImageBlock[]): void {
    const holders = [...this.freePlaceholders(a, ['pic'], ['sp', 'pic']), ...this.freePlaceholders(a, ['obj'], ['sp'])];
    blocks.forEach((block, i) => {
      const { bytes, info, warnings } = decodeImageBlock(block);
      for (const w of warnings) this.host.warn(`image ${i + 1}: ${w}`, 'image_content_type');
      const holder = holders.shift();
      if (!holder || !holder.rect) {
        this.host.warn(`image ${i + 1}: the slide has no free picture or content placeholder; image not placed`);
        return;
      }
      const part = this.host.storeMedia(bytes, info.contentType, info.extension);
      const rId = this.host.addSlideRel(RT.image, part);
      const id = a.newId();
      const pic = buildPicture(a.doc, {
        id,
        name: `Picture ${id - 1}`,
        descr: block.alt_text,
        rId,
        rect: holder.rect,
        crop: cropToFill(info.width, info.height, holder.rect.cx, holder.rect.cy),
        ph: holder.ph.ph,
      });
      a.tree.replaceChild(pic, holder.ph.shape);
      a.used.add(holder.ph.shape);
      a.filled.add(pic);
      const at = a.phs.indexOf(holder.ph);
      if (at >= 0) a.phs.splice(at, 1);
    });
  }
}

/** A graphic frame (§19.3.1.21) showing the chart part of relationship `rId`. */
/**
 * A chart block's alternative text: its `alt_text`, else a description made from its type,
 * title and data, e.g. "Column chart: Revenue by quarter, 2 series, 4 categories" (so a
 * screen reader says what the chart is; WCAG 1.1.1).
 */
export function chartAltText(block: ChartBlock): string {
  const given = block.alt_text?.trim();
  if (given) return given;
  const type = (block.chart_type ?? '').toLowerCase();
  const stacked = type.endsWith('_stacked');
  const base = stacked ? type.slice(0, -'_stacked'.length) : type;
  const kind = `${stacked ? 'Stacked ' : ''}${base || 'chart'}`;
  const name = `${kind.charAt(0).toUpperCase()}${kind.slice(1)}${base ? ' chart' : ''}`;
  const series = block.series?.length ?? 0;
  const categories = block.categories?.length ?? 0;
  const title = block.title?.trim();
  return `${name}${title ? `: ${title}` : ''}, ${series} series, ${categories} categor${categories === 1 ? 'y' : 'ies'}`;
}

export function chartFrame(doc: Document, spec: { id: number; name: string; rId: string; rect: Rect; ph?: Element; descr?: string }): Element {
  const frame = createElement(doc, NS.p, 'p:graphicFrame');
  const nv = createElement(doc, NS.p, 'p:nvGraphicFramePr');
  nv.appendChild(createElement(doc, NS.p, 'p:cNvPr', { id: spec.id, name: spec.name, descr: spec.descr ? xmlSafeText(spec.descr) : undefined }));
  const cNv = createElement(doc, NS.p, 'p:cNvGraphicFramePr');
  cNv.appendChild(createElement(doc, NS.a, 'a:graphicFrameLocks', { noGrp: spec.ph ? '1' : undefined }));
  nv.appendChild(cNv);
  nv.appendChild(nonVisualProps(doc, spec.ph));
  frame.appendChild(nv);
  const xfrm = createElement(doc, NS.p, 'p:xfrm');
  setRect(doc, xfrm, spec.rect);
  frame.appendChild(xfrm);
  const graphic = createElement(doc, NS.a, 'a:graphic');
  const gd = createElement(doc, NS.a, 'a:graphicData', { uri: CHART_URI });
  const c = createElement(doc, NS.c, 'c:chart');
  c.setAttributeNS(NS.r, 'r:id', spec.rId);
  gd.appendChild(c);
  graphic.appendChild(gd);
  frame.appendChild(graphic);
  return frame;
}
