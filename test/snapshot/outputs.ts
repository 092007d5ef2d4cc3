/**
 * Output snapshot: what the engine produces, as hashes, so a refactoring of the engine can
 * show that it changed nothing a user gets (issue 19, item 5: "byte-identical decks,
 * pixel-identical previews").
 *
 * For every template of every corpus `templates` folder (incoming ones included) it records
 *
 * - `deck`: the SHA-256 of a deck built over all of the template's layouts with realistic
 *   content (titles, short and long bullets, two columns, a 20-row table that paginates,
 *   footers and slide numbers), plus the build's warnings (code and slide) — the deck bytes
 *   are deterministic for a given request;
 * - `previews`: the SHA-256 of the decoded RGBA pixels of every slide of the template and
 *   every page of that deck, drawn 480 px wide (pixels, not PNG bytes, so an encoder
 *   setting cannot hide or fake a change);
 * - `doctor`: the analysis doctor's capacities per layout (font size, lines, characters,
 *   table rows) — these may change on purpose, so they are listed, not hashed.
 *
 * and the 100-slide reference deck of the generate bench.
 *
 *   npx tsx test/snapshot/outputs.ts --out before.json
 *   npx tsx test/snapshot/outputs.ts --compare before.json [--out after.json]
 *
 * `--compare` prints every template whose deck, previews or doctor capacities differ and
 * exits 1 when a deck or a preview differs. `--only a,b` limits the run to templates whose
 * name contains a or b; `--keep DIR` writes each deck and every preview PNG there (to look
 * at what changed).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { analyzePresentation } from '../../core/src/analysis/analyze.js';
import type { Column, SlideData, Table } from '../../core/src/domain/content.js';
import { diagnose } from '../../core/src/doctor/diagnose.js';
import { buildDeck, type DeckSlideSpec } from '../../core/src/generation/deck/build-deck.js';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { PmlModel } from '../../core/src/ooxml/pml/parts.js';
import { renderSlide } from '../../core/src/render/index.js';
import { corpusFilesOf, corpusPath, hasCorpusFile } from '../helpers/corpus.js';

/** Preview width of the snapshot, px. */
const PREVIEW_WIDTH_PX = 480;

/** What one template gives. */
export interface TemplateSnapshot {
  deck: string;
  pages: number;
  warnings: string[];
  previews: string[];
  doctor: Record<string, unknown>;
}

/** The whole snapshot. */
export interface OutputSnapshot {
  benchDeck: string | null;
  templates: Record<string, TemplateSnapshot>;
}

const sha = (b: Uint8Array | Buffer): string => createHash('sha256').update(b).digest('hex');

const LONG = [
  'Revenue grew 14 % year over year, driven by new enterprise contracts in the northern region and strong renewals',
  'Gross margin improved by 2.1 points as cloud hosting costs fell after the migration to reserved capacity',
  'Operating expenses stayed flat despite two new offices, because travel and recruiting spend came in below plan',
  'Customer churn dropped to its lowest level in three years following the launch of the onboarding programme',
  'Risks: currency movements, a slower public sector, and the timing of two large renewals',
  'Next steps: finalise the pricing review, hire the remaining account executives, ship the analytics add-on',
];
const SHORT = ['Faster onboarding', 'Lower churn', 'Bigger pipeline'];

function longTable(rows: number): Table {
  const out: Table = { rows: [{ is_header: true, cells: [{ value: 'Region' }, { value: 'Revenue (k€)' }, { value: 'Growth' }, { value: 'Comment' }] }] };
  for (let i = 1; i <= rows; i++) {
    out.rows.push({ cells: [{ value: `Region ${i}` }, { value: String(1000 + i * 37) }, { value: `${(i % 7) + 2} %` }, { value: i % 4 === 0 ? 'Two large renewals slipped' : 'On plan' }] });
  }
  return out;
}

const text = (bullets: string[]): Column['blocks'][number] => ({ type: 'text', text: { bullets } });

function contentFor(i: number, types: string[]): SlideData {
  const title = i % 3 === 0 ? 'Quarterly business review: results, risks and the plan for the next two quarters' : `Results ${i + 1}`;
  const content = types.filter((x) => x === 'obj' || x === 'tbl').length || types.filter((x) => x === 'body').length;
  if (types.includes('subTitle')) return { title, subtitle: 'Prepared for the board · November' };
  if (content >= 2) return { title, content: [{ header: 'Highlights', blocks: [text(LONG.slice(0, 4))] }, { header: 'Next steps', blocks: [text(SHORT)] }] };
  if (content === 1) return i % 4 === 1 ? { title, content: [{ blocks: [{ type: 'table', table: { table: longTable(20) } }] }] } : { title, content: [{ blocks: [text(i % 2 ? LONG : SHORT)] }] };
  return { title };
}

async function pixelsOf(png: Uint8Array): Promise<string> {
  const img = await loadImage(Buffer.from(png));
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return sha(Buffer.from(ctx.getImageData(0, 0, img.width, img.height).data.buffer));
}

let keepDir: string | undefined;

async function previewsOf(pkg: OpcPackage, label: string): Promise<string[]> {
  const model = new PmlModel(pkg);
  const out: string[] = [];
  for (const slide of model.slidesInOrder()) {
    try {
      const png = (await renderSlide(pkg, slide.partName, { widthPx: PREVIEW_WIDTH_PX })).png;
      if (keepDir) writeFileSync(join(keepDir, `${label}-${String(out.length).padStart(3, '0')}.png`), png);
      out.push(await pixelsOf(png));
    } catch (e) {
      out.push(`error: ${(e as Error).message}`);
    }
  }
  return out;
}

async function snapshotTemplate(name: string): Promise<TemplateSnapshot> {
  const bytes = readFileSync(corpusPath(name));
  const pkg = await OpcPackage.open(bytes);
  const model = new PmlModel(pkg);
  const slides: DeckSlideSpec[] = model.layoutsInOrder().map((layout, i) => ({
    template_id: name,
    template_slide_id: `${name}#${layout.partName}`,
    source: { kind: 'layout', part_name: layout.partName },
    slide_data: contentFor(i, layout.placeholders.map((p) => String(p.placeholder?.type))),
    options: { footer_text: 'Slidewright · confidential', show_slide_numbers: true },
  }));
  const result = await buildDeck({ slides, templates: new Map([[name, bytes]]) });
  const label = name.replace(/[^A-Za-z0-9.-]+/g, '_');
  const previews = await previewsOf(pkg, `${label}-t`);
  if (result.bytes) {
    if (keepDir) writeFileSync(join(keepDir, `${label}-deck.pptx`), result.bytes);
    previews.push(...(await previewsOf(await OpcPackage.open(result.bytes), `${label}-d${String(previews.length).padStart(3, '0')}`)));
  }
  const report = diagnose(analyzePresentation({ pkg, options: {}, idFor: (kind, part) => `${kind}:${part}` }), pkg);
  const doctor: Record<string, unknown> = {};
  for (const l of report.layouts) {
    const { areas, placeholders, ...sizes } = l.capacity;
    void placeholders;
    doctor[l.slide_id] = { ...sizes, areas: areas.map((a) => ({ ...a })) };
  }
  return {
    deck: result.bytes ? sha(result.bytes) : `errors: ${JSON.stringify(result.errors)}`,
    pages: result.pages_generated,
    warnings: result.warnings.map((w) => `${w.slide_index}:${w.code}`),
    previews,
    doctor,
  };
}

async function benchDeck(): Promise<string | null> {
  const files = ['pp_test_slides.pptx', 'SlideWithTables.pptx'];
  if (!files.every((f) => hasCorpusFile(`bench/${f}`))) return null;
  const templates = new Map(files.map((f) => [f, readFileSync(corpusPath(`bench/${f}`)) as Uint8Array]));
  const specs: DeckSlideSpec[] = [];
  for (let i = 0; i < 100; i++) {
    const title = `Slide ${i + 1}: quarterly results for region ${(i % 7) + 1}`;
    if (i % 2 === 0) {
      const bullets = Array.from({ length: 5 }, (_, b) => `Point ${b + 1} of slide ${i + 1}: revenue, margin and pipeline`);
      specs.push({ template_id: files[0]!, template_slide_id: 'text', source: { kind: 'slide', part_name: '/ppt/slides/slide1.xml' }, slide_data: { title, content: [{ blocks: [text(bullets)] }] }, options: { auto_paginate_tables: false } });
    } else {
      const part = `/ppt/slides/slide${i % 4 === 1 ? 1 : 3}.xml`;
      const rows = Array.from({ length: 4 }, (_, r) => ({ is_header: r === 0, cells: Array.from({ length: 4 }, (_, c) => ({ value: r === 0 ? `Col ${c + 1}` : `${i + 1}.${r}.${c}` })) }));
      specs.push({ template_id: files[1]!, template_slide_id: 'table', source: { kind: 'slide', part_name: part }, slide_data: { title, content: [{ blocks: [{ type: 'table', table: { table: { rows } } }] }] }, options: { auto_paginate_tables: false } });
    }
  }
  const r = await buildDeck({ slides: specs, templates });
  return r.bytes ? sha(r.bytes) : `errors: ${JSON.stringify(r.errors)}`;
}

/** `code ×n, …` of warnings written `slide:code`. */
function countByCode(warnings: readonly string[]): string {
  const n = new Map<string, number>();
  for (const w of warnings) {
    const code = w.slice(w.indexOf(':') + 1);
    n.set(code, (n.get(code) ?? 0) + 1);
  }
  return [...n].map(([code, k]) => `${code} ×${k}`).join(', ') || 'none';
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, compare: { type: 'string' }, only: { type: 'string' }, keep: { type: 'string' } } });
  const only = values.only?.split(',').filter(Boolean);
  keepDir = values.keep;
  if (keepDir) mkdirSync(keepDir, { recursive: true });
  const snapshot: OutputSnapshot = { benchDeck: await benchDeck(), templates: {} };
  const names = corpusFilesOf('templates');
  if (!names.length) throw new Error('no corpus templates found: set SLIDEWRIGHT_SHARED_DIR or SLIDEWRIGHT_CORPUS_DIR, or run `npm run corpus:fetch`');
  for (const name of names) {
    if (only && !only.some((o) => name.includes(o))) continue;
    snapshot.templates[name] = await snapshotTemplate(name);
    process.stderr.write(`${name}\n`);
  }
  if (values.out) writeFileSync(values.out, JSON.stringify(snapshot, null, 1));
  if (!values.compare) return;
  const before = JSON.parse(readFileSync(values.compare, 'utf8')) as OutputSnapshot;
  let differs = 0;
  const say = (line: string): void => void process.stdout.write(`${line}\n`);
  if (before.benchDeck !== snapshot.benchDeck) (differs++, say('bench deck: bytes differ'));
  let decks = 0;
  let previews = 0;
  for (const [name, now] of Object.entries(snapshot.templates)) {
    const was = before.templates[name];
    if (!was) continue;
    decks++;
    previews += now.previews.length;
    if (was.deck !== now.deck) (differs++, say(`${name}: deck bytes differ`));
    if (JSON.stringify(was.warnings) !== JSON.stringify(now.warnings)) say(`${name}: warnings ${countByCode(was.warnings)} → ${countByCode(now.warnings)}`);
    const changed = now.previews.map((p, i) => (p !== was.previews[i] ? i : -1)).filter((i) => i >= 0);
    if (changed.length || was.previews.length !== now.previews.length) (differs++, say(`${name}: previews differ at ${changed.join(', ')}`));
    for (const [layout, cap] of Object.entries(now.doctor)) {
      if (JSON.stringify(cap) !== JSON.stringify(was.doctor[layout])) say(`${name} ${layout}: doctor capacity ${JSON.stringify(was.doctor[layout])} → ${JSON.stringify(cap)}`);
    }
  }
  say(`compared: bench deck, ${decks} template decks, ${previews} previews; ${differs} differences in bytes or pixels`);
  if (differs) process.exitCode = 1;
}

await main();
