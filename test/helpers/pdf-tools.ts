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

/** The pages (up to `lastPage`) rasterized by pdftoppm (one run) to PNG at exactly `width` × `height` px, in page order. */
export function rasterizePages(pdf: Uint8Array, width: number, height: number, lastPage?: number): Uint8Array[] {
  if (lastPage === 0) return [];
  return withFile(pdf, (path, dir) => {
    execFileSync('pdftoppm', ['-png', ...(lastPage ? ['-l', String(lastPage)] : []), '-scale-to-x', String(width), '-scale-to-y', String(height), path, join(dir, 'p')]);
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
 * Words for comparing texts: NFKC (ligatures, Arabic presentation forms and other
 * compatibility forms unfolded), lower case, split at anything that is not a letter, mark
 * or digit; Han, kana and Hangul characters count one word each (those scripts do not
 * space their words).
 */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])/gu, ' $1 ')
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((w) => w !== '');
}

/**
 * The words a slide shows as text: its own shapes' paragraphs (`a:p`, runs joined as
 * drawn), hidden shapes left out, fields (slide numbers, dates) left out as they are
 * replaced when drawn. Text of the layout and master is not counted.
 */
export function slideWords(pkg: OpcPackage, slidePart: string): string[] {
  const root = pkg.getXml(slidePart).documentElement;
  if (!root) return [];
  const words: string[] = [];
  const paragraphs = root.getElementsByTagNameNS(NS.a, 'p');
  for (let i = 0; i < paragraphs.length; i++) {
    const p = paragraphs[i]!;
    if (inHiddenShape(p)) continue;
    let text = '';
    for (const r of childElements(p)) {
      if (r.localName === 'r') text += [...childElements(r)].find((c) => c.localName === 't')?.textContent ?? '';
      else if (r.localName === 'br') text += ' ';
    }
    words.push(...wordsOf(text));
  }
  return words;
}

type El = ReturnType<OpcPackage['getXml']>['documentElement'] & object;

/** True when an element sits in a shape hidden by its non-visual properties (`hidden="1"`). */
function inHiddenShape(el: El): boolean {
  for (let p = el.parentNode as El | null; p && p.nodeType === 1; p = p.parentNode as El | null) {
    if (p.namespaceURI !== NS.p || !['sp', 'graphicFrame', 'grpSp', 'pic'].includes(p.localName ?? '')) continue;
    const nv = [...childElements(p)].find((c) => (c.localName ?? '').startsWith('nv'));
    const cNvPr = nv ? [...childElements(nv)].find((c) => c.localName === 'cNvPr') : undefined;
    const h = cNvPr?.getAttribute('hidden');
    if (h === '1' || h === 'true') return true;
  }
  return false;
}

function* childElements(el: El): Generator<El> {
  for (let i = 0; i < el.childNodes.length; i++) {
    const c = el.childNodes.item(i) as El | null;
    if (c && c.nodeType === 1) yield c;
  }
}

/**
 * Share of `expected` words found in a page's text, counted as multisets (a word the
 * slide has twice must be on the page twice); a word not found as a word counts when the
 * page's text holds it with its spaces removed (pdftotext joins words set close together,
 * e.g. a slide number beside a label). 1 when nothing is expected.
 */
export function wordCoverage(expected: readonly string[], pageText: string): number {
  if (expected.length === 0) return 1;
  const actual = wordsOf(pageText);
  const joined = actual.join('');
  const have = new Map<string, number>();
  for (const w of actual) have.set(w, (have.get(w) ?? 0) + 1);
  let found = 0;
  for (const w of expected) {
    const n = have.get(w) ?? 0;
    if (n > 0) {
      found++;
      have.set(w, n - 1);
    } else if (joined.includes(w)) {
      found++;
    }
  }
  return found / expected.length;
}

/** Thresholds of issue 22: share of a slide's words its page's text holds, and SSIM of a page against our PNG preview. */
export const MIN_WORD_COVERAGE = 0.99;
export const MIN_SSIM_VS_PNG = 0.97;
/**
 * Pages and previews are drawn {@link RENDER_WIDTH_PX} wide and compared box-downscaled to
 * {@link COMPARE_WIDTH_PX} (SSIM in 8 px windows): at preview size the two rasterizers'
 * own choices (Skia's and poppler's picture filters and glyph antialiasing) dominate a
 * page full of photos or small text (SSIM 0.68–0.80 at 400 px for pages that look the
 * same), at 1600 px they fade and what differs is what is drawn.
 */
export const RENDER_WIDTH_PX = 1600;
export const COMPARE_WIDTH_PX = 400;

/** One page of a checked PDF. */
export interface PageRow {
  doc: string;
  page: number;
  /** Share of the slide's words found in the page's text (0–1). */
  coverage: number;
  /** The slide's words. */
  words: number;
  /** SSIM of the rasterized page against our PNG preview of the slide (pages compared only). */
  ssim?: number;
}

/** What {@link checkPdf} finds. */
export interface PdfCheck {
  pages: number;
  visibleSlides: number;
  /** Pages at the slide size, to the whole point (Skia rounds page sizes). */
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
export async function checkPdf(bytes: Uint8Array, label: string, opts: { ssimPages?: number } = {}): Promise<PdfCheck> {
  const pkg = await OpcPackage.open(bytes);
  const visible = visibleSlideParts(pkg);
  if (visible.length === 0) return { pages: 0, visibleSlides: 0, pageSizeMatches: true, fonts: 0, fontsNotEmbedded: [], bytes: 0, renderMs: 0, rows: [] };
  const t0 = performance.now();
  const { pdf } = await renderPdf(pkg);
  const renderMs = performance.now() - t0;
  const info = pdfInfo(pdf);
  const model = new PmlModel(pkg);
  const wPt = model.presentation.slideWidthEmu / 12700;
  const hPt = model.presentation.slideHeightEmu / 12700;
  const size = /^([\d.]+) x ([\d.]+) pts/.exec(info['Page size'] ?? '');
  const pageSizeMatches = visible.length === 0 || (!!size && Math.abs(Number(size[1]) - wPt) <= 0.5 && Math.abs(Number(size[2]) - hPt) <= 0.5);
  const fonts = visible.length ? pdfFonts(pdf) : [];
  const rows: PageRow[] = [];
  if (visible.length) {
    const texts = pageTexts(pdf);
    const compared = Math.min(visible.length, opts.ssimPages ?? Infinity);
    const heightPx = Math.max(1, Math.round((RENDER_WIDTH_PX * hPt) / wPt));
    const pages = rasterizePages(pdf, RENDER_WIDTH_PX, heightPx, compared);
    for (const [i, part] of visible.entries()) {
      const expected = slideWords(pkg, part);
      const coverage = wordCoverage(expected, texts[i] ?? '');
      let s: number | undefined;
      if (i < compared) {
        const preview = await renderSlide(pkg, part, { widthPx: RENDER_WIDTH_PX });
        s = pages[i] ? ssim(await grayFromPng(preview.png, COMPARE_WIDTH_PX), await grayFromPng(pages[i]!, COMPARE_WIDTH_PX)) : 0;
      }
      rows.push({ doc: label, page: i + 1, coverage, words: expected.length, ...(s === undefined ? {} : { ssim: s }) });
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
