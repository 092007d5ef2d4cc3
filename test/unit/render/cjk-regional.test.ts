/**
 * Han characters in their regional forms (issue 24). Debian's fonts-noto-cjk installs
 * OpenType collections whose first face is Japanese; Skia registers only that face, so
 * Chinese and Korean text was drawn with Japanese glyphs. The collection reader
 * (render/font-collection.ts) copies the face of the run's language out of the collection,
 * and drawing registers it the first time such text is drawn (render/fonts.ts
 * cjkFamilyFor), as LibreOffice picks the face by the run's `lang` / `altLang`.
 *
 * Skipped without fonts-noto-cjk unless SLIDEWRIGHT_TEST_STRICT=1.
 */
import t from 'tap';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GlobalFonts, createCanvas, loadImage } from '@napi-rs/canvas';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT } from '../../../core/src/ooxml/opc/constants.js';
import { NS } from '../../../core/src/ooxml/xml.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { cjkFamilyFor } from '../../../core/src/render/fonts.js';
import { extractFace, fontBytesOf, FontFileError, readFontFaces, tableChecksum, withFontFile, type FontFace } from '../../../core/src/render/font-collection.js';
import { cjkRegionOfLanguage } from '../../../core/src/text/script.js';
import { CJK_FALLBACK_FAMILY, ShippedFontMetrics } from '../../../core/src/text/font-metrics.js';
import { houseTemplate } from '../../fixtures/house-template.js';
import { strictTests } from '../../helpers/corpus.js';

const NOTO_DIR = '/usr/share/fonts/opentype/noto';
const SANS_REGULAR = join(NOTO_DIR, 'NotoSansCJK-Regular.ttc');
const collections = existsSync(NOTO_DIR) ? readdirSync(NOTO_DIR).filter((f) => f.endsWith('.ttc')).map((f) => join(NOTO_DIR, f)) : [];
const skip = !existsSync(SANS_REGULAR) && !strictTests ? 'fonts-noto-cjk not installed' : false;

/** Characters whose Japanese, Simplified, Traditional and Korean glyphs differ. */
const HAN = '直骨角述';

t.test('the language of a run picks the regional face', async (t) => {
  const cases: Array<[string | undefined, string | undefined]> = [
    ['zh-CN', 'SC'], ['zh-SG', 'SC'], ['zh-Hans', 'SC'], ['zh', 'SC'], ['zh-Hans-HK', 'HK'],
    ['zh-TW', 'TC'], ['zh-Hant', 'TC'], ['zh-Hant-TW', 'TC'], ['zh-HK', 'HK'], ['zh-MO', 'HK'], ['yue', 'HK'],
    ['ko-KR', 'KR'], ['ko', 'KR'], ['ja-JP', 'JP'], ['en-US', undefined], ['fr', undefined], [undefined, undefined], ['', undefined],
  ];
  for (const [lang, region] of cases) t.equal(cjkRegionOfLanguage(lang), region, `${lang ?? 'no language'} → ${region ?? 'none'}`);
});

t.test('every installed collection: its faces and their family names', { skip }, async (t) => {
  t.ok(collections.length >= 2, `${collections.length} collections in ${NOTO_DIR}`);
  for (const path of collections) {
    withFontFile(path, (bytes) => {
      const faces = readFontFaces(bytes);
      const names = faces.map((f) => f.family);
      const kind = /Serif/.test(path) ? 'Serif' : 'Sans';
      for (const region of ['JP', 'KR', 'SC', 'TC', 'HK']) t.ok(names.includes(`Noto ${kind} CJK ${region}`), `${path}: Noto ${kind} CJK ${region} among ${names.join(', ')}`);
      t.equal(names[0], `Noto ${kind} CJK JP`, 'the first face (the one Skia registers) is Japanese');
      for (const f of faces) for (const tb of f.tables) t.ok(tb.offset + tb.length <= bytes.length, `${f.family} '${tb.tag}' inside the file`, { diagnostic: false });
    });
  }
});

/** The Simplified Chinese face of NotoSansCJK-Regular.ttc as a font file, and its record in the collection. */
function scFace(): { file: Buffer; inCollection: FontFace; jp: FontFace } {
  return withFontFile(SANS_REGULAR, (bytes) => {
    const faces = readFontFaces(bytes);
    const inCollection = faces.find((f) => f.family === 'Noto Sans CJK SC')!;
    return { file: extractFace(bytes, inCollection), inCollection, jp: faces[0]! };
  });
}

t.test('an extracted face is a valid standalone font that Skia registers and draws', { skip }, async (t) => {
  const { file, inCollection } = scFace();
  const faces = readFontFaces(fontBytesOf(file));
  t.equal(faces.length, 1, 'one face');
  t.equal(faces[0]!.family, 'Noto Sans CJK SC');
  t.same(faces[0]!.tables.map((x) => x.tag).sort(), inCollection.tables.map((x) => x.tag).sort(), 'every table of the face');
  t.equal(tableChecksum(file), 0xb1b0afba, 'head.checksumAdjustment makes the file sum to 0xB1B0AFBA');
  for (const tb of faces[0]!.tables) {
    t.equal(tb.offset % 4, 0, `'${tb.tag}' at a 4-byte boundary`);
    if (tb.tag !== 'head') t.equal(tb.checksum, tableChecksum(file.subarray(tb.offset, tb.offset + tb.length)), `'${tb.tag}' checksum`);
  }
  t.ok(GlobalFonts.register(file, 'Slidewright Test CJK SC'), 'Skia registers it');
  const ink = (family: string): number => {
    const c = createCanvas(120, 120);
    const ctx = c.getContext('2d');
    ctx.font = `100px "${family}"`;
    ctx.fillText('直', 10, 100);
    const px = ctx.getImageData(0, 0, 120, 120).data;
    let dark = 0;
    for (let i = 3; i < px.length; i += 4) if (px[i]! > 128) dark++;
    return dark;
  };
  t.ok(ink('Slidewright Test CJK SC') > 500, 'it draws 直 (ink on the canvas)');
});

t.test('a truncated or hostile collection fails with FontFileError, reading nothing outside it', { skip }, async (t) => {
  const head = withFontFile(SANS_REGULAR, (bytes) => Buffer.from(bytes.read(0, 64 * 1024, 'head')));
  const cases: Array<[string, Buffer]> = [];
  cases.push(['empty', Buffer.alloc(0)]);
  cases.push(['the TTC header cut short', head.subarray(0, 20)]);
  cases.push(['cut inside the first table directory', head.subarray(0, 100)]);
  cases.push(['tables past the end (the first 64 KiB only)', head]);
  const badOffset = Buffer.from(head);
  badOffset.writeUInt32BE(0xfffffff0, 12); // first face's directory offset
  cases.push(['a face offset past the end', badOffset]);
  const manyFaces = Buffer.from(head);
  manyFaces.writeUInt32BE(0x7fffffff, 8);
  cases.push(['numFonts 2^31 − 1', manyFaces]);
  const badVersion = Buffer.from(head);
  badVersion.writeUInt16BE(9, 4);
  cases.push(['TTC version 9', badVersion]);
  for (const [what, buf] of cases) t.throws(() => readFontFaces(fontBytesOf(buf)), FontFileError, what);
  // a whole face whose table record points outside the file
  const { file } = scFace();
  const hostile = Buffer.from(file);
  hostile.writeUInt32BE(hostile.length - 8, 12 + 8); // first record's offset: 8 bytes before the end
  t.throws(() => readFontFaces(fontBytesOf(hostile)), FontFileError, 'a table running past the end of a standalone font');
  const face = readFontFaces(fontBytesOf(file))[0]!;
  t.throws(() => extractFace(fontBytesOf(file.subarray(0, 4096)), face), FontFileError, 'extracting from a truncated file');
  // a name table whose record points past its end
  const nameRec = face.tables.find((x) => x.tag === 'name')!;
  const badName = Buffer.from(file);
  badName.writeUInt16BE(0xfff0, nameRec.offset + 6 + 10); // first name record's string offset
  badName.writeUInt16BE(1, nameRec.offset + 6 + 6); // … as a family name (name ID 1)
  badName.writeUInt16BE(3, nameRec.offset + 6); // platform 3
  badName.writeUInt16BE(1, nameRec.offset + 6 + 2); // encoding 1
  t.throws(() => readFontFaces(fontBytesOf(badName)), FontFileError, 'a name record past the name table');
});

t.test('regional faces measure as the metrics assume: shared advances and line metrics, 1 em ideographs', { skip }, async (t) => {
  const { inCollection, jp } = scFace();
  for (const tag of ['hhea', 'hmtx', 'OS/2', 'CFF ']) {
    t.equal(inCollection.tables.find((x) => x.tag === tag)?.offset, jp.tables.find((x) => x.tag === tag)?.offset, `'${tag}' shared with the Japanese face`);
  }
  // text layout sets a CJK line at the win ascent and descent it ships (font-metrics.ts cjkFaceData)
  const os2 = withFontFile(SANS_REGULAR, (bytes) => Buffer.from(bytes.read(inCollection.tables.find((x) => x.tag === 'OS/2')!.offset, 78, 'OS/2')));
  const v = new ShippedFontMetrics().vertical({ name: CJK_FALLBACK_FAMILY, size_pt: 1000 });
  t.equal(os2.readUInt16BE(74), Math.round(v.ascent_pt), 'usWinAscent as shipped');
  t.equal(os2.readUInt16BE(76), Math.round(v.descent_pt), 'usWinDescent as shipped');
  for (const lang of ['zh-CN', 'zh-TW', 'zh-HK', 'ko-KR']) {
    for (const bold of [false, true]) {
      const family = cjkFamilyFor(lang, bold);
      t.ok(family, `${lang}${bold ? ' bold' : ''}: a regional face (${family})`);
      const ctx = createCanvas(10, 10).getContext('2d');
      ctx.font = `${bold ? 'bold ' : ''}100px "${family}"`;
      t.equal(ctx.measureText(HAN).width, 400, `${lang}${bold ? ' bold' : ''}: ${HAN} is 4 em wide, as measured for fitting`);
    }
  }
  t.equal(cjkFamilyFor('ja-JP', false), undefined, 'Japanese keeps the face Skia registers itself');
});

/** The body placeholder's pixels (RGBA) of a rendered slide. */
async function bodyPixels(png: Uint8Array, w: number, h: number): Promise<Uint8ClampedArray> {
  const img = await loadImage(Buffer.from(png));
  const c = createCanvas(w, h);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  // the house layout's body lies below the title: the lower three quarters of the slide
  return ctx.getImageData(0, Math.round(h / 4), w, h - Math.round(h / 4)).data;
}

function samePixels(a: Uint8ClampedArray, b: Uint8ClampedArray): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

t.test('a slide draws the same Han characters in the forms of each run language', { skip }, async (t) => {
  const langs = ['zh-CN', 'zh-TW', 'ja-JP', 'ko-KR'] as const;
  // a fifth slide: lang en-US, altLang zh-CN (as PowerPoint writes a Chinese run typed on an English system)
  const pkg = await OpcPackage.open(await houseTemplate({ extraSlides: [...langs, 'en-US'].map((lang) => ({ title: 'Han', paragraphs: [{ text: HAN, lang }] })) }));
  const slides = pkg.partsOfType(CT.slide).slice(-(langs.length + 1));
  const alt = pkg.getXml(slides[langs.length]!);
  const rPrs = alt.getElementsByTagNameNS(NS.a, 'rPr');
  for (let i = 0; i < rPrs.length; i++) rPrs.item(i)!.setAttribute('altLang', 'zh-CN');
  pkg.setXml(slides[langs.length]!, alt);
  const crops = new Map<string, Uint8ClampedArray>();
  for (const [i, lang] of [...langs, 'en-US altLang zh-CN'].entries()) {
    const r = await renderSlide(pkg, slides[i]!, { widthPx: 640 });
    crops.set(lang, await bodyPixels(r.png, r.width_px, r.height_px));
  }
  const white = crops.get('ja-JP')!.every((v) => v === 255);
  t.notOk(white, 'the body text is drawn');
  const distinct: Uint8ClampedArray[] = [];
  for (const lang of langs) if (!distinct.some((d) => samePixels(d, crops.get(lang)!))) distinct.push(crops.get(lang)!);
  t.ok(distinct.length > 1, `the four languages are not all drawn alike (${distinct.length} distinct drawings)`);
  t.notOk(samePixels(crops.get('zh-CN')!, crops.get('ja-JP')!), 'zh-CN is drawn in other forms than ja-JP');
  t.notOk(samePixels(crops.get('zh-CN')!, crops.get('zh-TW')!), 'zh-CN (simplified forms) differs from zh-TW (traditional)');
  t.notOk(samePixels(crops.get('ko-KR')!, crops.get('ja-JP')!), 'ko-KR differs from ja-JP');
  t.ok(samePixels(crops.get('en-US altLang zh-CN')!, crops.get('zh-CN')!), 'a Latin lang with altLang zh-CN is drawn as zh-CN');
});
