/**
 * WMF and EMF pictures are drawn (issue 21): real corpus metafiles (a legacy OLE object's
 * WMF preview, an OLE chart's EMF preview) show on the slide where the picture is, PDF pages
 * carry their text as text (vectors), small hand-assembled WMF/EMF files land where their
 * window/frame mapping puts them, and hostile files return quickly without throwing.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { renderPdf } from '../../../core/src/render/pdf.js';
import { decodeImage } from '../../../core/src/render/images.js';
import { MetafilePicture } from '../../../core/src/render/metafile/index.js';
import { drawCropped } from '../../../core/src/render/draw-context.js';
import { pngPixels, type Rgb } from '../../helpers/png-pixels.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { havePoppler, pageTexts } from '../../helpers/pdf-tools.js';

const pixels = pngPixels;

/** Share of pixels in a rectangle (fractions of the image) matching `test`. */
function share(p: Awaited<ReturnType<typeof pixels>>, r: [number, number, number, number], test: (c: Rgb) => boolean): number {
  let n = 0, hit = 0;
  for (let y = r[1] * p.h; y < r[3] * p.h; y += 2) for (let x = r[0] * p.w; x < r[2] * p.w; x += 2) { n++; if (test(p.at(x, y))) hit++; }
  return hit / Math.max(1, n);
}

const near = (c: Rgb, ref: Rgb, tol = 40): boolean => Math.abs(c[0] - ref[0]) + Math.abs(c[1] - ref[1]) + Math.abs(c[2] - ref[2]) <= tol;

t.test('corpus: a legacy OLE object\'s WMF preview and an OLE chart\'s EMF preview are drawn', needsCorpus('templates/poi-comments-11slides.pptx'), async (t) => {
  // Slide 8: a full-slide OLE object (p:oleObj without p:pic) whose preview is a WMF table with a red box.
  const comments = await OpcPackage.open(readFileSync(corpusPath('templates/poi-comments-11slides.pptx')));
  const p8 = await pixels((await renderSlide(comments, '/ppt/slides/slide8.xml', { widthPx: 800 })).png);
  const inked = share(p8, [0.05, 0.1, 0.95, 0.9], (c) => c[0] + c[1] + c[2] < 600);
  t.ok(inked > 0.08, `table lines and text drawn over the slide (${(inked * 100).toFixed(1)} % of pixels not white)`);
  t.ok(share(p8, [0.1, 0.1, 0.7, 0.9], (c) => c[0] > 180 && c[1] < 90 && c[2] < 90) > 0.001, 'the red frame of "suggested feasible structures" is drawn');
  // Slide 10: an OLE chart whose preview is an EMF: bars in Office 2007's blue and red.
  const aascu = await OpcPackage.open(readFileSync(corpusPath('incoming/templates/poi-aascu-6masters-combo-chart.pptx')));
  const p10 = await pixels((await renderSlide(aascu, '/ppt/slides/slide10.xml', { widthPx: 800 })).png);
  t.ok(share(p10, [0, 0.15, 1, 0.85], (c) => near(c, [0xc0, 0x50, 0x4d])) > 0.005, 'the red bar (#C0504D) of the chart picture is drawn');
  t.ok(share(p10, [0, 0.15, 1, 0.85], (c) => near(c, [0x4f, 0x81, 0xbd])) > 0.005, 'the blue bar (#4F81BD) is drawn');
});

t.test('corpus: on a PDF page a metafile is vectors (its text is text)', havePoppler() ? needsCorpus('templates/poi-comments-11slides.pptx') : { skip: 'poppler not installed' }, async (t) => {
  const comments = await OpcPackage.open(readFileSync(corpusPath('templates/poi-comments-11slides.pptx')));
  const pages = pageTexts((await renderPdf(comments)).pdf);
  t.match(pages[7] ?? '', /Suggested feasible structures/, 'the WMF\'s text is on page 8 as text');
});

/** An EMF: header (device 1000 × 1000 px over 1000 × 1000 mm, frame 0..100 mm) then `records`. */
function emf(records: number[][]): Uint8Array {
  const header = new DataView(new ArrayBuffer(88));
  const i = (o: number, v: number): void => header.setInt32(o, v, true);
  i(0, 1); i(4, 88); i(8, 0); i(12, 0); i(16, 99); i(20, 99); i(24, 0); i(28, 0); i(32, 10000); i(36, 10000);
  i(40, 0x464d4520); i(44, 0x10000); i(72, 1000); i(76, 1000); i(80, 1000); i(84, 1000);
  const recs = [...records, [14, 20, 0, 0, 0]].map((r) => { const b = new DataView(new ArrayBuffer(r.length * 4)); r.forEach((v, k) => b.setInt32(k * 4, v, true)); return new Uint8Array(b.buffer); });
  const out = new Uint8Array(88 + recs.reduce((s, r) => s + r.length, 0));
  out.set(new Uint8Array(header.buffer), 0);
  let o = 88;
  for (const r of recs) { out.set(r, o); o += r.length; }
  return out;
}

/** A placeable WMF (bounding box 0,0..1000,1000) with 16-bit-word `records` ([function, ...params]). */
function wmf(records: number[][]): Uint8Array {
  const words: number[] = [0xcdd7, 0x9ac6, 0, 0, 0, 1000, 1000, 1000, 0, 0, 0];
  words.push(1, 9, 0x300, 0, 0, 8, 0, 0, 0);
  for (const r of [...records, [0]]) {
    const size = r.length + 2;
    words.push(size & 0xffff, size >>> 16, ...r);
  }
  const dv = new DataView(new ArrayBuffer(words.length * 2));
  words.forEach((w, k) => dv.setUint16(k * 2, w & 0xffff, true));
  return new Uint8Array(dv.buffer);
}

function drawn(m: MetafilePicture | undefined, size = 200): { at: (x: number, y: number) => Rgb } {
  const c = createCanvas(size, size);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, size, size);
  m?.draw(ctx, { x: 0, y: 0, w: size, h: size });
  const d = ctx.getImageData(0, 0, size, size).data;
  return { at: (x, y) => { const k = (y * size + x) * 4; return [d[k]!, d[k + 1]!, d[k + 2]!]; } };
}

t.test('synthetic EMF: the frame maps onto the box; window/viewport and world transform apply', async (t) => {
  const red = [39, 24, 1, 0, 0x0000ff, 0], select1 = [37, 12, 1], nullPen = [37, 12, 0x80000008 | 0];
  // Device units 0..100 are the frame: a rectangle over its top-right quarter.
  const a = MetafilePicture.parse(emf([red, select1, nullPen, [43, 24, 50, 0, 100, 50]]));
  t.ok(a, 'parsed');
  t.same(drawn(a).at(150, 50), [255, 0, 0], 'top-right quarter red');
  t.same(drawn(a).at(50, 150), [255, 255, 255], 'bottom-left untouched');
  // MM_ANISOTROPIC: window 10 × 10 onto viewport 100 × 100; the rectangle (0,5)-(5,10) is the bottom-left quarter.
  const b = MetafilePicture.parse(emf([red, select1, nullPen, [17, 12, 8], [9, 16, 10, 10], [11, 16, 100, 100], [43, 24, 0, 5, 5, 10]]));
  t.same(drawn(b).at(50, 150), [255, 0, 0], 'anisotropic mapping: bottom-left red');
  t.same(drawn(b).at(150, 50), [255, 255, 255], 'top-right untouched');
  // SetWorldTransform: translate by (50, 50) device units (floats).
  const f = (v: number): number => new Int32Array(new Float32Array([v]).buffer)[0]!;
  const c = MetafilePicture.parse(emf([red, select1, nullPen, [35, 32, f(1), f(0), f(0), f(1), f(50), f(50)], [43, 24, 0, 0, 50, 50]]));
  t.same(drawn(c).at(150, 150), [255, 0, 0], 'world transform moves the rectangle to the bottom-right');
  t.same(drawn(c).at(50, 50), [255, 255, 255], 'top-left untouched');
  // SaveDC / RestoreDC: the brush selected after SaveDC is dropped by RestoreDC(-1).
  const blue = [39, 24, 2, 0, 0xff0000, 0];
  const d = MetafilePicture.parse(emf([red, blue, select1, nullPen, [33, 8], [37, 12, 2], [34, 12, -1], [43, 24, 0, 0, 100, 100]]));
  t.same(drawn(d).at(100, 100), [255, 0, 0], 'restored brush is red');
});

t.test('synthetic WMF: placeable box and window map onto the box, y-flipped windows too', async (t) => {
  const brush = [0x02fc, 0, 0x0000, 0x00ff, 0]; // solid, COLORREF 0x00FF0000 (blue: 0x00BBGGRR)
  const pen = [0x02fa, 5, 0, 0, 0, 0];
  const a = MetafilePicture.parse(wmf([[0x020b, 0, 0], [0x020c, 1000, 1000], brush, [0x012d, 0], pen, [0x012d, 1], [0x041b, 1000, 500, 500, 0]]));
  t.ok(a, 'parsed');
  t.same(drawn(a).at(50, 150), [0, 0, 255], 'rectangle (0,500)-(500,1000): bottom-left blue');
  t.same(drawn(a).at(150, 50), [255, 255, 255], 'top-right untouched');
  // Window origin at the bottom with a negative height: y grows upwards, the same rectangle is top-left.
  const b = MetafilePicture.parse(wmf([[0x020b, 1000, 0], [0x020c, -1000 & 0xffff, 1000], brush, [0x012d, 0], pen, [0x012d, 1], [0x041b, 1000, 500, 500, 0]]));
  t.same(drawn(b).at(50, 50), [0, 0, 255], 'y-up window: top-left blue');
  t.same(drawn(b).at(50, 150), [255, 255, 255], 'bottom-left untouched');
  // Polygon, 16-bit points: a triangle over the right half.
  const c = MetafilePicture.parse(wmf([[0x020b, 0, 0], [0x020c, 1000, 1000], brush, [0x012d, 0], pen, [0x012d, 1], [0x0324, 3, 500, 0, 1000, 0, 1000, 1000]]));
  t.same(drawn(c).at(190, 20), [0, 0, 255], 'triangle corner filled');
  t.same(drawn(c).at(20, 190), [255, 255, 255], 'outside the triangle untouched');
});

t.test('hostile metafiles: truncated, huge or zero record sizes, huge counts return quickly without throwing', async (t) => {
  const good = emf([[39, 24, 1, 0, 0xff, 0], [37, 12, 1], [43, 24, 0, 0, 50, 50]]);
  const setU32 = (b: Uint8Array, o: number, v: number): Uint8Array => { const c = b.slice(); new DataView(c.buffer).setUint32(o, v, true); return c; };
  const cases: [string, Uint8Array][] = [
    ['truncated EMF', good.subarray(0, 100)],
    ['EMF header only', good.subarray(0, 88)],
    ['EMF record size huge', setU32(good, 92, 0xfffffff0)],
    ['EMF record size zero', setU32(good, 92, 0)],
    ['EMF header size past the end', setU32(good, 4, 0x7fffffff)],
    ['EMF polygon count huge', emf([[3, 28 + 8, 0, 0, 10, 10, 0x7fffffff, 1, 1]])],
    ['EMF polypolygon counts huge', emf([[8, 40, 0, 0, 10, 10, 0x7fffffff, 0x7fffffff, 5, 5]])],
    ['EMF bitmap claims 100000 × 100000', emf([[81, 80 + 40, 0, 0, 0, 0, 0, 0, 0, 0, 10, 10, 80, 40, 120, 0, 0, 0xcc0020, 10, 10, 40, 100000, 100000, 0x180001, 0, 0, 0, 0, 0, 0]])],
    ['EMF 100000 SaveDC', emf(Array.from({ length: 100000 }, () => [33, 8]))],
    ['WMF truncated', wmf([[0x0324, 3, 0, 0, 10, 10, 20, 0]]).subarray(0, 50)],
    ['WMF record of zero words', setU32(wmf([[0x0324, 3, 0, 0, 10, 10, 20, 0]]), 40, 0)],
    ['WMF record size huge', setU32(wmf([[0x0324, 3, 0, 0, 10, 10, 20, 0]]), 40, 0x7fffffff)],
    ['WMF polygon count huge', wmf([[0x020c, 100, 100], [0x0324, 0x7fff, 0, 0]])],
    ['WMF 60000 objects created', wmf(Array.from({ length: 60000 }, () => [0x02fc, 0, 0, 0, 0]))],
    ['zero bytes', new Uint8Array(0)],
  ];
  for (const [name, bytes] of cases) {
    const t0 = performance.now();
    let threw: unknown;
    try {
      const d = await decodeImage(bytes);
      const c = createCanvas(100, 100);
      if (d instanceof MetafilePicture) d.draw(c.getContext('2d'), { x: 0, y: 0, w: 100, h: 100 });
    } catch (err) {
      threw = err;
    }
    const ms = performance.now() - t0;
    t.equal(threw, undefined, `${name}: no throw`);
    t.ok(ms < 3000, `${name}: ${ms.toFixed(0)} ms`);
  }
});

t.test('a WMF cosmetic pen (width 1) draws one device pixel wide on a preview, whatever the scale', async (t) => {
  // Window 1000 × 1000 on a 100 pt box; a navy (COLORREF 0x00800000) pen 1 unit wide, a horizontal line at y = 500.
  const m = MetafilePicture.parse(wmf([[0x020b, 0, 0], [0x020c, 1000, 1000], [0x02fa, 0, 1, 0, 0, 0x80], [0x012d, 0], [0x0214, 500, 100], [0x0213, 500, 900]]));
  t.ok(m, 'parsed');
  for (const scale of [1, 1.111, 1.333]) {
    // a slide drawn at `scale` px per pt: the line at 50 pt lies 50 × scale px down
    const size = Math.ceil(100 * scale);
    const c = createCanvas(size, size);
    const ctx = c.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, size, size);
    ctx.scale(scale, scale);
    drawCropped(ctx, m!, undefined, { x: 0, y: 0, w: 100, h: 100 });
    const d = ctx.getImageData(Math.round(size / 2), 0, 1, size).data;
    // the line's ink summed down the middle column: one pixel of navy, spread over the rows it touches
    let ink = 0;
    let darkest = 255;
    for (let y = 0; y < size; y++) { ink += (255 - d[y * 4]!) / 255; darkest = Math.min(darkest, d[y * 4]!); }
    t.ok(ink > 0.85 && ink < 1.3, `scale ${scale}: ${ink.toFixed(2)} px of ink down the column`);
    t.ok(darkest < 140, `scale ${scale}: darkest row red ${darkest}`);
  }
});
