/**
 * Template pictures past the pixel limits in generated decks (issue 17, item 5): decks
 * built from a template whose master background, theme fill, layout picture, slide picture,
 * table cell and shape fill are decompression bombs (test/fixtures/oversized-pictures-template.ts)
 * hold none of them: each becomes a plain stand-in (too large to decode) or a downsampled
 * copy (decoding bounded; shown here with smaller limits), warned once with `image_too_large`
 * on the slide that first brought it, with valid content types and relationships; honest
 * pictures keep their bytes; the same request gives the same bytes; the OOXML lint (whose
 * `limits` check flags the template itself), the XSD check and LibreOffice accept the deck.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { RT } from '../../../core/src/ooxml/opc/constants.js';
import { NS, attrNS, descendants } from '../../../core/src/ooxml/xml.js';
import { exceedsPixelLimits, readPictureHeader } from '../../../core/src/ooxml/image-header.js';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import { TEMPLATE_PICTURE_LIMITS, type TemplatePictureLimits } from '../../../core/src/generation/deck/picture-limits.js';
import { OVERSIZED_MEDIA, oversizedPicturesTemplate } from '../../fixtures/oversized-pictures-template.js';
import { convertToPdf, lintPptx, pdfPageCount, refereeSkipped, renderingSkipReason, xsdCheck } from '../../helpers/referee.js';

const scratch = mkdtempSync(join(tmpdir(), 'slidewright-template-pictures-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

const TPL = 'tpl_bombs';
const template = await oversizedPicturesTemplate();
const source = await OpcPackage.open(template);

const spec = (kind: 'slide' | 'layout', n: number): DeckSlideSpec => ({
  template_id: TPL,
  template_slide_id: `${kind}${n}`,
  source: { kind, part_name: kind === 'slide' ? `/ppt/slides/slide${n}.xml` : `/ppt/slideLayouts/slideLayout${n}.xml` },
  slide_data: { title: `${kind} ${n}` },
  options: {},
});

/** Every picture relationship of the deck: source part, relationship id, target part. */
function pictureRels(pkg: OpcPackage): Array<{ from: string; id: string; target: string }> {
  const out: Array<{ from: string; id: string; target: string }> = [];
  for (const name of pkg.partNames()) {
    if (name.endsWith('.rels')) continue;
    for (const r of pkg.rels(name)) if (r.type === RT.image) out.push({ from: name, id: r.id, target: r.targetPartName! });
  }
  return out;
}

/** The image part a part's element with `r:embed` shows, for the first `a:blip` under an element named `local`. */
function blipTarget(pkg: OpcPackage, part: string, ns: string, local: string): string | undefined {
  const host = descendants(pkg.getXml(part), ns, local)[0];
  const blip = host ? descendants(host, NS.a, 'blip')[0] : undefined;
  const id = blip ? attrNS(blip, NS.r, 'embed') : undefined;
  return id ? pkg.rel(part, id)?.targetPartName : undefined;
}

t.test('a deck from a template of picture bombs holds none of them: stand-ins, warned once each, valid and lint-clean', async (t) => {
  const slides = [spec('slide', 1), spec('slide', 2), spec('slide', 3), spec('layout', 1), spec('slide', 1)];
  const r = await buildDeck({ templates: new Map([[TPL, template]]), slides });
  t.same(r.errors, []);
  t.equal(r.pages_generated, 5);
  const warned = r.warnings.filter((w) => w.code === 'image_too_large');
  const byPicture = new Map(warned.map((w) => [/picture (\S+)/.exec(w.message)![1]!, w]));
  t.equal(warned.length, 5, 'one warning per oversized picture, however many slides show it');
  const expected: Array<[string, number, RegExp]> = [
    [OVERSIZED_MEDIA.background, 0, /30000 × 30000 px PNG \(900000000 pixels\), past the limits of 50000000 pixels and 32767 px a side: too large to decode safely \(over 100000000 pixels\), replaced by a plain grey 64 × 64 px picture/],
    [OVERSIZED_MEDIA.layout, 0, /65500 × 65500 px JPEG .*used by \/ppt\/slideLayouts\/slideLayout1\.xml|used by \/ppt\/slideLayouts\/slideLayout1\.xml.*65500 × 65500 px JPEG/],
    [OVERSIZED_MEDIA.slidePicture, 0, /65535 × 65535 px GIF/],
    [OVERSIZED_MEDIA.tableCell, 0, /16777216 × 16777216 px WEBP/],
    [OVERSIZED_MEDIA.shapeFill, 1, /20000 × 10000 px PNG .*replaced by a plain grey 64 × 32 px picture/],
  ];
  for (const [name, slide, message] of expected) {
    const w = byPicture.get(`/ppt/media/${name}`);
    t.match(w, { slide_index: slide, template_slide_id: slides[slide]!.template_slide_id, message }, `${name}: warned on slide ${slide}`);
    t.match(w?.message, new RegExp(`of template ${TPL}`), 'the message names the template');
  }

  const pkg = await OpcPackage.open(r.bytes!);
  const rels = pictureRels(pkg);
  t.ok(rels.length >= 8, `${rels.length} picture relationships`);
  for (const rel of rels) {
    const h = readPictureHeader(pkg.getBytes(rel.target));
    t.ok(h.width > 0 && !exceedsPixelLimits(h.width, h.height), `${rel.from} ${rel.id} → ${rel.target}: ${h.format} ${h.width} × ${h.height} within the limits`);
    t.equal(pkg.contentType(rel.target), `image/${h.format}`, `${rel.target}: its content type is what it holds`);
  }
  const media = pkg.partNames().filter((n) => n.startsWith('/ppt/media/'));
  t.same(media.filter((m) => !rels.some((r) => r.target === m)), [], 'no media part without a relationship');
  for (const m of media) t.notOk(/\.(gif|webp)$/.test(m), `${m}: stand-ins are PNGs named .png`);

  // where the stand-ins are shown
  const master = pkg.partNames().find((n) => pkg.contentType(n) === 'application/vnd.openxmlformats-officedocument.presentationml.slideMaster+xml')!;
  const theme = pkg.partNames().find((n) => pkg.contentType(n) === 'application/vnd.openxmlformats-officedocument.theme+xml')!;
  const bg = blipTarget(pkg, master, NS.p, 'bg')!;
  t.same(readPictureHeader(pkg.getBytes(bg)), { format: 'png', width: 64, height: 64 }, "the master's background is the stand-in");
  t.equal(blipTarget(pkg, theme, NS.a, 'bgFillStyleLst'), bg, 'the theme fill shows the same part: stored once');
  const deckSlides = pkg.partsOfType('application/vnd.openxmlformats-officedocument.presentationml.slide+xml');
  const cell = blipTarget(pkg, '/ppt/slides/slide1.xml', NS.a, 'tc')!;
  t.same(readPictureHeader(pkg.getBytes(cell)), { format: 'png', width: 64, height: 64 }, "the table cell's fill");
  t.equal(deckSlides.length, 5);

  // honest pictures keep their bytes
  for (const name of [OVERSIZED_MEDIA.small, OVERSIZED_MEDIA.photoPng, OVERSIZED_MEDIA.photoJpeg]) {
    const original = Buffer.from(source.getBytes(`/ppt/media/${name}`));
    t.equal(media.filter((m) => original.equals(Buffer.from(pkg.getBytes(m)))).length, 1, `${name} is copied byte for byte`);
  }

  const again = await buildDeck({ templates: new Map([[TPL, template]]), slides });
  t.ok(Buffer.from(again.bytes!).equals(Buffer.from(r.bytes!)), 'the same request gives the same bytes (the stand-ins are kept with the opened template)');
  t.same(again.warnings, r.warnings, 'and the same warnings');

  const templateFile = join(scratch, 'template.pptx');
  writeFileSync(templateFile, template);
  const before = await lintPptx(templateFile);
  if (!refereeSkipped(t, before)) t.ok(before.errors.some((f) => f.check === 'limits'), `the lint flags the template: ${before.errors.map((f) => f.message).join('; ')}`);
  const file = join(scratch, 'deck.pptx');
  writeFileSync(file, r.bytes!);
  const lint = await lintPptx(file);
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'ooxml-lint is clean (limits included)');
  const xsd = await xsdCheck(file, { all: true });
  if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, xsd.output.split('\n').filter((l) => !/validates$/.test(l)).join('\n'));
  if (refereeSkipped(t, { skipped: await renderingSkipReason() })) return;
  t.equal(await pdfPageCount(await convertToPdf(file, join(scratch, 'pdf'))), 5, 'LibreOffice opens it');
});

t.test('pictures past the limits whose decoding is bounded are downsampled (smaller limits)', async (t) => {
  const limits: TemplatePictureLimits = { ...TEMPLATE_PICTURE_LIMITS, maxPixels: 10_000, maxDecodedPixels: 1_000_000, downsampledPixels: 5_000 };
  const r = await buildDeck({ templates: new Map([[TPL, template]]), slides: [spec('slide', 3)], pictureLimits: limits, reuseOpenedTemplates: false });
  t.same(r.errors, []);
  const pkg = await OpcPackage.open(r.bytes!);
  const shown = (shape: string): string => {
    const pic = descendants(pkg.getXml('/ppt/slides/slide1.xml'), NS.p, 'pic').find((p) => descendants(p, NS.p, 'cNvPr')[0]?.getAttribute('name') === shape)!;
    return pkg.rel('/ppt/slides/slide1.xml', attrNS(descendants(pic, NS.a, 'blip')[0], NS.r, 'embed')!)!.targetPartName!;
  };
  const png = shown('Photo PNG');
  const jpeg = shown('Photo JPEG');
  t.same(readPictureHeader(pkg.getBytes(png)), { format: 'png', width: 86, height: 57 }, '300 × 200 → 86 × 57 (at most 5000 pixels)');
  t.same(readPictureHeader(pkg.getBytes(jpeg)), { format: 'jpeg', width: 86, height: 57 }, 'the JPEG stays a JPEG');
  t.equal(pkg.contentType(jpeg), 'image/jpeg');
  t.match(
    r.warnings.filter((w) => w.code === 'image_too_large' && /downsampled/.test(w.message)).map((w) => w.message),
    [/photo\.png .*300 × 200 px PNG .*limits of 10000 pixels.*downsampled to 86 × 57 px/, /photo\.jpeg .*downsampled to 86 × 57 px/],
  );
  t.equal(r.warnings.filter((w) => /replaced/.test(w.message)).length, 2, 'the bombs of layout and master are still replaced (past the decode bound)');

  // the cached template keeps pictures made under the default limits only
  const normal = await buildDeck({ templates: new Map([[TPL, template]]), slides: [spec('slide', 3)] });
  t.same(normal.warnings.filter((w) => /photo/.test(w.message)), [], 'with the default limits the photographs are copied as they are');
});
