/**
 * Shadows on PDF pages (issue 22): a shadow is a picture, and shapes of the same outline,
 * size and shadow share one picture wherever they stand on the page (whole points or not),
 * each placed at its own shape's shadow.
 */
import t from 'tap';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { renderPdf } from '../../../core/src/render/pdf.js';
import { havePoppler, rasterizePage } from '../../helpers/pdf-tools.js';
import { strictTests } from '../../helpers/corpus.js';
import { miniDeck } from '../ooxml/pml/mini-deck.js';

const skipPoppler = !havePoppler() && !strictTests ? 'poppler-utils (pdftoppm) not installed' : false;

const SHADOW = '<a:effectLst><a:outerShdw blurRad="40005" dist="38100" dir="2700000"><a:srgbClr val="000000"><a:alpha val="60000"/></a:srgbClr></a:outerShdw></a:effectLst>';

/** A filled rectangle with an outer shadow, position and size in EMU (960 × 540 pt slide). */
const shadowed = (id: number, x: number, y: number, cx: number, cy: number): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="r${id}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="roundRect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="4472C4"/></a:solidFill>${SHADOW}</p:spPr></p:sp>`;

const PT = 12700;
/** Three shapes of one size (two off the whole point), one of another size. */
const SHAPES: Array<[number, number, number, number]> = [
  [100 * PT, 100 * PT, 120 * PT, 80 * PT],
  [400 * PT + 3301, 100 * PT + 5077, 120 * PT, 80 * PT],
  [100 * PT + 777, 300 * PT + 9001, 120 * PT, 80 * PT],
  [500 * PT, 300 * PT, 200 * PT, 100 * PT],
];

/** Image objects of a PDF (a picture with transparency is two: its colours and its soft mask). */
const imageObjects = (pdf: Uint8Array): number => (Buffer.from(pdf).toString('latin1').match(/\/Subtype\s*\/Image\b/g) ?? []).length;

t.test('shapes of the same outline share one shadow picture, each shadow where its shape casts it', { skip: skipPoppler }, async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: SHAPES.map(([x, y, cx, cy], i) => shadowed(i + 2, x, y, cx, cy)).join('') }] });
  const { pdf } = await renderPdf(pkg);
  t.equal(imageObjects(pdf), 4, 'two shadow pictures (each with its soft mask) for four shadowed shapes of two sizes');

  // One pixel per point: each shadow shows below right of its shape, nothing above left.
  const img = await loadImage(Buffer.from(rasterizePage(pdf, 1, 960, 540)));
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const grey = (x: number, y: number): number => {
    const d = ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data;
    return (d[0]! + d[1]! + d[2]!) / 3;
  };
  for (const [x, y, cx, cy] of SHAPES) {
    const [l, tp, r, b] = [x / PT, y / PT, (x + cx) / PT, (y + cy) / PT];
    // dist 3 pt at 45°: about 2.1 pt right and down; blur 3.15 pt.
    t.ok(grey((l + r) / 2, b + 1) < 200, `shadow below the shape at ${l.toFixed(2)}, ${tp.toFixed(2)} (${grey((l + r) / 2, b + 1).toFixed(0)})`);
    t.ok(grey(r + 1, (tp + b) / 2) < 200, `shadow right of it (${grey(r + 1, (tp + b) / 2).toFixed(0)})`);
    t.ok(grey((l + r) / 2, tp - 4) > 250, 'none above it');
    t.ok(grey(l - 4, (tp + b) / 2) > 250, 'none left of it');
  }
});

t.test('a shadow without blur is drawn as vector paths, where its shape casts it', { skip: skipPoppler }, async (t) => {
  // dist 6 pt straight down and right (45°), no blurRad: a hard-edged copy of the shape, half black.
  const sharp = '<a:effectLst><a:outerShdw dist="107763" dir="2700000"><a:srgbClr val="000000"><a:alpha val="50000"/></a:srgbClr></a:outerShdw></a:effectLst>';
  const shape = (id: number, x: number, y: number): string =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="s${id}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x * PT}" y="${y * PT}"/><a:ext cx="${100 * PT}" cy="${60 * PT}"/></a:xfrm><a:prstGeom prst="ellipse"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill><a:ln w="${2 * PT}"><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></a:ln>${sharp}</p:spPr></p:sp>`;
  const pkg = await miniDeck({ slides: [{ tree: shape(2, 100, 100) + shape(3, 400, 300) }] });
  const { pdf } = await renderPdf(pkg);
  t.equal(imageObjects(pdf), 0, 'no shadow picture in the file');
  const img = await loadImage(Buffer.from(rasterizePage(pdf, 1, 960, 540)));
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const rgb = (x: number, y: number): number[] => [...ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3)];
  for (const [x, y] of [[100, 100], [400, 300]] as const) {
    // The ellipse's centre is x + 50, y + 30; its shadow reaches 6·cos 45° ≈ 4.2 pt lower and further right.
    const below = rgb(x + 50, y + 60 + 3);
    t.ok(below.every((v) => Math.abs(v - 128) < 20), `half-black shadow just below the shape at ${x}, ${y}: ${below}`);
    const beyond = rgb(x + 100 + 3, y + 30 + 4);
    t.ok(beyond.every((v) => Math.abs(v - 128) < 20), `and right of it: ${beyond}`);
    t.same(rgb(x + 50, y - 3), [255, 255, 255], 'none above it');
    t.same(rgb(x + 50, y + 60 + 7), [255, 255, 255], 'none past the offset: the edge is sharp');
    t.same(rgb(x + 50, y + 30), [255, 255, 255], 'the shape itself covers its shadow');
  }
});
