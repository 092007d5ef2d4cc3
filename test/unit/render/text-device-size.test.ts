/**
 * Text drawn enlarged (issue 24, item 4): a preview wider than its slide is in points draws
 * every glyph through a transform that enlarges it, and Skia places glyphs on the baseline
 * at the font size the canvas is given, before that transform: at 4 pt drawn 6× Carlito's
 * letters stood 3 px above the baseline and Noto Sans CJK's ideographs 2 px below it (the
 * 14 % of an East Asian bullet on poi-smartart-tiny-slide rose like a superscript). Drawn at
 * their device size, the glyphs of a tiny slide sit where those of a slide six times larger
 * drawn at 1× sit.
 */
import t from 'tap';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { pngPixels } from '../../helpers/png-pixels.js';
import { miniDeck } from '../ooxml/pml/mini-deck.js';

const EMU_PT = 12700;

/**
 * A deck of one slide `w_pt` wide holding, at its top left and without insets, a text box
 * with "HHHH" in Calibri (Carlito) and "北北北北" (a Japanese run: Noto Sans CJK) of `size_pt`.
 */
function deck(w_pt: number, size_pt: number) {
  const rPr = (lang: string) => `<a:rPr lang="${lang}" sz="${Math.round(size_pt * 100)}"><a:latin typeface="Calibri"/></a:rPr>`;
  const box = `<p:sp><p:nvSpPr><p:cNvPr id="2" name="T"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${w_pt * EMU_PT}" cy="${(w_pt / 2) * EMU_PT}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
    `<p:txBody><a:bodyPr wrap="none" lIns="0" tIns="0" rIns="0" bIns="0"/><a:lstStyle/><a:p><a:r>${rPr('en-US')}<a:t>HHHH</a:t></a:r><a:r>${rPr('ja-JP')}<a:t>北北北北</a:t></a:r></a:p></p:txBody></p:sp>`;
  return miniDeck({ slides: [{ tree: box }], sldSz: { cx: w_pt * EMU_PT, cy: (w_pt / 2) * EMU_PT } });
}

/** First and last rows (px) holding dark pixels between columns x0 and x1. */
async function inkRows(png: Uint8Array, x0: number, x1: number): Promise<[number, number]> {
  const px = await pngPixels(png);
  let top = -1;
  let bottom = -1;
  for (let y = 0; y < px.h; y++) {
    for (let x = x0; x < x1; x++) {
      const [r, g, b] = px.at(x, y);
      if (r + g + b < 300) {
        if (top < 0) top = y;
        bottom = y;
        break;
      }
    }
  }
  return [top, bottom];
}

t.test('text of a tiny slide drawn 6× sits where the same text drawn at 1× sits', async (t) => {
  // 144 pt wide at 864 px: 6 px a point; 4 pt text is 24 px, as 24 pt text on an 864 pt slide at 864 px
  const small = await renderSlide(await deck(144, 4), '/ppt/slides/slide1.xml', { widthPx: 864 });
  const large = await renderSlide(await deck(864, 24), '/ppt/slides/slide1.xml', { widthPx: 864 });
  // "HHHH" spans about 0–50 px and the ideographs about 55–150 px in both
  for (const [what, x0, x1] of [['Latin letters', 2, 45], ['East Asian ideographs', 60, 140]] as const) {
    const [st, sb] = await inkRows(small.png, x0, x1);
    const [lt, lb] = await inkRows(large.png, x0, x1);
    t.ok(lt > 0 && lb > lt, `${what} drawn at 1× (rows ${lt}–${lb})`);
    t.ok(Math.abs(st - lt) <= 1 && Math.abs(sb - lb) <= 1, `${what}: rows ${st}–${sb} drawn 6×, ${lt}–${lb} at 1×`);
  }
});
