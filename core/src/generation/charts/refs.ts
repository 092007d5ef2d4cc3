/**
 * Cell references and the formulas of chart data sources (`c:f`, ECMA-376 Part 1,
 * §21.2.2.65): `Sheet1!$A$2:$A$5`, `'My sheet'!$B$1`. Rows and columns are 1-based.
 */

/** A rectangular range of one worksheet. */
export interface CellRange {
  sheet: string;
  /** First row and column (1-based). */
  row1: number;
  col1: number;
  /** Last row and column (1-based, inclusive). */
  row2: number;
  col2: number;
}

/** `1` → `A`, `27` → `AA`. */
export function columnLetters(col: number): string {
  let s = '';
  let n = col;
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** `A` → 1, `AA` → 27; 0 for no letters. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** A sheet name as a formula writes it: quoted (with `'` doubled) unless it is a plain identifier. */
export function quoteSheet(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

/** The absolute A1 reference of a cell, `$B$3`. */
export function cellRef(row: number, col: number): string {
  return `$${columnLetters(col)}$${row}`;
}

/** The formula of a range: `Sheet1!$A$2:$A$5`, or `Sheet1!$B$1` for one cell. */
export function rangeFormula(r: CellRange): string {
  const a = cellRef(r.row1, r.col1);
  const b = cellRef(r.row2, r.col2);
  return `${quoteSheet(r.sheet)}!${a === b ? a : `${a}:${b}`}`;
}

const REF = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/;

/**
 * Parses a formula naming one range (`Sheet1!$A$2:$A$5`, `'a b'!B1`, `(Sheet1!$A$2)`);
 * undefined for anything else (unions, names, functions).
 */
export function parseRangeFormula(formula: string): CellRange | undefined {
  let f = formula.trim();
  if (f.startsWith('(') && f.endsWith(')')) f = f.slice(1, -1).trim();
  const m = /^(?:'((?:[^']|'')+)'|([^'!]+))!([^!]+)$/.exec(f);
  if (!m) return undefined;
  const sheet = m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2]!.trim();
  const parts = m[3]!.split(':');
  if (parts.length > 2) return undefined;
  const a = REF.exec(parts[0]!.trim());
  const b = REF.exec((parts[1] ?? parts[0]!).trim());
  if (!a || !b) return undefined;
  const c1 = columnNumber(a[1]!);
  const c2 = columnNumber(b[1]!);
  const r1 = Number(a[2]);
  const r2 = Number(b[2]);
  return { sheet, row1: Math.min(r1, r2), col1: Math.min(c1, c2), row2: Math.max(r1, r2), col2: Math.max(c1, c2) };
}
