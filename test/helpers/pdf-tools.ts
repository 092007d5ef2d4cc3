/**
 * Reading PDFs back with poppler's tools (pdftotext, pdffonts, pdftoppm, pdfinfo) for the
 * PDF export tests and bench, and the words a slide holds, to check a page's text against.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { PmlModel } from '../../core/src/ooxml/pml/parts.js';
import { renderPdf, visibleSlideParts } from '../../core/src/render/pdf.js';
import { renderSlide } from '../../core/src/render/render-slide.js';
import { grayFromPng, ssim } from '../fidelity/ssim.js';
import { NS } from '../../core/src/ooxml/xml.js';

/** True when the poppler tools these helpers call are installed. */
export function havePoppler(): boolean {
  return ['pdftotext', 'pdffonts', 'pdftoppm', 'pdfinfo'].every((cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0);
}

/** Runs `fn` with the PDF written to a temporary file. */
function withFile<T>(pdf: Uint8Array, fn: (path: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'sw-pdf-'));
  try {
    const path = join(dir, 'doc.pdf');
    writeFileSync(path, pdf);
    return fn(path, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of each page, in reading order (pdftotext's default mode; pages split at form feeds). */
export function pageTexts(pdf: Uint8Array): string[] {
  return withFile(pdf, (path) => {
    const out = execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { maxBuffer: 256 << 20 }).toString('utf8');
    const pages = out.split('\f');
    pages.pop(); // pdftotext ends every page, the last one too, with a form feed
    return pages;
  });
}

/** One row of pdffonts. */
export interface PdfFont {
  name: string;
  type: string;
  embedded: boolean;
  subset: boolean;
  unicode: boolean;
}

/** The fonts the document uses (pdffonts). */
export function pdfFonts(pdf: Uint8Array): PdfFont[] {
  return withFile(pdf, (path) => {
    const lines = execFileSync('pdffonts', [path]).toString('utf8').split('\n').slice(2).filter((l) => l.trim());
    // Columns are fixed-width: name, type, encoding, then emb sub uni as yes/no before the object id.
    return lines.map((l) => {
      const m = /\s(yes|no)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/.exec(l);
      return { name: l.slice(0, 36).trim(), type: l.slice(37, 54).trim(), embedded: m?.[1] === 'yes', subset: m?.[2] === 'yes', unicode: m?.[3] === 'yes' };
    });
  });
}

/** Page count and document information (pdfinfo). */
export function pdfInfo(pdf: Uint8Array): Record<string, string> {
  return withFile(pdf, (path) => {
    const out: Record<string, string> = {};
    for (const line of execFileSync('pdfinfo', ['-enc', 'UTF-8', path]).toString('utf8').split('\n')) {
      const i = line.indexOf(':');
      if (i > 0) out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
    }
    return out;
  });
}

/** Every page rasterized by pdftoppm (one run) to PNG at exactly `width` × `height` px, in page order. */
export function rasterizePages(pdf: Uint8Array, width: number, height: number): Uint8Array[] {
  return withFile(pdf, (path, dir) => {
    execFileSync('pdftoppm', ['-png', '-scale-to-x', String(width), '-scale-to-y', String(height), path, join(dir, 'p')]);
    // pdftoppm numbers pages p-1.png … or p-01.png …, padded to the page count's digits.
    return readdirSync(dir)
      .filter((f) => /^p-\d+\.png$/.test(f))
      .sort((a, b) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0]))
      .map((f) => readFileSync(join(dir, f)));
  });
}

/** Page `page` (1-based) rasterized by pdftoppm to PNG at exactly `width` × `height` px. */
export function rasterizePage(pdf: Uint8Array | string, page: number, width: number, height: number): Uint8Array {
  const run = (path: string, dir: string): Uint8Array => {
    const prefix = join(dir, `p${page}`);
    execFileSync('pdftoppm', ['-png', '-f', String(page), '-l', String(page), '-singlefile', '-scale-to-x', String(width), '-scale-to-y', String(height), path, prefix]);
    return readFileSync(`${prefix}.png`);
  };
  if (typeof pdf === 'string') {
    const dir = mkdtempSync(join(tmpdir(), 'sw-ppm-'));
    try {
      return run(pdf, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return withFile(pdf, run);
}

/**
 * Words for comparing texts: NFKC (ligatures and compatibility forms unfolded), lower
 * case, split at anything that is not a letter, mark or digit.
 */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((w) => w !== '');
}

/**
 * The words a slide shows as text: the runs (`a:t`) of its own shapes that are drawn
 * (hidden shapes left out; fields other than plain text — slide numbers, dates — left out,
 * as they are replaced when drawn). Text of the layout and master is not counted.
 */
export function slideWords(pkg: OpcPackage, slidePart: string): string[] {
  const root = pkg.getXml(slidePart).documentElement;
  if (!root) return [];
  const words: string[] = [];
  const ts = root.getElementsByTagNameNS(NS.a, 't');
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]!;
    let hidden = false;
    for (let p = t.parentNode as (typeof t) | null; p && p.nodeType === 1; p = p.parentNode as (typeof t) | null) {
      if (p.localName === 'fld' && p.namespaceURI === NS.a) hidden = true;
      // A shape is hidden by its non-visual properties' hidden="1"
      if (p.namespaceURI === NS.p && (p.localName === 'sp' || p.localName === 'graphicFrame' || p.localName === 'grpSp')) {
        const nv = [...childElements(p)].find((c) => (c.localName ?? '').startsWith('nv'));
        const cNvPr = nv ? [...childElements(nv)].find((c) => c.localName === 'cNvPr') : undefined;
        const h = cNvPr?.getAttribute('hidden');
        if (h === '1' || h === 'true') hidden = true;
      }
    }
    if (!hidden) words.push(...wordsOf(t.textContent ?? ''));
  }
  return words;
}

function* childElements<E extends { childNodes: { length: number; item(i: number): unknown } }>(el: E): Generator<E> {
  for (let i = 0; i < el.childNodes.length; i++) {
    const c = el.childNodes.item(i) as E & { nodeType: number };
    if (c.nodeType === 1) yield c;
  }
}

/**
 * Share of `expected` words found in `actual`, counted as multisets (a word the slide has
 * twice must be on the page twice); 1 when nothing is expected.
 */
export function wordCoverage(expected: readonly string[], actual: readonly string[]): number {
  if (expected.length === 0) return 1;
  const have = new Map<string, number>();
  for (const w of actual) have.set(w, (have.get(w) ?? 0) + 1);
  let found = 0;
  for (const w of expected) {
    const n = have.get(w) ?? 0;
    if (n > 0) {
      found++;
      have.set(w, n - 1);
    }
  }
  return found / expected.length;
}

/** Thresholds of issue 22: share of a slide's words its page's text holds, and SSIM of a page against our PNG preview. */
export const MIN_WORD_COVERAGE = 0.99;
export const MIN_SSIM_VS_PNG = 0.97;
/** Width at which pages and previews are compared, px (SSIM in 8 px windows). */
export const COMPARE_WIDTH_PX = 400;

/** One page of a checked PDF. */
export interface PageRow {
  doc: string;
  page: number;
  /** Share of the slide's words found in the page's text (0–1). */
  coverage: number;
  /** The slide's words. */
  words: number;
  /** SSIM of the rasterized page against our PNG preview of the slide. */
  ssim: number;
}

/** What {@link checkPdf} finds. */
export interface PdfCheck {
  pages: number;
  visibleSlides: number;
  pageSizeMatches: boolean;
  fonts: number;
  fontsNotEmbedded: string[];
  bytes: number;
  renderMs: number;
  rows: PageRow[];
}

/**
 * Renders a presentation to PDF and reads it back: page count and size, fonts, and per
 * page the share of the slide's words in its text and the SSIM against our PNG preview.
 */
export async function checkPdf(bytes: Uint8Array, label: string): Promise<PdfCheck> {
  const pkg = await OpcPackage.open(bytes);
  const visible = visibleSlideParts(pkg);
  const t0 = performance.now();
  const { pdf } = await renderPdf(pkg);
  const renderMs = performance.now() - t0;
  const info = pdfInfo(pdf);
  const model = new PmlModel(pkg);
  const wPt = model.presentation.slideWidthEmu / 12700;
  const hPt = model.presentation.slideHeightEmu / 12700;
  const size = /^([\d.]+) x ([\d.]+) pts/.exec(info['Page size'] ?? '');
  const pageSizeMatches = visible.length === 0 || (!!size && Math.abs(Number(size[1]) - wPt) < 0.01 && Math.abs(Number(size[2]) - hPt) < 0.01);
  const fonts = visible.length ? pdfFonts(pdf) : [];
  const rows: PageRow[] = [];
  if (visible.length) {
    const texts = pageTexts(pdf);
    const previews = await Promise.all(visible.map((part) => renderSlide(pkg, part, { widthPx: COMPARE_WIDTH_PX })));
    const pages = rasterizePages(pdf, previews[0]!.width_px, previews[0]!.height_px);
    for (const [i, part] of visible.entries()) {
      const expected = slideWords(pkg, part);
      const coverage = wordCoverage(expected, wordsOf(texts[i] ?? ''));
      const s = pages[i] ? ssim(await grayFromPng(previews[i]!.png, COMPARE_WIDTH_PX), await grayFromPng(pages[i]!, COMPARE_WIDTH_PX)) : 0;
      rows.push({ doc: label, page: i + 1, coverage, words: expected.length, ssim: s });
    }
  }
  return {
    pages: Number(info.Pages ?? 0),
    visibleSlides: visible.length,
    pageSizeMatches,
    fonts: fonts.length,
    fontsNotEmbedded: fonts.filter((f) => !f.embedded || !f.unicode).map((f) => f.name),
    bytes: pdf.length,
    renderMs,
    rows,
  };
}
