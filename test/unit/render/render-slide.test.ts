/**
 * renderSlide on small built decks: size and EMU headers, backgrounds, fills with colour
 * transforms, geometry, rotation, pictures with the pixel limit checked before decoding and
 * text bounded before it is laid out (hostile samples of test/hostile), layouts with prompt text,
 * showMasterSp, font substitutions.
 */
import t from 'tap';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { readImageHeader } from '../../../core/src/render/images.js';
import { evaluateGeometry, presetGeometry } from '../../../core/src/render/geometry.js';
import { hostileSample, hostileSamples } from '../../hostile/samples.js';
import { miniDeck, sp } from '../ooxml/pml/mini-deck.js';

/** RGB of pixel (x, y) of a PNG. */
async function pixel(png: Uint8Array, x: number, y: number): Promise<[number, number, number]> {
  const img = await loadImage(Buffer.from(png));
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const d = ctx.getImageData(x, y, 1, 1).data;
  return [d[0]!, d[1]!, d[2]!];
}

const near = (a: [number, number, number], b: [number, number, number], tol = 3): boolean => a.every((v, i) => Math.abs(v - b[i]!) <= tol);

// Slide 12192000 × 6858000 EMU (960 × 540 pt); at 960 px one pixel is one point (12700 EMU).
const rect = (id: number, x: number, y: number, cx: number, cy: number, fill: string, extra = ''): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="r${id}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm${extra}><a:off x="${x * 12700}" y="${y * 12700}"/><a:ext cx="${cx * 12700}" cy="${cy * 12700}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom>${fill}</p:spPr></p:sp>`;

t.test('output size follows widthPx and the slide aspect; EMU size reported', async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: '' }] });
  const r = await renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 480 });
  t.equal(r.width_px, 480);
  t.equal(r.height_px, 270);
  t.equal(r.width_emu, 12192000);
  t.equal(r.height_emu, 6858000);
  t.same(readImageHeader(r.png), { format: 'png', width: 480, height: 270 });
  t.same(await pixel(r.png, 10, 10), [255, 255, 255], 'white slide');
  await t.rejects(renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 0 }), RangeError);
});

t.test('solid fills with theme colours and lumMod/lumOff, alpha over the background', async (t) => {
  const tree =
    rect(2, 100, 100, 100, 100, '<a:solidFill><a:schemeClr val="accent1"/></a:solidFill>') +
    // accent2 ED7D31 with lumMod 50 %: HSL lightness halved.
    rect(3, 300, 100, 100, 100, '<a:solidFill><a:schemeClr val="accent2"><a:lumMod val="50000"/></a:schemeClr></a:solidFill>') +
    rect(4, 500, 100, 100, 100, '<a:solidFill><a:srgbClr val="000000"><a:alpha val="50000"/></a:srgbClr></a:solidFill>');
  const pkg = await miniDeck({ slides: [{ tree }] });
  const r = await renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 960 });
  t.ok(near(await pixel(r.png, 150, 150), [0x44, 0x72, 0xc4]), 'accent1');
  // ED7D31: h 24.5°, s 0.84, l 0.561 → l 0.28 → about (131, 57, 10).
  t.ok(near(await pixel(r.png, 350, 150), [132, 58, 10], 4), 'lumMod 50 %');
  t.ok(near(await pixel(r.png, 550, 150), [128, 128, 128], 2), '50 % black over white');
});

t.test('a fill overlay effect is blended over the shape\'s fill (a:fillOverlay, §20.1.8.29)', async (t) => {
  const grey = '<a:solidFill><a:srgbClr val="808080"/></a:solidFill>';
  const overlay = (blend: string) => `<a:effectLst><a:fillOverlay blend="${blend}"><a:solidFill><a:srgbClr val="FF8040"/></a:solidFill></a:fillOverlay></a:effectLst>`;
  const tree =
    rect(2, 100, 100, 100, 100, grey + overlay('mult')) +
    rect(3, 300, 100, 100, 100, grey + overlay('over')) +
    rect(4, 500, 100, 100, 100, grey + overlay('screen')) +
    rect(5, 700, 100, 100, 100, grey) +
    // no fill of its own: nothing to lay the overlay over
    rect(6, 100, 300, 100, 100, '<a:noFill/>' + overlay('over'));
  const pkg = await miniDeck({ slides: [{ tree }] });
  const r = await renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 960 });
  // multiply: 0x80 × (FF, 80, 40) / FF ≈ (128, 64, 32); screen: 255 − (127 × (0, 127, 191)) / 255 ≈ (255, 191, 160)
  t.ok(near(await pixel(r.png, 150, 150), [128, 64, 32], 3), `multiplied (${await pixel(r.png, 150, 150)})`);
  t.ok(near(await pixel(r.png, 350, 150), [255, 128, 64], 2), 'laid over');
  t.ok(near(await pixel(r.png, 550, 150), [255, 191, 160], 3), `screened (${await pixel(r.png, 550, 150)})`);
  t.ok(near(await pixel(r.png, 750, 150), [128, 128, 128], 2), 'without an overlay: the fill alone');
  t.ok(near(await pixel(r.png, 150, 350), [255, 255, 255], 2), 'no fill: no overlay either');
});

t.test('backgrounds are inherited from the master', async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: '' }] });
  // Put a background on the master by rewriting its XML.
  const master = pkg.getXml('/ppt/slideMasters/slideMaster1.xml');
  const cSld = master.documentElement!.getElementsByTagNameNS('http://schemas.openxmlformats.org/presentationml/2006/main', 'cSld')[0]!;
  const bg = new (await import('@xmldom/xmldom')).DOMParser().parseFromString(
    '<p:bg xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:bgPr><a:solidFill><a:srgbClr val="102030"/></a:solidFill><a:effectLst/></p:bgPr></p:bg>',
    'application/xml',
  ).documentElement!;
  cSld.insertBefore(master.importNode(bg, true), cSld.firstChild);
  pkg.setXml('/ppt/slideMasters/slideMaster1.xml', master);
  const bytes = await pkg.toBytes();
  const reopened = await OpcPackage.open(bytes);
  const r = await renderSlide(reopened, '/ppt/slides/slide1.xml', { widthPx: 96 });
  t.same(await pixel(r.png, 5, 5), [0x10, 0x20, 0x30]);
});

t.test('preset geometry: an ellipse leaves its bounding box corners empty; rotation turns a bar', async (t) => {
  const ellipse = `<p:sp><p:nvSpPr><p:cNvPr id="2" name="e"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${100 * 12700}" y="${100 * 12700}"/><a:ext cx="${200 * 12700}" cy="${200 * 12700}"/></a:xfrm><a:prstGeom prst="ellipse"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></p:spPr></p:sp>`;
  // A 200 × 20 bar centred at (600, 200), rotated 90°: it becomes vertical.
  const bar = rect(3, 500, 190, 200, 20, '<a:solidFill><a:srgbClr val="0000FF"/></a:solidFill>', ' rot="5400000"');
  const pkg = await miniDeck({ slides: [{ tree: ellipse + bar }] });
  const r = await renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 960 });
  t.same(await pixel(r.png, 200, 200), [255, 0, 0], 'ellipse centre filled');
  t.same(await pixel(r.png, 105, 105), [255, 255, 255], 'ellipse corner empty');
  t.same(await pixel(r.png, 600, 120), [0, 0, 255], 'rotated bar reaches up');
  t.same(await pixel(r.png, 520, 200), [255, 255, 255], 'rotated bar left end gone');
});

t.test('preset geometry evaluation follows the guide formulas', async (t) => {
  // roundRect adj 16667: corner radius = ss * 16667 / 100000.
  const g = evaluateGeometry(presetGeometry('roundRect')!, 300, 120);
  const first = g.paths[0]!.ops[0]!;
  t.same(first.slice(0, 1), ['M']);
  t.ok(Math.abs(first[2]! - 120 * 0.16667) < 1e-6, 'starts one radius down the left edge');
  t.equal(presetGeometry('rightArrow') !== undefined && presetGeometry('chevron') !== undefined && presetGeometry('wedgeRectCallout') !== undefined, true);
  const tri = evaluateGeometry(presetGeometry('triangle')!, 100, 100);
  t.same(tri.paths[0]!.ops.map((o) => o[0]), ['M', 'L', 'L', 'Z']);
});

t.test('pictures whose headers claim huge sizes (PNG, JPEG, GIF, WebP) are not decoded', async (t) => {
  const samples = hostileSamples('image-huge-');
  t.equal(samples.length, 4, 'the hostile catalog has the four huge pictures');
  for (const s of samples) {
    const pkg = await OpcPackage.open(s.build());
    const media = pkg.partNames().find((n) => n.startsWith('/ppt/media/'))!;
    const header = readImageHeader(pkg.getBytes(media));
    t.ok(header.width * header.height > 4e9, `${s.name}: the header claims ${header.width} × ${header.height} px`);
    const before = process.memoryUsage().rss;
    const r = await renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 640 });
    t.ok(process.memoryUsage().rss - before < 200e6, `${s.name}: no huge allocation`);
    t.equal(r.width_px, 640, `${s.name}: the slide is drawn`);
  }
});

t.test('a text body of millions of characters is drawn in bounded time and memory', async (t) => {
  // Before the drawn text was bounded: 22 s of CPU and +700 MiB (10 M characters), 32 s and +500 MiB (4 M, shrink-on-overflow).
  for (const name of ['huge-text-run.pptx', 'huge-text-run-autofit.pptx']) {
    const pkg = await OpcPackage.open(hostileSample(name).build());
    pkg.getXml('/ppt/slides/slide1.xml'); // parsing is not what is measured
    const before = process.memoryUsage().rss;
    const cpu = process.cpuUsage();
    const r = await renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 640 });
    const used = process.cpuUsage(cpu);
    const seconds = (used.user + used.system) / 1e6;
    t.ok(seconds < 8, `${name}: drawn with ${seconds.toFixed(1)} s of CPU`);
    t.ok(process.memoryUsage().rss - before < 300e6, `${name}: memory grew by ${((process.memoryUsage().rss - before) / 2 ** 20).toFixed(0)} MiB`);
    const img = await loadImage(Buffer.from(r.png));
    const c = createCanvas(img.width, img.height);
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    // the text box spans x 64–576 px from y 128 px at 640 px wide (1 in = 64 px)
    const d = ctx.getImageData(70, 130, 500, 40).data;
    let inked = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i]! < 200) inked++; // shrunk to 4 pt, the text is grey at this size
    t.ok(inked > 100, `${name}: the start of the text is drawn (${inked} inked pixels)`);
  }
});

t.test('layouts render with their placeholder prompt text; slides hide empty placeholders', async (t) => {
  const title = sp(2, 'Title', { ph: 'type="title"', xfrm: [0, 0, 12192000, 1270000], body: '<a:p><a:r><a:rPr lang="en-US" sz="4000"/><a:t>Click to edit Master title style</a:t></a:r></a:p>' });
  const pkg = await miniDeck({ majorFont: 'Calibri', layouts: [{ tree: title }], slides: [{ tree: sp(2, 'Title', { ph: 'type="title"' }) }] });
  const layout = await renderSlide(pkg, '/ppt/slideLayouts/slideLayout1.xml', { widthPx: 960 });
  const slide = await renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 960 });
  const dark = async (png: Uint8Array): Promise<number> => {
    const img = await loadImage(Buffer.from(png));
    const c = createCanvas(img.width, img.height);
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, 960, 100).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i]! < 128) n++;
    return n;
  };
  t.ok((await dark(layout.png)) > 200, 'prompt text drawn on the layout');
  t.equal(await dark(slide.png), 0, 'empty title placeholder not drawn on the slide');
  t.equal(layout.font_substitutions['Calibri'], 'Carlito');
});

t.test('showMasterSp="0" hides the master shapes', async (t) => {
  const masterTree = rect(5, 0, 0, 50, 50, '<a:solidFill><a:srgbClr val="00FF00"/></a:solidFill>');
  const pkg = await miniDeck({ masterTree, slides: [{ tree: '' }, { tree: '', attrs: 'showMasterSp="0"' }] });
  const shown = await renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 960 });
  const hidden = await renderSlide(pkg, '/ppt/slides/slide2.xml', { widthPx: 960 });
  t.same(await pixel(shown.png, 10, 10), [0, 255, 0]);
  t.same(await pixel(hidden.png, 10, 10), [255, 255, 255]);
});

t.test('tint and shade work in linear light; an outer shadow falls below and right of its shape', async (t) => {
  const tree =
    // 808080 shaded to 50 % in linear light: 0.2159 × 0.5 → sRGB 0.3634 → 93 (not 64 as in sRGB).
    rect(2, 100, 100, 100, 100, '<a:solidFill><a:srgbClr val="808080"><a:shade val="50000"/></a:srgbClr></a:solidFill>') +
    // Between gamma and invGamma the shade acts on the stored values: 128 × 0.5 = 64.
    rect(3, 300, 100, 100, 100, '<a:solidFill><a:srgbClr val="808080"><a:gamma/><a:shade val="50000"/><a:invGamma/></a:srgbClr></a:solidFill>') +
    rect(4, 500, 100, 100, 100, '<a:solidFill><a:srgbClr val="4472C4"/></a:solidFill><a:effectLst><a:outerShdw blurRad="25400" dist="76200" dir="2700000"><a:srgbClr val="000000"><a:alpha val="60000"/></a:srgbClr></a:outerShdw></a:effectLst>');
  const pkg = await miniDeck({ slides: [{ tree }] });
  const r = await renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 960 });
  t.ok(near(await pixel(r.png, 150, 150), [93, 93, 93], 2), 'shade in linear light');
  t.ok(near(await pixel(r.png, 350, 150), [64, 64, 64], 2), 'shade between gamma and invGamma');
  // dist 6 pt at 45°: about 4.2 pt right and down; the shadow shows past the shape's corner.
  const below = await pixel(r.png, 602, 202);
  t.ok(below[0] < 200, `shadow below right of the shape (${below})`);
  t.same(await pixel(r.png, 495, 150), [255, 255, 255], 'none above left');
  t.ok(near(await pixel(r.png, 550, 150), [0x44, 0x72, 0xc4]), 'the shape is drawn over its shadow');
});

t.test('a run highlight (a:highlight) is painted behind its text, spaces included', async (t) => {
  // 40 pt text at (100, 100) pt; at 960 px one pixel is one point.
  const run = (text: string, hl: string): string => `<a:r><a:rPr lang="en-US" sz="4000"><a:solidFill><a:srgbClr val="000000"/></a:solidFill>${hl}</a:rPr><a:t>${text}</a:t></a:r>`;
  const tree = (hl: string): string => sp(2, 'T', { xfrm: [100 * 12700, 100 * 12700, 600 * 12700, 100 * 12700], body: `<a:p>${run('ii      ii', hl)}</a:p>` });
  const lit = await renderSlide(await miniDeck({ slides: [{ tree: tree('<a:highlight><a:srgbClr val="00FF00"/></a:highlight>') }] }), '/ppt/slides/slide1.xml', { widthPx: 960 });
  const plain = await renderSlide(await miniDeck({ slides: [{ tree: tree('') }] }), '/ppt/slides/slide1.xml', { widthPx: 960 });
  // the middle of the spaces: about 7.2 pt inset + 2 × 9 pt (i) + 3 spaces of 11 pt
  const at: [number, number] = [100 + 7 + 18 + 33, 100 + 4 + 24];
  t.ok(near(await pixel(lit.png, ...at), [0, 255, 0], 8), `highlighted space is green: ${await pixel(lit.png, ...at)}`);
  t.same(await pixel(plain.png, ...at), [255, 255, 255], 'without a highlight it is white');
});

t.test('a custom path without its own w/h is drawn in the shape\'s EMU coordinates (§20.1.9.15)', async (t) => {
  // A 200 × 100 pt box at (100, 100) pt with an elbow path written in EMU: down to the middle,
  // across, down to the bottom-right corner — the connector form SmartArt drawings use.
  const cx = 200 * 12700;
  const cy = 100 * 12700;
  const path = `<a:custGeom><a:avLst/><a:gdLst/><a:ahLst/><a:cxnLst/><a:rect l="0" t="0" r="0" b="0"/><a:pathLst><a:path><a:moveTo><a:pt x="0" y="0"/></a:moveTo><a:lnTo><a:pt x="0" y="${cy / 2}"/></a:lnTo><a:lnTo><a:pt x="${cx}" y="${cy / 2}"/></a:lnTo><a:lnTo><a:pt x="${cx}" y="${cy}"/></a:lnTo></a:path></a:pathLst></a:custGeom>`;
  const tree = `<p:sp><p:nvSpPr><p:cNvPr id="2" name="elbow"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${100 * 12700}" y="${100 * 12700}"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm>${path}<a:noFill/><a:ln w="50800"><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></a:ln></p:spPr></p:sp>`;
  const r = await renderSlide(await miniDeck({ slides: [{ tree }] }), '/ppt/slides/slide1.xml', { widthPx: 960 });
  t.ok(near(await pixel(r.png, 200, 150), [255, 0, 0], 8), 'the horizontal run crosses the middle of the box');
  t.ok(near(await pixel(r.png, 300, 180), [255, 0, 0], 8), 'the last leg runs down the right edge');
  t.ok(near(await pixel(r.png, 100, 125), [255, 0, 0], 8), 'the first leg runs down the left edge');
});

t.test('a shape with neither fill nor line casts its shadow from its text; a filled one from its outline', async (t) => {
  // 40 pt "IIII" at (100, 100) pt, black; a sharp green shadow 6 pt to the right (dir 0).
  const shadow = '<a:effectLst><a:outerShdw dist="76200" dir="0" algn="l" rotWithShape="0"><a:srgbClr val="00FF00"/></a:outerShdw></a:effectLst>';
  const tree = (fill: string): string =>
    `<p:sp><p:nvSpPr><p:cNvPr id="2" name="T"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${100 * 12700}" y="${100 * 12700}"/><a:ext cx="${400 * 12700}" cy="${100 * 12700}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom>${fill}<a:ln><a:noFill/></a:ln>${shadow}</p:spPr>` +
    `<p:txBody><a:bodyPr wrap="none" lIns="0" tIns="0" rIns="0" bIns="0"/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="4000"><a:solidFill><a:srgbClr val="000000"/></a:solidFill><a:latin typeface="Arial"/></a:rPr><a:t>IIII</a:t></a:r></a:p></p:txBody></p:sp>`;
  const count = async (png: Uint8Array): Promise<number> => {
    const img = await loadImage(Buffer.from(png));
    const c = createCanvas(img.width, img.height);
    c.getContext('2d').drawImage(img, 0, 0);
    const d = c.getContext('2d').getImageData(100, 100, 200, 60).data;
    let n = 0;
    for (let p = 0; p < d.length; p += 4) if (d[p]! < 60 && d[p + 1]! > 200 && d[p + 2]! < 60) n++;
    return n;
  };
  const unfilled = await renderSlide(await miniDeck({ slides: [{ tree: tree('<a:noFill/>') }] }), '/ppt/slides/slide1.xml', { widthPx: 960 });
  const filled = await renderSlide(await miniDeck({ slides: [{ tree: tree('<a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill>') }] }), '/ppt/slides/slide1.xml', { widthPx: 960 });
  const unfilledGreen = await count(unfilled.png);
  t.ok(unfilledGreen > 200, `${unfilledGreen} green shadow pixels beside the unfilled box's letters`);
  t.equal(await count(filled.png), 0, 'a white-filled box hides its own outline shadow where the letters are');
  // a run's own shadow (a:rPr/a:effectLst), in a filled box: cast by its glyphs over the fill
  const runShadow = tree('<a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill>').replace(shadow, '').replace('<a:latin typeface="Arial"/>', `${shadow}<a:latin typeface="Arial"/>`);
  const run = await renderSlide(await miniDeck({ slides: [{ tree: runShadow }] }), '/ppt/slides/slide1.xml', { widthPx: 960 });
  const runGreen = await count(run.png);
  t.ok(runGreen > 200, `${runGreen} green pixels beside the letters of a run with a shadow of its own`);
});
