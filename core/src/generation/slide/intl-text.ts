/**
 * International text in the paragraphs generation writes (ECMA-376 Part 1, §21.1.2):
 * right-to-left paragraphs (`a:pPr/@rtl`, §21.1.2.2.7) with their alignment mirrored
 * when the template's is left, the language of runs (`a:rPr/@lang` and `@altLang`,
 * §21.1.2.3.9, ST_TextLanguageID §20.1.10.57) and text in mixed scripts split into runs
 * per script.
 *
 * Fonts: as PowerPoint writes, a run names no `a:ea`/`a:cs` typeface of its own; its East
 * Asian and complex-script characters take the template's `a:ea`/`a:cs` (the theme's
 * `+mn-ea`/`+mn-cs` through the master's text styles, §21.1.2.3.3 and §21.1.2.3.1), and
 * its `lang` tells the application which script font of the theme's font scheme
 * (`a:font script="Jpan"`, §20.1.4.1.16) applies when those are empty. A template run that
 * names its own `a:ea`/`a:cs` keeps them (the run properties are copied).
 *
 * Latin text without a language given is left exactly as before.
 */
import { NS, child, children, createElement, type Document, type Element } from '../../ooxml/xml.js';
import { hasNonLatinScript, isLanguageTag, isRightToLeft, isRightToLeftLanguage, languageOfText, splitByScript, type FontSlot } from '../../text/script.js';
import { cloneInto, type DeferredParagraphs } from '../draft/index.js';
import { materializeParagraphs } from './text.js';

/** What a paragraph needs written: its direction and its runs' language. */
export interface ParagraphLanguage {
  rtl: boolean;
  /** BCP 47 tag for `lang`, undefined to keep the template's. */
  lang: string | undefined;
}

/**
 * The direction and language of a paragraph's text: right to left when `language` names a
 * right-to-left language or, without one, when its first strong character is right to
 * left (UAX #9 rules P2–P3); the language given, else the usual language of its script.
 * Undefined for Latin text without a language (nothing to write).
 */
export function paragraphLanguage(text: string, language: string | undefined): ParagraphLanguage | undefined {
  const lang = language && isLanguageTag(language) ? language : undefined;
  if (!lang && !hasNonLatinScript(text)) return undefined;
  const rtl = lang ? isRightToLeftLanguage(lang) : firstStrongIsRtl(text);
  return { rtl, lang: lang ?? languageOfText(text) };
}

/**
 * The direction of a table (`a:tblPr/@rtl`, ECMA-376 Part 1 §21.1.3.15: a right-to-left
 * table puts its first grid column on the right): right to left when `language` names a
 * right-to-left language; without one, when most cells whose text has a strong character
 * begin (UAX #9 P2) right to left. Undefined when no cell has a strong character and no
 * language is given (the template's direction stays).
 *
 * @param cells - the text of every cell, rows in order
 */
export function tableIsRightToLeft(cells: readonly string[], language: string | undefined): boolean | undefined {
  if (language && isLanguageTag(language)) return isRightToLeftLanguage(language);
  let rtl = 0;
  let ltr = 0;
  for (const text of cells) {
    const first = firstStrong(text);
    if (first === 'rtl') rtl++;
    else if (first === 'ltr') ltr++;
  }
  return rtl + ltr === 0 ? undefined : rtl > ltr;
}

/** Writes a table's direction on its `a:tblPr` (`rtl="1"`, or no attribute: left to right is the default). */
export function writeTableDirection(tblPr: Element, rtl: boolean | undefined): void {
  if (rtl === true) tblPr.setAttribute('rtl', '1');
  else if (rtl === false) tblPr.removeAttribute('rtl');
}

/** UAX #9 P2: the direction of the text's first strong character (a letter), undefined without one. */
function firstStrong(text: string): 'rtl' | 'ltr' | undefined {
  for (const ch of text) {
    if (isRightToLeft(ch.codePointAt(0)!)) return 'rtl';
    if (/\p{L}/u.test(ch)) return 'ltr';
  }
  return undefined;
}

/** UAX #9 P2–P3: whether the text's first strong character (a letter) is right to left. */
function firstStrongIsRtl(text: string): boolean {
  return firstStrong(text) === 'rtl';
}

/** `algn` seen from the other side, for a right-to-left paragraph whose template aligns left. */
function mirroredAlign(algn: string | undefined): string | undefined {
  return algn === undefined || algn === 'l' ? 'r' : algn === 'r' ? 'l' : undefined;
}

/** `a:pPr` of `p`, created first in it when missing. */
function ensurePPr(doc: Document, p: Element): Element {
  let pPr = child(p, NS.a, 'pPr');
  if (!pPr) {
    pPr = createElement(doc, NS.a, 'a:pPr');
    p.insertBefore(pPr, p.firstChild);
  }
  return pPr;
}

/** Sets `rtl` and the mirrored alignment on paragraph properties; `inheritedAlign`: the alignment the template's styles give when `pPr` has none. */
function writeDirection(pPr: Element, rtl: boolean, inheritedAlign: string | undefined): void {
  if (!rtl) {
    // left-to-right text in a template whose styles are right to left stays left to right
    pPr.setAttribute('rtl', '0');
    return;
  }
  pPr.setAttribute('rtl', '1');
  const own = pPr.getAttribute('algn') || undefined;
  const mirrored = mirroredAlign(own ?? inheritedAlign ?? 'l');
  if (mirrored && (own ?? inheritedAlign ?? 'l') === 'l') pPr.setAttribute('algn', mirrored);
}

/** The language written for a run: the paragraph's, else its script's; `altLang` en-US for East Asian runs as PowerPoint writes. */
function writeLang(rPr: Element, lang: string | undefined, slot: FontSlot): void {
  if (!lang) return;
  rPr.setAttribute('lang', lang);
  if (slot === 'ea' && !lang.toLowerCase().startsWith('en')) rPr.setAttribute('altLang', 'en-US');
}

/**
 * Writes direction and language into a text body's paragraphs (after `setParagraphs`):
 * each paragraph gets `rtl` and mirrored alignment when its text or `languages[i]` says
 * right to left, its runs `lang` (split into one run per script when the text mixes
 * them: an Arabic run `ar-SA`, a Latin run the template's or `en-US`). Leaves a body of
 * Latin text without languages untouched (its model stays deferred).
 *
 * @param languages - per paragraph, the BCP 47 tag given for it (text block, slide or deck options)
 * @param inheritedAlign - the alignment the placeholder inherits (`l`, `ctr`, `r`, …) when the written `a:pPr` has none
 */
export function applyParagraphLanguages(doc: Document, txBody: Element, texts: readonly string[], languages: readonly (string | undefined)[], inheritedAlign: string | undefined): void {
  const wanted = texts.map((t, i) => paragraphLanguage(t, languages[i]));
  if (wanted.every((w) => w === undefined)) return;
  materializeParagraphs(doc, txBody);
  children(txBody, NS.a, 'p').forEach((p, i) => {
    const w = wanted[i];
    if (!w) return;
    writeDirection(ensurePPr(doc, p), w.rtl, inheritedAlign);
    for (const r of children(p, NS.a, 'r')) splitRunByScript(doc, p, r, w.lang);
    for (const el of children(p, NS.a)) {
      if (el.localName === 'br' || el.localName === 'endParaRPr') {
        const rPr = el.localName === 'br' ? child(el, NS.a, 'rPr') : el;
        if (rPr) writeLang(rPr, w.lang, 'latin');
      }
    }
  });
}

/** Replaces a run in mixed scripts with one run per script, each with its language (a run in one script just gets its `lang`). */
function splitRunByScript(doc: Document, p: Element, r: Element, paragraphLang: string | undefined): void {
  const t = child(r, NS.a, 't');
  const rPr = child(r, NS.a, 'rPr');
  const text = t?.textContent ?? '';
  const parts = splitByScript(text);
  if (parts.length <= 1) {
    if (rPr) writeLang(rPr, paragraphLang ?? languageOfText(text), parts[0]?.slot ?? 'latin');
    return;
  }
  for (const part of parts) {
    const nr = createElement(doc, NS.a, 'a:r');
    const props = rPr ? cloneInto(doc, rPr) : createElement(doc, NS.a, 'a:rPr', { lang: 'en-US', dirty: '0' });
    // a Latin part keeps the template's language; the others take their script's (or the paragraph's)
    const lang = part.slot === 'latin' ? undefined : languageOfText(part.text) ?? paragraphLang;
    writeLang(props, lang, part.slot);
    nr.appendChild(props);
    const nt = createElement(doc, NS.a, 'a:t');
    nt.appendChild(doc.createTextNode(part.text));
    nr.appendChild(nt);
    p.insertBefore(nr, r);
  }
  p.removeChild(r);
}

/**
 * A table cell's deferred paragraph (one, as generation writes cells) with direction and
 * language written into copies of its formatting elements, or the model itself when its
 * text is Latin without a language. Cells do not split runs by script: the run's `lang`
 * is the cell's language, its characters still take their slot's font.
 */
export function cellParagraphLanguage(doc: Document, model: DeferredParagraphs, text: string, language: string | undefined, inheritedAlign: string | undefined): DeferredParagraphs {
  const w = paragraphLanguage(text, language);
  if (!w) return model;
  const pPr = model.paraProps ? cloneInto(doc, model.paraProps) : createElement(doc, NS.a, 'a:pPr');
  writeDirection(pPr, w.rtl, inheritedAlign);
  const runProps = model.runProps ? cloneInto(doc, model.runProps) : createElement(doc, NS.a, 'a:rPr', { lang: 'en-US', dirty: '0' });
  writeLang(runProps, w.lang, languageSlot(text));
  const endProps = model.endProps ? cloneInto(doc, model.endProps) : createElement(doc, NS.a, 'a:endParaRPr', { lang: 'en-US', dirty: '0' });
  writeLang(endProps, w.lang, 'latin');
  return { ...model, paraProps: pPr, runProps, endProps };
}

/** The slot most of a text's script runs take. */
function languageSlot(text: string): FontSlot {
  const parts = splitByScript(text);
  return parts.find((p) => p.slot !== 'latin')?.slot ?? 'latin';
}

/** `algn` of the first-level paragraph properties of a text body's list style (`a:lstStyle/a:lvl1pPr`, §21.1.2.4.13), if set. */
function listStyleAlign(shape: Element | undefined): string | undefined {
  const txBody = shape ? child(shape, NS.p, 'txBody') : undefined;
  const lvl1 = txBody ? child(child(txBody, NS.a, 'lstStyle') ?? txBody, NS.a, 'lvl1pPr') : undefined;
  return lvl1?.getAttribute('algn') || undefined;
}

/**
 * The alignment a placeholder's first-level paragraphs inherit (§19.3.1.36 inheritance):
 * the shape's list style, then the layout's and the master's matching placeholders', then
 * the master's text style for the placeholder kind (`p:txStyles`: title style for titles,
 * body style for body-like placeholders, other style otherwise, §19.3.1.51). Undefined
 * when none sets it (left, the schema default).
 */
export function inheritedAlignment(shapes: readonly (Element | undefined)[], masterShape: Element | undefined, phType: string): string | undefined {
  for (const s of [...shapes, masterShape]) {
    const a = listStyleAlign(s);
    if (a) return a;
  }
  const master = masterShape?.ownerDocument?.documentElement;
  const txStyles = master ? child(master, NS.p, 'txStyles') : undefined;
  if (!txStyles) return undefined;
  const kind = phType === 'title' || phType === 'ctrTitle' ? 'titleStyle' : phType === 'body' || phType === 'subTitle' || phType === 'obj' ? 'bodyStyle' : 'otherStyle';
  const lvl1 = child(child(txStyles, NS.p, kind) ?? txStyles, NS.a, 'lvl1pPr');
  return lvl1?.getAttribute('algn') || undefined;
}
