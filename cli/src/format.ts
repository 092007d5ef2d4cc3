/** Output helpers of the CLI: tables, sizes, and reading JSON or YAML request files. */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';

/** A usage problem (bad file, missing key, bad option): exit code 1, no API call made. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Renders rows as left-aligned columns under a header line. */
export function table(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cells = [header, ...rows].map((r) => r.map((c) => (c === null || c === undefined ? '' : String(c))));
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
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = extname(file).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new UsageError(`${file} is not valid ${extname(file).toLowerCase() === '.json' ? 'JSON' : 'YAML'}: ${(e as Error).message}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new UsageError(`${file}: the top level must be an object`);
  return doc as Record<string, unknown>;
}
