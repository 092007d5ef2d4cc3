/**
 * The referee tools of `../shared/tools` (structural lint, XSD check) and the rendering
 * tools (LibreOffice, poppler) wrapped for tests.
 *
 * The lint and XSD helpers report a missing tool as `skipped: '<reason>'` (record it with
 * {@link refereeSkipped}); the rendering helpers throw {@link ToolMissingError}, and
 * {@link renderingSkipReason} tells a test up front whether to skip on a machine without
 * LibreOffice or poppler. With `SLIDEWRIGHT_TEST_STRICT=1` (CI) nothing is skipped: a
 * missing tool is a failure.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import { sharedDir, strictTests } from './corpus.js';

/** One finding of `ooxml-lint.py`. */
export interface LintFinding {
  part: string;
  check: string;
  message: string;
}

/** Result of {@link lintPptx}; `skipped` is set (and `errors` empty) when python3 or the tool is missing. */
export interface LintResult {
  errors: LintFinding[];
  skipped?: string;
}

/** Result of {@link xsdCheck}: `ok` when every checked part validates; `output` is the tool's text. */
export interface XsdResult {
  ok: boolean;
  output: string;
  skipped?: string;
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the program could not be started at all (ENOENT). */
  missing: boolean;
}

function run(cmd: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { code?: string | number }) | null;
      if (e && e.code === 'ENOENT') {
        resolve({ code: null, stdout: '', stderr: String(e.message), missing: true });
        return;
      }
      const code = e ? (typeof e.code === 'number' ? e.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr), missing: false });
    });
  });
}

const toolsDir = join(sharedDir, 'tools');

/** A referee that could not run: skipped, or (strict mode) turned into a failure by the caller. */
function absent<R extends { skipped?: string }>(reason: string, failed: R, empty: R): R {
  return strictTests ? failed : { ...empty, skipped: reason };
}

const noLint: LintResult = { errors: [] };
const noXsd: XsdResult = { ok: false, output: '' };

/**
 * Records a referee check that did not run as a visible skipped test and returns true, or
 * returns false when the check ran: `if (!refereeSkipped(t, lint)) t.same(lint.errors, [])`.
 */
export function refereeSkipped(t: Test, result: { skipped?: string }): boolean {
  if (!result.skipped) return false;
  void t.test(result.skipped, { skip: result.skipped }, () => {});
  return true;
}

/**
 * Runs `ooxml-lint.py --json` on one file.
 *
 * @param path - the .pptx to check
 * @returns every finding (no `--ignore`); compare against the source templates' own findings
 */
export async function lintPptx(path: string): Promise<LintResult> {
  const tool = join(toolsDir, 'ooxml-lint.py');
  if (!existsSync(tool)) return absent<LintResult>(`ooxml-lint.py not found at ${tool} (the shared referee tools)`, { errors: [{ part: '', check: 'referee-missing', message: `ooxml-lint.py not found at ${tool}` }] }, noLint);
  const r = await run('python3', [tool, '--json', '--all', path], 120_000);
  if (r.missing) return absent<LintResult>('python3 is not installed', { errors: [{ part: '', check: 'referee-missing', message: 'python3 is not installed' }] }, noLint);
  let parsed: { files?: Array<{ errors?: Array<{ part?: string; check?: string; message?: string }> }> };
  try {
    parsed = JSON.parse(r.stdout) as typeof parsed;
  } catch {
    return { errors: [{ part: '', check: 'internal', message: `ooxml-lint output is not JSON (exit ${r.code}): ${r.stderr.slice(0, 500)}` }] };
  }
  const errors: LintFinding[] = [];
  for (const f of parsed.files ?? []) {
    for (const e of f.errors ?? []) errors.push({ part: e.part ?? '', check: e.check ?? '', message: e.message ?? '' });
  }
  return { errors };
}

/**
 * {@link lintPptx} on a deck held in memory: written as `name` into a folder of the test's
 * own (removed with the test), then linted.
 */
export async function lintPptxBytes(t: Test, bytes: Uint8Array, name = 'deck.pptx'): Promise<LintResult> {
  const path = join(t.testdir(), name);
  writeFileSync(path, bytes);
  return lintPptx(path);
}

/** Runs `ooxml-xsd-check.sh` (presentation, slides, layouts, masters against pml.xsd). */
export async function xsdCheck(path: string, opts: { all?: boolean } = {}): Promise<XsdResult> {
  const tool = join(toolsDir, 'ooxml-xsd-check.sh');
  if (!existsSync(tool)) return absent<XsdResult>(`ooxml-xsd-check.sh not found at ${tool} (the shared referee tools)`, { ok: false, output: `ooxml-xsd-check.sh not found at ${tool}` }, noXsd);
  const r = await run('bash', [tool, ...(opts.all ? ['--all'] : []), path], 300_000);
  if (r.missing) return absent<XsdResult>('bash is not installed', { ok: false, output: 'bash is not installed' }, noXsd);
  const output = `${r.stdout}${r.stderr}`;
  if (r.code === 3) return absent<XsdResult>('xmllint or python3 is missing (ooxml-xsd-check exit 3)', { ok: false, output }, noXsd);
  return { ok: r.code === 0, output };
}

/** Thrown by the rendering helpers when the program they need is not installed; carries a skip reason. */
export class ToolMissingError extends Error {
  override readonly name = 'ToolMissingError';
  constructor(readonly tool: string) {
    super(`${tool} is not installed`);
  }
}

/** Whether a program is on PATH (for `t.skip` before calling a helper). */
export async function hasTool(cmd: string): Promise<boolean> {
  const r = await run('sh', ['-c', `command -v ${JSON.stringify(cmd)}`], 10_000);
  return !r.missing && r.code === 0;
}

/**
 * The reason to skip a rendering test, or undefined when soffice and poppler are all
 * installed (always undefined in strict mode, so the test runs and fails on the missing
 * program): `if (reason) t.skip(reason)`.
 */
export async function renderingSkipReason(): Promise<string | undefined> {
  if (strictTests) return undefined;
  const missing: string[] = [];
  for (const tool of ['soffice', 'pdfinfo', 'pdftotext', 'pdftoppm']) if (!(await hasTool(tool))) missing.push(tool);
  return missing.length ? `not installed: ${missing.join(', ')}` : undefined;
}

/**
 * Converts a .pptx to PDF with LibreOffice (headless, a throw-away user profile
 * `$TMPDIR/lo-profile-<unique>`, wrapped in `timeout 180`).
 *
 * @returns the PDF path in `outDir`
 * @throws ToolMissingError when soffice is missing; Error when it ran but wrote no PDF
 */
export async function convertToPdf(pptxPath: string, outDir: string): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  const profile = join(tmpdir(), `lo-profile-${process.pid}-${randomUUID()}`);
  try {
    const r = await run(
      'timeout',
      ['180', 'soffice', '--headless', '--norestore', `-env:UserInstallation=file://${profile}`, '--convert-to', 'pdf', '--outdir', outDir, pptxPath],
      200_000,
    );
    if (r.missing || r.code === 127) throw new ToolMissingError('soffice');
    const pdf = join(outDir, basename(pptxPath).replace(/\.[^.]+$/, '') + '.pdf');
    if (!existsSync(pdf)) throw new Error(`LibreOffice wrote no PDF (exit ${r.code}): ${r.stderr.slice(0, 1000)}`);
    return pdf;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * Number of pages of a PDF (poppler `pdfinfo`).
 * @throws ToolMissingError when pdfinfo is missing
 */
export async function pdfPageCount(pdf: string): Promise<number> {
  const r = await run('pdfinfo', [pdf], 60_000);
  if (r.missing) throw new ToolMissingError('pdfinfo');
  const m = /^Pages:\s+(\d+)/m.exec(r.stdout);
  if (!m) throw new Error(`pdfinfo gave no page count: ${r.stderr.slice(0, 500)}`);
  return Number(m[1]);
}

/**
 * Text of a PDF (poppler `pdftotext -layout`); pages are separated by form feeds (`\f`).
 * @throws ToolMissingError when pdftotext is missing
 */
export async function pdfText(pdf: string): Promise<string> {
  const r = await run('pdftotext', ['-layout', pdf, '-'], 60_000);
  if (r.missing) throw new ToolMissingError('pdftotext');
  if (r.code !== 0) throw new Error(`pdftotext failed (exit ${r.code}): ${r.stderr.slice(0, 500)}`);
  return r.stdout;
}

/** {@link pdfText} split into pages. */
export async function pdfPages(pdf: string): Promise<string[]> {
  const pages = (await pdfText(pdf)).split('\f');
  if (pages.length > 0 && pages[pages.length - 1]!.trim() === '') pages.pop();
  return pages;
}

/** Renders PDF pages to PNG (`pdftoppm -png -r <dpi>`); returns the PNG paths in page order. */
export async function pdfToPng(pdf: string, outDir: string, dpi = 50): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const prefix = join(outDir, basename(pdf).replace(/\.pdf$/, ''));
  const r = await run('pdftoppm', ['-png', '-r', String(dpi), pdf, prefix], 120_000);
  if (r.missing) throw new ToolMissingError('pdftoppm');
  const stem = basename(prefix);
  return readdirSync(outDir)
    .filter((f) => f.startsWith(`${stem}-`) && f.endsWith('.png'))
    .sort((a, b) => Number(/-(\d+)\.png$/.exec(a)?.[1]) - Number(/-(\d+)\.png$/.exec(b)?.[1]))
    .map((f) => join(outDir, f));
}

/**
 * Findings of `after` whose check the `before` findings (e.g. the source templates' own
 * lint) never raised. Matched by check only: part names differ between a template and
 * a deck generated from it.
 */
export function newFindings(after: readonly LintFinding[], before: readonly LintFinding[]): LintFinding[] {
  const known = new Set(before.map((f) => f.check));
  return after.filter((f) => !known.has(f.check));
}

/**
 * Converts decks to PDF in `outDir` with LibreOffice: `batch` decks per soffice call (each
 * call with its own profile, 600 s limit), `parallel` calls at a time. A deck LibreOffice
 * cannot convert simply has no PDF afterwards.
 *
 * @throws ToolMissingError when soffice is missing
 */
export async function convertDecksToPdf(files: readonly string[], outDir: string, opts: { batch?: number; parallel?: number } = {}): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const batches: string[][] = [];
  const size = opts.batch ?? 6;
  for (let i = 0; i < files.length; i += size) batches.push(files.slice(i, i + size));
  const worker = async (): Promise<void> => {
    for (let b = batches.shift(); b; b = batches.shift()) {
      const profile = join(tmpdir(), `lo-batch-${process.pid}-${randomUUID()}`);
      try {
        const r = await run('timeout', ['600', 'soffice', '--headless', '--norestore', `-env:UserInstallation=file://${profile}`, '--convert-to', 'pdf', '--outdir', outDir, ...b], 620_000);
        if (r.missing || r.code === 127) throw new ToolMissingError('soffice');
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    }
  };
  await Promise.all(Array.from({ length: opts.parallel ?? 2 }, worker));
}

/** A word of a PDF page and its box, points from the page's top-left corner. */
export interface PdfWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The words of each page of a PDF with their boxes (poppler `pdftotext -bbox`), and each
 * page's size in points.
 *
 * @throws ToolMissingError when pdftotext is missing
 */
export async function pdfWordBoxes(pdf: string): Promise<Array<{ width: number; height: number; words: PdfWord[] }>> {
  const r = await run('pdftotext', ['-bbox', pdf, '-'], 120_000);
  if (r.missing) throw new ToolMissingError('pdftotext');
  const pages: Array<{ width: number; height: number; words: PdfWord[] }> = [];
  const re = /<page width="([\d.]+)" height="([\d.]+)">|<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g;
  for (let m = re.exec(r.stdout); m; m = re.exec(r.stdout)) {
    if (m[1]) pages.push({ width: Number(m[1]), height: Number(m[2]), words: [] });
    else pages[pages.length - 1]?.words.push({ x0: Number(m[3]), y0: Number(m[4]), x1: Number(m[5]), y1: Number(m[6]), text: decodeXmlText(m[7]!) });
  }
  return pages;
}

/** pdftotext's XML escapes in a word's text undone. */
function decodeXmlText(s: string): string {
  return s.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!);
}

/**
 * Installed faces made to the metrics of the Office faces they stand for (fonts-crosextra-carlito,
 * -caladea, fonts-liberation2): LibreOffice drawing one of these measures as the original.
 */
const METRIC_COMPATIBLE: Readonly<Record<string, string>> = {
  calibri: 'carlito',
  cambria: 'caladea',
  arial: 'liberation sans',
  helvetica: 'liberation sans',
  'times new roman': 'liberation serif',
  'courier new': 'liberation mono',
};

/**
 * The face fontconfig gives LibreOffice for `face` when that is neither installed nor stood
 * for by a metric-compatible face (fitting measures the named face, as PowerPoint draws it:
 * LibreOffice's wider or narrower substitute is not what the fit was made for); undefined
 * when LibreOffice draws the named face's metrics.
 */
export function libreOfficeSubstitute(face: string): string | undefined {
  const known = substitutes.get(face);
  if (known !== undefined) return known || undefined;
  const r = spawnSync('fc-match', ['-f', '%{family[0]}', face], { encoding: 'utf8' });
  const got = (r.stdout ?? '').trim().toLowerCase();
  const want = face.toLowerCase();
  const substitute = !got || got === want || METRIC_COMPATIBLE[want] === got ? '' : r.stdout.trim();
  substitutes.set(face, substitute);
  return substitute || undefined;
}

/** fc-match's answers by face ('' for none needed). */
const substitutes = new Map<string, string>();
