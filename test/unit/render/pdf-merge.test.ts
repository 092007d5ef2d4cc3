/**
 * A PDF export drawn on several threads (issue 22): the pages are shared out, each share a
 * PDF of its own, joined into one document (render/pdf-merge.ts). The joined document reads
 * as the one drawn in a single pass: the same pages in deck order with the same text and
 * looks, every font embedded (no two different subsets under one name), internal links
 * landing on their slide's page, the document information, PDF/A-2b when asked; and the
 * worker pool's export shares its pages out this way.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { renderPdf, visibleSlideParts } from '../../../core/src/render/pdf.js';
import { mergePdfs, PdfMergeError, type PdfPart } from '../../../core/src/render/pdf-merge.js';
import { CpuPool } from '../../../core/src/threads/cpu-pool.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { havePoppler, pageTexts, pdfFonts, pdfInfo, rasterizePage } from '../../helpers/pdf-tools.js';
import { PdfFile, PdfName, PdfRef, pdfaProblems } from '../../helpers/pdfa-check.js';
import { strictTests } from '../../helpers/corpus.js';
import { miniDeck, sp } from '../ooxml/pml/mini-deck.js';

t.setTimeout(600_000);

const skipPoppler = !havePoppler() && !strictTests ? 'poppler-utils not installed' : false;
const GEO = 'templates/poi-customgeo-48slides.pptx';
const JUMPS = 'incoming/templates/poi-stress022-arabic-slideshow-type.pptx';

/** The visible slides of a package drawn as `of` PDFs, share k holding every page i with i mod of = k. */
async function shares(pkg: OpcPackage, of: number, pdfa = false): Promise<PdfPart[]> {
  const parts = visibleSlideParts(pkg);
  const out: PdfPart[] = [];
  for (let k = 0; k < of; k++) {
    const pages = parts.map((_, i) => i).filter((i) => i % of === k);
    out.push({ pdf: (await renderPdf(pkg, { slidePartNames: pages.map((i) => parts[i]!), pdfa })).pdf, pages });
  }
  return out;
}

/** Page object numbers in page order, and the named destinations (name → page object number). */
function pagesAndDests(pdf: Uint8Array): { pages: number[]; dests: Map<string, number> } {
  const f = new PdfFile(pdf);
  const catalog = f.dict(f.trailer.get('Root'))!;
  const pages: number[] = [];
  const walk = (ref: unknown): void => {
    const node = f.dict(ref as PdfRef)!;
    const type = node.get('Type');
    if (type instanceof PdfName && type.name === 'Pages') for (const k of node.get('Kids') as PdfRef[]) walk(k);
    else pages.push((ref as PdfRef).num);
  };
  walk(catalog.get('Pages'));
  const dests = new Map<string, number>();
  for (const [name, dest] of f.dict(catalog.get('Dests')) ?? new Map()) dests.set(name, ((f.resolve(dest) as unknown[])[0] as PdfRef).num);
  return { pages, dests };
}

t.test('pages drawn in shares join into the document one pass draws: order, text, looks, fonts, information', { skip: skipPoppler || needsCorpus(GEO).skip }, async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath(GEO)));
  const whole = (await renderPdf(pkg)).pdf;
  const joined = mergePdfs(await shares(pkg, 3));
  t.equal(Number(pdfInfo(joined).Pages), 48, 'every page');
  t.same(pageTexts(joined), pageTexts(whole), 'the same text on each page, pages in deck order');
  for (const page of [1, 2, 3, 17, 48]) t.same(rasterizePage(joined, page, 240, 180), rasterizePage(whole, page, 240, 180), `page ${page} looks the same`);
  const fonts = pdfFonts(joined);
  t.ok(fonts.length > 0 && fonts.every((f) => f.embedded && f.unicode), 'every font embedded with a Unicode map');
  t.equal(new Set(fonts.map((f) => f.name)).size, fonts.length, `no two subsets share a name (${fonts.map((f) => f.name).join(', ')})`);
  const info = pdfInfo(joined);
  t.equal(info.Title, 'Slide 1');
  t.equal(info.Author, 'virginia.ressa');
  t.ok(joined.length <= whole.length * 1.2, `the joined file is not much larger (${joined.length} vs ${whole.length} bytes)`);
});

t.test('a link to another slide lands on its page wherever that page was drawn', { skip: needsCorpus(JUMPS).skip }, async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath(JUMPS)));
  const parts = visibleSlideParts(pkg);
  const joined = mergePdfs(await shares(pkg, 2));
  const { pages, dests } = pagesAndDests(joined);
  t.equal(pages.length, parts.length);
  t.ok(parts.length > 2);
  // destination names as read (#2F unescaped)
  parts.forEach((part, i) => t.equal(dests.get(`slide:${part}`), pages[i], `${part}'s destination is page ${i + 1}`));
  t.match(Buffer.from(joined).toString('latin1'), /\/Dest \/slide:#2Fppt#2Fslides#2Fslide2\.xml/, 'a jump to slide 2 names its destination');
});

t.test('joined PDF/A-2b parts keep the structural rules of ISO 19005-2', { skip: needsCorpus(GEO).skip }, async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath(GEO)));
  const joined = mergePdfs(await shares(pkg, 2, true));
  t.same(pdfaProblems(joined), [], 'no PDF/A problem');
  t.match(Buffer.from(joined).toString('latin1'), /<pdfaid:part>2<\/pdfaid:part>/, 'the first part’s XMP identification');
});

t.test('what the joiner refuses', async (t) => {
  t.throws(() => mergePdfs([]), PdfMergeError, 'nothing to join');
  t.throws(() => mergePdfs([{ pdf: Buffer.from('not a pdf'), pages: [0] }, { pdf: Buffer.from('%PDF-1.4 nor this'), pages: [1] }]), PdfMergeError, 'not a PDF');
  // (a deck of four small slides made here: the refusals need no corpus file)
  const pkg = await miniDeck({ slides: [1, 2, 3, 4].map((n) => ({ tree: sp(2, `Title ${n}`, { ph: 'type="title"', xfrm: [0, 0, 4_000_000, 1_000_000], body: `<a:p><a:r><a:t>Slide ${n}</a:t></a:r></a:p>` }) })) });
  const two = await shares(pkg, 2);
  t.equal(two[1]!.pages.length, 2, 'two pages in the second share');
  t.throws(() => mergePdfs([two[0]!, { ...two[1]!, pages: two[0]!.pages }]), PdfMergeError, 'a page index given twice');
  t.throws(() => mergePdfs([two[0]!, { ...two[1]!, pages: two[1]!.pages.slice(1) }]), PdfMergeError, 'fewer indices than pages');
});

t.test('the worker pool shares an export out over its threads and answers one document', { skip: skipPoppler || needsCorpus(GEO).skip }, async (t) => {
  const bytes = readFileSync(corpusPath(GEO));
  const whole = (await renderPdf(await OpcPackage.open(bytes))).pdf;
  const pool = new CpuPool(2);
  try {
    const r = await pool.pdf(bytes, 'pdf-merge-test', false);
    if (!r.ok) throw new Error(r.error.message);
    t.equal(r.pages, 48);
    t.same(pageTexts(r.pdf), pageTexts(whole), 'the same pages in the same order');
    t.same(rasterizePage(r.pdf, 2, 240, 180), rasterizePage(whole, 2, 240, 180), 'a page of the second share looks the same');
    // two exports at once (the second finds the pool busy and is drawn on one thread): both whole
    const both = await Promise.all([pool.pdf(bytes, 'pdf-merge-test-a', false), pool.pdf(bytes, 'pdf-merge-test-b', false)]);
    for (const x of both) t.ok(x.ok && x.pages === 48 && JSON.stringify(pageTexts(x.pdf)) === JSON.stringify(pageTexts(whole)), 'concurrent exports: every page, in order');
  } finally {
    await pool.close();
  }
});

t.test('hidden slides are left out wherever they fall among the shares; no visible slide is refused', { skip: skipPoppler }, async (t) => {
  const word = (w: string, hidden = false): { tree: string; attrs?: string } => ({
    tree: sp(2, 't', { xfrm: [914400, 914400, 4572000, 914400], body: `<a:p><a:r><a:rPr lang="en-US" sz="2400"/><a:t>${w}</a:t></a:r></a:p>` }),
    ...(hidden ? { attrs: 'show="0"' } : {}),
  });
  const deck = async (slides: Array<{ tree: string; attrs?: string }>): Promise<Uint8Array> => (await miniDeck({ slides })).toBytes();
  const pool = new CpuPool(2);
  try {
    // shares of two: slides 1, 3, 5 and 2, 4; the first and third hidden
    const r = await pool.pdf(await deck([word('Alpha', true), word('Bravo'), word('Charlie', true), word('Delta'), word('Echo')]), 'hidden-shares', false);
    if (!r.ok) throw new Error(r.error.message);
    t.equal(r.pages, 3);
    t.same(pageTexts(r.pdf).map((x) => x.trim()), ['Bravo', 'Delta', 'Echo'], 'the visible slides in deck order');
    const one = await pool.pdf(await deck([word('Alpha', true), word('Bravo')]), 'one-visible', false);
    t.ok(one.ok && one.pages === 1 && pageTexts(one.pdf)[0]!.trim() === 'Bravo', 'one share without a page: the other share is the document');
    const none = await pool.pdf(await deck([word('Alpha', true), word('Bravo', true), word('Charlie', true)]), 'none-visible', false);
    t.ok(!none.ok && none.error.code === 'no_slides', 'every slide hidden: no_slides');
  } finally {
    await pool.close();
  }
});
