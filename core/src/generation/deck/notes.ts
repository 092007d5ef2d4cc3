/**
 * Speaker notes (issue 24, item 1): the XML of a notes slide written from `slide_data.notes`
 * (ECMA-376 Part 1, §13.3.5 Notes Slide part, §19.3.1.26 `p:notes`), and of the minimal
 * notes master (§13.3.4, §19.3.1.27 `p:notesMaster`) with its theme that a deck gets when
 * none of its templates has one.
 *
 * A generated notes slide holds the two placeholders PowerPoint gives every notes page:
 * the slide image (`type="sldImg"`) and the notes body (`type="body" idx="1"`), whose text
 * body has one paragraph per line of the notes. Their geometry is inherited from the notes
 * master (empty `p:spPr`), as PowerPoint writes them. How the parts are related (slide ↔
 * notes slide, notes slide → notes master, notes master → theme) is build-deck.ts's job.
 *
 * International notes are written as the slide's own text is (../slide/intl-text.ts): a
 * paragraph in a right-to-left language (the slide's `language` option, else its first
 * strong character) gets `a:pPr/@rtl="1"` (ECMA-376 Part 1, §21.1.2.2.7) and right
 * alignment, and runs get `lang` (§21.1.2.3.9), split into one run per script when a line
 * mixes them; Latin notes without a language are written as before.
 */
import { xmlSafeText } from '../slide/text.js';
import { escapeAttr, escapeText } from '../draft/index.js';
import { paragraphLanguage, type ParagraphLanguage } from '../slide/intl-text.js';
import { NS } from '../../ooxml/xml.js';
import { languageOfText, splitByScript, type FontSlot } from '../../text/script.js';

const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
const PML_ROOT_NS = `xmlns:a="${NS.a}" xmlns:r="${NS.r}" xmlns:p="${NS.p}"`;

/** Paragraph separators of `slide_data.notes`: each line is one paragraph. */
const PARAGRAPH_BREAK = /\r\n|\n|\r/;

/** A line break inside a paragraph (`a:br`): the vertical tab, as PowerPoint's soft return. */
const LINE_BREAK = '\u000B';

/** Notes page size when the presentation gives none (`p:notesSz`, §19.2.1.23: portrait Letter, EMU). */
export const DEFAULT_NOTES_SIZE = { cx: 6_858_000, cy: 9_144_000 } as const;

/**
 * The paragraphs of a notes text: one per line (`\n`, `\r\n` or `\r`), empty lines kept as
 * empty paragraphs, a vertical tab inside a line written as a line break (`a:br`).
 * Characters XML 1.0 forbids are removed first (the vertical tab is read before that).
 */
export function notesParagraphs(text: string): string[][] {
  return text.split(PARAGRAPH_BREAK).map((line) => line.split(LINE_BREAK).map(xmlSafeText));
}

/** `lang` (and `altLang` en-US for an East Asian run, as PowerPoint writes) followed by `dirty="0"`: the attributes of a notes run's `a:rPr`. */
function runAttrs(lang: string | undefined, slot: FontSlot): string {
  if (!lang) return 'dirty="0"';
  const alt = slot === 'ea' && !lang.toLowerCase().startsWith('en') ? ' altLang="en-US"' : '';
  return `lang="${escapeAttr(lang)}"${alt} dirty="0"`;
}

/**
 * The runs of one line segment: one run, or, when the paragraph has a language and the
 * segment mixes scripts, one run per script (a Latin part en-US, the others their script's
 * language, else the paragraph's), as intl-text.ts splits a slide's runs.
 */
function runsXml(segment: string, w: ParagraphLanguage | undefined): string {
  const run = (text: string, attrs: string): string => `<a:r><a:rPr ${attrs}/><a:t>${escapeText(text)}</a:t></a:r>`;
  if (!w) return run(segment, runAttrs(undefined, 'latin'));
  const parts = splitByScript(segment);
  if (parts.length <= 1) return run(segment, runAttrs(w.lang ?? languageOfText(segment), parts[0]?.slot ?? 'latin'));
  return parts.map((part) => run(part.text, runAttrs(part.slot === 'latin' ? 'en-US' : languageOfText(part.text) ?? w.lang, part.slot))).join('');
}

/**
 * The `a:p` elements of a notes text (see {@link notesParagraphs}), with direction and
 * language per paragraph ({@link paragraphLanguage}): a right-to-left paragraph gets
 * `rtl="1"` and `algn="r"` (notes masters align notes left, and right-to-left text is
 * mirrored as on slides), any other with a language `rtl="0"`.
 *
 * @param language - BCP 47 tag of the slide's text (its effective `language` option), if any
 */
function paragraphsXml(text: string, language: string | undefined): string {
  let xml = '';
  for (const segments of notesParagraphs(text)) {
    const w = paragraphLanguage(segments.join(' '), language);
    let inner = w ? (w.rtl ? '<a:pPr algn="r" rtl="1"/>' : '<a:pPr rtl="0"/>') : '';
    segments.forEach((s, i) => {
      if (i > 0) inner += `<a:br><a:rPr ${runAttrs(w?.lang, 'latin')}/></a:br>`;
      if (s !== '') inner += runsXml(s, w);
    });
    xml += `<a:p>${inner}<a:endParaRPr ${runAttrs(w?.lang, 'latin')}/></a:p>`;
  }
  return xml;
}

/** `p:nvGrpSpPr` and `p:grpSpPr` of a shape tree (§19.3.1.45). */
const TREE_HEAD =
  '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
  '<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>';

/**
 * The XML of a notes slide (`p:notes`) whose notes are `text`: a slide image placeholder
 * and a body placeholder (idx 1) holding one paragraph per line, right-to-left lines
 * marked as such and runs in other scripts given their language (see the module comment).
 *
 * @param language - BCP 47 tag of the slide's text (its effective `language` option); without it each line's script decides
 */
export function notesSlideXml(text: string, language?: string): string {
  return (
    `${DECL}<p:notes ${PML_ROOT_NS}><p:cSld><p:spTree>${TREE_HEAD}` +
    '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>' +
    '<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes Placeholder 2"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/>' +
    `<p:txBody><a:bodyPr/><a:lstStyle/>${paragraphsXml(text, language)}</p:txBody></p:sp>` +
    '</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:notes>'
  );
}

/** A rectangle, EMU. */
interface Box {
  x: number;
  y: number;
  cx: number;
  cy: number;
}

/**
 * Where the minimal notes master puts the slide image and the notes body on a notes page
 * of `notes` size for slides of `slide` size (EMU): PowerPoint's proportions (the image
 * 80 % of the page wide from 1/8 of its height, the body below it from 48 % down), the
 * image narrowed to keep the slide's aspect when it would be taller than a third of the page.
 */
export function notesMasterBoxes(notes: { cx: number; cy: number }, slide: { cx: number; cy: number }): { image: Box; body: Box } {
  let imageCx = Math.round(notes.cx * 0.8);
  let imageCy = Math.round((imageCx * slide.cy) / Math.max(1, slide.cx));
  const maxCy = Math.round(notes.cy / 3);
  if (imageCy > maxCy) {
    imageCy = maxCy;
    imageCx = Math.round((imageCy * slide.cx) / Math.max(1, slide.cy));
  }
  const image = { x: Math.round((notes.cx - imageCx) / 2), y: Math.round(notes.cy / 8), cx: imageCx, cy: imageCy };
  const bodyY = Math.max(Math.round(notes.cy * 0.48125), image.y + imageCy + Math.round(notes.cy / 48));
  const body = { x: Math.round(notes.cx * 0.1), y: bodyY, cx: Math.round(notes.cx * 0.8), cy: Math.max(0, Math.round(notes.cy * 0.875) - bodyY) };
  return { image, body };
}

const xfrm = (b: Box): string => `<a:xfrm><a:off x="${b.x}" y="${b.y}"/><a:ext cx="${b.cx}" cy="${b.cy}"/></a:xfrm>`;

/** Notes text levels 1–9 of the minimal notes master (12 pt, theme minor font, text colour 1). */
function notesStyle(): string {
  let xml = '';
  for (let i = 1; i <= 9; i++) {
    xml +=
      `<a:lvl${i}pPr marL="${(i - 1) * 457200}" algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1">` +
      '<a:defRPr sz="1200" kern="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/><a:ea typeface="+mn-ea"/><a:cs typeface="+mn-cs"/></a:defRPr>' +
      `</a:lvl${i}pPr>`;
  }
  return `<p:notesStyle>${xml}</p:notesStyle>`;
}

/**
 * The XML of a minimal notes master (`p:notesMaster`, §19.3.1.27): background, the slide
 * image placeholder (idx 2) and the notes body placeholder (idx 3) placed by
 * {@link notesMasterBoxes}, the usual colour map and a notes text style. Its theme is
 * related by build-deck.ts.
 *
 * @param notesSize - the presentation's `p:notesSz` (EMU)
 * @param slideSize - the presentation's `p:sldSz` (EMU)
 */
export function minimalNotesMasterXml(notesSize: { cx: number; cy: number }, slideSize: { cx: number; cy: number }): string {
  const { image, body } = notesMasterBoxes(notesSize, slideSize);
  const bodyPr = '<a:bodyPr vert="horz" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0"/>';
  return (
    `${DECL}<p:notesMaster ${PML_ROOT_NS}><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>${TREE_HEAD}` +
    '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg" idx="2"/></p:nvPr></p:nvSpPr>' +
    `<p:spPr>${xfrm(image)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/><a:ln w="12700"><a:solidFill><a:prstClr val="black"/></a:solidFill></a:ln></p:spPr></p:sp>` +
    '<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes Placeholder 2"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" sz="quarter" idx="3"/></p:nvPr></p:nvSpPr>' +
    `<p:spPr>${xfrm(body)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
    `<p:txBody>${bodyPr}<a:lstStyle/><a:p><a:pPr lvl="0"/><a:r><a:rPr lang="en-US"/><a:t>Click to edit Master text styles</a:t></a:r></a:p></p:txBody></p:sp>` +
    '</p:spTree></p:cSld>' +
    '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>' +
    `${notesStyle()}</p:notesMaster>`
  );
}

/**
 * A minimal theme (`a:theme`, §20.1.6.9) for the minimal notes master when the deck's first
 * slide master has no theme to copy: Office's default colours, Calibri, plain formats.
 */
export function minimalThemeXml(): string {
  const sys = (el: string, val: string, last: string): string => `<a:${el}><a:sysClr val="${val}" lastClr="${last}"/></a:${el}>`;
  const rgb = (el: string, v: string): string => `<a:${el}><a:srgbClr val="${v}"/></a:${el}>`;
  const fill = '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>';
  const line = (w: number): string => `<a:ln w="${w}"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>`;
  const effect = '<a:effectStyle><a:effectLst/></a:effectStyle>';
  const font = (latin: string): string => `<a:latin typeface="${latin}"/><a:ea typeface=""/><a:cs typeface=""/>`;
  return (
    `${DECL}<a:theme xmlns:a="${NS.a}" name="Notes"><a:themeElements>` +
    `<a:clrScheme name="Office">${sys('dk1', 'windowText', '000000')}${sys('lt1', 'window', 'FFFFFF')}${rgb('dk2', '44546A')}${rgb('lt2', 'E7E6E6')}` +
    `${rgb('accent1', '4472C4')}${rgb('accent2', 'ED7D31')}${rgb('accent3', 'A5A5A5')}${rgb('accent4', 'FFC000')}${rgb('accent5', '5B9BD5')}${rgb('accent6', '70AD47')}` +
    `${rgb('hlink', '0563C1')}${rgb('folHlink', '954F72')}</a:clrScheme>` +
    `<a:fontScheme name="Office"><a:majorFont>${font('Calibri Light')}</a:majorFont><a:minorFont>${font('Calibri')}</a:minorFont></a:fontScheme>` +
    `<a:fmtScheme name="Office"><a:fillStyleLst>${fill}${fill}${fill}</a:fillStyleLst><a:lnStyleLst>${line(6350)}${line(12700)}${line(19050)}</a:lnStyleLst>` +
    `<a:effectStyleLst>${effect}${effect}${effect}</a:effectStyleLst><a:bgFillStyleLst>${fill}${fill}${fill}</a:bgFillStyleLst></a:fmtScheme>` +
    '</a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>'
  );
}
