/**
 * Paragraphs written by `setParagraphs` stay a model until the slide is serialized
 * (core/src/generation/draft/deferred-paragraphs.ts). The model must be indistinguishable from the
 * nodes it stands for: for every text body of every slide of the corpus templates, the
 * model and its materialized nodes must serialize to the same text and read to the same
 * text-layout input, before and after fitting writes sizes.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { NS, child, descendants, type Document, type Element } from '../../../core/src/ooxml/xml.js';
import { deferredParagraphs } from '../../../core/src/generation/draft/deferred-paragraphs.js';
import { cloneDocument } from '../../../core/src/generation/draft/clone.js';
import { serializeDocument } from '../../../core/src/generation/draft/serialize.js';
import { materializeParagraphs, plainText, setParagraphs, setRunFont } from '../../../core/src/generation/slide/text.js';
import { readShapeText, writeScaledSizes } from '../../../core/src/generation/fit/text-fit.js';
import { GeneratedSlidePart } from '../../../core/src/generation/draft/slide-draft.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { corpusSlides } from '../../helpers/corpus-slides.js';

const LINE_SETS: ReadonlyArray<readonly string[]> = [
  ['Quarterly results & <outlook>', 'Second point\nwith a line break', '', 'Vertical tab\vbreak and "quotes"'],
  ['One line'],
  [],
  ['\nstarts with a break', 'ends with a break\n'],
];

/** Every text body of a slide: shapes' `p:txBody` and table cells' `a:txBody`, in document order. */
function textBodies(doc: Document): Element[] {
  return [...descendants(doc, NS.p, 'txBody'), ...descendants(doc, NS.a, 'txBody')];
}

interface Pair {
  index: number;
  model: Document;
  nodes: Document;
  modelBody: Element;
  nodesBody: Element;
}

function pairs(src: Document): Pair[] {
  const n = textBodies(src).length;
  const out: Pair[] = [];
  for (let i = 0; i < n; i++) {
    const model = cloneDocument(src);
    const nodes = cloneDocument(src);
    out.push({ index: i, model, nodes, modelBody: textBodies(model)[i]!, nodesBody: textBodies(nodes)[i]! });
  }
  return out;
}

t.test('deferred paragraphs serialize and read as the nodes they stand for', needsCorpus(), async (t) => {
  let bodies = 0;
  let shapesRead = 0;
  for await (const { file, pml, slidePart, layoutPart, doc: src } of corpusSlides(6)) {
    for (const [li, lines] of LINE_SETS.entries()) {
      for (const pair of pairs(src)) {
        bodies++;
        const cell = pair.modelBody.namespaceURI === NS.a;
        // every other line set takes its formatting from the template's body, as
        // tables.ts does for cells and fill-slide.ts for placeholders: the model then
        // holds the template's elements, whose formatting readers resolve once for all
        // slides (ooxml/pml/text-style.ts), so later pairs read through what earlier ones kept
        const formatFrom = li % 2 === 1 ? textBodies(src)[pair.index] : undefined;
        setParagraphs(pair.model, pair.modelBody, lines, formatFrom);
        setParagraphs(pair.nodes, pair.nodesBody, lines, formatFrom);
        if (!deferredParagraphs(pair.modelBody)) t.fail(`${file} ${slidePart}: no model after setParagraphs`);
        materializeParagraphs(pair.nodes, pair.nodesBody);
        const where = `${file} ${slidePart} body ${pair.index} lines ${li}`;
        if (serializeDocument(pair.model) !== serializeDocument(pair.nodes)) {
          t.equal(serializeDocument(pair.model), serializeDocument(pair.nodes), `${where}: same text written`);
          return;
        }
        if (plainText(pair.modelBody) !== plainText(pair.nodesBody)) t.equal(plainText(pair.modelBody), plainText(pair.nodesBody), `${where}: same plain text`);
        // reading (the fitting path) and writing sizes, for shapes on the slide's own tree
        const sp = pair.modelBody.parentNode as Element;
        if (cell || sp.localName !== 'sp' || sp.parentNode?.localName !== 'spTree') continue;
        const partA = new GeneratedSlidePart(pml.layout(layoutPart), pair.model.documentElement!, slidePart);
        const partB = new GeneratedSlidePart(pml.layout(layoutPart), pair.nodes.documentElement!, slidePart);
        const spB = pair.nodesBody.parentNode as Element;
        const readA = readShapeText(partA, sp);
        const readB = readShapeText(partB, spB);
        if (!readA || !readB) continue;
        shapesRead++;
        if (JSON.stringify(readA.body) !== JSON.stringify(readB.body)) {
          t.same(readA.body, readB.body, `${where}: same layout input`);
          return;
        }
        writeScaledSizes(pair.modelBody, readA.body, 0.75);
        writeScaledSizes(pair.nodesBody, readB.body, 0.75);
        if (serializeDocument(pair.model) !== serializeDocument(pair.nodes)) {
          t.equal(serializeDocument(pair.model), serializeDocument(pair.nodes), `${where}: same text once sized`);
          return;
        }
        const again = readShapeText(partA, sp)!;
        const againB = readShapeText(partB, spB)!;
        if (JSON.stringify(again.body) !== JSON.stringify(againB.body)) {
          t.same(again.body, againB.body, `${where}: same layout input once sized`);
          return;
        }
      }
    }
  }
  t.ok(bodies > 1000, `${bodies} text bodies compared`);
  t.ok(shapesRead > 300, `${shapesRead} shapes read back and sized`);
});

t.test('editing a model as nodes materializes it first, sizes included', needsCorpus('bench/pp_test_slides.pptx'), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('bench/pp_test_slides.pptx')));
  const doc = cloneDocument(pkg.getXml('/ppt/slides/slide1.xml'));
  const body = child(descendants(doc, NS.p, 'sp')[1]!, NS.p, 'txBody')!;
  setParagraphs(doc, body, ['alpha', 'beta\ngamma']);
  t.equal(descendants(body, NS.a, 'p').length, 0, 'no paragraph nodes while a model');
  setRunFont(doc, body, 12, 'Arial');
  t.notOk(deferredParagraphs(body), 'the model is gone');
  t.equal(descendants(body, NS.a, 'p').length, 2, 'two paragraphs as nodes');
  const sizes = descendants(body, NS.a, 'rPr').map((r) => r.getAttribute('sz'));
  t.same(sizes, ['1200', '1200', '1200', '1200'], 'the three runs and the break carry the size');
  t.equal(plainText(body), 'alpha\nbetagamma');
  // setting paragraphs again on a fitted model keeps the fitted template formatting
  setParagraphs(doc, body, ['delta']);
  const xml = serializeDocument(doc);
  t.match(xml, /<a:r><a:rPr[^>]*sz="1200"[^>]*>.*<a:latin typeface="Arial"\/>.*<a:t>delta<\/a:t><\/a:r>/);
});
