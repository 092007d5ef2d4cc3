/**
 * Rows written by `replaceTableContent` and `buildTableFrame` stay a model until the slide
 * is serialized (core/src/generation/draft/deferred-rows.ts). The model must be indistinguishable
 * from the nodes it stands for: for every table of every slide of the corpus templates,
 * the model and its materialized rows must serialize to the same text, parse as XML, and
 * measure and fit to the same heights and sizes.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import type { Table } from '../../../core/src/domain/content.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT, RT } from '../../../core/src/ooxml/opc/constants.js';
import { PmlModel } from '../../../core/src/ooxml/pml/parts.js';
import { NS, child, children, descendants, parseXml, type Document, type Element } from '../../../core/src/ooxml/xml.js';
import { deferredRows } from '../../../core/src/generation/draft/deferred-rows.js';
import { cloneDocument } from '../../../core/src/generation/draft/clone.js';
import { serializeDocument } from '../../../core/src/generation/draft/serialize.js';
import { materializeParagraphs } from '../../../core/src/generation/slide/text.js';
import { buildTableFrame, frameTable, materializeRows, replaceTableContent } from '../../../core/src/generation/slide/tables.js';
import { GeneratedSlidePart } from '../../../core/src/generation/draft/slide-draft.js';
import { fitTable, measureTable } from '../../../core/src/generation/fit/table-fit.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { corpusSlides } from '../../helpers/corpus-slides.js';

/** Tables of several shapes: header and banded body rows, more and fewer columns than a template's, line breaks, escapes, empty cells. */
const TABLES: readonly Table[] = [
  {
    rows: [
      { is_header: true, cells: [{ value: 'Region' }, { value: 'Q1 & Q2' }, { value: '<Q3>' }] },
      ...Array.from({ length: 7 }, (_, i) => ({ cells: [{ value: `Region ${i + 1}` }, { value: String(100 + i) }, { value: i % 3 === 0 ? 'two\nlines' : '' }] })),
    ],
  },
  { rows: [{ cells: [{ value: 'A long cell text that wraps over several lines in a narrow column of a table' }] }, { cells: [{ value: 'b' }] }] },
  { rows: Array.from({ length: 3 }, (_, r) => ({ is_header: r === 0, cells: Array.from({ length: 6 }, (_, c) => ({ value: `${r}.${c}` })) })) },
];

/** Every `a:tbl` frame of a slide's shape tree (top level). */
function tableFrames(doc: Document): Element[] {
  const tree = child(child(doc.documentElement!, NS.p, 'cSld'), NS.p, 'spTree');
  return tree ? children(tree, NS.p, 'graphicFrame').filter((f) => frameTable(f) !== undefined) : [];
}

/** The document with every table's rows, and every cell's paragraphs, as nodes. */
function materializeAll(doc: Document): void {
  for (const tbl of descendants(doc, NS.a, 'tbl')) materializeRows(doc, tbl);
  for (const txBody of descendants(doc, NS.a, 'txBody')) materializeParagraphs(doc, txBody);
}

t.test("a template's table rewritten as a model writes, measures and fits as its nodes", needsCorpus(), async (t) => {
  let tables = 0;
  for await (const { file, pml, slidePart, layoutPart, doc: src } of corpusSlides()) {
    const sourceFrames = tableFrames(src);
    for (const [fi, sourceFrame] of sourceFrames.entries()) {
      for (const [ti, table] of TABLES.entries()) {
        const where = `${file} ${slidePart} table ${fi} content ${ti}`;
        // with the template's frame as the source of row formatting (as fill-slide does), and from the table's own rows
        for (const withSource of [true, false]) {
          const model = cloneDocument(src);
          const nodes = cloneDocument(src);
          const frameA = tableFrames(model)[fi]!;
          const frameB = tableFrames(nodes)[fi]!;
          replaceTableContent(model, frameA, table, withSource ? sourceFrame : undefined);
          replaceTableContent(nodes, frameB, table, withSource ? sourceFrame : undefined);
          if (!deferredRows(frameTable(frameA))) t.fail(`${where}: no model after replaceTableContent`);
          materializeAll(nodes);
          tables++;
          const text = serializeDocument(model);
          if (text !== serializeDocument(nodes)) {
            t.equal(text, serializeDocument(nodes), `${where}: same text written`);
            return;
          }
          parseXml(text, slidePart);
          const partA = new GeneratedSlidePart(pml.layout(layoutPart), model.documentElement!, slidePart);
          const partB = new GeneratedSlidePart(pml.layout(layoutPart), nodes.documentElement!, slidePart);
          const mA = measureTable(partA, frameTable(frameA)!);
          const mB = measureTable(partB, frameTable(frameB)!);
          if (JSON.stringify([mA.baseSizePt, mA.templateHeights, mA.heightsAt(1), mA.heightsAt(0.5)]) !== JSON.stringify([mB.baseSizePt, mB.templateHeights, mB.heightsAt(1), mB.heightsAt(0.5)])) {
            t.same([mA.baseSizePt, mA.templateHeights, mA.heightsAt(1)], [mB.baseSizePt, mB.templateHeights, mB.heightsAt(1)], `${where}: same measure`);
            return;
          }
          // fitted into a third of the natural height: sizes and row heights written
          const avail = Math.floor(mA.heightsAt(1).reduce((a, b) => a + b, 0) / 3);
          const fitA = fitTable(mA, avail, 8);
          const fitB = fitTable(mB, avail, 8);
          t.same(fitA, fitB, `${where}: same fit`);
          if (serializeDocument(model) !== serializeDocument(nodes)) {
            t.equal(serializeDocument(model), serializeDocument(nodes), `${where}: same text once fitted`);
            return;
          }
        }
      }
    }
  }
  t.ok(tables > 100, `${tables} tables compared`);
});

t.test('a new table (no template cells) writes and fits as its nodes', needsCorpus('bench/SlideWithTables.pptx'), async (t) => {
  const file = 'bench/SlideWithTables.pptx';
  const pkg = await OpcPackage.open(readFileSync(corpusPath(file)));
  const pml = new PmlModel(pkg);
  const slidePart = pkg.partsOfType(CT.slide)[0]!;
  const layoutPart = pkg.relatedPartName(slidePart, RT.slideLayout)!;
  const src = pkg.getXml(slidePart);
  for (const [ti, table] of TABLES.entries()) {
    // a short area makes rows lower than the default: cells get an explicit size
    for (const cy of [4_000_000, 600_000]) {
      const docs = [cloneDocument(src), cloneDocument(src)] as const;
      const frames = docs.map((doc) => {
        const frame = buildTableFrame(doc, table, { x: 457_200, y: 1_600_200, cx: 8_229_600, cy }, { shapeId: 900, name: 'Table 900', tableStyleId: '{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}', options: {} });
        child(child(doc.documentElement!, NS.p, 'cSld'), NS.p, 'spTree')!.appendChild(frame);
        return frame;
      });
      materializeAll(docs[1]);
      const where = `content ${ti}, area ${cy} EMU`;
      t.equal(serializeDocument(docs[0]), serializeDocument(docs[1]), `${where}: same text written`);
      const [mA, mB] = docs.map((doc, i) => measureTable(new GeneratedSlidePart(pml.layout(layoutPart), doc.documentElement!, slidePart), frameTable(frames[i]!)!));
      t.same(fitTable(mA!, 1_000_000, 8), fitTable(mB!, 1_000_000, 8), `${where}: same fit`);
      t.equal(serializeDocument(docs[0]), serializeDocument(docs[1]), `${where}: same text once fitted`);
    }
  }
});

t.test('cells written from unusual template cells: no text body, merges, extensions, text between elements', async (t) => {
  const slide = parseXml(
    `<p:sld xmlns:a="${NS.a}" xmlns:p="${NS.p}" xmlns:r="${NS.r}"><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>` +
      `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="2" name="Table 1"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="0"/><a:ext cx="3000000" cy="740000"/></p:xfrm>` +
      `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1"/><a:tblGrid><a:gridCol w="1000000"/><a:gridCol w="1000000"/><a:gridCol w="1000000"/></a:tblGrid>` +
      `<a:tr h="370000"><a:tc gridSpan="2" marL="1"><a:tcPr anchor="ctr"><a:solidFill><a:srgbClr val="112233"/></a:solidFill></a:tcPr></a:tc><a:tc hMerge="1"><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="fr-FR" sz="1100"/><a:t>x</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc><a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p/></a:txBody></a:tc></a:tr>` +
      `<a:tr h="370000"><a:tc rowSpan="2"><a:txBody><a:bodyPr lIns="0"><a:normAutofit/></a:bodyPr><a:lstStyle><a:lvl1pPr algn="ctr"/></a:lstStyle><a:p><a:pPr algn="r"/><a:r><a:rPr lang="de-DE" b="1"/><a:t>y</a:t></a:r></a:p></a:txBody><a:tcPr marT="0"/><a:extLst><a:ext uri="{00000000-0000-0000-0000-000000000000}"/></a:extLst></a:tc><a:tc vMerge="1"><a:txBody><a:bodyPr/><a:p><a:r><a:t>z</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p/></a:txBody><a:tcPr/></a:tc></a:tr>` +
      `</a:tbl></a:graphicData></a:graphic></p:graphicFrame></p:spTree></p:cSld></p:sld>`,
    'slide',
  );
  const table: Table = { rows: Array.from({ length: 4 }, (_, r) => ({ is_header: r === 0, cells: Array.from({ length: 3 }, (_, c) => ({ value: `${r}/${c}` })) })) };
  const sourceFrame = tableFrames(slide)[0]!;
  const model = cloneDocument(slide);
  const nodes = cloneDocument(slide);
  replaceTableContent(model, tableFrames(model)[0]!, table, sourceFrame);
  replaceTableContent(nodes, tableFrames(nodes)[0]!, table, sourceFrame);
  materializeAll(nodes);
  const text = serializeDocument(model);
  t.equal(text, serializeDocument(nodes), 'same text written');
  const written = parseXml(text, 'slide');
  const cells = descendants(written, NS.a, 'tc');
  t.equal(cells.length, 12, 'every cell written');
  t.ok(cells.every((tc) => child(tc, NS.a, 'txBody') === tc.firstChild), 'every cell starts with its text body');
  t.ok(cells.every((tc) => !['gridSpan', 'rowSpan', 'hMerge', 'vMerge'].some((a) => tc.hasAttribute(a))), 'no merge carried into new rows');
  t.equal(cells[0]!.getAttribute('marL'), '1', "the template cell's other attributes kept");
  t.ok(child(cells[0]!, NS.a, 'tcPr') && child(child(cells[0]!, NS.a, 'tcPr'), NS.a, 'solidFill'), 'cell properties written from the template');
});
