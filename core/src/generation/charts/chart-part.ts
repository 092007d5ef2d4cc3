/**
 * One chart part and its embedded workbook, updated together: the chart XML (series,
 * caches, formulas, title) by `chart-xml.ts`, the workbook cells by `workbook.ts`, from
 * the same {@link ChartLayout}. Works on any {@link OpcPackage} through a {@link PartStore},
 * so deck generation (parts being written) and update-charts (a finished deck) share it.
 */
import { CT, RT } from '../../ooxml/opc/constants.js';
import type { OpcPackage } from '../../ooxml/opc/package.js';
import { RelIdAllocator } from '../../ooxml/opc/relationships.js';
import { NS, attrNS, child, createElement, type Document } from '../../ooxml/xml.js';
import { assertChartData, ChartError, type ChartData, type NewChartSpec } from './chart-data.js';
import { applyChartXml, dataSheetName, referencedRanges, type ChartLayout } from './chart-xml.js';
import { newChartDocument } from './new-chart.js';
import { writeChartWorkbook } from './workbook.js';

/** Where chart parts are read and written. */
export interface PartStore {
  pkg: OpcPackage;
  /** A part name not yet used, like `example` (same folder, stem and extension, next number). */
  newPartName(example: string): string;
  /** Told about each part created (so a failed slide can take it back). */
  created?(partName: string): void;
  /** Whether a part is shared with other owners (then it is never changed in place). */
  isShared?(partName: string): boolean;
}

/** A store over a package alone (update-charts): new names are the next free ones. */
export function packageStore(pkg: OpcPackage, isShared?: (part: string) => boolean): PartStore {
  return { pkg, newPartName: (example) => pkg.newPartName(example), isShared };
}

/** What a chart update did. */
export interface ChartUpdateResult {
  layout: ChartLayout;
  /** Absolute name of the workbook part written. */
  workbookPart: string;
  warnings: string[];
}

const XLSX_EXAMPLE = '/ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx';

/**
 * Writes `data` into the chart part `chartPart` of `store.pkg` and into its embedded
 * workbook. A chart without a usable embedded workbook (none, linked, not .xlsx, or
 * unreadable) gets a new one; a workbook shared with another chart is written to a new
 * part (the other chart keeps the old).
 *
 * @throws ChartError `chart_invalid` (data), `chart_unsupported`, `chart_corrupt`
 */
export async function updateChartPart(store: PartStore, chartPart: string, data: ChartData): Promise<ChartUpdateResult> {
  assertChartData(data);
  const pkg = store.pkg;
  if (store.isShared?.(chartPart)) throw new ChartError('chart_corrupt', `${chartPart} is shared with other slides and is not changed in place`);
  let doc: Document;
  try {
    doc = pkg.getXml(chartPart);
  } catch (err) {
    throw new ChartError('chart_corrupt', `the chart part ${chartPart} cannot be read: ${(err as Error).message}`, { cause: err });
  }
  const warnings: string[] = [];
  const clear = referencedRanges(doc);
  const sheet = dataSheetName(doc);
  const layout = applyChartXml(doc, data, sheet);

  // the embedded workbook: c:externalData/@r:id → a package relationship to an .xlsx part
  const space = doc.documentElement!;
  let ext = child(space, NS.c, 'externalData');
  const rId = attrNS(ext, NS.r, 'id');
  const rels = [...pkg.rels(chartPart)];
  const rel = rId ? rels.find((r) => r.id === rId) : undefined;
  let wbPart = rel && !rel.external ? rel.targetPartName : undefined;
  let existing: Uint8Array | undefined;
  if (wbPart && pkg.hasPart(wbPart)) {
    const ct = pkg.contentType(wbPart);
    if (ct === CT.xlsx && !store.isShared?.(wbPart)) existing = pkg.getBytes(wbPart);
    else if (ct === CT.xlsx) {
      existing = pkg.getBytes(wbPart);
      wbPart = undefined; // shared: written to a new part
    } else {
      warnings.push(`the chart's workbook ${wbPart} is not an .xlsx workbook; a new workbook replaces it`);
      wbPart = undefined;
    }
  } else if (rel?.external) {
    warnings.push('the chart was linked to an external workbook; an embedded workbook replaces the link');
    wbPart = undefined;
  }
  const newPart = wbPart === undefined || !pkg.hasPart(wbPart);
  if (wbPart === undefined) wbPart = store.newPartName(XLSX_EXAMPLE);

  // relationship and c:externalData point at the workbook
  let id = rel?.id;
  if (!rel || rel.external || rel.targetPartName !== wbPart) {
    const others = rels.filter((r) => r !== rel);
    id ??= new RelIdAllocator(others.map((r) => r.id)).next();
    pkg.setRels(chartPart, [...others.map((r) => ({ ...r })), { id, type: RT.package, external: false, targetPartName: wbPart }]);
  }
  if (!ext) {
    const prefix = space.prefix ? `${space.prefix}:` : '';
    ext = createElement(doc, NS.c, `${prefix}externalData`);
    ext.appendChild(createElement(doc, NS.c, `${prefix}autoUpdate`, { val: 0 }));
    const after = ['printSettings', 'userShapes', 'extLst'];
    let before: Document['firstChild'] = null;
    for (let n = space.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 1 && after.includes((n as unknown as { localName: string }).localName)) {
        before = n;
        break;
      }
    }
    space.insertBefore(ext, before);
  }
  ext.setAttributeNS(NS.r, 'r:id', id!);

  const wb = await writeChartWorkbook(existing, layout, data, clear);
  if (wb.replaced) warnings.push('the chart\'s workbook could not be read; a new workbook replaces it');
  pkg.setBytes(wbPart, wb.bytes, CT.xlsx);
  if (newPart) store.created?.(wbPart);
  pkg.markDirty(chartPart);
  return { layout, workbookPart: wbPart, warnings };
}

/**
 * Creates a chart part of type `spec` holding `data` (and its embedded workbook).
 * @param partName - the part's name when already chosen (else the next free `/ppt/charts/chartN.xml`)
 * @returns the new chart part's name
 */
export async function createChartPart(store: PartStore, spec: NewChartSpec, data: ChartData, partName?: string): Promise<string> {
  assertChartData(data);
  const pkg = store.pkg;
  const name = partName ?? store.newPartName('/ppt/charts/chart1.xml');
  const wbPart = store.newPartName(XLSX_EXAMPLE);
  pkg.setXml(name, newChartDocument(spec), CT.chart);
  store.created?.(name);
  pkg.setRels(name, [{ id: 'rId1', type: RT.package, external: false, targetPartName: wbPart }]);
  await updateChartPart(store, name, data);
  return name;
}
