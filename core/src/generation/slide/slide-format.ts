/**
 * `slide_format` (DESIGN.md: `title`, `subtitle`, `body`, `textbox`, each `{font_name,
 * font_size, bold, italic, color, alignment}`) written onto the text a slide was filled
 * with: run properties (`a:rPr`, ECMA-376 Part 1 §21.1.2.3.9: `sz`, `b`, `i`, `a:latin`
 * §21.1.2.3.7, `a:solidFill/a:srgbClr` §20.1.2.3.32) and paragraph alignment
 * (`a:pPr/@algn`, ST_TextAlignType §20.1.10.59).
 *
 * Applied before fitting, so the fitter measures the formatted text. A `font_size` is the
 * size used as given: the fitter does not shrink that element below it (text still
 * overflowing is reported).
 */
import { materializeParagraphs } from './text.js';
import type { SlideFormat, TextFormat } from '../../domain/content.js';
import { NS, child, children, createElement, insertInOrder, type Element } from '../../ooxml/xml.js';

/** What a filled text shape holds, for formatting and minimum sizes. */
export type TextRole = 'title' | 'subtitle' | 'body' | 'textbox' | 'footer' | 'header' | 'column_header';

/** The format of `slide_format` that applies to a role (column headers and body text take `body`). */
export function formatFor(format: SlideFormat | undefined, role: TextRole): TextFormat | undefined {
  if (!format) return undefined;
  switch (role) {
    case 'title':
      return format.title;
    case 'subtitle':
      return format.subtitle;
    case 'body':
    case 'column_header':
      return format.body;
    case 'textbox':
      return format.textbox;
    default:
      return undefined;
  }
}

const ALIGN: Readonly<Record<string, string>> = { left: 'l', center: 'ctr', centre: 'ctr', right: 'r', justify: 'just', justified: 'just' };

/** Successors of `a:solidFill` in CT_TextCharacterProperties (§21.1.2.3.9), after `a:ln`. */
const FILL_SUCCESSORS = ['effectLst', 'effectDag', 'highlight', 'uLnTx', 'uLn', 'uFillTx', 'uFill', 'latin', 'ea', 'cs', 'sym', 'hlinkClick', 'hlinkMouseOver', 'rtl', 'extLst'];
const LATIN_SUCCESSORS = ['ea', 'cs', 'sym', 'hlinkClick', 'hlinkMouseOver', 'rtl', 'extLst'];
const FILL_NAMES: ReadonlySet<string> = new Set(['noFill', 'solidFill', 'gradFill', 'blipFill', 'pattFill', 'grpFill']);

/** Successors of `a:pPr` inside `a:p` (§21.1.2.2.6): it comes first. */
function ensurePPr(p: Element): Element {
  let pPr = child(p, NS.a, 'pPr');
  if (!pPr) {
    pPr = createElement(p.ownerDocument!, NS.a, 'a:pPr');
    p.insertBefore(pPr, p.firstChild);
  }
  return pPr;
}

/**
 * Applies a text format to every paragraph and run of a text body (`p:txBody` or
 * `a:txBody`). Unset fields leave the template's formatting alone.
 */
export function applyTextFormat(txBody: Element, f: TextFormat): void {
  const doc = txBody.ownerDocument!;
  materializeParagraphs(doc, txBody);
  const algn = f.alignment ? ALIGN[f.alignment.toLowerCase()] : undefined;
  const color = f.color && /^[0-9a-fA-F]{6}$/.test(f.color.replace(/^#/, '')) ? f.color.replace(/^#/, '').toUpperCase() : undefined;
  for (const p of children(txBody, NS.a, 'p')) {
    if (algn) ensurePPr(p).setAttribute('algn', algn);
    for (const r of children(p, NS.a)) {
      let rPr: Element | undefined;
      if (r.localName === 'r' || r.localName === 'fld' || r.localName === 'br') {
        rPr = child(r, NS.a, 'rPr');
        if (!rPr) {
          rPr = createElement(doc, NS.a, 'a:rPr', { lang: 'en-US' });
          r.insertBefore(rPr, r.firstChild);
        }
      } else if (r.localName === 'endParaRPr') rPr = r;
      if (!rPr) continue;
      if (f.font_size != null) rPr.setAttribute('sz', String(Math.round(f.font_size * 100)));
      if (f.bold != null) rPr.setAttribute('b', f.bold ? '1' : '0');
      if (f.italic != null) rPr.setAttribute('i', f.italic ? '1' : '0');
      if (color) {
        for (const c of children(rPr, NS.a)) if (FILL_NAMES.has(c.localName ?? '')) rPr.removeChild(c);
        const fill = createElement(doc, NS.a, 'a:solidFill');
        fill.appendChild(createElement(doc, NS.a, 'a:srgbClr', { val: color }));
        insertInOrder(rPr, fill, FILL_SUCCESSORS);
      }
      if (f.font_name) {
        let latin = child(rPr, NS.a, 'latin');
        if (!latin) latin = insertInOrder(rPr, createElement(doc, NS.a, 'a:latin'), LATIN_SUCCESSORS);
        latin.setAttribute('typeface', f.font_name);
        for (const k of ['panose', 'pitchFamily', 'charset']) latin.removeAttribute(k);
      }
    }
  }
}
