/**
 * Reading deferred paragraphs (core/src/generation/draft/deferred-paragraphs.ts) through shared level
 * styles: `readDraftTextBody` (generation/draft/read.ts) resolves the formatting of a model's template elements once and
 * keeps it for every later body with the same elements (ooxml/pml/text-style.ts,
 * `LevelStyle.modelParagraphs`). Whatever was kept, each body must read exactly as its
 * materialized nodes read, with no cache: every combination of paragraph, run and
 * end-of-paragraph properties, sized and not, read in one sequence through one set of
 * shared styles; and properties belonging to the slide itself are read afresh each time.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT } from '../../../core/src/ooxml/opc/constants.js';
import { PmlModel } from '../../../core/src/ooxml/pml/parts.js';
import { NS, child, children, parseXml, type Document, type Element } from '../../../core/src/ooxml/xml.js';
import { paragraphMarkers, type DeferredParagraphs } from '../../../core/src/generation/draft/deferred-paragraphs.js';
import { withSharedLevelStyles, type TextStyleSources } from '../../../core/src/ooxml/pml/text-style.js';
import { readDraftTextBody } from '../../../core/src/generation/draft/read.js';
import { materializeParagraphs } from '../../../core/src/generation/slide/text.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

const DECLS = `xmlns:a="${NS.a}" xmlns:p="${NS.p}"`;

/** A template's text body: three paragraphs whose properties the models below reuse. */
const TEMPLATE = parseXml(
  `<p:txBody ${DECLS}><a:bodyPr/><a:lstStyle/>` +
    `<a:p><a:pPr algn="ctr" marL="342900" indent="-342900"><a:lnSpc><a:spcPct val="80000"/></a:lnSpc><a:buFont typeface="Arial"/><a:buChar char="•"/></a:pPr>` +
    `<a:r><a:rPr lang="en-US" sz="2400" b="1"><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill><a:latin typeface="Georgia"/></a:rPr><a:t>x</a:t></a:r><a:endParaRPr lang="en-US" sz="1000"/></a:p>` +
    `<a:p><a:pPr algn="r"><a:spcBef><a:spcPts val="1200"/></a:spcBef><a:buAutoNum type="romanUcPeriod"/></a:pPr>` +
    `<a:r><a:rPr lang="de-DE" i="1" cap="all"/><a:t>y</a:t></a:r><a:endParaRPr lang="en-US" sz="3200" u="sng"/></a:p>` +
    `<a:p><a:pPr lvl="0"/><a:r><a:rPr lang="en-US"/><a:t>z</a:t></a:r></a:p>` +
    `</p:txBody>`,
  'template body',
).documentElement!;

const paras = children(TEMPLATE, NS.a, 'p');
const pPrs = [...paras.map((p) => child(p, NS.a, 'pPr')), undefined];
const rPrs = [...paras.map((p) => child(child(p, NS.a, 'r'), NS.a, 'rPr')), undefined];
const ends = [...paras.map((p) => child(p, NS.a, 'endParaRPr')).filter((e): e is Element => !!e), undefined];

const LINES: ReadonlyArray<readonly string[]> = [
  ['First point', 'Second\npoint', ''],
  ['  ', 'Only one'],
];

/** A slide-like document holding one text body whose paragraphs are `model`. */
function bodyWith(model: DeferredParagraphs): { doc: Document; txBody: Element } {
  const doc = parseXml(`<p:sld ${DECLS}><p:txBody><a:bodyPr/><a:lstStyle/></p:txBody></p:sld>`, 'slide');
  const txBody = child(doc.documentElement!, NS.p, 'txBody')!;
  txBody.appendChild(paragraphMarkers.create(doc, model));
  return { doc, txBody };
}

/** Fresh sources without any kept level styles: what the nodes are read with. */
function freshSources(shared: TextStyleSources): TextStyleSources {
  return { ...shared, levelStyles: undefined };
}

async function sourcesOfACorpusTemplate(): Promise<TextStyleSources> {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('templates/pandoc-footer-reference.pptx')));
  const model = new PmlModel(pkg);
  const slide = model.slide(pkg.partsOfType(CT.slide)[0]!);
  const far = [slide.master.textStyle('bodyStyle'), model.presentation.defaultTextStyle].filter((e): e is Element => !!e);
  return withSharedLevelStyles({ near: [], far, bodyPrs: [], theme: slide.theme, colorCtx: { theme: slide.theme, colorMap: slide.colorMap }, defaultFace: 'Calibri' });
}

t.test('every combination of template properties reads as its nodes, through one set of kept styles', needsCorpus('templates/pandoc-footer-reference.pptx'), async (t) => {
  const shared = await sourcesOfACorpusTemplate();
  let compared = 0;
  for (const sized of [false, true]) {
    for (const paraProps of pPrs) {
      for (const runProps of rPrs) {
        for (const endProps of ends) {
          for (const lines of LINES) {
            const model = (): DeferredParagraphs => ({
              paraProps,
              runProps,
              endProps,
              lines: lines.map((l) => l.split('\n')),
              sizes: sized ? lines.map((l, i) => ({ runs: l.split('\n').map((_, j) => 1000 + 100 * i + 50 * j), end: 900 + i })) : undefined,
            });
            const kept = bodyWith(model());
            const nodes = bodyWith(model());
            materializeParagraphs(nodes.doc, nodes.txBody);
            const viaModel = readDraftTextBody(kept.txBody, shared);
            const viaNodes = readDraftTextBody(nodes.txBody, freshSources(shared));
            compared++;
            if (JSON.stringify(viaModel) !== JSON.stringify(viaNodes)) {
              t.same(viaModel, viaNodes, `pPr ${pPrs.indexOf(paraProps)}, rPr ${rPrs.indexOf(runProps)}, end ${ends.indexOf(endProps)}, sized ${sized}: same layout input`);
              return;
            }
          }
        }
      }
    }
  }
  t.equal(compared, 2 * pPrs.length * rPrs.length * ends.length * LINES.length, `${compared} bodies read both ways`);
  // the check has teeth: the same runs under another paragraph's properties read otherwise
  const a = readDraftTextBody(bodyWith({ paraProps: pPrs[0], runProps: rPrs[0], endProps: ends[0], lines: [['x']] }).txBody, shared);
  const b = readDraftTextBody(bodyWith({ paraProps: pPrs[1], runProps: rPrs[0], endProps: ends[0], lines: [['x']] }).txBody, shared);
  t.not(a.paragraphs[0]!.align, b.paragraphs[0]!.align, 'paragraph properties are part of what is kept');
  t.equal(a.paragraphs[0]!.bullet?.text, '•');
  t.equal(b.paragraphs[0]!.bullet?.text, 'I. ', 'auto-numbered bullet counted per body');
});

t.test("the slide's own properties are read afresh: changing them changes the next read", needsCorpus('templates/pandoc-footer-reference.pptx'), async (t) => {
  const shared = await sourcesOfACorpusTemplate();
  const slide = parseXml(`<p:sld ${DECLS}><p:txBody><a:bodyPr/><a:lstStyle/></p:txBody></p:sld>`, 'slide');
  const txBody = child(slide.documentElement!, NS.p, 'txBody')!;
  const own = slide.createElementNS(NS.a, 'a:rPr');
  own.setAttribute('sz', '2000');
  txBody.appendChild(own);
  txBody.appendChild(paragraphMarkers.create(slide, { paraProps: undefined, runProps: own, endProps: own, lines: [['text']] }));
  t.equal(readDraftTextBody(txBody, shared).paragraphs[0]!.runs[0]!.font.size_pt, 20);
  own.setAttribute('sz', '3000');
  t.equal(readDraftTextBody(txBody, shared).paragraphs[0]!.runs[0]!.font.size_pt, 30, 'not answered from what the first read resolved');
});
