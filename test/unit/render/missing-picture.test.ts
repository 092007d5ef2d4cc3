/**
 * Previews of repaired templates: a picture with no image to show is drawn as an empty
 * picture frame (a thin grey outline and a broken-picture icon in its top-left corner, over
 * its own fill), as PowerPoint shows "picture can't be displayed"; every slide of the
 * damaged template renders, never an error. On a slide 960 pt wide rendered 1920 px wide,
 * one point is two pixels.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { readImageHeader } from '../../../core/src/render/images.js';
import { damagedTemplatePackage } from '../../fixtures/damaged-template.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

type Rgb = [number, number, number];

/** RGB of pixels of a PNG. */
async function pixels(png: Uint8Array): Promise<(x: number, y: number) => Rgb> {
  const img = await loadImage(Buffer.from(png));
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const d = ctx.getImageData(0, 0, img.width, img.height).data;
  return (x, y) => {
    const i = (Math.round(y) * img.width + Math.round(x)) * 4;
    return [d[i]!, d[i + 1]!, d[i + 2]!];
  };
}

const isWhite = (p: Rgb): boolean => p.every((v) => v >= 250);
const isGrey = (p: Rgb): boolean => Math.max(...p) - Math.min(...p) < 12 && p[0] < 245 && p[0] > 60;
const isRed = (p: Rgb): boolean => p[0] > 150 && p[1] < 90 && p[2] < 90;

t.test('a picture whose image is gone is an empty frame with a broken-picture icon', async (t) => {
  const pkg = await damagedTemplatePackage();
  const r = await renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 1920 });
  t.same(readImageHeader(r.png), { format: 'png', width: 1920, height: 1080 });
  const px = await pixels(r.png);
  // the picture: 914400 EMU = 72 pt, 1828800 EMU = 144 pt; 144 pt square → px 144..432, 288..576
  const outline: Rgb[] = [];
  for (let y = 320; y < 560; y += 20) outline.push(px(144, y));
  t.ok(outline.every((p) => isGrey(p) || !isWhite(p)), `its left edge is drawn (${JSON.stringify(outline.slice(0, 3))})`);
  t.ok(isGrey(px(288, 576)) || !isWhite(px(288, 576)), 'and its bottom edge');
  // the icon: inset 4 pt, 16 pt square → px 152..184, 296..328, a red cross through its centre
  t.ok(isRed(px(168, 312)), `a red cross in the icon (${JSON.stringify(px(168, 312))})`);
  t.ok(isWhite(px(300, 450)), 'the frame is empty inside');
  t.ok(isWhite(px(100, 450)) && isWhite(px(480, 450)), 'nothing outside it');
});

t.test('every slide and the layout of the damaged template render', async (t) => {
  const pkg = await damagedTemplatePackage();
  for (let n = 1; n <= 8; n++) {
    const r = await renderSlide(pkg, `/ppt/slides/slide${n}.xml`, { widthPx: 480 });
    t.equal(readImageHeader(r.png).format, 'png', `slide ${n}`);
  }
  const layout = await renderSlide(pkg, '/ppt/slideLayouts/slideLayout1.xml', { widthPx: 960 });
  const px = await pixels(layout.png);
  // the layout's picture lost its image part (unknown type, dropped): 6096000 EMU = 480 pt, 144 pt down
  t.ok(isRed(px(480 + 12, 144 + 12)), 'the layout picture is an empty frame too');
  // slide 6: the PNG without a content type is drawn (red 16 px PNG stretched over the frame)
  const s6 = await pixels((await renderSlide(pkg, '/ppt/slides/slide6.xml', { widthPx: 960 })).png);
  t.ok(isRed(s6(144, 216)), `the PNG given a content type is drawn (${JSON.stringify(s6(144, 216))})`);
  // slide 4: the chart frame is gone, nothing is drawn where it was
  const s4 = await pixels((await renderSlide(pkg, '/ppt/slides/slide4.xml', { widthPx: 960 })).png);
  t.ok(isWhite(s4(300, 250)), 'no chart frame is drawn');
});

t.test('the incoming file with an empty picture fill: its picture is a white frame with the icon', needsCorpus('incoming/templates/poi-missing-blip-fill.pptx'), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('incoming/templates/poi-missing-blip-fill.pptx')));
  const r = await renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 960 });
  const px = await pixels(r.png);
  // Shape 662: off 4193219, 2356454 EMU → 330.2, 185.5 pt; icon centre 4 + 8 pt further in
  t.ok(isRed(px(330.2 + 12, 185.5 + 12)), `the broken-picture icon (${JSON.stringify(px(342, 197))})`);
  t.ok(isWhite(px(330.2 + 150, 185.5 + 90)), 'its own white fill inside');
});
