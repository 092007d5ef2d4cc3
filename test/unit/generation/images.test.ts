/**
 * Image blocks: format and dimensions from the header (PNG, JPEG, GIF by magic number),
 * limits checked before decoding, crop-to-fill math against hand-computed `a:srcRect`
 * values, pictures in picture and content placeholders of generated decks, picture parts
 * stored once per content, and the referee tools on the output.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeOpaquePng } from '../../../core/src/render/png.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { RT } from '../../../core/src/ooxml/opc/constants.js';
import { NS, attr, attrNS, child, descendants, path } from '../../../core/src/ooxml/xml.js';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import { cropToFill, decodeImageBlock, ImageError, MAX_IMAGE_BYTES, sniffImage } from '../../../core/src/generation/slide/images.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { convertToPdf, lintPptx, pdfPageCount, refereeSkipped, renderingSkipReason, xsdCheck } from '../../helpers/referee.js';

const PLACEHOLDERS = 'python-pptx-populated-placeholders.pptx';
const scratch = mkdtempSync(join(tmpdir(), 'slidewright-images-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

/** A PNG of `w` × `h` pixels (a colour ramp). */
function png(w: number, h: number): Uint8Array {
  const rgba = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) rgba.set([(i % w) * 3, (i / w) * 5, 128, 255], i * 4);
  return encodeOpaquePng(rgba, w, h);
}

/** A PNG header alone claiming `w` × `h` pixels (no pixel data). */
function pngHeader(w: number, h: number): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, w);
  new DataView(b.buffer).setUint32(20, h);
  b.set([8, 2, 0, 0, 0], 24);
  return b;
}

/** A GIF header of `w` × `h`. */
function gif(w: number, h: number): Uint8Array {
  // GIF89a, logical screen w×h, no global colour table, one 1×1 image, trailer
  const b = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, w & 255, w >> 8, h & 255, h >> 8, 0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b];
  return new Uint8Array(b);
}

const b64 = (b: Uint8Array): string => Buffer.from(b).toString('base64');
const jpegBytes = (): Uint8Array => {
  const pkg = readFileSync(corpusPath('bench/SlideWithImages.pptx'));
  return pkg;
};

t.test('formats and dimensions come from the header', needsCorpus('bench/SlideWithImages.pptx'), async (t) => {
  t.same(sniffImage(png(16, 9)), { format: 'png', width: 16, height: 9 });
  t.same(sniffImage(gif(300, 200)), { format: 'gif', width: 300, height: 200 });
  const images = await OpcPackage.open(jpegBytes());
  const jpg = images.getBytes('/ppt/media/image1.jpg');
  const sniff = sniffImage(jpg);
  t.equal(sniff.format, 'jpeg');
  t.ok((sniff.width ?? 0) > 0 && (sniff.height ?? 0) > 0, `JPEG dimensions ${sniff.width}×${sniff.height} from the SOF marker`);
  t.equal(sniffImage(images.getBytes('/ppt/media/image4.svg')).format, 'svg');
  t.equal(sniffImage(new TextEncoder().encode('hello')).format, 'unknown');
});

t.test('limits are checked from the header and the base64 length before decoding', async (t) => {
  t.throws(() => decodeImageBlock({ data_base64: b64(pngHeader(100_000, 100_000)) }), { code: 'image_too_large' }, '100000×100000 refused from its header');
  t.throws(() => decodeImageBlock({ data_base64: b64(pngHeader(40_000, 10)) }), { code: 'image_too_large' }, 'a side past 32767 refused');
  // a string whose decoded size is past the limit is refused without decoding it
  const huge = 'A'.repeat(Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 8);
  t.throws(() => decodeImageBlock({ data_base64: huge }), { code: 'image_too_large' });
  t.throws(() => decodeImageBlock({ data_base64: b64(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')) }), { code: 'image_unsupported', message: /SVG/ });
  t.throws(() => decodeImageBlock({ asset_id: 'ast_1' }), { code: 'image_unsupported', message: /asset/ });
  t.throws(() => decodeImageBlock({}), { code: 'image_invalid' });
  t.throws(() => decodeImageBlock({ data_base64: '***' }), { code: 'image_invalid' });
  const ok = decodeImageBlock({ data_base64: `data:image/png;base64,${b64(png(20, 10))}`, content_type: 'image/jpeg' });
  t.same([ok.info.format, ok.info.width, ok.info.height, ok.info.contentType], ['png', 20, 10, 'image/png'], 'a data: URL is accepted; the bytes decide the type');
  t.match(ok.warnings, [/declared image\/jpeg/]);
  t.ok(new ImageError('image_invalid', 'x') instanceof Error);
});

t.test('crop to fill: hand-computed srcRect values', async (t) => {
  // 16:9 picture (1600×900) into a 4:3 box (3657600×2743200 EMU): visible width 0.75, 12.5 % off each side
  t.same(cropToFill(1600, 900, 3_657_600, 2_743_200), { l: 12_500, t: 0, r: 12_500, b: 0 });
  // square picture into 4:3: visible height 0.75, 12.5 % off top and bottom
  t.same(cropToFill(1000, 1000, 3_657_600, 2_743_200), { l: 0, t: 12_500, r: 0, b: 12_500 });
  // 1:2 portrait picture into a 2:1 box: visible height (1/2)/2 = 0.25, 37.5 % off top and bottom
  t.same(cropToFill(500, 1000, 2_000_000, 1_000_000), { l: 0, t: 37_500, r: 0, b: 37_500 });
  // 3:1 picture into a 16:9 box (12192000×6858000): visible width (16/9)/3 = 0.59259..., (1 − 0.59259)/2 = 20.370 %
  t.same(cropToFill(3000, 1000, 12_192_000, 6_858_000), { l: 20_370, t: 0, r: 20_370, b: 0 });
  // same aspect: no crop
  t.same(cropToFill(800, 600, 3_657_600, 2_743_200), { l: 0, t: 0, r: 0, b: 0 });
});

const spec = (kind: 'slide' | 'layout', n: number, data: DeckSlideSpec['slide_data']): DeckSlideSpec => ({
  template_id: PLACEHOLDERS,
  template_slide_id: `${kind}${n}`,
  source: { kind, part_name: kind === 'slide' ? `/ppt/slides/slide${n}.xml` : `/ppt/slideLayouts/slideLayout${n}.xml` },
  slide_data: data,
  options: {},
});
const image = (data: Uint8Array, alt?: string) => ({ type: 'image' as const, image: { data_base64: b64(data), alt_text: alt } });

t.test('image blocks in a generated deck: picture placeholders filled, cropped to fill, parts stored once', needsCorpus(`templates/${PLACEHOLDERS}`), async (t) => {
  const wide = png(160, 90);
  const square = png(64, 64);
  const tpl = readFileSync(corpusPath(`templates/${PLACEHOLDERS}`));
  const templateImage = (await OpcPackage.open(tpl)).getBytes('/ppt/media/image1.png');
  const r = await buildDeck({
    templates: new Map([[PLACEHOLDERS, tpl]]),
    slides: [
      spec('layout', 9, { content: [{ blocks: [image(wide, 'A wide ramp')] }] }),
      spec('slide', 1, { content: [{ blocks: [image(square)] }] }),
      spec('layout', 9, { content: [{ blocks: [image(wide)] }] }),
      spec('layout', 2, { content: [{ blocks: [image(templateImage)] }] }),
      spec('layout', 9, { content: [{ blocks: [image(gif(120, 40))] }] }),
      spec('layout', 9, { content: [{ blocks: [image(pngHeader(100_000, 100_000))] }] }),
    ],
  });
  t.same(r.errors.map((e) => [e.slide_index, e.code]), [[5, 'image_too_large']], 'a huge picture fails its slide only');
  t.equal(r.pages_generated, 5);
  const pkg = await OpcPackage.open(r.bytes!);
  const pres = pkg.relatedPartName('/', RT.officeDocument)!;
  const slides = descendants(pkg.getXml(pres), NS.p, 'sldId').map((s) => pkg.rel(pres, attrNS(s, NS.r, 'id')!)!.targetPartName!);
  const picOf = (slide: string) => {
    const pic = descendants(pkg.getXml(slide), NS.p, 'pic')[0]!;
    const blip = path(pic, [NS.p, 'blipFill'], [NS.a, 'blip'])!;
    const src = path(pic, [NS.p, 'blipFill'], [NS.a, 'srcRect'])!;
    const ext = path(pic, [NS.p, 'spPr'], [NS.a, 'xfrm'], [NS.a, 'ext'])!;
    return {
      pic,
      part: pkg.rel(slide, attrNS(blip, NS.r, 'embed')!)!.targetPartName!,
      crop: ['l', 't', 'r', 'b'].map((k) => Number(attr(src, k) ?? 0)),
      cx: Number(attr(ext, 'cx')),
      cy: Number(attr(ext, 'cy')),
      ph: descendants(pic, NS.p, 'ph')[0],
    };
  };
  const p1 = picOf(slides[0]!);
  t.equal(attr(p1.ph, 'type'), 'pic', 'the picture stays in the picture placeholder');
  t.equal(attr(descendants(p1.pic, NS.p, 'cNvPr')[0], 'descr'), 'A wide ramp', 'alt text');
  const expected = cropToFill(160, 90, p1.cx, p1.cy);
  t.same(p1.crop, [expected.l, expected.t, expected.r, expected.b], 'srcRect crops the wide picture to the placeholder aspect');
  t.ok(expected.l > 0 && expected.t === 0, 'a wider picture loses its sides');
  // keeping the aspect: the visible part of the picture has the placeholder's aspect
  const visibleAspect = (160 * (1 - (p1.crop[0]! + p1.crop[2]!) / 100_000)) / (90 * (1 - (p1.crop[1]! + p1.crop[3]!) / 100_000));
  t.ok(Math.abs(visibleAspect - p1.cx / p1.cy) < 0.001, 'the visible part has the placeholder aspect');
  const p2 = picOf(slides[1]!);
  t.equal(attr(p2.ph, 'type'), 'pic', "the template slide's filled picture placeholder holds the new picture");
  t.ok(p2.crop[1]! > 0 || p2.crop[0]! > 0 || p2.cx === p2.cy);
  t.equal(picOf(slides[2]!).part, p1.part, 'the same picture twice is one part');
  const sameAsTemplate = pkg.partNames().filter((n) => n.startsWith('/ppt/media/') && Buffer.from(pkg.getBytes(n)).equals(Buffer.from(templateImage)));
  t.same(sameAsTemplate, [picOf(slides[3]!).part], "a picture equal to the template's own (copied with slide 2) is that one part");
  t.equal(picOf(slides[3]!).ph?.getAttribute('type') ?? 'obj', 'obj', 'a content placeholder takes a picture when there is no picture placeholder');
  t.equal(pkg.contentType(picOf(slides[4]!).part), 'image/gif');
  const media = pkg.partNames().filter((n) => n.startsWith('/ppt/media/'));
  t.equal(new Set(media.map((m) => Buffer.from(pkg.getBytes(m)).toString('base64'))).size, media.length, 'no two media parts hold the same bytes');
  t.ok(child(path(p1.pic, [NS.p, 'blipFill'])!, NS.a, 'stretch'), 'stretched to fill');

  const file = join(scratch, 'images.pptx');
  writeFileSync(file, r.bytes!);
  const lint = await lintPptx(file);
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'ooxml-lint is clean');
  const xsd = await xsdCheck(file, { all: true });
  if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, xsd.output.split('\n').filter((l) => !/validates$/.test(l)).join('\n'));
  if (refereeSkipped(t, { skipped: await renderingSkipReason() })) return;
  t.equal(await pdfPageCount(await convertToPdf(file, join(scratch, 'pdf'))), 5, 'LibreOffice converts it');
});
