/**
 * PowerPoint safety of a package (issue 23, item 2): the structural rules whose violation
 * makes PowerPoint refuse a file or offer to repair it, checked on every generated deck
 * before it is stored. The rules are those of the project's referee linter
 * (shared/tools/ooxml-lint.py: OPC content types and relationships, PresentationML id
 * lists, layout/master/notes links, shape ids, tables), written for the engine's own
 * package model so the check runs in-process on the deck the build just wrote.
 *
 * - Relationships (OPC, ECMA-376 Part 2 §9.3): every `.rels` part belongs to a part; ids
 *   unique; internal targets exist; absolute URIs are `External`; structural relationship
 *   types (slide, slideLayout, slideMaster, notesSlide, notesMaster, handoutMaster, theme)
 *   point at parts of the matching content type; every `r:*` attribute of an XML part
 *   names one of its relationships (empty values allowed: PowerPoint writes `r:id=""`).
 * - Content types (Part 2 §10.1): every part has one; no Override for a missing part.
 * - Part names (Part 2 §9.1.1): absolute, no empty, `.` or `..` segments, no segment ending
 *   in a dot, no percent-encoded `/` or `\`.
 * - Required parts: `_rels/.rels` with exactly one officeDocument relationship to a
 *   presentation main part; that part's root element matches its content type.
 * - Presentation (Part 1 §19.2.1): `p:sldId/@id` unique in [256, 2^31−1]; master and
 *   layout ids unique across the package in [2^31, 2^32−1]; every id list entry names a
 *   relationship of the right type; no slide listed twice, every related slide listed;
 *   `p:sldMasterIdLst` non-empty; `p:notesSz` present.
 * - Each master has one theme; each slide one layout; each layout one master, which lists
 *   it; each notes slide one slide that points back and one notes master.
 * - Shape ids (`p:cNvPr/@id`) unique per slide and notes slide (branches of one
 *   `mc:AlternateContent` may share; an OLE object's fallback picture is not a shape).
 * - Tables: every row has as many cells as the grid has columns.
 */
import type { OpcPackage } from '../ooxml/opc/package.js';
import { CT, PRESENTATION_MAIN_TYPES, RT } from '../ooxml/opc/constants.js';
import { relsPartName, sourceOfRelsPart } from '../ooxml/opc/part-names.js';
import { NS, attr, attrNS, child, children, descendants, isElement, type Element, type Node } from '../ooxml/xml.js';

/** One rule a package breaks. */
export interface PackageProblem {
  /** The part at fault (its absolute name; `/` for the package). */
  part: string;
  /** The rule's tag, as the referee linter names it (`rels`, `rid`, `content-types`, `pres-ids`, `shape-id`, ...). */
  check: string;
  message: string;
}

const SLIDE_ID_MIN = 256;
const SLIDE_ID_MAX = 2_147_483_647;
const MASTER_ID_MIN = 2_147_483_648;
const MASTER_ID_MAX = 4_294_967_295;

/** Root element (local name) each PresentationML content type must have. */
const ROOTS: ReadonlyMap<string, string> = new Map([
  [CT.slide, 'sld'],
  [CT.slideLayout, 'sldLayout'],
  [CT.slideMaster, 'sldMaster'],
  [CT.notesSlide, 'notes'],
  [CT.notesMaster, 'notesMaster'],
  [CT.presentationMain, 'presentation'],
  [CT.templateMain, 'presentation'],
  [CT.slideshowMain, 'presentation'],
  [CT.theme, 'theme'],
]);

/** Content type a structural relationship's target must have. */
const REL_TARGET_TYPES: ReadonlyMap<string, string> = new Map([
  [RT.slide, CT.slide],
  [RT.slideLayout, CT.slideLayout],
  [RT.slideMaster, CT.slideMaster],
  [RT.notesSlide, CT.notesSlide],
  [RT.notesMaster, CT.notesMaster],
  [RT.theme, CT.theme],
  [RT.handoutMaster, 'application/vnd.openxmlformats-officedocument.presentationml.handoutMaster+xml'],
]);

/** At most this many problems are listed per rule (the count of a broken deck says enough). */
const MAX_PER_CHECK = 50;

/**
 * Checks a package against the rules above.
 *
 * @returns the problems found, empty for a sound package
 */
export function checkPackage(pkg: OpcPackage): PackageProblem[] {
  const out: PackageProblem[] = [];
  const perCheck = new Map<string, number>();
  const report = (part: string, check: string, message: string): void => {
    const n = (perCheck.get(check) ?? 0) + 1;
    perCheck.set(check, n);
    if (n <= MAX_PER_CHECK) out.push({ part, check, message });
  };
  const names = pkg.partNames();

  checkNamesAndTypes(pkg, names, report);
  for (const name of names) {
    if (!name.toLowerCase().endsWith('.rels')) continue;
    checkRelsPart(pkg, name, report);
  }
  for (const name of names) {
    if (name.toLowerCase().endsWith('.rels') || !isXmlPart(pkg, name)) continue;
    const root = readRoot(pkg, name, report);
    if (!root) continue;
    const want = ROOTS.get(pkg.contentType(name) ?? '');
    if (want && root.localName !== want) report(name, 'part', `the root element is ${root.localName}, not ${want} as its content type requires`);
    checkRelationshipIds(pkg, name, root, report);
  }

  const main = mainPart(pkg, report);
  if (main) checkPresentation(pkg, main, report);
  checkLinks(pkg, report);
  for (const ct of [CT.slide, CT.notesSlide]) {
    for (const part of pkg.partsOfType(ct)) {
      const root = safeRoot(pkg, part);
      if (!root) continue;
      checkShapeIds(root, part, report);
      for (const tbl of descendants(root, NS.a, 'tbl')) checkTable(tbl, part, report);
    }
  }
  return out;
}

/** Child elements of an element that may be missing. */
function kids(parent: Element | undefined, ns: string, local: string): Element[] {
  return parent ? children(parent, ns, local) : [];
}

type Report = (part: string, check: string, message: string) => void;

function isXmlPart(pkg: OpcPackage, name: string): boolean {
  const ct = pkg.contentType(name) ?? '';
  return ct.endsWith('+xml') || ct === 'application/xml' || ct === 'text/xml';
}

function safeRoot(pkg: OpcPackage, name: string): Element | undefined {
  try {
    return pkg.getXml(name).documentElement ?? undefined;
  } catch {
    return undefined;
  }
}

function readRoot(pkg: OpcPackage, name: string, report: Report): Element | undefined {
  try {
    const root = pkg.getXml(name).documentElement ?? undefined;
    if (!root) report(name, 'xml', 'the part has no root element');
    return root;
  } catch (err) {
    report(name, 'xml', `the part is not well-formed XML: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/** Part names (Part 2 §9.1.1.1) and content types (§10.1.2). */
function checkNamesAndTypes(pkg: OpcPackage, names: string[], report: Report): void {
  const present = new Set(names.map((n) => n.toLowerCase()));
  for (const name of names) {
    const why = illegalPartName(name);
    if (why) report(name, 'part-name', `the part name is not legal: ${why}`);
    if (!pkg.contentType(name)) report(name, 'content-types', 'the part has no content type (no Override and no Default for its extension)');
  }
  for (const lower of pkg.contentTypeOverrides().keys()) {
    if (!present.has(lower)) report(lower, 'content-types-orphan', `[Content_Types].xml has an Override for ${lower}, which is not in the package`);
  }
}

/** Why a part name breaks §9.1.1.1, or undefined when it is legal. */
export function illegalPartName(name: string): string | undefined {
  if (!name.startsWith('/')) return 'it does not start with /';
  if (name.endsWith('/')) return 'it ends with /';
  const segments = name.slice(1).split('/');
  for (const seg of segments) {
    if (seg === '') return 'it has an empty segment';
    if (seg === '.' || seg === '..') return `it has a "${seg}" segment`;
    if (seg.endsWith('.')) return `the segment "${seg}" ends with a dot`;
    if (/%(2f|5c)/i.test(seg)) return `the segment "${seg}" holds a percent-encoded / or \\`;
    if (/[\\\u0000-\u001f]/.test(seg)) return `the segment "${seg}" holds a backslash or control character`;
  }
  return undefined;
}

/** One `.rels` part: it belongs to a part, ids unique, targets resolve, structural types target the right content type. */
function checkRelsPart(pkg: OpcPackage, relsName: string, report: Report): void {
  const source = sourceOfRelsPart(relsName);
  if (source === undefined) {
    report(relsName, 'rels', 'a .rels part outside a _rels folder');
    return;
  }
  if (source !== '/' && !pkg.hasPart(source)) report(relsName, 'rels', `the relationships part belongs to ${source}, which is not in the package`);
  const root = readRoot(pkg, relsName, report);
  if (!root) return;
  if (root.localName !== 'Relationships') {
    report(relsName, 'rels', `the root element is ${root.localName}, not Relationships`);
    return;
  }
  const ids = new Set<string>();
  for (const el of children(root, NS.pkgRels, 'Relationship')) {
    const id = attr(el, 'Id');
    const type = attr(el, 'Type');
    const target = attr(el, 'Target');
    if (!id || !type || target === undefined) {
      report(relsName, 'rels', `a relationship lacks its Id, Type or Target (Id="${id ?? ''}")`);
      continue;
    }
    if (ids.has(id)) report(relsName, 'rels', `the relationship id ${id} is used twice`);
    ids.add(id);
  }
  for (const rel of pkg.rels(source)) {
    if (rel.external) continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(rel.target)) {
      report(relsName, 'rels', `${rel.id} targets the absolute URI ${rel.target} without TargetMode="External"`);
      continue;
    }
    const target = rel.targetPartName;
    if (!target || !pkg.hasPart(target)) {
      report(relsName, 'rels', `${rel.id} (${shortType(rel.type)}) targets ${target ?? rel.target}, which is not in the package`);
      continue;
    }
    const want = REL_TARGET_TYPES.get(rel.type);
    const got = pkg.contentType(target);
    if (want && got !== want) report(relsName, 'rels', `${rel.id} is a ${shortType(rel.type)} relationship but targets ${target}, a ${got ?? 'part without content type'}`);
  }
}

function shortType(type: string): string {
  return type.slice(type.lastIndexOf('/') + 1);
}

/** Every attribute in the relationships namespace names a relationship of the part. */
function checkRelationshipIds(pkg: OpcPackage, part: string, root: Element, report: Report): void {
  let ids: Set<string> | undefined;
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    const attrs = n.attributes;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs.item(i)!;
      if (a.namespaceURI !== NS.r || a.value === '') continue;
      ids ??= new Set(pkg.rels(part).map((r) => r.id));
      if (!ids.has(a.value)) report(part, 'rid', `${a.name}="${a.value}" names no relationship in ${relsPartName(part)}`);
    }
    for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
  }
}

/** The presentation main part, from the package relationships. */
function mainPart(pkg: OpcPackage, report: Report): string | undefined {
  if (!pkg.hasPart('/_rels/.rels')) {
    report('/', 'main-part', 'the package has no /_rels/.rels');
    return undefined;
  }
  const docs = pkg.rels('/').filter((r) => r.type === RT.officeDocument && !r.external);
  if (docs.length !== 1) {
    report('/_rels/.rels', 'main-part', `the package has ${docs.length} officeDocument relationships; exactly one is required`);
    if (docs.length === 0) return undefined;
  }
  const main = docs[0]!.targetPartName;
  if (!main || !pkg.hasPart(main)) return undefined;
  if (!PRESENTATION_MAIN_TYPES.has(pkg.contentType(main) ?? '')) {
    report(main, 'main-part', `the main part is a ${pkg.contentType(main) ?? 'part without content type'}, not a presentation`);
    return undefined;
  }
  return main;
}

/** `p:presentation`'s id lists (§19.2.1.33/.35/.36/.38). */
function checkPresentation(pkg: OpcPackage, main: string, report: Report): void {
  const pres = safeRoot(pkg, main);
  if (!pres) return;
  const rels = new Map(pkg.rels(main).map((r) => [r.id, r]));
  const listed = new Set<string>();
  const slideIds = new Set<number>();
  for (const el of kids(child(pres, NS.p, 'sldIdLst'), NS.p, 'sldId')) {
    const id = Number(attr(el, 'id'));
    if (!Number.isInteger(id) || id < SLIDE_ID_MIN || id > SLIDE_ID_MAX) report(main, 'pres-ids', `p:sldId id="${attr(el, 'id') ?? ''}" is outside ${SLIDE_ID_MIN}–${SLIDE_ID_MAX}`);
    else if (slideIds.has(id)) report(main, 'pres-ids', `p:sldId id="${id}" is used twice`);
    slideIds.add(id);
    const rel = rels.get(attrNS(el, NS.r, 'id') ?? '');
    if (!rel || rel.type !== RT.slide) {
      report(main, 'pres-ids', `p:sldId id="${attr(el, 'id') ?? ''}" names no slide relationship`);
      continue;
    }
    const target = rel.targetPartName ?? '';
    if (listed.has(target)) report(main, 'pres-ids', `${target} is listed twice in p:sldIdLst`);
    listed.add(target);
  }
  for (const rel of rels.values()) {
    if (rel.type === RT.slide && rel.targetPartName && !listed.has(rel.targetPartName)) report(main, 'pres-ids', `${rel.targetPartName} is related from the presentation but not listed in p:sldIdLst`);
  }
  const masterIds = child(pres, NS.p, 'sldMasterIdLst');
  const masters = kids(masterIds, NS.p, 'sldMasterId');
  if (masters.length === 0) report(main, 'pres-ids', 'p:sldMasterIdLst is missing or empty');
  if (!child(pres, NS.p, 'notesSz')) report(main, 'pres-ids', 'p:notesSz is missing');
  // master and layout ids share one range and must be unique across the package
  const wideIds = new Map<number, string>();
  const wide = (el: Element, part: string, what: string): void => {
    const raw = attr(el, 'id');
    if (raw === undefined) return;
    const id = Number(raw);
    if (!Number.isInteger(id) || id < MASTER_ID_MIN || id > MASTER_ID_MAX) {
      report(part, 'pres-ids', `${what} id="${raw}" is outside ${MASTER_ID_MIN}–${MASTER_ID_MAX}`);
      return;
    }
    const other = wideIds.get(id);
    if (other !== undefined) report(part, 'pres-ids', `${what} id="${id}" is also used in ${other}`);
    else wideIds.set(id, part);
  };
  for (const el of masters) {
    wide(el, main, 'p:sldMasterId');
    const rel = rels.get(attrNS(el, NS.r, 'id') ?? '');
    if (!rel || rel.type !== RT.slideMaster) report(main, 'pres-ids', `p:sldMasterId id="${attr(el, 'id') ?? ''}" names no slideMaster relationship`);
  }
  for (const master of pkg.partsOfType(CT.slideMaster)) {
    const root = safeRoot(pkg, master);
    if (!root) continue;
    const mrels = new Map(pkg.rels(master).map((r) => [r.id, r]));
    for (const el of kids(child(root, NS.p, 'sldLayoutIdLst'), NS.p, 'sldLayoutId')) {
      wide(el, master, 'p:sldLayoutId');
      const rel = mrels.get(attrNS(el, NS.r, 'id') ?? '');
      if (!rel || rel.type !== RT.slideLayout) report(master, 'pres-ids', `p:sldLayoutId id="${attr(el, 'id') ?? ''}" names no slideLayout relationship`);
    }
  }
}

/** Master → theme, slide → layout → master (listed), notes ↔ slide. */
function checkLinks(pkg: OpcPackage, report: Report): void {
  const count = (part: string, type: string) => pkg.rels(part).filter((r) => r.type === type && !r.external);
  for (const master of pkg.partsOfType(CT.slideMaster)) {
    const n = count(master, RT.theme).length;
    if (n !== 1) report(master, 'master', `the slide master has ${n} theme relationships; exactly one is required`);
  }
  for (const slide of pkg.partsOfType(CT.slide)) {
    const n = count(slide, RT.slideLayout).length;
    if (n !== 1) report(slide, 'layout', `the slide has ${n} slideLayout relationships; exactly one is required`);
    const notes = count(slide, RT.notesSlide);
    if (notes.length > 1) report(slide, 'notes', `the slide has ${notes.length} notes slides; at most one is allowed`);
  }
  for (const layout of pkg.partsOfType(CT.slideLayout)) {
    const masters = count(layout, RT.slideMaster);
    if (masters.length !== 1) {
      report(layout, 'layout', `the slide layout has ${masters.length} slideMaster relationships; exactly one is required`);
      continue;
    }
    const master = masters[0]!.targetPartName;
    if (!master || !pkg.hasPart(master)) continue;
    const root = safeRoot(pkg, master);
    const listedIds = new Set(kids(child(root, NS.p, 'sldLayoutIdLst'), NS.p, 'sldLayoutId').map((el) => attrNS(el, NS.r, 'id')));
    const listed = pkg.rels(master).some((r) => r.type === RT.slideLayout && r.targetPartName?.toLowerCase() === layout.toLowerCase() && listedIds.has(r.id));
    if (!listed) report(layout, 'layout', `the slide layout is not listed in p:sldLayoutIdLst of its master ${master}`);
  }
  const claimed = new Map<string, string>();
  for (const notes of pkg.partsOfType(CT.notesSlide)) {
    const slides = count(notes, RT.slide);
    if (slides.length !== 1) {
      report(notes, 'notes', `the notes slide has ${slides.length} slide relationships; exactly one is required`);
    } else {
      const slide = slides[0]!.targetPartName ?? '';
      const back = pkg.hasPart(slide) && pkg.rels(slide).some((r) => r.type === RT.notesSlide && r.targetPartName?.toLowerCase() === notes.toLowerCase());
      if (!back) report(notes, 'notes', `the notes slide's slide ${slide} does not point back to it`);
      const other = claimed.get(slide.toLowerCase());
      if (other) report(notes, 'notes', `${other} and this notes slide both claim ${slide}`);
      claimed.set(slide.toLowerCase(), notes);
    }
    const nm = count(notes, RT.notesMaster).length;
    if (nm !== 1) report(notes, 'notes', `the notes slide has ${nm} notesMaster relationships; exactly one is required`);
  }
}

/**
 * `p:cNvPr/@id` unique within a slide: the branches of an `mc:AlternateContent` are
 * alternatives (one is read), so they may repeat each other's ids; an OLE object's
 * fallback picture (`p:oleObj//p:pic`) is not a shape of the tree.
 */
function checkShapeIds(root: Element, part: string, report: Report): void {
  const seen = new Set<string>();
  const visit = (el: Element, into: Set<string>): void => {
    for (const c of children(el)) {
      if (c.namespaceURI === NS.mc && c.localName === 'AlternateContent') {
        const union = new Set<string>();
        for (const branch of children(c)) {
          const ids = new Set(into);
          visit(branch, ids);
          for (const id of ids) if (!into.has(id)) union.add(id);
        }
        for (const id of union) into.add(id);
        continue;
      }
      if (c.namespaceURI === NS.p && c.localName === 'oleObj') continue;
      if (c.localName === 'cNvPr' && (c.namespaceURI === NS.p || c.namespaceURI === NS.p14)) {
        const id = attr(c, 'id') ?? '';
        if (!/^\d{1,10}$/.test(id) || Number(id) > 4_294_967_295) report(part, 'shape-id', `shape "${attr(c, 'name') ?? ''}" has the id "${id}", not an unsignedInt`);
        else if (into.has(id)) report(part, 'shape-id', `the shape id ${id} ("${attr(c, 'name') ?? ''}") is used twice`);
        into.add(id);
        continue;
      }
      visit(c, into);
    }
  };
  const spTree = child(child(root, NS.p, 'cSld'), NS.p, 'spTree');
  if (spTree) visit(spTree, seen);
}

/** §21.1.3.13: every row has one `a:tc` per `a:gridCol` (merged cells included). */
function checkTable(tbl: Element, part: string, report: Report): void {
  const cols = kids(child(tbl, NS.a, 'tblGrid'), NS.a, 'gridCol').length;
  if (cols === 0) {
    report(part, 'table', 'a table has no grid columns');
    return;
  }
  children(tbl, NS.a, 'tr').forEach((tr, i) => {
    const cells = children(tr, NS.a, 'tc').length;
    if (cells !== cols) report(part, 'table', `table row ${i + 1} has ${cells} cells; the grid has ${cols} columns`);
  });
}
