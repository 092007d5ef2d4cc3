/**
 * Right-to-left tables (issue 24, item 2): a table whose cells are mostly Arabic, Hebrew,
 * Persian or Urdu, or whose slide or deck language is right to left, is written with
 * `a:tblPr/@rtl="1"` (ECMA-376 Part 1 §21.1.3.15: the first grid column on the right),
 * left-to-right content leaves none; previews lay such a table out from the right edge.
 * Both table writers are covered: a table made for a placeholder (the house template's
 * table layout) and a template table refilled (every corpus template slide holding one).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadImage, createCanvas } from '@napi-rs/canvas';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import type { GenerationOptions, SlideData, Table } from '../../../core/src/domain/content.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT } from '../../../core/src/ooxml/opc/constants.js';
import { NS, child, children, createElement, descendants } from '../../../core/src/ooxml/xml.js';
import { renderSlide } from '../../../core/src/render/index.js';
import { houseTemplate, HOUSE_LAYOUTS } from '../../fixtures/house-template.js';
import { corpusFilesFor, corpusPath } from '../../helpers/corpus.js';
import { openCorpusOrPass } from '../../helpers/corpus-slides.js';
import { lintPptxBytes, refereeSkipped } from '../../helpers/referee.js';

const table = (rows: string[][]): Table => ({ rows: rows.map((cells, r) => ({ is_header: r === 0, cells: cells.map((value) => ({ value })) })) });
const HEBREW = table([['מוצר', 'רבעון', 'הכנסות'], ['מחשבים', 'ראשון', '1,200'], ['שרתים', 'שני', '3,400']]);
const ARABIC_MOSTLY = table([['المنتج', 'الربع', 'Revenue'], ['الحواسيب', 'الأول', '1,200']]);
const LATIN = table([['Product', 'Quarter', 'Revenue'], ['Laptops', 'Q1', '1,200']]);

/** The `rtl` attribute of every table's `a:tblPr` on the deck's slides. */
async function tableDirections(bytes: Uint8Array): Promise<Array<string | null>> {
  const pkg = await OpcPackage.open(bytes);
  return pkg.partsOfType(CT.slide).flatMap((part) => descendants(pkg.getXml(part), NS.a, 'tbl').map((tbl) => child(tbl, NS.a, 'tblPr')?.getAttribute('rtl') ?? null));
}

t.test('house template table layout: direction from the cells, or from the language', async (t) => {
  const bytes = new Uint8Array(await houseTemplate());
  const layout = (await OpcPackage.open(bytes)).partsOfType(CT.slideLayout)[HOUSE_LAYOUTS.findIndex((l) => l.type === 'tbl')]!;
  const deck = async (tbl: Table, options: GenerationOptions = {}): Promise<Uint8Array> => {
    const data: SlideData = { title: 'T', content: [{ blocks: [{ type: 'table', table: { table: tbl } }] }] };
    const r = await buildDeck({ slides: [{ template_id: 'house', template_slide_id: layout, source: { kind: 'layout', part_name: layout }, slide_data: data, options }], templates: new Map([['house', bytes]]) });
    t.ok(r.bytes, `a deck (${JSON.stringify(r.errors)})`);
    return r.bytes!;
  };
  t.same(await tableDirections(await deck(HEBREW)), ['1'], 'Hebrew cells: right to left');
  t.same(await tableDirections(await deck(ARABIC_MOSTLY)), ['1'], 'mostly Arabic cells: right to left');
  t.same(await tableDirections(await deck(LATIN)), [null], 'Latin cells: left to right, nothing written');
  t.same(await tableDirections(await deck(LATIN, { language: 'he-IL' })), ['1'], 'a right-to-left language decides');
  t.same(await tableDirections(await deck(HEBREW, { language: 'en-US' })), [null], 'a left-to-right language decides');

  const lint = await lintPptxBytes(t, await deck(HEBREW), 'rtl-table.pptx');
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'the referee linter finds nothing');
});

t.test('previews lay a right-to-left table out from the right edge', async (t) => {
  const bytes = new Uint8Array(await houseTemplate());
  const layout = (await OpcPackage.open(bytes)).partsOfType(CT.slideLayout)[HOUSE_LAYOUTS.findIndex((l) => l.type === 'tbl')]!;
  const r = await buildDeck({ slides: [{ template_id: 'house', template_slide_id: layout, source: { kind: 'layout', part_name: layout }, slide_data: { content: [{ blocks: [{ type: 'table', table: { table: HEBREW } }] }] }, options: {} }], templates: new Map([['house', bytes]]) });
  const pkg = await OpcPackage.open(r.bytes!);
  const slide = pkg.partsOfType(CT.slide)[0]!;
  // the first grid column's cells filled pure red, so where the column lands can be seen
  const paint = (rtl: boolean): Promise<Uint8Array> => {
    const doc = pkg.getXml(slide);
    const tbl = descendants(doc, NS.a, 'tbl')[0]!;
    const tblPr = child(tbl, NS.a, 'tblPr')!;
    if (rtl) tblPr.setAttribute('rtl', '1');
    else tblPr.removeAttribute('rtl');
    for (const tr of children(tbl, NS.a, 'tr')) {
      const tc = children(tr, NS.a, 'tc')[0]!;
      let tcPr = child(tc, NS.a, 'tcPr');
      if (!tcPr) tc.appendChild((tcPr = createElement(doc, NS.a, 'a:tcPr')));
      for (const old of children(tcPr, NS.a, 'solidFill')) tcPr.removeChild(old);
      const fill = createElement(doc, NS.a, 'a:solidFill');
      fill.appendChild(createElement(doc, NS.a, 'a:srgbClr', { val: 'FF0000' }));
      tcPr.appendChild(fill);
    }
    pkg.setXml(slide, doc);
    return renderSlide(pkg, slide, { widthPx: 480 }).then((x) => x.png);
  };
  const redCentre = async (png: Uint8Array): Promise<number> => {
    const img = await loadImage(Buffer.from(png));
    const ctx = createCanvas(img.width, img.height).getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, img.width, img.height).data;
    let sum = 0;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i]! > 240 && d[i + 1]! < 20 && d[i + 2]! < 20) {
        sum += (i / 4) % img.width;
        n++;
      }
    }
    t.ok(n > 100, `red cells drawn (${n} px)`);
    return sum / Math.max(1, n) / img.width;
  };
  const ltr = await redCentre(await paint(false));
  const rtl = await redCentre(await paint(true));
  t.ok(ltr < 0.4, `left to right: the first column on the left (centre at ${ltr.toFixed(2)} of the width)`);
  t.ok(rtl > 0.6, `right to left: the first column on the right (centre at ${rtl.toFixed(2)} of the width)`);
});

for (const file of corpusFilesFor(t, 'templates')) {
  t.test(`templates/${file}: a template table refilled with Hebrew is right to left, with English left to right`, async (t) => {
    const pkg = await openCorpusOrPass(t, `templates/${file}`, 'a template the engine refuses has no tables to fill');
    if (!pkg) return;
    const bytes = new Uint8Array(readFileSync(corpusPath(`templates/${file}`)));
    const part = pkg.partsOfType(CT.slide).find((p) => descendants(pkg.getXml(p), NS.a, 'tbl').length === 1);
    if (!part) {
      t.pass('no slide with one table');
      return;
    }
    const spec = (tbl: Table): DeckSlideSpec => ({ template_id: file, template_slide_id: part, source: { kind: 'slide', part_name: part }, slide_data: { content: [{ blocks: [{ type: 'table', table: { table: tbl } }] }] }, options: { auto_paginate_tables: false } });
    const r = await buildDeck({ slides: [spec(HEBREW), spec(LATIN)], templates: new Map([[file, bytes]]) });
    if (!r.bytes || r.errors.length) {
      t.fail(`no deck: ${JSON.stringify(r.errors)}`);
      return;
    }
    const out = await OpcPackage.open(r.bytes);
    const [he, en] = out.partsOfType(CT.slide).map((p) => descendants(out.getXml(p), NS.a, 'tbl').map((tbl) => child(tbl, NS.a, 'tblPr')?.getAttribute('rtl') ?? null));
    t.ok(he!.includes('1'), `${part} with Hebrew cells: rtl="1" (${JSON.stringify(he)})`);
    t.notOk(en!.includes('1'), `${part} with English cells: left to right (${JSON.stringify(en)})`);
  });
}
