/**
 * The template doctor's picture check (issue 17, item 5): every picture whose header is
 * past the pixel limits, at every place that shows it (master background, theme fill,
 * layout picture, slide picture, table cell, shape fill), with its dimensions, the limit
 * and what generated decks get instead; the hostile catalog's huge pictures (PNG, JPEG,
 * GIF, WebP) are each found; honest templates have no finding; headers only are read.
 */
import t from 'tap';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { analyzePresentation } from '../../../core/src/analysis/analyze.js';
import type { AnalysisResults } from '../../../core/src/analysis/types.js';
import { diagnose } from '../../../core/src/doctor/index.js';
import { oversizedPictures } from '../../../core/src/doctor/pictures.js';
import { OVERSIZED_MEDIA, oversizedPicturesTemplate } from '../../fixtures/oversized-pictures-template.js';
import { addRel, deckParts, edit, picture, RT } from '../../hostile/deck-parts.js';
import { zipOf } from '../../hostile/raw-zip.js';
import { hostileSample, hostileSamples, hugePng } from '../../hostile/samples.js';

async function analyzed(bytes: Uint8Array): Promise<{ pkg: OpcPackage; results: AnalysisResults }> {
  const pkg = await OpcPackage.open(bytes);
  return { pkg, results: analyzePresentation({ pkg, options: {}, idFor: (k, p) => `${k === 'slide' ? 'sld' : 'lay'}:${p}` }) };
}

t.test('every place a picture past the limits is shown from is a finding with its dimensions, the limit and what decks get', async (t) => {
  const { pkg, results } = await analyzed(await oversizedPicturesTemplate());
  const d = diagnose(results, pkg);
  const common = { limit_pixels: 50_000_000, limit_side_px: 32_767, generation: 'replaced' };
  const media = (n: string): string => `/ppt/media/${n}`;
  t.same(
    d.oversized_pictures.map((f) => [f.image_part_name, f.part_kind, f.usage, f.shape_name]),
    [
      [media(OVERSIZED_MEDIA.background), 'master', 'background', null],
      [media(OVERSIZED_MEDIA.background), 'theme', 'theme_fill', null],
      [media(OVERSIZED_MEDIA.tableCell), 'slide', 'table_cell', 'Table 5'],
      [media(OVERSIZED_MEDIA.shapeFill), 'slide', 'shape_fill', 'Filled 3'],
      [media(OVERSIZED_MEDIA.layout), 'layout', 'picture', 'Layout bomb'],
      [media(OVERSIZED_MEDIA.slidePicture), 'slide', 'picture', 'Bomb GIF'],
    ],
    'six places, the 30000² PNG shown from two of them; the honest pictures are not listed',
  );
  t.match(d.oversized_pictures[0], { ...common, format: 'png', width_px: 30_000, height_px: 30_000, pixels: 900_000_000, part_name: '/ppt/slideMasters/slideMaster1.xml', slide_id: null, shape_id: null });
  t.match(d.oversized_pictures[4], { ...common, format: 'jpeg', width_px: 65_500, height_px: 65_500, part_name: '/ppt/slideLayouts/slideLayout1.xml', slide_id: 'lay:/ppt/slideLayouts/slideLayout1.xml', shape_id: 3 });
  t.match(d.oversized_pictures[5], { ...common, format: 'gif', width_px: 65_535, height_px: 65_535, part_name: '/ppt/slides/slide1.xml', slide_id: 'sld:/ppt/slides/slide1.xml', shape_id: 3 });
  t.match(d.oversized_pictures[2], { format: 'webp', width_px: 16_777_216, shape_id: 5 });
  t.match(d.oversized_pictures[3], { format: 'png', width_px: 20_000, height_px: 10_000, pixels: 200_000_000, slide_id: 'sld:/ppt/slides/slide2.xml' });
  t.same(diagnose(results).oversized_pictures, [], 'without the package (matching) the list is empty');
  t.same(JSON.parse(JSON.stringify(d)).oversized_pictures, d.oversized_pictures, 'plain JSON');
});

t.test("the hostile catalog's huge pictures are each found on slide 1's picture", async (t) => {
  const samples = hostileSamples('image-huge-');
  t.ok(samples.length >= 4, samples.map((s) => s.name).join(', '));
  for (const s of samples) {
    const { pkg, results } = await analyzed(s.build());
    const found = oversizedPictures(pkg, results);
    t.match(found, [{ part_kind: 'slide', usage: 'picture', shape_id: 3, generation: 'replaced', slide_id: 'sld:/ppt/slides/slide1.xml' }], `${s.name}: ${found.map((f) => `${f.format} ${f.width_px} × ${f.height_px}`).join()}`);
    t.ok(found[0]!.width_px * found[0]!.height_px > 50_000_000);
  }
});

t.test('an oversized picture whose decoding is bounded is reported as downsampled; honest templates have no finding', async (t) => {
  const parts = deckParts();
  const { pkg: plain, results: plainResults } = await analyzed(hostileSample('ok-minimal.pptx').build());
  t.same(oversizedPictures(plain, plainResults), [], 'a minimal deck');
  edit(parts, 'ppt/slides/slide1.xml', '</p:spTree>', `${picture(4, 'rId2')}${picture(5, 'rId2')}</p:spTree>`);
  edit(parts, 'ppt/slides/slide1.xml', 'name="Picture 5"', 'name="Same again"');
  addRel(parts, 'ppt/slides/_rels/slide1.xml.rels', { id: 'rId2', type: RT.image, target: '../media/big.png' });
  addRel(parts, 'ppt/slides/_rels/slide1.xml.rels', { id: 'rId3', type: RT.image, target: '../media/big.png' });
  parts.set('ppt/media/big.png', hugePng(8_000, 7_500));
  const { pkg, results } = await analyzed(zipOf(parts));
  t.match(oversizedPictures(pkg, results), [
    { width_px: 8_000, height_px: 7_500, pixels: 60_000_000, generation: 'downsampled', usage: 'picture', shape_id: 4 },
    { generation: 'downsampled', usage: 'picture', shape_id: 5, shape_name: 'Same again' },
    { generation: 'downsampled', usage: 'unreferenced', shape_id: null, shape_name: null },
  ], '60 megapixels: downsampled; two pictures of one relationship, and a relationship no element uses');
});
