/**
 * Table pagination (issue 4, item 2): which slides may be split, and the slide data of
 * each page. The split itself (how many rows per page, at what size) is measured in
 * `../slide/finish-slide.ts`; `../deck/build-deck.ts` builds one slide per page.
 */
import type { Block, SlideData } from '../../domain/content.js';

/** Marker appended to the title of continuation slides. */
export const CONTINUATION_MARK = ' (cont.)';

/**
 * True for a table-only slide: its content holds exactly one table block and no other
 * block with content (text bullets, charts, images). Title, subtitle, footer, header and
 * footnote do not count: they are repeated on every page.
 */
export function isTableOnly(data: SlideData): boolean {
  let tables = 0;
  for (const c of data.content ?? []) {
    for (const b of c.blocks) {
      if (b.type === 'table') tables += b.table?.table && b.table.table.rows.length > 0 ? 1 : 0;
      else if (b.type === 'text') {
        if ((b.text?.bullets ?? []).some((x) => x !== '')) return false;
      } else return false;
    }
  }
  return tables === 1;
}

/**
 * The slide data of one page of a paginated table: the table block keeps the data rows
 * `rows` (indices into its rows, header rows included, in order); pages after the first
 * get {@link CONTINUATION_MARK} after the title.
 */
export function pageSlideData(data: SlideData, rows: readonly number[], page: number): SlideData {
  const content = (data.content ?? []).map((col) => ({
    ...col,
    blocks: col.blocks.map((b): Block => {
      if (b.type !== 'table' || !b.table?.table) return b;
      const all = b.table.table.rows;
      return { ...b, table: { ...b.table, table: { ...b.table.table, rows: rows.map((i) => all[i]!).filter((r) => r !== undefined) } } };
    }),
  }));
  const title = page > 0 && data.title != null && data.title !== '' ? `${data.title}${CONTINUATION_MARK}` : data.title;
  return { ...data, title, content };
}
