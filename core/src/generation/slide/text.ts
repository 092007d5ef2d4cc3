/**
 * Writing text into DrawingML text bodies (ECMA-376 Part 1, §21.1.2): paragraphs
 * (`a:p`), runs (`a:r`), line breaks (`a:br`) and fields (`a:fld`), keeping the
 * formatting the template put on its first paragraph and run.
 */
import { NS, child, children, createElement, insertInOrder, type Document, type Element } from '../../ooxml/xml.js';
import { cloneInto, SlideDraft, type DeferredParagraphs } from '../draft/index.js';

/** Characters XML 1.0 forbids in text (§2.2 of XML 1.0): C0 controls other than tab/LF/CR, U+FFFE/U+FFFF, lone surrogates. */
const ILLEGAL_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text made safe for an `a:t` element: characters illegal in XML removed (escaping is the serializer's job). */
export function xmlSafeText(s: string): string {
  return s.replace(ILLEGAL_XML_CHARS, '');
}

/** Successors of `a:latin` inside `a:rPr`/`a:defRPr`/`a:endParaRPr` (CT_TextCharacterProperties, §21.1.2.3.9). */
const LATIN_SUCCESSORS = ['ea', 'cs', 'sym', 'hlinkClick', 'hlinkMouseOver', 'rtl', 'extLst'] as const;

/** Successors of `p:txBody` inside `p:sp` (CT_Shape, §19.3.1.43). */
const SP_TXBODY_SUCCESSORS = ['extLst'] as const;

/**
 * The text body of a shape (`p:txBody`, §19.3.1.51), created with an empty `a:bodyPr`,
 * `a:lstStyle` and one paragraph when the shape has none.
 */
export function ensureShapeTextBody(doc: Document, sp: Element): Element {
  const existing = child(sp, NS.p, 'txBody');
  if (existing) return existing;
  const txBody = createElement(doc, NS.p, 'p:txBody');
  txBody.appendChild(createElement(doc, NS.a, 'a:bodyPr'));
  txBody.appendChild(createElement(doc, NS.a, 'a:lstStyle'));
  txBody.appendChild(createElement(doc, NS.a, 'a:p'));
  return insertInOrder(sp, txBody, SP_TXBODY_SUCCESSORS);
}

/** Formatting taken from a text body's first paragraph, reused for the paragraphs written into it. */
interface ParagraphTemplate {
  pPr: Element | undefined;
  rPr: Element | undefined;
  endParaRPr: Element | undefined;
}

function paragraphTemplate(txBody: Element): ParagraphTemplate {
  const first = child(txBody, NS.a, 'p');
  if (!first) return { pPr: undefined, rPr: undefined, endParaRPr: undefined };
  let rPr: Element | undefined;
  for (const r of children(first, NS.a)) {
    if (r.localName === 'r' || r.localName === 'fld') {
      rPr = child(r, NS.a, 'rPr');
      if (rPr) break;
    }
  }
  const endParaRPr = child(first, NS.a, 'endParaRPr');
  return { pPr: child(first, NS.a, 'pPr'), rPr: rPr ?? endParaRPr, endParaRPr };
}

/** A copy of a character-properties element as `localName` (`rPr` or `endParaRPr`), without hyperlinks, spell-check or dirty flags. */
function copyCharProps(doc: Document, src: Element | undefined, localName: 'rPr' | 'endParaRPr'): Element {
  const el = createElement(doc, NS.a, `a:${localName}`);
  if (!src) {
    el.setAttribute('lang', 'en-US');
    el.setAttribute('dirty', '0');
    return el;
  }
  for (let i = 0; i < src.attributes.length; i++) {
    const a = src.attributes.item(i)!;
    if (SlideDraft.keepsRunAttribute(a.name)) el.setAttribute(a.name, a.value);
  }
  el.setAttribute('dirty', '0');
  for (const c of children(src)) {
    if (SlideDraft.keepsRunChild(c.localName)) el.appendChild(cloneInto(doc, c));
  }
  return el;
}

/**
 * Replaces every paragraph of a text body (`p:txBody` or `a:txBody`) with one paragraph
 * per string, at level 0, each holding one run with the template's first run formatting;
 * `\n` and `\v` inside a string become `a:br` line breaks. The text body's `a:bodyPr` and
 * `a:lstStyle` and the first paragraph's `a:pPr` (without its level) are kept.
 *
 * The paragraphs are kept as a model (see `generation/draft/deferred-paragraphs`) that the fitting
 * code and the serializer read directly; {@link materializeParagraphs} turns them into
 * nodes for code that edits them.
 *
 * @param lines - paragraph texts; an empty list leaves one empty paragraph
 * @param formatFrom - another text body to take the paragraph and run formatting from
 *   (the template's, when `txBody` is a copy made without paragraphs)
 */
export function setParagraphs(doc: Document, txBody: Element, lines: readonly string[], formatFrom?: Element): void {
  // a model already fitted holds sizes its template elements do not: take them from nodes
  if (!formatFrom && SlideDraft.paragraphsOf(txBody)?.sizes) materializeParagraphs(doc, txBody);
  const model = paragraphsModel(lines, formatFrom ?? txBody);
  removeParagraphs(txBody);
  SlideDraft.keepParagraphs(doc, txBody, model);
}

/**
 * The paragraphs {@link setParagraphs} writes, as a model: one per string, in the
 * formatting of the first paragraph of `source` (a text body; none: no formatting, as an
 * empty text body gives).
 */
export function paragraphsModel(lines: readonly string[], source: Element | undefined): DeferredParagraphs {
  const sourceModel = source ? SlideDraft.paragraphsOf(source) : undefined;
  const tpl = sourceModel ? modelTemplate(sourceModel) : source ? paragraphTemplate(source) : NO_FORMAT;
  const texts = lines.length ? lines : [''];
  return {
    paraProps: tpl.pPr,
    runProps: tpl.rPr,
    endProps: tpl.endParaRPr ?? tpl.rPr,
    lines: texts.map((line) => xmlSafeText(line).split(LINE_BREAK)),
  };
}

const NO_FORMAT: ParagraphTemplate = { pPr: undefined, rPr: undefined, endParaRPr: undefined };

/** Line breaks inside a paragraph's text. */
const LINE_BREAK = /\r\n|[\n\v\r]/;

/** The formatting a model's paragraphs carry, as {@link paragraphTemplate} would read it from their nodes. */
function modelTemplate(m: DeferredParagraphs): ParagraphTemplate {
  const hasRun = m.lines.some((segs) => segs.some((s) => s !== ''));
  return { pPr: m.paraProps, rPr: hasRun ? m.runProps : m.endProps, endParaRPr: m.endProps };
}

/** Removes a text body's paragraphs, nodes and model alike. */
function removeParagraphs(txBody: Element): void {
  for (const p of children(txBody, NS.a, 'p')) txBody.removeChild(p);
  SlideDraft.dropParagraphs(txBody);
}

/**
 * Turns a text body's deferred paragraphs (written by {@link setParagraphs}) into `a:p`
 * nodes in their place, with the sizes fitting wrote; a body without a model is left
 * alone. Call it before editing a body's paragraphs or runs as nodes.
 */
export function materializeParagraphs(doc: Document, txBody: Element): void {
  SlideDraft.expandParagraphs(txBody, (m) =>
    m.lines.map((segments, pi) => {
    const sizes = m.sizes?.[pi];
    let ri = 0;
    const sized = (el: Element): Element => {
      const sz = sizes?.runs[ri++];
      if (sz !== undefined) el.setAttribute('sz', String(sz));
      return el;
    };
    const p = createElement(doc, NS.a, 'a:p');
    if (m.paraProps) {
      const pPr = cloneInto(doc, m.paraProps);
      pPr.removeAttribute('lvl');
      p.appendChild(pPr);
    }
    segments.forEach((seg, i) => {
      if (i > 0) {
        const br = createElement(doc, NS.a, 'a:br');
        br.appendChild(sized(copyCharProps(doc, m.runProps, 'rPr')));
        p.appendChild(br);
      }
      if (seg === '') return;
      const r = createElement(doc, NS.a, 'a:r');
      r.appendChild(sized(copyCharProps(doc, m.runProps, 'rPr')));
      const t = createElement(doc, NS.a, 'a:t');
      t.appendChild(doc.createTextNode(seg));
      r.appendChild(t);
      p.appendChild(r);
    });
    const end = copyCharProps(doc, m.endProps, 'endParaRPr');
    if (sizes?.end !== undefined) end.setAttribute('sz', String(sizes.end));
    p.appendChild(end);
    return p;
  }),
  );
}

/**
 * Replaces the paragraphs of a text body with one paragraph holding the slide-number
 * field (`a:fld type="slidenum"`, §21.1.2.2.4), showing `slideNumber` until the
 * application recomputes it.
 */
export function setSlideNumberField(doc: Document, txBody: Element, slideNumber: number): void {
  setFieldParagraph(doc, txBody, '{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}', 'slidenum', String(slideNumber));
}

/**
 * Replaces the paragraphs of a text body with one paragraph holding one field (`a:fld`,
 * §21.1.2.2.4) of `type` showing `text`, in the formatting of the body's first paragraph.
 */
function setFieldParagraph(doc: Document, txBody: Element, id: string, type: string, text: string): void {
  materializeParagraphs(doc, txBody);
  const tpl = paragraphTemplate(txBody);
  removeParagraphs(txBody);
  const p = createElement(doc, NS.a, 'a:p');
  if (tpl.pPr) p.appendChild(cloneInto(doc, tpl.pPr));
  const fld = createElement(doc, NS.a, 'a:fld', { id, type });
  fld.appendChild(copyCharProps(doc, tpl.rPr, 'rPr'));
  const t = createElement(doc, NS.a, 'a:t');
  t.appendChild(doc.createTextNode(text));
  fld.appendChild(t);
  p.appendChild(fld);
  p.appendChild(copyCharProps(doc, tpl.endParaRPr ?? tpl.rPr, 'endParaRPr'));
  txBody.appendChild(p);
}

/** Whether a text body holds a `a:fld type="slidenum"`. */
export function hasSlideNumberField(txBody: Element): boolean {
  for (const p of children(txBody, NS.a, 'p')) {
    for (const f of children(p, NS.a, 'fld')) if (f.getAttribute('type') === 'slidenum') return true;
  }
  return false;
}

/**
 * Sets font size (points; written as hundredths, ST_TextFontSize §20.1.10.83) and/or the
 * Latin typeface (`a:latin`, §21.1.2.3.7) on every run, field, break and end-of-paragraph
 * of a text body.
 */
export function setRunFont(doc: Document, txBody: Element, sizePt: number | undefined, typeface: string | undefined): void {
  if (sizePt === undefined && typeface === undefined) return;
  materializeParagraphs(doc, txBody);
  const targets: Element[] = [];
  for (const p of children(txBody, NS.a, 'p')) {
    for (const r of children(p, NS.a)) {
      if (r.localName === 'r' || r.localName === 'fld' || r.localName === 'br') {
        let rPr = child(r, NS.a, 'rPr');
        if (!rPr) {
          rPr = createElement(doc, NS.a, 'a:rPr', { lang: 'en-US' });
          r.insertBefore(rPr, r.firstChild);
        }
        targets.push(rPr);
      } else if (r.localName === 'endParaRPr') targets.push(r);
    }
  }
  for (const rPr of targets) {
    if (sizePt !== undefined) rPr.setAttribute('sz', String(Math.round(sizePt * 100)));
    if (typeface !== undefined) {
      let latin = child(rPr, NS.a, 'latin');
      if (!latin) latin = insertInOrder(rPr, createElement(doc, NS.a, 'a:latin'), LATIN_SUCCESSORS);
      latin.setAttribute('typeface', typeface);
    }
  }
}

/** Concatenated `a:t` text of an element's paragraphs, paragraphs joined by `\n`. */
export function plainText(el: Element): string {
  const parts: string[] = [];
  const stack: Element[] = [el];
  while (stack.length) {
    const e = stack.pop()!;
    const model = SlideDraft.paragraphsStoodForBy(e);
    if (e.localName === 't' && e.namespaceURI === NS.a) parts.push(e.textContent ?? '');
    else if (model) {
      for (const segs of model.lines) {
        if (parts.length) parts.push('\n');
        for (const seg of segs) if (seg !== '') parts.push(seg);
      }
    } else if (e.localName === 'p' && e.namespaceURI === NS.a && parts.length) parts.push('\n');
    const cs = children(e);
    for (let i = cs.length - 1; i >= 0; i--) stack.push(cs[i]!);
  }
  return parts.join('');
}

/** Whether a text body holds a date/time field (`a:fld type="datetime…"`, §21.1.2.2.4). */
export function hasDateField(txBody: Element): boolean {
  for (const p of children(txBody, NS.a, 'p')) {
    for (const f of children(p, NS.a, 'fld')) if ((f.getAttribute('type') ?? '').startsWith('datetime')) return true;
  }
  return false;
}

/**
 * Replaces the paragraphs of a text body with one paragraph holding a date field
 * (`a:fld type="datetime1"`, §21.1.2.2.4: the date in the short format of the viewer's
 * locale, which PowerPoint refreshes when the file opens), showing `date` as M/D/YYYY
 * (UTC) until then.
 */
export function setDateField(doc: Document, txBody: Element, date: Date): void {
  setFieldParagraph(doc, txBody, '{9A0DB2DC-4C9A-4742-B13C-FB6460FD3503}', 'datetime1', `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear()}`);
}
