/** Output helpers of the CLI: tables, sizes, and reading JSON or YAML request files. */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Json } from './client.js';
import { CliError } from './errors.js';

/** A usage problem (bad file, missing key, bad option): exit code 1, no API call made. */
export class UsageError extends CliError {
  override readonly name = 'UsageError';
  /**
   * @param message - what the user reads
   * @param options - `cause`: the underlying error (e.g. the failed read)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('usage', message, 1, options);
  }
}

/**
 * Renders rows as left-aligned columns under a header line. Line breaks inside a cell (a
 * layout named "Section\nHeader", a title with a soft break) become one space, so every
 * row stays on one line.
 */
export function table(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cells = [header, ...rows].map((r) => r.map((c) => (c === null || c === undefined ? '' : String(c).replace(/\s*[\r\n\v\f\u2028\u2029]+\s*/g, ' '))));
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd()).join('\n');
}

/** A byte count for people: `49.1 kB`. */
export function size(bytes: unknown): string {
  const n = typeof bytes === 'number' ? bytes : Number(bytes);
  if (!Number.isFinite(n)) return '';
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}

/**
 * Reads a request document: JSON for `.json`, YAML for `.yaml`/`.yml` (any other
 * extension: YAML, which also reads JSON). The top level must be an object.
 */
export function readDocument(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { cause: e });
  }
  let doc: unknown;
  try {
    doc = extname(file).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new UsageError(`${file} is not valid ${extname(file).toLowerCase() === '.json' ? 'JSON' : 'YAML'}: ${(e as Error).message}`, { cause: e });
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new UsageError(`${file}: the top level must be an object`);
  return doc as Record<string, unknown>;
}

/** A field of an API answer as text; absent fields (the API may leave any out) as ''. */
const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/**
 * The 1-based slide a 0-based `slide_index` of the API names: `slide 3` for 2, and
 * `deck` for -1 (an issue of the whole deck). Anything that is not an integer is shown as
 * given, so a surprising value is never hidden.
 */
export function slideLabel(slideIndex: unknown): string {
  const n = typeof slideIndex === 'number' ? slideIndex : Number(slideIndex);
  if (slideIndex === null || slideIndex === undefined || slideIndex === '' || !Number.isInteger(n)) return `slide ${text(slideIndex) || '?'}`;
  return n < 0 ? 'deck' : `slide ${n + 1}`;
}

/**
 * One error or warning of a generation status as a line:
 * `warning: slide 3 (lay_…): text_shrunk Title shrunk to 18 pt`. `slide_index` is 0-based
 * in the API and printed 1-based (the slide's position in the deck request).
 */
export function describeIssue(kind: 'error' | 'warning', issue: Json): string {
  const id = text(issue['template_slide_id']);
  return `${kind}: ${slideLabel(issue['slide_index'])}${id ? ` (${id})` : ''}: ${[text(issue['code']), text(issue['message'])].filter(Boolean).join(' ')}`;
}

/** The errors, then the warnings, of a generation status record, one line each. */
export function describeIssues(status: Json): string[] {
  const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
  return [...list(status['errors']).map((e) => describeIssue('error', e)), ...list(status['warnings']).map((w) => describeIssue('warning', w))];
}

/**
 * The layouts (grouped by slide master, each master with its number and name) and the
 * slides of an analysis's `results`, as text. A template with several masters often
 * repeats the same layout names under each; the master headings tell them apart, and the
 * slides table gains a master column.
 */
export function describeAnalysis(results: Json): string {
  const layouts = (Array.isArray(results['layouts']) ? results['layouts'] : []) as Json[];
  const slides = (Array.isArray(results['slides']) ? results['slides'] : []) as Json[];
  const masters = mastersOf(results, layouts);
  const masterOfLayout = new Map<string, MasterGroup>();
  for (const m of masters) for (const l of m.layouts) masterOfLayout.set(text(l['slide_id']), m);

  const indent = (s: string): string => s.replace(/^/gm, '  ');
  const parts: string[] = [];
  const inMasters = masters.length > 1 ? ` in ${masters.length} masters` : '';
  parts.push(`Layouts (${layouts.length}${inMasters}) — use slide_id as template_slide_id for a new slide from that layout:`);
  for (const m of masters) {
    parts.push('');
    parts.push(`${m.label} (${m.layouts.length} layout${m.layouts.length === 1 ? '' : 's'})`);
    if (m.layouts.length) parts.push(indent(table(['slide_id', 'type', 'name'], m.layouts.map((l) => [l['slide_id'], l['type'], l['name']]))));
  }
  parts.push('');
  parts.push(`Slides (${slides.length}):`);
  if (slides.length) {
    const severalMasters = masters.length > 1;
    const header = severalMasters ? ['slide_id', 'number', 'layout', 'master', 'title'] : ['slide_id', 'number', 'layout', 'title'];
    const rows = slides.map((s) => {
      const master = masterOfLayout.get(text(s['layout_slide_id']));
      return severalMasters ? [s['slide_id'], s['slide_number'], s['layout_name'], master ? master.number : '', s['title']] : [s['slide_id'], s['slide_number'], s['layout_name'], s['title']];
    });
    parts.push(table(header, rows));
  }
  return parts.join('\n');
}

/** The layouts of one slide master, with the heading that names it. */
interface MasterGroup {
  /** 1-based master number, as printed. */
  number: number;
  /** `Master 1 of 2: Blue Design`. */
  label: string;
  layouts: Json[];
}

/**
 * Groups the layouts by `master_index` in the order of `results.masters` (names from
 * there); layouts of a master the results do not list get a group of their own, so none
 * is dropped.
 */
function mastersOf(results: Json, layouts: Json[]): MasterGroup[] {
  const listed = (Array.isArray(results['masters']) ? results['masters'] : []) as Json[];
  const byIndex = new Map<string, { name: string; layouts: Json[] }>();
  for (const m of listed) byIndex.set(text(m['master_index']), { name: text(m['name']), layouts: [] });
  for (const l of layouts) {
    const key = text(l['master_index']);
    let group = byIndex.get(key);
    if (!group) byIndex.set(key, (group = { name: '', layouts: [] }));
    group.layouts.push(l);
  }
  const groups = [...byIndex.values()];
  return groups.map((g, i) => ({
    number: i + 1,
    label: `Master ${i + 1} of ${groups.length}${g.name ? `: ${g.name}` : ''}`,
    layouts: g.layouts,
  }));
}
