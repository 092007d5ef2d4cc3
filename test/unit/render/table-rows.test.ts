/**
 * Table rows that grow to fit their text grow as on LibreOffice's page (issue 21 item 7):
 * poi-aascu-summit slide 14, a table of 12 pt Cambria cells (marT = marB = 0) whose rows
 * 1, 3 and 5 hold more lines than their `a:tr/@h`. LibreOffice sets cell text at the faces'
 * own line heights (Caladea 13.8 pt, an empty 11 pt Calibri paragraph 11 pt), and previews
 * at 14.4 pt a line made every grown row about 3 pt taller, pushing the rows below down.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

const TEMPLATE = 'templates/poi-aascu-summit-9masters.pptx';
const WIDTH_PX = 800;
/** Points per pixel: the slide is 720 pt wide. */
const PT = 720 / WIDTH_PX;

t.test('grown table rows end where LibreOffice ends them', needsCorpus(TEMPLATE), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath(TEMPLATE)));
  const out = await renderSlide(pkg, '/ppt/slides/slide14.xml', { widthPx: WIDTH_PX });
  const img = await loadImage(Buffer.from(out.png));
  const c = createCanvas(img.width, img.height);
  c.getContext('2d').drawImage(img, 0, 0);
  // Down the last column (x 695 pt): each row's fill, 1 pt white borders between rows.
  const d = c.getContext('2d').getImageData(Math.round(680 / PT), 0, 1, img.height).data;
  const white = (y: number): boolean => d[y * 4]! > 250 && d[y * 4 + 1]! > 250 && d[y * 4 + 2]! > 250;
  const borders: number[] = [];
  for (let y = Math.round(130 / PT); y < Math.round(510 / PT); y++) if (white(y) && !white(y - 1)) borders.push(y * PT);
  // Row bottoms in LibreOffice's PDF of the deck: 150.9, 166.7, 263.6, 390.1, 486.8 pt.
  const expected = [150.9, 166.7, 263.6, 390.1, 486.8];
  t.equal(borders.length, expected.length, `five row ends (${borders.map((b) => b.toFixed(1)).join(', ')} pt)`);
  expected.forEach((e, i) => t.ok(Math.abs((borders[i] ?? 0) - e) <= 2, `row ${i + 1} ends at ${borders[i]?.toFixed(1)} pt (LibreOffice ${e})`));
});
