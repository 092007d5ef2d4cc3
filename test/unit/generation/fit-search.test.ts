/**
 * Text fitting searches from an estimate (`largestFittingStep`) and lays candidate sizes
 * out at a `sizeScale` instead of on scaled copies of the body: these tests hold it to the
 * plain bisection over scaled copies it replaced, size for size, on random bodies and
 * boxes measured with the real (shipped) font metrics.
 */
import t from 'tap';
import { fitBodySize, largestFittingStep, scaleBody, type BodyFit } from '../../../core/src/generation/fit/text-fit.js';
import { FIT_LAYOUT, fitMetrics, HEIGHT_SAFETY } from '../../../core/src/text/fit-metrics.js';
import { EMU_PER_PT, layoutText, type ParagraphInput, type TextBodyInput, type TextRunInput } from '../../../core/src/text/layout.js';
import type { FontSpec } from '../../../core/src/text/font-metrics.js';

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so failures repeat. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), s | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const SIZE_STEP_PT = 0.5;

function largestRun(body: TextBodyInput): number {
  let max = 0;
  for (const p of body.paragraphs) for (const r of p.runs) if (!r.lineBreak && r.text !== '') max = Math.max(max, r.font.size_pt);
  if (max === 0) for (const p of body.paragraphs) max = Math.max(max, p.endFont?.size_pt ?? 0);
  return max || 18;
}

/**
 * The size choice as it was before the estimate: every candidate laid out on a scaled
 * copy of the body, the minimum tried first, then a plain bisection over the half points.
 */
function referenceFit(body: TextBodyInput, w: number, h: number, minSizePt: number): BodyFit {
  const templateSizePt = largestRun(body);
  if (!body.paragraphs.some((p) => p.runs.some((r) => !r.lineBreak && r.text.trim() !== ''))) {
    return { outcome: { sizePt: templateSizePt, templateSizePt, fits: true, overflowPt: 0, neededPt: 0 }, k: undefined };
  }
  const layout = FIT_LAYOUT;
  const box = { width_emu: w, height_emu: Math.floor(h * HEIGHT_SAFETY) };
  const minPt = Math.min(minSizePt, templateSizePt);
  const fitsAt = (pt: number): boolean => layoutText(scaleBody(body, pt / templateSizePt), box, layout).overflow_pt <= 0.01;
  let scale: number;
  let fits = true;
  const atTemplate = layoutText(scaleBody(body, 1), box, layout);
  if (atTemplate.overflow_pt <= 0.01) scale = 1;
  else if (!fitsAt(minPt)) {
    scale = minPt / templateSizePt;
    fits = false;
  } else {
    let lo = Math.ceil(minPt / SIZE_STEP_PT);
    let hi = Math.floor(templateSizePt / SIZE_STEP_PT);
    if (hi * SIZE_STEP_PT >= templateSizePt) hi--;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fitsAt(mid * SIZE_STEP_PT)) lo = mid;
      else hi = mid - 1;
    }
    scale = Math.max(minPt, lo * SIZE_STEP_PT) / templateSizePt;
  }
  if (body.wrap === false) {
    const one = layoutText(scaleBody(body, 1), { width_emu: w, height_emu: h }, { ...FIT_LAYOUT, measureOnly: false });
    let sw = Infinity;
    for (const l of one.lines) if (l.width_pt > l.avail_pt && l.width_pt > 0) sw = Math.min(sw, (Math.max(0, l.avail_pt) / l.width_pt) * 0.99);
    if (sw < Infinity) {
      if (sw < scale) scale = sw;
      if (templateSizePt * sw < minPt) fits = false;
    }
  }
  let target = Math.floor((templateSizePt * scale + 1e-6) / SIZE_STEP_PT) * SIZE_STEP_PT;
  target = scale >= 1 ? templateSizePt : Math.max(minPt, Math.min(templateSizePt, target));
  const k = target / templateSizePt;
  const final = k === 1 && fits ? atTemplate : layoutText(scaleBody(body, k), { width_emu: w, height_emu: h }, layout);
  return { outcome: { sizePt: target, templateSizePt, fits, overflowPt: fits ? 0 : Math.round(final.overflow_pt * 10) / 10, neededPt: final.totalHeight_pt }, k };
}

const WORDS = ['Revenue', 'grew', 'strongly', 'across', 'every', 'region', 'this', 'quarter,', 'driven', 'by', 'new', 'enterprise', 'contracts', 'and', 'renewals', 'among', 'mid-market', 'customers', 'Q3', '2024:', '12.5 %', 'pipeline', 'margin', 'Supercalifragilisticexpialidocious', '売上高', 'naïve', 'Ünïcödé'];
const FACES = ['Calibri', 'Arial', 'Georgia', 'Times New Roman', 'Segoe UI', 'Some Unknown Font', 'Courier New'];
const SIZES = [12, 14, 18, 20, 24, 25.2, 28, 32, 40, 44, 54];

/** A random text body of the kinds templates hold: titles, bullet lists, text boxes. */
function randomBody(rnd: () => number): TextBodyInput {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const size = pick(SIZES);
  const font: FontSpec = { name: pick(FACES), size_pt: size, bold: rnd() < 0.3, italic: rnd() < 0.1 };
  const paragraphs: ParagraphInput[] = [];
  const count = 1 + Math.floor(rnd() * (rnd() < 0.3 ? 12 : 6));
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: Math.floor(rnd() * (rnd() < 0.2 ? 60 : 14)) }, () => pick(WORDS));
    const runs: TextRunInput[] = [];
    // sometimes a second run in a smaller or bolder font, sometimes a line break
    const cut = rnd() < 0.3 ? Math.floor(rnd() * words.length) : words.length;
    runs.push({ text: words.slice(0, cut).join(' '), font });
    if (cut < words.length) {
      if (rnd() < 0.3) runs.push({ text: '', font, lineBreak: true });
      runs.push({ text: ` ${words.slice(cut).join(' ')}`, font: { ...font, size_pt: rnd() < 0.5 ? size * 0.75 : size, bold: !font.bold }, cap: rnd() < 0.2 ? 'small' : undefined, spacing_pt: rnd() < 0.2 ? 1.5 : undefined });
    }
    const p: ParagraphInput = { runs, endFont: font };
    if (rnd() < 0.6) {
      p.bullet = { text: pick(['•', '–', `${i + 1}.`]), font: { ...font, size_pt: size * pick([1, 0.9, 0.8]) } };
      p.marL_emu = pick([228600, 342900, 457200]);
      p.indent_emu = -pick([228600, 342900]);
    }
    if (rnd() < 0.5) p.lineSpacing = rnd() < 0.7 ? { pct: pick([90, 100, 110, 150]) } : { pts: pick([size, size * 1.2]) };
    if (rnd() < 0.5) p.spaceBefore = rnd() < 0.5 ? { pct: pick([10, 20, 50]) } : { pts: pick([0, 6, 10]) };
    if (rnd() < 0.3) p.spaceAfter = { pts: pick([0, 6]) };
    if (rnd() < 0.2) p.align = pick(['ctr', 'r', 'just'] as const);
    paragraphs.push(p);
  }
  const body: TextBodyInput = { paragraphs };
  if (rnd() < 0.3) Object.assign(body, { lIns_emu: 0, rIns_emu: 0, tIns_emu: 0, bIns_emu: 0 });
  if (rnd() < 0.2) body.fontScale = pick([0.9, 0.775, 0.625]);
  if (rnd() < 0.2) body.lnSpcReduction = pick([0.1, 0.2]);
  if (rnd() < 0.1) body.wrap = false;
  if (rnd() < 0.2) body.anchor = pick(['ctr', 'b'] as const);
  return body;
}

t.test('the estimated search chooses the size a plain bisection over scaled copies chooses, on random bodies and boxes', async (t) => {
  const rnd = random(20240611);
  let shrunk = 0;
  let atMinimum = 0;
  const cases = 1500;
  const mismatches: string[] = [];
  for (let i = 0; i < cases; i++) {
    const body = randomBody(rnd);
    const w = Math.round(914400 * (1 + rnd() * 9));
    // boxes from far too small to roomy, half of them around the height the text needs
    const need = layoutText(scaleBody(body, 1), { width_emu: w, height_emu: 0 }, FIT_LAYOUT).totalHeight_pt * EMU_PER_PT;
    const h = Math.round(rnd() < 0.5 ? 914400 * (0.3 + rnd() * 6) : need * (0.3 + rnd()));
    const minPt = [6, 8, 10, 10.2, 12, 14, 30][Math.floor(rnd() * 7)]!;
    const want = referenceFit(body, w, h, minPt);
    const got = fitBodySize(body, w, h, minPt);
    if (JSON.stringify(got) !== JSON.stringify(want) || got.k !== want.k || got.outcome.neededPt !== want.outcome.neededPt) {
      mismatches.push(`case ${i}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
    }
    if (want.k !== undefined && want.k < 1) shrunk++;
    if (!want.outcome.fits) atMinimum++;
  }
  t.same(mismatches, [], `all ${cases} sizes, fits, overflows and heights equal`);
  t.ok(shrunk > cases / 3, `${shrunk} of the bodies shrink`);
  t.ok(atMinimum > 20, `${atMinimum} stop at the minimum`);
});

/** Bodies whose height may shrink as the size grows: paragraphs mixing sizes and fonts, words longer than the line. */
function unevenBody(rnd: () => number): TextBodyInput {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const size = pick([20, 24, 28, 32, 44]);
  const paragraphs: ParagraphInput[] = [];
  for (let i = 0, n = 1 + Math.floor(rnd() * 6); i < n; i++) {
    const runs: TextRunInput[] = [];
    for (let j = 0, m = 1 + Math.floor(rnd() * 5); j < m; j++) {
      const words = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => (rnd() < 0.25 ? 'https://example.com/a/very/long/address/without/any/spaces/at/all' : pick(WORDS)));
      runs.push({ text: `${words.join(' ')}${rnd() < 0.7 ? ' ' : ''}`, font: { name: pick(FACES), size_pt: pick([size, size, size * 0.6, size * 1.4]), bold: rnd() < 0.3 } });
    }
    const p: ParagraphInput = { runs, endFont: { name: 'Calibri', size_pt: size } };
    if (rnd() < 0.5) p.lineSpacing = rnd() < 0.5 ? { pts: size } : { pct: 90 };
    if (rnd() < 0.4) p.bullet = { text: '•', font: { name: 'Arial', size_pt: size } };
    paragraphs.push(p);
  }
  return { paragraphs };
}

t.test('where the height shrinks somewhere as the size grows, the sizes are still a bisection\'s, at every box height around the changes', async (t) => {
  const rnd = random(7031);
  const found: Array<{ body: TextBodyInput; w: number; heights: number[]; drops: number[] }> = [];
  for (let i = 0; i < 300 && found.length < 6; i++) {
    const body = unevenBody(rnd);
    const w = Math.round(914400 * (1.5 + rnd() * 4));
    const templateSizePt = largestRun(body);
    // the height at every half point from 1 pt up to the template's size
    const heights: number[] = [];
    for (let step = 2; step * SIZE_STEP_PT <= templateSizePt; step++) {
      heights.push(layoutText(scaleBody(body, (step * SIZE_STEP_PT) / templateSizePt), { width_emu: w, height_emu: 0 }, FIT_LAYOUT).totalHeight_pt);
    }
    const drops = heights.flatMap((h, j) => (j > 0 && h < heights[j - 1]! ? [j] : []));
    if (drops.length) found.push({ body, w, heights, drops });
  }
  t.ok(found.length >= 4, `${found.length} bodies whose height shrinks somewhere as the size grows`);
  let trials = 0;
  const mismatches: string[] = [];
  for (const { body, w, heights, drops } of found) {
    // boxes just high enough (the safety margin taken off as fitting does) for the heights
    // around each drop, and for some others
    const around = drops.flatMap((j) => [heights[j]!, heights[j - 1]!, (heights[j]! + heights[j - 1]!) / 2]);
    const others = [...new Set(heights)].filter((_, j) => j % 6 === 0);
    for (const need of [...around, ...others]) {
      const h = Math.ceil(((need + 0.005) / HEIGHT_SAFETY) * EMU_PER_PT) + 1;
      for (const minPt of [1, 10]) {
        trials++;
        const want = JSON.stringify(referenceFit(body, w, h, minPt));
        const got = JSON.stringify(fitBodySize(body, w, h, minPt));
        if (got !== want) mismatches.push(`box ${w} × ${h}, min ${minPt}: ${got} vs ${want}`);
      }
    }
  }
  t.same(mismatches, [], `${trials} boxes`);
});

t.test('largestFittingStep finds what a bisection finds, whatever the estimates, for every threshold', async (t) => {
  const bisect = (lo: number, hi: number, fits: (i: number) => boolean): number => {
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(mid)) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const rnd = random(99);
  let cases = 0;
  let worstBad = 0;
  for (let lo = 0; lo <= 3; lo++) {
    for (let hi = lo - 1; hi <= lo + 70; hi++) {
      const bisections = Math.ceil(Math.log2(Math.max(1, hi - lo + 1)));
      // fits up to `limit` (limit ≤ lo: nowhere in the range)
      for (let limit = lo - 1; limit <= hi + 1; limit++) {
        const fits = (i: number): boolean => i <= limit;
        const want = bisect(lo, hi, fits);
        const estimates: Array<[string, (good: number, bad: number, bad2: number) => number, number]> = [
          // name, estimate, most probes allowed
          ['exact', () => limit + 0.3, 2],
          ['a step high', () => limit + 1, 2],
          ['a step low', () => limit - 1, 3],
          ['far low', () => lo - 5, bisections + 3],
          ['far high', () => hi + 9, bisections + 3],
          ['middle', (g, b) => (g + b) / 2, bisections + 1],
          ['NaN', () => NaN, bisections + 1],
          ['infinite', () => Infinity, bisections + 3],
          ['random', () => lo + rnd() * (hi - lo + 2), bisections + 3],
          ['adversarial', (g, b, b2) => (rnd() < 0.3 ? g : rnd() < 0.5 ? b : b2), bisections + 3],
        ];
        for (const [name, estimate, allowed] of estimates) {
          let probes = 0;
          const counted = (i: number): boolean => {
            probes++;
            if (i <= lo || i > hi) throw new Error(`probe ${i} outside (${lo}, ${hi}]`);
            return fits(i);
          };
          const got = largestFittingStep(lo, hi, counted, estimate);
          if (got !== want) t.fail(`lo ${lo} hi ${hi} limit ${limit}, ${name} estimates: ${got} ≠ ${want}`);
          if (probes > allowed) t.fail(`lo ${lo} hi ${hi} limit ${limit}, ${name} estimates: ${probes} probes (at most ${allowed})`);
          if (name === 'adversarial' || name === 'far low' || name === 'far high') worstBad = Math.max(worstBad, probes - bisections);
          cases++;
        }
      }
    }
  }
  t.pass(`${cases} ranges, thresholds and estimates`);
  t.pass(`poor estimates cost at most ${worstBad} probes more than a bisection`);
});

t.test('unwrapped text too long for its box shrinks until its line fits, whatever its alignment', async (t) => {
  const font: FontSpec = { name: 'Calibri', size_pt: 96 };
  const text = 'Quarterly results for the northern region and the outlook for the coming year';
  // a title box 432 pt long (a vertical title's height, or a narrow horizontal box), 134 pt across
  const [w, h] = [5486400, 1706880];
  for (const align of ['l', 'ctr', 'r'] as const) {
    for (const marL_emu of [0, 457200]) {
      const body: TextBodyInput = { wrap: false, paragraphs: [{ align, marL_emu, runs: [{ text, font }], endFont: font }] };
      const fit = fitBodySize(body, w, h, 8);
      t.ok(fit.outcome.sizePt < 20, `${align}, marL ${marL_emu / 12700} pt: shrunk from 96 pt to ${fit.outcome.sizePt} pt`);
      const l = layoutText(scaleBody(body, fit.k!), { width_emu: w, height_emu: h }, { metrics: fitMetrics });
      const line = l.lines[0]!;
      t.ok(line.width_pt <= line.avail_pt, `${align}, marL ${marL_emu / 12700} pt: the line (${line.width_pt.toFixed(1)} pt) fits its room (${line.avail_pt.toFixed(1)} pt)`);
    }
  }
});
