/**
 * The deck's presentation part and what hangs off it, written once its slides are known
 * (ECMA-376 Part 1, §13.3.6 presentation part, §19.2.1 `p:presentation`): the slide
 * masters' layout lists, the presentation part from the base template's (slide size,
 * default text style, ... kept; its slides, comments, custom shows and sections not),
 * presProps, viewProps, tableStyles, embedded fonts, and the package relationships with
 * the document properties.
 */
import { CT, RT } from '../../ooxml/opc/constants.js';
import type { OpcPackage } from '../../ooxml/opc/package.js';
import { RelIdAllocator, type RelationshipDraft } from '../../ooxml/opc/relationships.js';
import { NS, attr, child, children, createElement, insertInOrder, type Document } from '../../ooxml/xml.js';
import { cloneDocument, serializeDocument } from '../draft/index.js';
import { DEFAULT_NOTES_SIZE } from './notes.js';
import { stripRelationshipReferences, type MasterRecord, type PartCopier } from './part-copier.js';
import type { TemplateSource } from './templates.js';

const CUSTOM_PROPERTIES_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties';
/** `p14:sectionLst` extension of `p:presentation/p:extLst` (lists slide ids of the template). */
const SECTION_LIST_EXT_URI = '{521415D9-36F7-43E2-AB2F-B90AF26B5E84}';
/** First id of `p:sldMasterId`/`p:sldLayoutId` (ST_SlideMasterId, §19.7.17: ≥ 2^31). */
const FIRST_MASTER_OR_LAYOUT_ID = 2_147_483_648;
/** First `p:sldId/@id` (ST_SlideId, §19.7.13: 256 ≤ id < 2^31). */
const FIRST_SLIDE_ID = 256;

/** A master of the deck with its `p:sldMasterId/@id`. */
export interface MasterId {
  id: number;
  master: MasterRecord;
}

/**
 * Writes each slide master with its layout list (`p:sldLayoutIdLst`, §19.3.1.42) and
 * relationships: the layouts the deck uses, in the order first used, with ids ≥ 2^31 unique
 * across the package. Returns the masters with their ids.
 */
export function writeMasters(out: OpcPackage, masters: readonly MasterRecord[]): MasterId[] {
  let nextId = FIRST_MASTER_OR_LAYOUT_ID;
  const masterIds: Array<{ id: number; master: MasterRecord }> = [];
  for (const m of masters) {
    masterIds.push({ id: nextId++, master: m });
    const root = m.doc.documentElement!;
    let lst = child(root, NS.p, 'sldLayoutIdLst');
    if (!lst) lst = insertInOrder(root, createElement(m.doc, NS.p, 'p:sldLayoutIdLst'), ['transition', 'timing', 'hf', 'txStyles', 'extLst']);
    while (lst.firstChild) lst.removeChild(lst.firstChild);
    const rels = [...m.rels];
    const ids = new RelIdAllocator(rels.map((r) => r.id));
    for (const layout of m.layouts) {
      const rid = ids.next();
      rels.push({ id: rid, type: RT.slideLayout, external: false, targetPartName: layout });
      const el = createElement(m.doc, NS.p, 'p:sldLayoutId', { id: nextId++ });
      el.setAttributeNS(NS.r, 'r:id', rid);
      lst.appendChild(el);
    }
    out.setBytes(m.outName, utf8(serializeDocument(m.doc, m.stubs)), CT.slideMaster);
    out.setRels(m.outName, rels);
  }
  return masterIds;
}

/** What {@link writePresentation} writes from. */
export interface PresentationInput {
  out: OpcPackage;
  parts: PartCopier;
  /** The template that gives the deck its presentation part. */
  base: TemplateSource;
  masterIds: readonly MasterId[];
  /** The deck's slide parts, in order. */
  slides: readonly string[];
  /** The deck's notes master, if it has notes. */
  notesMaster: string | undefined;
  notesCount: number;
  tableStyles: Document | undefined;
}

/** Writes the presentation part, its relationships and the package relationships. */
export function writePresentation(input: PresentationInput): void {
  const { out, parts, base, masterIds, slides, notesMaster, notesCount, tableStyles } = input;
  // Presentation part
  const srcPres = base.pkg.getXml(base.mainPart);
  const pres = cloneDocument(srcPres);
  const root = pres.documentElement!;
  for (const name of ['sldMasterIdLst', 'notesMasterIdLst', 'handoutMasterIdLst', 'sldIdLst', 'custShowLst', 'custDataLst', 'photoAlbum', 'smartTags', 'modifyVerifier']) {
    for (const el of children(root, NS.p, name)) root.removeChild(el);
  }
  const extLst = child(root, NS.p, 'extLst');
  if (extLst) {
    for (const ext of children(extLst, NS.p, 'ext')) if (attr(ext, 'uri') === SECTION_LIST_EXT_URI) extLst.removeChild(ext);
    if (children(extLst).length === 0) root.removeChild(extLst);
  }
  const presName = '/ppt/presentation.xml';
  const rels: RelationshipDraft[] = [];
  const relIds = new RelIdAllocator();
  const addRel = (type: string, target: string): string => {
    const id = relIds.next();
    rels.push({ id, type, external: false, targetPartName: target });
    return id;
  };
  const masterLst = createElement(pres, NS.p, 'p:sldMasterIdLst');
  for (const { id, master } of masterIds) {
    const el = createElement(pres, NS.p, 'p:sldMasterId', { id });
    el.setAttributeNS(NS.r, 'r:id', addRel(RT.slideMaster, master.outName));
    masterLst.appendChild(el);
  }
  root.insertBefore(masterLst, children(root)[0] ?? null);
  if (notesMaster) {
    // p:notesMasterIdLst follows p:sldMasterIdLst (CT_Presentation, §19.2.1.26)
    const lst = createElement(pres, NS.p, 'p:notesMasterIdLst');
    const el = createElement(pres, NS.p, 'p:notesMasterId');
    el.setAttributeNS(NS.r, 'r:id', addRel(RT.notesMaster, notesMaster));
    lst.appendChild(el);
    root.insertBefore(lst, masterLst.nextSibling);
  }
  if (!child(root, NS.p, 'notesSz')) {
    // required (§19.2.1.23); a template without one gets the default portrait page
    const sz = createElement(pres, NS.p, 'p:notesSz', { cx: DEFAULT_NOTES_SIZE.cx, cy: DEFAULT_NOTES_SIZE.cy });
    insertInOrder(root, sz, ['smartTags', 'embeddedFontLst', 'custShowLst', 'photoAlbum', 'custDataLst', 'kinsoku', 'defaultTextStyle', 'modifyVerifier', 'extLst']);
  }
  const sldLst = createElement(pres, NS.p, 'p:sldIdLst');
  slides.forEach((s, i) => {
    const el = createElement(pres, NS.p, 'p:sldId', { id: FIRST_SLIDE_ID + i });
    el.setAttributeNS(NS.r, 'r:id', addRel(RT.slide, s));
    sldLst.appendChild(el);
  });
  insertInOrder(root, sldLst, ['sldSz', 'notesSz', 'smartTags', 'embeddedFontLst', 'custShowLst', 'photoAlbum', 'custDataLst', 'kinsoku', 'defaultTextStyle', 'modifyVerifier', 'extLst']);

  // Embedded fonts (§19.2.1.9): the font parts come along with new relationship ids
  const fontLst = child(root, NS.p, 'embeddedFontLst');
  if (fontLst) {
    for (const font of children(fontLst, NS.p, 'embeddedFont')) {
      for (const face of children(font)) {
        if (face.localName === 'font') continue;
        const old = face.getAttributeNS(NS.r, 'id');
        const r = old ? base.pkg.rel(base.mainPart, old) : undefined;
        if (r && !r.external && r.targetPartName && base.pkg.hasPart(r.targetPartName)) {
          face.setAttributeNS(NS.r, 'r:id', addRel(r.type, parts.importShared(base, r.targetPartName)));
        } else font.removeChild(face);
      }
      if (children(font).length <= 1) fontLst.removeChild(font);
    }
    if (children(fontLst).length === 0) root.removeChild(fontLst);
  }

  // presProps, viewProps, theme, tableStyles
  const srcRel = (type: string): string | undefined => {
    const p = base.pkg.relatedPartName(base.mainPart, type);
    return p && base.pkg.hasPart(p) ? p : undefined;
  };
  const presProps = srcRel(RT.presProps);
  if (presProps) {
    const doc = cloneDocument(base.pkg.getXml(presProps));
    const showPr = child(doc.documentElement!, NS.p, 'showPr');
    const custShow = showPr ? child(showPr, NS.p, 'custShow') : undefined;
    if (showPr && custShow) showPr.replaceChild(createElement(doc, NS.p, 'p:sldAll'), custShow);
    stripRelationshipReferences(doc);
    out.setXml('/ppt/presProps.xml', doc, base.pkg.contentType(presProps));
    addRel(RT.presProps, '/ppt/presProps.xml');
  }
  const viewProps = srcRel(RT.viewProps);
  if (viewProps) {
    const doc = cloneDocument(base.pkg.getXml(viewProps));
    stripRelationshipReferences(doc);
    out.setXml('/ppt/viewProps.xml', doc, base.pkg.contentType(viewProps));
    addRel(RT.viewProps, '/ppt/viewProps.xml');
  }
  const firstTheme = parts.masters[0]?.rels.find((r) => r.type === RT.theme)?.targetPartName;
  if (firstTheme) addRel(RT.theme, firstTheme);
  if (tableStyles) {
    out.setXml('/ppt/tableStyles.xml', tableStyles, 'application/vnd.openxmlformats-officedocument.presentationml.tableStyles+xml');
    addRel(RT.tableStyles, '/ppt/tableStyles.xml');
  }
  stripRelationshipReferences(pres, new Set(rels.map((r) => r.id)));
  out.setXml(presName, pres, CT.presentationMain);
  out.setRels(presName, rels);

  // Package relationships: the main part and the document properties
  const pkgRelIds = new RelIdAllocator();
  const pkgRels: RelationshipDraft[] = [{ id: pkgRelIds.next(), type: RT.officeDocument, external: false, targetPartName: presName }];
  for (const r of base.pkg.rels('/')) {
    if (r.external || !r.targetPartName || !base.pkg.hasPart(r.targetPartName)) continue;
    if (r.type !== RT.corePropertiesPackage && r.type !== RT.extendedProperties && r.type !== CUSTOM_PROPERTIES_REL) continue;
    const name = parts.importOwned(base, r.targetPartName, new Map());
    if (r.type === RT.extendedProperties) refreshExtendedProperties(out, name, slides.length, notesCount);
    pkgRels.push({ id: pkgRelIds.next(), type: r.type, external: false, targetPartName: name });
  }
  out.setRels('/', pkgRels);
}

/** Extended-properties elements that describe the template's content, not the deck's (ECMA-376 Part 1, §22.2.2). */
const STALE_EXTENDED_PROPERTIES = ['Words', 'Paragraphs', 'Lines', 'Characters', 'CharactersWithSpaces', 'MMClips', 'HeadingPairs', 'TitlesOfParts', 'TotalTime'];

/**
 * Makes the copied extended properties (`docProps/app.xml`, ECMA-376 Part 1, §22.2) tell
 * the deck's truth: `Slides` counts its slides, `Notes` its notes slides, `HiddenSlides`
 * is 0 (generated slides are shown), and the counts and part titles of the
 * template (words, paragraphs, `HeadingPairs`/`TitlesOfParts`, which would list the
 * template's own slide titles) are removed; PowerPoint writes them again on save.
 * Application, company and the rest stay. A part that cannot be read is left as it is.
 */
function refreshExtendedProperties(out: OpcPackage, partName: string, slideCount: number, notesCount: number): void {
  let doc: Document;
  try {
    doc = out.getXml(partName);
  } catch {
    return;
  }
  const root = doc.documentElement!;
  if (root.localName !== 'Properties' || root.namespaceURI !== NS.extendedProperties) return;
  for (const el of children(root, NS.extendedProperties)) if (STALE_EXTENDED_PROPERTIES.includes(el.localName ?? '')) root.removeChild(el);
  const setCount = (local: string, value: number): void => {
    let el = child(root, NS.extendedProperties, local);
    if (!el) {
      el = doc.createElementNS(NS.extendedProperties, local);
      root.appendChild(el);
    }
    while (el.firstChild) el.removeChild(el.firstChild);
    el.appendChild(doc.createTextNode(String(value)));
  };
  setCount('Slides', slideCount);
  setCount('Notes', notesCount);
  setCount('HiddenSlides', 0);
  out.markDirty(partName);
}

/** UTF-8 bytes of a string (Node's native encoder). */
function utf8(text: string): Uint8Array {
  return Buffer.from(text, 'utf8');
}
