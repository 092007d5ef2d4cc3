/**
 * Paragraph spacing given as a percentage (`a:spcBef` / `a:spcAft` with `a:spcPct`,
 * ECMA-376 Part 1 §21.1.2.2.10 / §21.1.2.2.9) in previews (issue 24, item 4): LibreOffice
 * sets it as that share of the paragraph's font size (20 % before 21.5 pt bullets: 4.2–4.3
 * pt between the paragraphs of its PDF pages), where previews took a share of the line
 * (1.2 × the size, 5.16 pt), so every paragraph of a bulleted slide came out lower than on
 * LibreOffice's page. Text fitting keeps the larger PowerPoint share.
 */
import t from 'tap';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT } from '../../../core/src/ooxml/opc/constants.js';
import { NS } from '../../../core/src/ooxml/xml.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { defaultFontMetrics } from '../../../core/src/text/font-metrics.js';
import { EMU_PER_PT, PREVIEW_LAYOUT, layoutText } from '../../../core/src/text/layout.js';
import { houseTemplate } from '../../fixtures/house-template.js';

const SIZE_PT = 40;

/** Tops (px) of the stretches of rows holding dark pixels in a column band of a PNG. */
async function inkTops(png: Uint8Array, x0: number, x1: number): Promise<number[]> {
  const img = await loadImage(Buffer.from(png));
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const { data } = ctx.getImageData(x0, 0, x1 - x0, img.height);
  const tops: number[] = [];
  let inText = false;
  for (let y = 0; y < img.height; y++) {
    let dark = false;
    for (let x = 0; x < x1 - x0 && !dark; x++) {
      const i = (y * (x1 - x0) + x) * 4;
      dark = data[i]! + data[i + 1]! + data[i + 2]! < 300;
    }
    if (dark && !inText) tops.push(y);
    inText = dark;
  }
  return tops;
}

t.test('a percentage of space before a paragraph is a share of its font size in previews', async (t) => {
  const pkg = await OpcPackage.open(await houseTemplate({ extraSlides: [{ title: 'Spacing', paragraphs: [{ text: 'HHHH' }, { text: 'HHHH' }] }] }));
  const slide = pkg.partsOfType(CT.slide).at(-1)!;
  const doc = pkg.getXml(slide);
  const ps = doc.getElementsByTagNameNS(NS.a, 'p');
  let set = 0;
  for (let i = 0; i < ps.length; i++) {
    const p = ps.item(i)!;
    if (p.textContent !== 'HHHH') continue;
    // single line spacing and a whole line's percentage before: 100 % of 40 pt
    const pPr = doc.createElementNS(NS.a, 'a:pPr');
    pPr.setAttribute('marL', '0');
    pPr.setAttribute('indent', '0');
    const lnSpc = doc.createElementNS(NS.a, 'a:lnSpc');
    const lnPct = doc.createElementNS(NS.a, 'a:spcPct');
    lnPct.setAttribute('val', '100000');
    lnSpc.appendChild(lnPct);
    const spcBef = doc.createElementNS(NS.a, 'a:spcBef');
    const befPct = doc.createElementNS(NS.a, 'a:spcPct');
    befPct.setAttribute('val', '100000');
    spcBef.appendChild(befPct);
    pPr.appendChild(lnSpc);
    pPr.appendChild(spcBef);
    pPr.appendChild(doc.createElementNS(NS.a, 'a:buNone'));
    p.insertBefore(pPr, p.firstChild);
    p.getElementsByTagNameNS(NS.a, 'rPr').item(0)!.setAttribute('sz', String(SIZE_PT * 100));
    set++;
  }
  t.equal(set, 2, 'two paragraphs of "HHHH"');
  pkg.setXml(slide, doc);
  const r = await renderSlide(pkg, slide, { widthPx: 1920 });
  const pxPerPt = r.width_px / 960;
  // the body placeholder's text starts near the left margin of the 13.33 in slide; the title is above it
  const tops = await inkTops(r.png, Math.round(80 * pxPerPt), Math.round(240 * pxPerPt));
  t.ok(tops.length >= 2, `ink rows start at ${tops.join(', ')} px`);
  const pitch = (tops[tops.length - 1]! - tops[tops.length - 2]!) / pxPerPt;
  // one line of 40 pt (LibreOffice's font-independent 1.2 em, LayoutOptions.lineMetrics) and
  // 40 pt before: LibreOffice's setting; a share of the line would give 48 pt before
  const line = 1.2 * SIZE_PT;
  t.ok(Math.abs(pitch - (line + SIZE_PT)) <= 1.5, `paragraph pitch ${pitch.toFixed(1)} pt is a line (${line.toFixed(1)} pt) and ${SIZE_PT} pt`);
});

t.test('text fitting keeps measuring a share of the line, as PowerPoint sets it', async (t) => {
  const para = (text: string) => ({ runs: [{ text, font: { name: 'Calibri', size_pt: 20 } }], lineSpacing: { pct: 100 }, spaceBefore: { pct: 50 } });
  const body = { paragraphs: [para('a'), para('b')], tIns_emu: 0, bIns_emu: 0 };
  const box = { width_emu: 400 * EMU_PER_PT, height_emu: 400 * EMU_PER_PT };
  const line = defaultFontMetrics.vertical({ name: 'Calibri', size_pt: 20 }).lineHeight_pt;
  const fitting = layoutText(body, box);
  const preview = layoutText(body, box, PREVIEW_LAYOUT);
  t.ok(Math.abs(fitting.textHeight_pt - (2 * line + 12)) < 1e-6, `fitting: two lines and 12 pt (${fitting.textHeight_pt})`);
  // previews: LibreOffice's font-independent lines (1.2 × 20 pt) and half the size before
  t.ok(Math.abs(preview.textHeight_pt - (2 * 24 + 10)) < 1e-6, `previews: two lines and 10 pt (${preview.textHeight_pt})`);
});
