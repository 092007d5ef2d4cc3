/**
 * Quality findings snapshot: what the checked build reports (issue 23) on decks made from
 * every corpus template, so a change to how the checks run (the per-slide hook, the
 * package check of the written slides) can show the report is the same, byte for byte.
 *
 * For every template of every corpus `templates` folder it builds, with `checkedBuild`:
 *
 * - `slides`: every template slide twice (a title, bullets; every third slide a table
 *   instead), so the second pass reads what the first kept per template shape;
 * - `layouts`: a slide from every layout with titles, bullets, two columns or a table, and
 *   footers and slide numbers;
 *
 * and the 100-slide reference deck of the quality bench. Recorded per deck: the report
 * (summary and findings), per slide the title, the per-slide findings and the package
 * problems the build found, and the build's errors and warnings (no timings).
 *
 *   npx tsx test/snapshot/quality-findings.ts --out before.json
 *   npx tsx test/snapshot/quality-findings.ts --compare before.json   # exits 1 on a difference
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { SlideData, Table } from '../../core/src/domain/content.js';
import type { DeckSlideSpec } from '../../core/src/generation/deck/build-deck.js';
import { CT } from '../../core/src/ooxml/opc/constants.js';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { PmlModel } from '../../core/src/ooxml/pml/parts.js';
import { checkedBuild } from '../../core/src/quality/checked-build.js';
import { corpusFilesOf, corpusPath, hasCorpusFile } from '../helpers/corpus.js';

function table(rows: number): Table {
  const out: Table = { rows: [{ is_header: true, cells: [{ value: 'Region' }, { value: 'Revenue' }, { value: 'Growth' }] }] };
  for (let i = 1; i <= rows; i++) out.rows.push({ cells: [{ value: `Region ${i}` }, { value: String(1000 + i * 37) }, { value: `${(i % 7) + 2} %` }] });
  return out;
}

function slideData(i: number, types: readonly string[] = []): SlideData {
  const title = i % 5 === 0 ? 'Quarterly business review: results, risks and the plan' : `Results ${i + 1}`;
  if (types.includes('subTitle')) return { title, subtitle: 'Prepared for the board' };
  const content = types.filter((x) => x === 'obj' || x === 'tbl' || x === 'body').length;
  if (content >= 2) return { title, content: [{ header: 'Highlights', blocks: [{ type: 'text', text: { bullets: ['Revenue up', 'Churn down'] } }] }, { blocks: [{ type: 'text', text: { bullets: ['Hire', 'Ship'] } }] }] };
  if (i % 3 === 2) return { title, content: [{ blocks: [{ type: 'table', table: { table: table(4) } }] }] };
  return { title, content: [{ blocks: [{ type: 'text', text: { bullets: ['First point', `Second point of slide ${i + 1}`] } }] }] };
}

/** A checked build's outcome without timings, as compared. */
async function outcome(slides: DeckSlideSpec[], templates: Map<string, Uint8Array>): Promise<unknown> {
  const r = await checkedBuild({ slides, templates });
  if (!r.ok) return { error: r.error };
  return {
    errors: r.errors,
    warnings: r.warnings,
    report: r.report,
    slides: r.slides.map((s) => ({ part_name: s.part_name, slide_index: s.slide_index, title: s.title, findings: s.findings, package_problems: s.package_problems })),
  };
}

async function templateDecks(name: string): Promise<Record<string, unknown>> {
  const bytes = new Uint8Array(readFileSync(corpusPath(name)));
  let model: PmlModel;
  try {
    model = new PmlModel(await OpcPackage.open(bytes));
  } catch (e) {
    return { refused: String((e as Error).message) };
  }
  const templates = new Map([[name, bytes]]);
  const parts = model.pkg.partsOfType(CT.slide);
  const fromSlides = [...parts, ...parts].map((part, i): DeckSlideSpec => ({ template_id: name, template_slide_id: part, source: { kind: 'slide', part_name: part }, slide_data: slideData(i), options: {} }));
  const fromLayouts = model.layoutsInOrder().map((layout, i): DeckSlideSpec => ({
    template_id: name,
    template_slide_id: layout.partName,
    source: { kind: 'layout', part_name: layout.partName },
    slide_data: slideData(i, layout.placeholders.map((p) => String(p.placeholder?.type))),
    options: { footer_text: 'Confidential', show_slide_numbers: true },
  }));
  return { slides: fromSlides.length ? await outcome(fromSlides, templates) : null, layouts: fromLayouts.length ? await outcome(fromLayouts, templates) : null };
}

/** The reference deck of bench/quality.bench.ts. */
async function benchDeck(): Promise<unknown> {
  const files = ['pp_test_slides.pptx', 'SlideWithTables.pptx'];
  if (!files.every((f) => hasCorpusFile(`bench/${f}`))) return null;
  const templates = new Map(files.map((f) => [f, new Uint8Array(readFileSync(corpusPath(`bench/${f}`)))] as const));
  const specs: DeckSlideSpec[] = [];
  for (let i = 0; i < 100; i++) {
    const title = `Slide ${i + 1}: quarterly results for region ${(i % 7) + 1}`;
    if (i % 2 === 0) {
      specs.push({ template_id: files[0]!, template_slide_id: 'text', source: { kind: 'slide', part_name: '/ppt/slides/slide1.xml' }, slide_data: { title, content: [{ blocks: [{ type: 'text', text: { bullets: Array.from({ length: 5 }, (_, b) => `Point ${b + 1} of slide ${i + 1}: revenue, margin and pipeline`) } }] }] }, options: { auto_paginate_tables: false } });
    } else {
      const rows = Array.from({ length: 4 }, (_, r) => ({ is_header: r === 0, cells: Array.from({ length: 4 }, (_, c) => ({ value: r === 0 ? `Col ${c + 1}` : `${i + 1}.${r}.${c}` })) }));
      specs.push({ template_id: files[1]!, template_slide_id: 'table', source: { kind: 'slide', part_name: `/ppt/slides/slide${i % 4 === 1 ? 1 : 3}.xml` }, slide_data: { title, content: [{ blocks: [{ type: 'table', table: { table: { rows } } }] }] }, options: { auto_paginate_tables: false } });
    }
  }
  return outcome(specs, templates);
}

const { values } = parseArgs({ options: { out: { type: 'string' }, compare: { type: 'string' }, only: { type: 'string' } } });
const only = values.only?.split(',');
const snapshot: Record<string, unknown> = { bench: await benchDeck() };
for (const name of corpusFilesOf('templates')) {
  if (only && !only.some((o) => name.includes(o))) continue;
  snapshot[name] = await templateDecks(name);
}
if (values.out) writeFileSync(values.out, JSON.stringify(snapshot, null, 1));
if (values.compare) {
  const before = JSON.parse(readFileSync(values.compare, 'utf8')) as Record<string, unknown>;
  let differ = 0;
  let findings = 0;
  for (const [name, now] of Object.entries(snapshot)) {
    findings += (JSON.stringify(now).match(/"code":/g) ?? []).length;
    if (JSON.stringify(now) !== JSON.stringify(before[name])) {
      differ++;
      console.log(`differs: ${name}`);
    }
  }
  console.log(`${Object.keys(snapshot).length} entries (bench deck and templates), ${findings} findings and problems; ${differ} differ`);
  process.exitCode = differ ? 1 : 0;
}
