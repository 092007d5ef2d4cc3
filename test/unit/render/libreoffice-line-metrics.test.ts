/**
 * Where previews put a line's baseline and the next line (issue 24, item 4), as LibreOffice
 * 7.4 draws PPTX text, measured on its PDF pages (two-line text boxes without insets, the
 * bottom of "H" read at 4 px a point):
 *
 * - a shape's text body is set at font-independent line spacing: the first baseline 1 em
 *   below the top and lines 1.2 em apart, whatever the face (40 pt Carlito, Liberation
 *   Sans, Caladea, DejaVu Serif, with East Asian text in the line or not: baseline 40.0,
 *   next 87.8); at 90 % the ascent is 80 % of the shrunk line (34.5, lines 43.0 apart), at
 *   80 % 30.5, at 120 % 49.5. By the faces' win metrics previews put Carlito's at 38.3
 *   and DejaVu Serif's at 38.8 (titles drawn 2 pt higher than LibreOffice draws them);
 * - a table cell's text is set by its faces' own (hhea) metrics, without the 1.2 minimum:
 *   18 pt Latin lines 1 em apart with the baseline 0.75 em down (Carlito), lines holding
 *   East Asian glyphs (Noto Sans CJK) 1.448 em apart with the baseline 1.16 em down — in
 *   LibreOffice's page 3.6 pt higher and 3.7 pt lower than by win metrics.
 */
import t from 'tap';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { EMU_PER_PT, PREVIEW_LAYOUT, layoutText, type TextBodyInput } from '../../../core/src/text/layout.js';
import { pngPixels } from '../../helpers/png-pixels.js';
import { miniDeck } from '../ooxml/pml/mini-deck.js';

const near = (a: number, b: number, tol = 0.05): boolean => Math.abs(a - b) <= tol;

/** Two paragraphs of `text` in `face` at `size_pt`, proportional spacing `pct` (100 = single), no insets. */
function twoLines(face: string, size_pt: number, pct: number, text = 'HH', lang?: string): TextBodyInput {
  const run = { text, font: { name: face, size_pt, ...(lang ? { eastAsianLang: lang } : {}) }, ...(lang ? { lang } : {}) };
  return { paragraphs: [0, 1].map(() => ({ runs: [run], lineSpacing: { pct } })), lIns_emu: 0, rIns_emu: 0, tIns_emu: 0, bIns_emu: 0 };
}

const box = { width_emu: 400 * EMU_PER_PT, height_emu: 400 * EMU_PER_PT };

t.test('a text body in previews: first baseline 1 em down, lines 1.2 em apart, whatever the face', async (t) => {
  for (const face of ['Calibri', 'Arial', 'Cambria', 'DejaVu Serif']) {
    const l = layoutText(twoLines(face, 40, 100), box, PREVIEW_LAYOUT);
    t.ok(near(l.lines[0]!.baseline_pt, 40) && near(l.lines[1]!.baseline_pt, 88), `${face} 40 pt: baselines ${l.lines[0]!.baseline_pt.toFixed(2)}, ${l.lines[1]!.baseline_pt.toFixed(2)} (LibreOffice 40.0, 87.8)`);
  }
  const cjk = layoutText(twoLines('Calibri', 40, 100, 'H北', 'ja-JP'), box, PREVIEW_LAYOUT);
  t.ok(near(cjk.lines[0]!.baseline_pt, 40) && near(cjk.lines[1]!.baseline_pt, 88), `East Asian text in the line changes nothing (${cjk.lines[0]!.baseline_pt.toFixed(2)}, ${cjk.lines[1]!.baseline_pt.toFixed(2)})`);
  // 90 %: line 0.9 × 48 = 43.2, ascent 0.8 × 43.2 = 34.56 (LibreOffice 34.5, 77.5)
  const p90 = layoutText(twoLines('Calibri', 40, 90), box, PREVIEW_LAYOUT);
  t.ok(near(p90.lines[0]!.baseline_pt, 34.56) && near(p90.lines[1]!.baseline_pt, 77.76), `90 %: ${p90.lines[0]!.baseline_pt.toFixed(2)}, ${p90.lines[1]!.baseline_pt.toFixed(2)}`);
  // 80 %: 0.8 × 0.8 × 48 = 30.72 (LibreOffice 30.5); 120 %: 40 + 9.6 = 49.6 (LibreOffice 49.5)
  t.ok(near(layoutText(twoLines('Arial', 40, 80), box, PREVIEW_LAYOUT).lines[0]!.baseline_pt, 30.72), '80 %: ascent 80 % of the shrunk line');
  t.ok(near(layoutText(twoLines('Calibri', 40, 120), box, PREVIEW_LAYOUT).lines[0]!.baseline_pt, 49.6), '120 %: the surplus above the text');
  // text fitting keeps PowerPoint's measure (win metrics, at least 1.2 em)
  const fit = layoutText(twoLines('Calibri', 40, 100), box);
  t.ok(fit.lines[1]!.baseline_pt - fit.lines[0]!.baseline_pt > 48.5, `without the preview options lines stay ${(fit.lines[1]!.baseline_pt - fit.lines[0]!.baseline_pt).toFixed(2)} pt apart`);
});

t.test('a table cell: lines by the faces\' own metrics, East Asian ones by Noto Sans CJK', async (t) => {
  const cell = { ...PREVIEW_LAYOUT, lineMetrics: 'face' } as const;
  const latin = layoutText(twoLines('Calibri', 18, 100, '1200'), box, cell);
  t.ok(near(latin.lines[0]!.baseline_pt, 13.5) && near(latin.lines[1]!.baseline_pt - latin.lines[0]!.baseline_pt, 18), `Carlito 18 pt: baseline ${latin.lines[0]!.baseline_pt.toFixed(2)} (0.75 em), lines ${(latin.lines[1]!.baseline_pt - latin.lines[0]!.baseline_pt).toFixed(2)} apart (1 em)`);
  const cjk = layoutText(twoLines('Calibri', 18, 100, '北部', 'ja-JP'), box, cell);
  t.ok(near(cjk.lines[0]!.baseline_pt, 18 * 1.16) && near(cjk.lines[1]!.baseline_pt - cjk.lines[0]!.baseline_pt, 18 * 1.448), `East Asian 18 pt: baseline ${cjk.lines[0]!.baseline_pt.toFixed(2)} (1.16 em), lines ${(cjk.lines[1]!.baseline_pt - cjk.lines[0]!.baseline_pt).toFixed(2)} apart (1.448 em)`);
});

/** A 720 pt slide with a one-column table whose only cell holds three paragraphs of `text` (18 pt Calibri, run language `lang`). */
function tableDeck(text: string, lang: string) {
  const para = `<a:p><a:r><a:rPr lang="${lang}" sz="1800"><a:solidFill><a:srgbClr val="000000"/></a:solidFill><a:latin typeface="Calibri"/></a:rPr><a:t>${text}</a:t></a:r></a:p>`;
  const frame = '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>' +
    `<p:xfrm><a:off x="0" y="0"/><a:ext cx="${200 * EMU_PER_PT}" cy="${20 * EMU_PER_PT}"/></p:xfrm>` +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr/>' +
    `<a:tblGrid><a:gridCol w="${200 * EMU_PER_PT}"/></a:tblGrid><a:tr h="${20 * EMU_PER_PT}"><a:tc><a:txBody><a:bodyPr/><a:lstStyle/>${para.repeat(3)}</a:txBody><a:tcPr marL="0" marR="0" marT="0" marB="0"/></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
  return miniDeck({ slides: [{ tree: frame }], sldSz: { cx: 720 * EMU_PER_PT, cy: 540 * EMU_PER_PT } });
}

/** Bottoms (px) of the stretches of rows holding dark pixels in the slide's left 200 px. */
async function inkBottoms(png: Uint8Array): Promise<number[]> {
  const px = await pngPixels(png);
  const bottoms: number[] = [];
  let inText = false;
  for (let y = 0; y < px.h; y++) {
    let dark = false;
    for (let x = 0; x < 200 && !dark; x++) {
      const [r, g, b] = px.at(x, y);
      dark = r + g + b < 300;
    }
    if (!dark && inText) bottoms.push(y - 1);
    inText = dark;
  }
  return bottoms;
}

t.test('table cells are drawn with the faces\' line metrics (1 px a point)', async (t) => {
  const latin = await inkBottoms((await renderSlide(await tableDeck('1200', 'en-US'), '/ppt/slides/slide1.xml', { widthPx: 720 })).png);
  t.equal(latin.length, 3, `three Latin lines (bottoms ${latin.join(', ')})`);
  // Carlito: baseline 13.5 pt, lines 18 pt apart (win metrics: 17.1 pt, 22 pt)
  t.ok(Math.abs(latin[0]! - 13) <= 1 && Math.abs(latin[1]! - latin[0]! - 18) <= 1, `Latin: first line ends at ${latin[0]} px, lines ${latin[1]! - latin[0]!} px apart`);
  const cjk = await inkBottoms((await renderSlide(await tableDeck('北部', 'ja-JP'), '/ppt/slides/slide1.xml', { widthPx: 720 })).png);
  t.equal(cjk.length, 3, `three East Asian lines (bottoms ${cjk.join(', ')})`);
  t.ok(Math.abs(cjk[1]! - cjk[0]! - 26) <= 1, `East Asian lines ${cjk[1]! - cjk[0]!} px apart (1.448 em = 26.1 pt)`);
});
