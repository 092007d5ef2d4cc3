/**
 * The input signature: what a slide's content asks for, over the nine count keys, plus the
 * detail capacity scoring needs (bullets and their widths, table rows, columns).
 */
import type { Column, SlideData, Table } from '../domain/content.js';
import type { SlideRole } from '../doctor/types.js';
import { measure } from '../text/font-metrics.js';
import { zeroCounts, type ColumnSignature, type InputSignature } from './types.js';

/** Face bullet widths are measured in (em at 1 pt). */
export const REFERENCE_FONT = 'Calibri';

function present(s: string | undefined | null): boolean {
  return typeof s === 'string' && s.trim() !== '';
}

function columnSignature(col: Column): ColumnSignature {
  const bulletWidths: number[] = [];
  let largest: Table | undefined;
  let charts = 0;
  let images = 0;
  for (const b of col.blocks) {
    if (b.type === 'text' && b.text) {
      for (const line of b.text.bullets) bulletWidths.push(Math.round(measure(line, { name: REFERENCE_FONT, size_pt: 1 }) * 100) / 100);
    } else if (b.type === 'table' && b.table?.table) {
      const t = b.table.table;
      if (!largest || t.rows.length > largest.rows.length) largest = t;
    } else if (b.type === 'chart' && b.chart) charts++;
    else if (b.type === 'image' && b.image) images++;
  }
  let headerRows = 0;
  if (largest) for (const r of largest.rows) {
    if (!r.is_header) break;
    headerRows++;
  }
  const kind: ColumnSignature['kind'] = largest ? 'table' : bulletWidths.length ? 'text' : charts ? 'chart' : images ? 'image' : 'empty';
  return {
    kind,
    header: present(col.header),
    bullets: bulletWidths.length,
    bullet_widths_em: bulletWidths,
    table_rows: largest?.rows.length ?? 0,
    table_cols: largest ? Math.max(0, ...largest.rows.map((r) => r.cells.length)) : 0,
    table_header_rows: headerRows,
    charts,
    images,
  };
}

/**
 * The signature of one slide's content.
 *
 * Counts: `title` and `subtitle` 1 each when given (non-blank); each column with text or a
 * table takes one content area, counted under `table` when it holds a table, else `body`
 * (generation puts its text and tables in one placeholder); every chart block adds 1 to
 * `chart` and every image block 1 to `object` (generation places each in a placeholder of
 * its own); a column header adds 1 to `body`; `footer` counts the
 * footer text and the header text (footer-area placeholders, the header else the layout's
 * header band; `header` says whether the header is one of them); `textbox` counts
 * the footnote (it fills the text box marked "footnote"); `custom_field` is 0 (slide data
 * carries no custom fields).
 */
export function signature(slideData: SlideData): InputSignature {
  const counts = zeroCounts();
  if (present(slideData.title)) counts.title = 1;
  if (present(slideData.subtitle)) counts.subtitle = 1;
  if (present(slideData.footer)) counts.footer++;
  if (present(slideData.header)) counts.footer++;
  if (present(slideData.footnote)) counts.textbox = 1;
  const columns = (slideData.content ?? []).map(columnSignature).filter((c) => c.kind !== 'empty' || c.header);
  for (const c of columns) {
    if (c.kind === 'table') counts.table++;
    else if (c.kind === 'text') counts.body++;
    counts.chart += c.charts;
    counts.object += c.images;
    if (c.header) counts.body++;
  }
  const content = columns.filter((c) => c.kind !== 'empty');
  let role: SlideRole;
  if (content.length === 0) role = counts.title && counts.subtitle ? 'title' : counts.title ? 'title-only' : counts.subtitle ? 'title' : 'blank';
  else if (content.length === 1) role = ({ table: 'table', chart: 'chart', image: 'picture', text: 'content', empty: 'content' } as const)[content[0]!.kind];
  else if (content.length === 2) role = content.every((c) => c.header) ? 'comparison' : 'two-content';
  else role = 'other';
  const largest = columns.reduce<ColumnSignature | undefined>((best, c) => (c.table_rows > (best?.table_rows ?? 0) ? c : best), undefined);
  return {
    counts,
    header: present(slideData.header),
    expected_role: role,
    columns: columns.length,
    bullets: columns.reduce((n, c) => n + c.bullets, 0),
    table_rows: largest?.table_rows ?? 0,
    table_cols: largest?.table_cols ?? 0,
    column_details: columns,
  };
}
