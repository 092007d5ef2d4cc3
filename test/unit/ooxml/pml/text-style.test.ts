/**
 * One text-style resolver (issue 19, item 1): what analysis reports of a shape's text —
 * font, size, weight, colour, paragraph format — is what the intermediate text form that
 * rendering draws, fitting fits and the doctor measures says of the same text.
 *
 * On every layout placeholder of every corpus template (the text a slide made from it gets),
 * analysis (`effectiveFont`, `effectiveParagraph`) and the layout input (`readTextBody`) are
 * compared; then the fills and flags where the two readers once differed are checked on
 * small decks.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../../core/src/ooxml/opc/package.js';
import { PmlModel } from '../../../../core/src/ooxml/pml/parts.js';
import { effectiveFont, effectiveParagraph } from '../../../../core/src/ooxml/pml/text.js';
import { readTextBody, shapeTextSources } from '../../../../core/src/ooxml/pml/text-style.js';
import type { Shape } from '../../../../core/src/ooxml/pml/shapes.js';
import { NS, parseXml, type Element } from '../../../../core/src/ooxml/xml.js';
import type { ParagraphInput } from '../../../../core/src/text/layout.js';
import { corpusFilesOfFor, corpusPath } from '../../../helpers/corpus.js';
import { miniDeck, sp } from './mini-deck.js';

t.setTimeout(600_000);

/** A text body holding one paragraph of new text: nothing of its own, everything inherited. */
const NEW_TEXT: Element = parseXml(`<p:txBody xmlns:p="${NS.p}" xmlns:a="${NS.a}"><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>Xg</a:t></a:r></a:p></p:txBody>`, 'new text').documentElement!;

/** The first paragraph of `txBody` in `shape` as the layout engine gets it. */
function laidOut(shape: Shape, txBody: Element | undefined): ParagraphInput {
  const body = readTextBody(txBody, shapeTextSources(shape, { theme: shape.part.theme, colorMap: shape.part.colorMap }));
  return body.paragraphs[0]!;
}

/** What analysis says and what the layout input says of `shape`'s new text, side by side, where they differ. */
function disagreements(shape: Shape): string[] {
  const font = effectiveFont(shape);
  const para = effectiveParagraph(shape, font?.sizePt);
  if (!font || !para) return [];
  const p = laidOut(shape, NEW_TEXT);
  const run = p.runs[0]!;
  const out: string[] = [];
  const same = (what: string, analysis: unknown, drawn: unknown): void => {
    if (analysis !== drawn) out.push(`${what}: analysis ${JSON.stringify(analysis)}, layout ${JSON.stringify(drawn)}`);
  };
  same('size', font.sizePt, run.font.size_pt);
  same('bold', font.bold, run.font.bold ?? false);
  same('italic', font.italic, run.font.italic ?? false);
  // analysis reports null where nothing names a face or a colour; drawing then falls back
  if (font.name !== null) same('face', font.name, run.font.name);
  if (font.color !== null) same('colour', font.color, run.color);
  same('margin', para.marginLeft, p.marL_emu);
  same('indent', para.indent, p.indent_emu);
  same('bullet', para.bullet, p.bullet !== undefined);
  same('rtl', para.rtl, p.rtl ?? false);
  const align = para.alignment === 'justLow' || para.alignment === 'thaiDist' ? 'just' : ['l', 'ctr', 'r', 'just', 'dist'].includes(para.alignment) ? para.alignment : 'l';
  same('alignment', align, p.align);
  return out;
}

t.test('analysis reports of every layout placeholder what the layout input gets', async (t) => {
  const files = corpusFilesOfFor(t, 'templates');
  let placeholders = 0;
  const differing: string[] = [];
  for (const name of files) {
    const model = new PmlModel(await OpcPackage.open(readFileSync(corpusPath(name))));
    for (const layout of model.layoutsInOrder()) {
      for (const shape of layout.placeholders) {
        const found = disagreements(shape);
        if (effectiveFont(shape)) placeholders++;
        if (found.length) differing.push(`${name} ${layout.partName} ${shape.name}: ${found.join('; ')}`);
      }
    }
  }
  if (files.length) t.ok(placeholders > 0, `${placeholders} placeholders compared`);
  t.same(differing, [], 'no placeholder where analysis and the layout input differ');
});

const deckOf = async (runXml: string, pPr = ''): Promise<Shape> => {
  const pkg = await miniDeck({ slides: [{ tree: sp(5, 'Box', { xfrm: [0, 0, 1, 1], body: `<a:p>${pPr}<a:r>${runXml}<a:t>text</a:t></a:r></a:p>` }) }] });
  return new PmlModel(pkg).slide('/ppt/slides/slide1.xml').shapes[0]!;
};

t.test('a gradient text fill counts as its first stop written, whatever its position', async (t) => {
  const s = await deckOf('<a:rPr lang="en-US"><a:gradFill><a:gsLst><a:gs pos="40000"><a:srgbClr val="00FF00"/></a:gs><a:gs pos="0"><a:srgbClr val="FF0000"/></a:gs><a:gs pos="100000"><a:srgbClr val="0000FF"/></a:gs></a:gsLst></a:gradFill></a:rPr>');
  t.equal(effectiveFont(s)!.color, '00FF00', 'analysis');
  t.equal(laidOut(s, s.txBody).runs[0]!.color, '00FF00', 'layout input');
});

t.test('a pattern text fill counts as its foreground colour', async (t) => {
  const s = await deckOf('<a:rPr lang="en-US"><a:pattFill prst="pct50"><a:fgClr><a:srgbClr val="123456"/></a:fgClr><a:bgClr><a:srgbClr val="FFFFFF"/></a:bgClr></a:pattFill></a:rPr>');
  t.equal(effectiveFont(s)!.color, '123456', 'analysis');
  t.equal(laidOut(s, s.txBody).runs[0]!.color, '123456', 'layout input');
});

t.test('a picture text fill has no one colour: analysis says none, the layout draws the text colour rather than nothing', async (t) => {
  const s = await deckOf('<a:rPr lang="en-US"><a:blipFill><a:blip/></a:blipFill></a:rPr>');
  t.equal(effectiveFont(s)!.color, null, 'analysis');
  const run = laidOut(s, s.txBody).runs[0]!;
  const plain = await deckOf('<a:rPr lang="en-US"/>');
  t.equal(run.color, laidOut(plain, plain.txBody).runs[0]!.color, 'layout input: the colour of unfilled text');
  t.not(run.alpha, 0, 'not transparent');
});

t.test('rtl is an xsd:boolean: "true" and "1" both make a right-to-left paragraph', async (t) => {
  for (const v of ['1', 'true']) {
    const s = await deckOf('<a:rPr lang="ar-SA"/>', `<a:pPr rtl="${v}"/>`);
    t.equal(effectiveParagraph(s)!.rtl, true, `analysis, rtl="${v}"`);
    t.equal(laidOut(s, s.txBody).rtl, true, `layout input, rtl="${v}"`);
  }
});

t.test('a run highlight (a:highlight, §21.1.2.3.4) reaches the layout as its colour', async (t) => {
  const s = await deckOf('<a:rPr lang="en-US"><a:solidFill><a:srgbClr val="DFE954"/></a:solidFill><a:highlight><a:srgbClr val="266D78"/></a:highlight></a:rPr>');
  t.equal(laidOut(s, s.txBody).runs[0]!.highlight, '266D78');
  const plain = await deckOf('<a:rPr lang="en-US"/>');
  t.equal(laidOut(plain, plain.txBody).runs[0]!.highlight, undefined, 'no highlight unless stated');
});

t.test('symbol-font bullets map to look-alikes whether written as 8-bit codes or at U+F000 + code', async (t) => {
  const bullet = async (font: string, ch: string): Promise<string | undefined> => {
    const s = await deckOf('<a:rPr lang="en-US"/>', `<a:pPr marL="342900" indent="-342900"><a:buFont typeface="${font}" charset="2"/><a:buChar char="${ch}"/></a:pPr>`);
    return laidOut(s, s.txBody).bullet?.text;
  };
  // Wingdings 0xD8 is the arrowhead PowerPoint shows for "Ø"; PowerPoint itself writes it as U+F0D8.
  t.equal(await bullet('Wingdings', '\uF0D8'), '➢', 'Wingdings U+F0D8');
  t.equal(await bullet('Wingdings', 'Ø'), '➢', 'Wingdings Ø');
  t.equal(await bullet('Wingdings', '\uF0FC'), '✓', 'Wingdings U+F0FC (check mark)');
  t.equal(await bullet('Wingdings', '\uF0A7'), '▪', 'Wingdings U+F0A7 (small square)');
  t.equal(await bullet('Symbol', '\uF0B7'), '•', 'Symbol U+F0B7 (bullet)');
  t.equal(await bullet('Arial', '–'), '–', 'a text face keeps its character');
});
