/**
 * Table pagination (issue 4, item 2): which slides may be split, how a table's rows go
 * to pages at what size (a {@link PaginationPlan}, measured here and returned by the
 * slide's finishing as a value), and the slide data of each page (the deck writer builds
 * one slide per page).
 */
import type { Block, SlideData } from '../../domain/content.js';
import type { TableMeasure } from './table-fit.js';

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

/**
 * How a table-only slide is split: the table's rows of each page (indices into the table
 * block's rows, header rows repeated on every page) and the cell size every page is
 * written at, pt.
 */
export interface PaginationPlan {
  pages: number[][];
  sizePt: number;
}

/** Indices of the `is_header` rows of the slide's (only) table block. */
export function headerRowsOf(data: SlideData): Set<number> {
  const out = new Set<number>();
  for (const c of data.content ?? []) {
    for (const b of c.blocks) {
      if (b.type !== 'table' || !b.table?.table) continue;
      b.table.table.rows.forEach((r, i) => {
        if (r.is_header === true) out.add(i);
      });
      return out;
    }
  }
  return out;
}

/**
 * Pages for a table (issue 21, item 2: balanced pagination): as few pages as the minimum
 * size needs, the rows split evenly over them (row counts differing by at most one, header
 * rows repeated on each), at the largest half-point size at which every page fits; when no
 * even split of that many pages fits at any size, one page more, and so on.
 */
export function planPages(m: TableMeasure, avail: number, minPt: number, headers: Set<number>): PaginationPlan {
  const base = m.baseSizePt;
  const low = Math.min(minPt, base);
  const heights = new Map<number, number[]>();
  const heightsAt = (pt: number): number[] => {
    let h = heights.get(pt);
    if (!h) heights.set(pt, (h = m.heightsAt(pt / base)));
    return h;
  };
  const hdr = [...headers].sort((a, b) => a - b);
  const rows = heightsAt(low).map((_, i) => i).filter((i) => !headers.has(i));
  // candidate sizes, largest first: half points from the table's natural size (before a new
  // table's cells were shrunk to crowd every row into one area) down, then the minimum
  const sizes: number[] = [];
  for (let pt = Math.floor(m.naturalSizePt() * 2) / 2; pt > low; pt -= 0.5) sizes.push(pt);
  sizes.push(low);
  const fits = (pages: number[][], pt: number): boolean => {
    const h = heightsAt(pt);
    const headerH = hdr.reduce((sum, i) => sum + (h[i] ?? 0), 0);
    return pages.every((page) => page.reduce((sum, i) => sum + (h[i] ?? 0), headerH) <= avail);
  };
  // the fewest pages that can hold the rows at all (filled greedily at the minimum), then
  // more only if no even split of that many fits: the page count and the size are chosen
  // together, the largest size at which an even split fits
  const fewest = paginateRows(heightsAt(low), headers, avail).length;
  for (let count = fewest; count <= Math.max(fewest, rows.length); count++) {
    const pages = evenSplit(rows, count);
    const pt = sizes.find((size) => fits(pages, size));
    if (pt !== undefined) return { sizePt: pt, pages: pages.map((page) => [...hdr, ...page]) };
  }
  // a row too tall for a page even alone at the minimum: pages filled greedily, that one overflows (warned)
  return { sizePt: low, pages: paginateRows(heightsAt(low), headers, avail).map((page) => [...hdr, ...page]) };
}

/** `rows` in order over `count` pages whose lengths differ by at most one (the longer pages first). */
export function evenSplit(rows: readonly number[], count: number): number[][] {
  const pages: number[][] = [];
  const q = Math.floor(rows.length / count);
  const extra = rows.length % count;
  let at = 0;
  for (let p = 0; p < count; p++) {
    const n = q + (p < extra ? 1 : 0);
    pages.push(rows.slice(at, at + n));
    at += n;
  }
  return pages.filter((page) => page.length > 0);
}

/**
 * Splits body rows into pages: every page starts with the header rows and takes body rows
 * while they fit `availEmu` (a row is never split; a row taller than a page gets a page of
 * its own). Returns the body row indices of each page.
 */
export function paginateRows(heights: readonly number[], headerRows: ReadonlySet<number>, availEmu: number): number[][] {
  const headerH = [...headerRows].reduce((s, i) => s + (heights[i] ?? 0), 0);
  const pages: number[][] = [];
  let cur: number[] = [];
  let used = headerH;
  heights.forEach((h, i) => {
    if (headerRows.has(i)) return;
    if (cur.length && used + h > availEmu) {
      pages.push(cur);
      cur = [];
      used = headerH;
    }
    cur.push(i);
    used += h;
  });
  if (cur.length || pages.length === 0) pages.push(cur);
  return pages;
}
