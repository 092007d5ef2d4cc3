/**
 * Hebrew in a table cell is set in the face LibreOffice sets it in (issue 24, item 4). On
 * poi-headers-footers-2007 (an Office 2007 theme: `+mn-cs` over an empty theme `a:cs`,
 * `p:defaultTextStyle` naming Arial) LibreOffice sets the body placeholder's Hebrew in Arial
 * (Liberation Sans), inherited past the empty slot, but the table's cells in DejaVu Sans:
 * "1200" in a Hebrew cell is 45.6 pt wide at 18 pt on its page (DejaVu Sans's digits; Liberation
 * Sans's would be 40.0 pt), "אזור" 33.3 pt (DejaVu Sans 33.3, Liberation Sans 31.4).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { buildDeck } from '../../../core/src/generation/deck/build-deck.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { PmlModel } from '../../../core/src/ooxml/pml/parts.js';
import { renderSlide } from '../../../core/src/render/index.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { pngPixels } from '../../helpers/png-pixels.js';

const TEMPLATE = 'templates/poi-headers-footers-2007.pptx';
const EMU_PT = 12700;

t.test('a Hebrew table cell of digits is drawn in DejaVu Sans, as LibreOffice draws it', needsCorpus(TEMPLATE), async (t) => {
  const bytes = readFileSync(corpusPath(TEMPLATE));
  const model = new PmlModel(await OpcPackage.open(bytes));
  const layout = model.layoutsInOrder().find((l) => l.placeholders.some((p) => p.placeholder!.type === 'title') && l.placeholders.some((p) => ['obj', 'body'].includes(p.placeholder!.type as string)))!;
  const table = { rows: [['אזור', 'הכנסות', 'צמיחה'], ['צפון', '1200', '12%'], ['דרום', '950', '8%']].map((cells, i) => ({ cells: cells.map((value) => ({ value })), ...(i === 0 ? { is_header: true } : {}) })) };
  const result = await buildDeck({
    templates: new Map([[TEMPLATE, bytes]]),
    slides: [{ template_id: TEMPLATE, template_slide_id: `${TEMPLATE}#${layout.partName}`, source: { kind: 'layout', part_name: layout.partName }, slide_data: { title: 'סקירה עסקית רבעונית', content: [{ blocks: [{ type: 'text', text: { bullets: ['ההכנסות גדלו ב-14% לעומת השנה הקודמת'] } }, { type: 'table', table: { table } }] }] }, options: { auto_paginate_tables: false, language: 'he-IL' } }],
  });
  t.same(result.errors, [], 'the deck is built');
  const pkg = await OpcPackage.open(result.bytes!);
  const deck = new PmlModel(pkg);
  const slide = deck.presentation.slides[0]!;
  const frame = deck.slide(slide.partName).shapes.find((s) => s.kind === 'graphicFrame')!.frame!;
  const tbl = pkg.getXml(slide.partName).getElementsByTagNameNS('http://schemas.openxmlformats.org/drawingml/2006/main', 'tr');
  const rowH = (i: number): number => Number(tbl.item(i)!.getAttribute('h'));
  const widthPx = 1440;
  const r = await renderSlide(pkg, slide.partName, { widthPx });
  const pxPerPt = widthPx / 720;
  const px = await pngPixels(r.png);
  // the middle column (a right-to-left table keeps it in the middle), second row: "1200"
  const colW = frame.cx / 3;
  const x0 = (frame.x + colW) / EMU_PT;
  const y0 = (frame.y + rowH(0)) / EMU_PT;
  const y1 = y0 + rowH(1) / EMU_PT;
  let left = Infinity;
  let right = -Infinity;
  for (let x = Math.ceil(x0 * pxPerPt) + 2; x < (x0 + colW / EMU_PT) * pxPerPt - 2; x++) {
    for (let y = Math.ceil(y0 * pxPerPt) + 2; y < y1 * pxPerPt - 2; y++) {
      const [cr, cg, cb] = px.at(x, y);
      if (cr + cg + cb < 250) {
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
    }
  }
  const inkPt = (right - left) / pxPerPt;
  // ink of "1200" at 18 pt (advances less the outer side bearings): DejaVu Sans 42.0 pt (advance 45.8),
  // Liberation Sans 37.0 pt (advance 40.0)
  t.ok(inkPt > 40 && inkPt < 44, `"1200" is ${inkPt.toFixed(1)} pt of ink wide: DejaVu Sans's digits, not Liberation Sans's`);
});
