/**
 * SmartArt previews (issue 21 item 6): a diagram's graphic frame is drawn from its drawing
 * part (`dsp:drawing`, relationship type …/2007/relationships/diagramDrawing), found through
 * the data part's `dsp:dataModelExt` or, without it, the data part's own relationship or the
 * slide's drawing of the same number. For every corpus slide with a diagram: its shapes and
 * text appear (the frame is not blank), and the same picture comes out when the data part
 * lacks the extension.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { NS, attrNS } from '../../../core/src/ooxml/xml.js';
import { corpusFilesOfFor, corpusPath, needsCorpus } from '../../helpers/corpus.js';

async function rgba(png: Uint8Array): Promise<Uint8ClampedArray> {
  const img = await loadImage(Buffer.from(png));
  const c = createCanvas(img.width, img.height);
  c.getContext('2d').drawImage(img, 0, 0);
  return c.getContext('2d').getImageData(0, 0, img.width, img.height).data;
}

const differing = (a: Uint8ClampedArray, b: Uint8ClampedArray): number => {
  let n = 0;
  for (let p = 0; p < a.length; p += 4) if (Math.abs(a[p]! - b[p]!) + Math.abs(a[p + 1]! - b[p + 1]!) + Math.abs(a[p + 2]! - b[p + 2]!) > 6) n++;
  return n;
};

// Rendering every SmartArt slide three times takes longer than tap's default per-test timeout.
t.setTimeout(600_000);

t.test('SmartArt is drawn from its drawing part', { ...needsCorpus(), timeout: 600_000 }, async (t) => {
  let checked = 0;
  for (const file of corpusFilesOfFor(t, 'templates')) {
    let pkg: OpcPackage;
    try { pkg = await OpcPackage.open(readFileSync(corpusPath(file))); } catch { continue; }
    for (const slide of pkg.partNames().filter((p) => /^\/ppt\/slides\/slide\d+\.xml$/.test(p))) {
      const frames = Array.from(pkg.getXml(slide).getElementsByTagNameNS(NS.dgm, 'relIds'));
      const dataParts = frames.map((f) => pkg.rel(slide, attrNS(f, NS.r, 'dm') ?? '')?.targetPartName).filter((d): d is string => !!d && pkg.hasPart(d));
      const drawings = pkg.rels(slide).filter((r) => /diagramDrawing$/.test(r.type) && r.targetPartName && pkg.hasPart(r.targetPartName));
      // Only drawings with text, on slides whose diagrams each have one.
      if (!dataParts.length || drawings.length !== dataParts.length) continue;
      if (!drawings.some((d) => pkg.getXml(d.targetPartName!).getElementsByTagNameNS(NS.a, 't').length)) continue;
      const drawn = await rgba((await renderSlide(pkg, slide, { widthPx: 480 })).png);
      // The same slide with the drawing parts' shapes removed: the diagram area is blank.
      const saved = new Map(drawings.map((d) => [d.targetPartName!, pkg.getBytes(d.targetPartName!)] as const));
      for (const d of drawings) pkg.setBytes(d.targetPartName!, new TextEncoder().encode(`<dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram"><dsp:spTree/></dsp:drawing>`));
      const blank = await rgba((await renderSlide(pkg, slide, { widthPx: 480 })).png);
      for (const [name, bytes] of saved) pkg.setBytes(name, bytes);
      t.ok(differing(drawn, blank) > 100, `${file} ${slide}: the diagrams' shapes and text are drawn`);
      // Without dsp:dataModelExt in the data parts: the drawings are still found, the picture is the same.
      const savedData = new Map(dataParts.map((d) => [d, pkg.getBytes(d)] as const));
      for (const d of dataParts) pkg.setBytes(d, new TextEncoder().encode(new TextDecoder().decode(savedData.get(d)!).replace(/<([\w.-]+:)?dataModelExt\b[^>]*\/>/g, '')));
      const noExt = await rgba((await renderSlide(pkg, slide, { widthPx: 480 })).png);
      for (const [name, bytes] of savedData) pkg.setBytes(name, bytes);
      t.equal(differing(drawn, noExt), 0, `${file} ${slide}: the same picture without dsp:dataModelExt`);
      checked++;
    }
  }
  t.ok(checked >= 1, `${checked} slides with SmartArt checked`);
});

t.test('a diagram in a group that resized its frame is drawn at the frame\'s size, its connectors as elbows', needsCorpus('templates/poi-stress021-hebrew-9masters.pptx'), async (t) => {
  // Slide 9: the diagram's frame is in a group scaling y by 0.927 (ext 3471863 / chExt 3745232 EMU).
  // Its drawing's two connectors are custom paths without w/h (shape EMU): down, across, down.
  // Their horizontal runs meet under the top box at y = 4683130 + 864139 × 0.927 EMU = 479.8 px
  // at 800 px, from x ≈ 199 to 480 px (unscaled it would be 485.3 px; as points, off the slide); the
  // boxes under it start at 491 px.
  const pkg = await OpcPackage.open(readFileSync(corpusPath('templates/poi-stress021-hebrew-9masters.pptx')));
  const out = await renderSlide(pkg, '/ppt/slides/slide9.xml', { widthPx: 800 });
  const d = await rgba(out.png);
  for (const x of [240, 300, 420, 460]) {
    let sum = 0;
    let weight = 0;
    for (let y = 472; y <= 487; y++) {
      const p = (y * 800 + x) * 4;
      const ink = 765 - (d[p]! + d[p + 1]! + d[p + 2]!);
      if (ink > 120) { sum += y * ink; weight += ink; }
    }
    t.ok(weight > 0, `a line crosses x = ${x}`);
    const centre = sum / Math.max(1, weight);
    t.ok(Math.abs(centre - 479.8) <= 1.5, `at x = ${x} the connector is centred at y = ${centre.toFixed(1)} (479.8 expected)`);
  }
});
