/**
 * The workbook embedded with a chart (the chart part's `c:externalData` relationship,
 * ECMA-376 Part 1, §21.2.2.63, to an .xlsx package part), read and written with ExcelJS.
 * It receives the same data, in the same cells, as the chart's formulas and caches
 * (`chart-xml.ts`): so "Edit Data" in PowerPoint shows what the chart shows.
 *
 * The old data (every range the chart's formulas named) is cleared first; a table
 * (ListObject) over the data, as PowerPoint makes one, is rebuilt over the new range
 * with its name and style, unless the series names cannot be table column names (empty
 * or repeated), in which case it is dropped (the chart does not need it).
 */
import type { Buffer as XlsxBuffer, TableStyleProperties } from 'exceljs';

type ExcelJsModule = typeof import('exceljs');
let excelJs: Promise<ExcelJsModule> | undefined;

/** ExcelJS, loaded on first use (it costs ~300 ms and ~30 MB per thread, so decks without charts never load it). */
function loadExcelJs(): Promise<ExcelJsModule> {
  excelJs ??= import('exceljs').then((m) => ((m as unknown as { default?: ExcelJsModule }).default ?? m) as ExcelJsModule);
  return excelJs;
}
import { OpcPackage, DEFAULT_PACKAGE_LIMITS, type PackageLimits } from '../../ooxml/opc/package.js';
import type { ChartData } from './chart-data.js';
import { xmlSafe } from './chart-data.js';
import type { ChartLayout } from './chart-xml.js';
import type { CellRange } from './refs.js';

/** Most cells cleared per old range (a formula may name a whole column). */
const MAX_CLEARED_ROWS = 10_000;
const MAX_CLEARED_COLS = 500;

/** Shape of a loaded ExcelJS table object (the typings of `getTables` are off). */
interface LoadedTable {
  table?: { name?: string; displayName?: string; tableRef?: string; ref?: string; style?: { theme?: string | null; showRowStripes?: boolean; showColumnStripes?: boolean; showFirstColumn?: boolean; showLastColumn?: boolean } };
}

/**
 * Limits a chart's embedded workbook must pass before ExcelJS reads it (bytes). ExcelJS
 * inflates through JSZip, which knows no limits: a workbook that is itself a zip bomb
 * (1 MB stored in a template, one sheet inflating to 1 GiB) took 7 s and 1.2 GiB of memory
 * before ExcelJS gave up on it. A chart's data block needs a few kilobytes; 64 MiB in all
 * leaves room for any real workbook.
 */
const WORKBOOK_LIMITS: PackageLimits = { ...DEFAULT_PACKAGE_LIMITS, maxEntries: 2_000, maxTotalUncompressedBytes: 64 * 1024 * 1024, maxEntryUncompressedBytes: 32 * 1024 * 1024 };

/** Result of {@link writeChartWorkbook}. */
export interface WorkbookResult {
  bytes: Uint8Array;
  /** True when the old bytes could not be read as a workbook and a new one was made. */
  replaced: boolean;
}

function overlaps(a: CellRange, b: { row1: number; col1: number; row2: number; col2: number }): boolean {
  return a.row1 <= b.row2 && b.row1 <= a.row2 && a.col1 <= b.col2 && b.col1 <= a.col2;
}

function parseA1Range(ref: string | undefined): { row1: number; col1: number; row2: number; col2: number } | undefined {
  const m = /^\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$/i.exec(ref ?? '');
  if (!m) return undefined;
  const col = (s: string): number => [...s.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
  return { col1: col(m[1]!), row1: Number(m[2]), col2: col(m[3] ?? m[1]!), row2: Number(m[4] ?? m[2]) };
}

/**
 * Writes `data` into a chart's workbook (or a new one) in the cells of `layout`.
 *
 * @param existing - the embedded workbook's bytes, or undefined to make a new workbook;
 *   bytes that are not a readable workbook within {@link WORKBOOK_LIMITS} are replaced by a new one
 * @param clear - ranges the chart named before (cleared on the layout's sheet)
 */
export async function writeChartWorkbook(existing: Uint8Array | undefined, layout: ChartLayout, data: ChartData, clear: readonly CellRange[]): Promise<WorkbookResult> {
  const ExcelJS = await loadExcelJs();
  let wb = new ExcelJS.Workbook();
  let replaced = false;
  if (existing) {
    try {
      // our zip reader first, with its limits: zip bombs, lying sizes and OLE files are refused before JSZip inflates anything
      await OpcPackage.open(existing, WORKBOOK_LIMITS);
      await wb.xlsx.load(Buffer.from(existing.buffer, existing.byteOffset, existing.byteLength) as unknown as XlsxBuffer);
    } catch {
      wb = new ExcelJS.Workbook();
      replaced = true;
    }
  }
  const sheetName = layout.sheet;
  let ws = wb.worksheets.find((w) => w.name.toLowerCase() === sheetName.toLowerCase());
  if (!ws) ws = wb.addWorksheet(sheetName.slice(0, 31));

  const ncat = data.categories.length;
  const nser = data.series.length;
  const newArea = { row1: 1, col1: 1, row2: 1 + ncat, col2: 1 + nser };

  // tables over the old or new data are rebuilt (or dropped)
  let kept: LoadedTable['table'] | undefined;
  for (const t of ws.getTables() as unknown as LoadedTable[]) {
    const model = t.table;
    const area = parseA1Range(model?.tableRef ?? model?.ref);
    if (!model?.name || !area) continue;
    const touches = overlaps({ sheet: sheetName, ...newArea }, area) || clear.some((r) => r.sheet.toLowerCase() === sheetName.toLowerCase() && overlaps(r, area));
    if (!touches) continue;
    kept ??= model;
    ws.removeTable(model.name);
    for (let r = area.row1; r <= Math.min(area.row2, area.row1 + MAX_CLEARED_ROWS); r++) for (let c = area.col1; c <= Math.min(area.col2, area.col1 + MAX_CLEARED_COLS); c++) ws.getCell(r, c).value = null;
  }

  // the old data goes
  for (const r of clear) {
    if (r.sheet.toLowerCase() !== sheetName.toLowerCase()) continue;
    const lastRow = Math.min(r.row2, r.row1 + MAX_CLEARED_ROWS, Math.max(ws.rowCount, r.row1));
    const lastCol = Math.min(r.col2, r.col1 + MAX_CLEARED_COLS, Math.max(ws.columnCount, r.col1));
    for (let row = r.row1; row <= lastRow; row++) for (let col = r.col1; col <= lastCol; col++) ws.getCell(row, col).value = null;
  }

  const names = data.series.map((s) => xmlSafe(s.name));
  const categoryValue = (c: string): string | number => (layout.numericCategories ? Number(c.trim()) : xmlSafe(c));
  const value = (v: number): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const rows = data.categories.map((c, i) => [categoryValue(c), ...data.series.map((s) => value(s.values[i] as number))]);

  const corner = ws.getCell(1, 1).value;
  const cornerText = typeof corner === 'string' && corner.trim() !== '' && !names.includes(corner) ? corner : ' ';
  const headers = [cornerText, ...names];
  const tableOk = kept !== undefined && new Set(headers.map((h) => h.trim().toLowerCase())).size === headers.length && headers.every((h) => h.trim() !== '' || h === ' ');
  if (kept && tableOk) {
    const style = kept.style ?? {};
    ws.addTable({
      name: kept.name!,
      displayName: kept.displayName ?? kept.name!,
      ref: 'A1',
      headerRow: true,
      totalsRow: false,
      style: {
        ...(style.theme ? { theme: style.theme as TableStyleProperties['theme'] } : {}),
        showFirstColumn: style.showFirstColumn ?? false,
        showLastColumn: style.showLastColumn ?? false,
        showRowStripes: style.showRowStripes ?? true,
        showColumnStripes: style.showColumnStripes ?? false,
      },
      columns: headers.map((name) => ({ name, filterButton: false })),
      rows,
    });
  } else {
    names.forEach((n, i) => (ws.getCell(1, i + 2).value = n));
    rows.forEach((row, r) => row.forEach((v, c) => (ws.getCell(r + 2, c + 1).value = v)));
  }
  // keep the category column readable
  const catCol = ws.getColumn(1);
  if (!catCol.width) catCol.width = Math.min(40, Math.max(10, ...data.categories.map((c) => c.length + 2)));
  const out = await wb.xlsx.writeBuffer();
  return { bytes: new Uint8Array(out as ArrayBuffer), replaced };
}

/**
 * Reads back the data block of a chart workbook (for checks and tests): row 1 from column
 * B holds series names, column A from row 2 categories.
 */
export async function readChartWorkbook(bytes: Uint8Array, sheet: string, categories: number, series: number): Promise<{ names: unknown[]; categories: unknown[]; values: unknown[][] }> {
  const ExcelJS = await loadExcelJs();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as XlsxBuffer);
  const ws = wb.worksheets.find((w) => w.name.toLowerCase() === sheet.toLowerCase());
  if (!ws) throw new Error(`the workbook has no sheet ${sheet}`);
  const v = (r: number, c: number): unknown => ws.getCell(r, c).value;
  return {
    names: Array.from({ length: series }, (_, i) => v(1, i + 2)),
    categories: Array.from({ length: categories }, (_, i) => v(i + 2, 1)),
    values: Array.from({ length: series }, (_, s) => Array.from({ length: categories }, (_, i) => v(i + 2, s + 2))),
  };
}
