/**
 * Repairs of a template package as it is read: the faults PowerPoint repairs when it opens
 * a file (and other readers tolerate), made once, in memory, in the form PowerPoint's
 * repaired file ends up with, so that analysis, previews and every generated deck see the
 * same repaired template and each repair is listed (`results.repairs[]`).
 *
 * What is repaired (ECMA-376 Part 1 unless stated):
 *
 * - **Parts without a content type** (Part 2, §10.1.2): given one from their extension
 *   (`png` → `image/png`, …) or, for XML, from their root element (`p:sld` → slide, …);
 *   a part whose type cannot be told is dropped (and the relationships to it with it).
 * - **Relationships to missing parts** (Part 2, §9.3): dropped from the source part's
 *   relationships, and their uses repaired as below. The structural relationships a
 *   missing part makes unusable (a slide's layout, a layout's master, a master's theme, the
 *   presentation's slides and masters) are left alone: such a package stays refused.
 * - **Dangling relationship ids**: every attribute in the relationships namespace
 *   (`r:id`, `r:embed`, `r:link`, `r:pict`, `r:dm`, …; §22.8.2.1 ST_RelationshipId) that
 *   names no relationship of its part:
 *   - a picture's image (`a:blip`, §20.1.8.13) loses its image and keeps its frame: the
 *     `a:blip` goes and an empty `p:blipFill` stays (the form PowerPoint itself saves; it
 *     shows "picture can't be displayed" there); a picture fill of a shape, background or
 *     table cell (`a:blipFill`, §20.1.8.14) becomes `a:noFill`; a picture bullet
 *     (`a:buBlip`, §21.1.2.4.2) goes (the bullet is inherited);
 *   - a hyperlink (`a:hlinkClick`, `a:hlinkHover`, `a:hlinkMouseOver`, §21.1.2.3.5) loses
 *     the link, its text stays;
 *   - a graphic frame whose chart (`c:chart`, §21.2.2.27; `cx:chart`), diagram
 *     (`dgm:relIds`, §21.4.2.22) or ink (`p:contentPart`, §19.3.1.14) is gone is removed,
 *     as PowerPoint's repair removes what it cannot read (inside `mc:AlternateContent` its
 *     `mc:Fallback` takes its place);
 *   - an OLE object (`p:oleObj`, §19.3.2.4) keeps its frame and preview picture;
 *   - a layout list entry (`p:sldLayoutId`, §19.3.1.40), tags (`p:tags`), sounds
 *     (`p:sndAc`), media references and extensions (`p:ext`/`a:ext` of an extension list)
 *     that hold the id go; a dangling id inside the slide's timing removes its animations
 *     (`p:timing`, §19.3.1.48);
 *   - anything else: the element holding the id goes.
 * - **Duplicate shape ids** (`p:cNvPr/@id`, §19.3.1.12, unique within a slide, layout or
 *   master): every repeat after the first is renumbered above the part's largest id.
 *   Connections (`a:stCxn`, `a:endCxn`, §20.1.2.2.36/§20.1.2.2.13) that name the id follow
 *   the shape nearest to them (the one in their own group first); animation targets
 *   (`p:spTgt`, `p:bldP` … `@spid`, §19.5) keep the first shape, which PowerPoint's reading
 *   of an ambiguous id gives too.
 *
 * Hostile input is not repaired: zip bombs, DTDs, traversal, encryption and sizes are
 * refused before this step by the package and XML readers.
 *
 * Repairs are made once per package and part ({@link repairTemplate} for the whole
 * template, {@link repairTemplateParts} for the parts one preview or slide needs), and kept
 * with the package: the parsed parts are changed and marked dirty, so the package's bytes,
 * and every part copied from it, carry the repaired form.
 */
import { PackageError } from './errors.js';
import { FactKind, openedTemplates } from './pml/opened-templates.js';
import type { OpcPackage, Relationship } from './opc/package.js';
import { RELS_CONTENT_TYPE } from './opc/package.js';
import { CT, RT } from './opc/constants.js';
import { extensionOf, sourceOfRelsPart } from './opc/part-names.js';
import { NS, attr, children, createElement, isElement, type Document, type Element } from './xml.js';

/** What a repair did. */
export type RepairAction =
  /** The element that held a dangling relationship id was removed or blanked; the shape holding it stays. */
  | 'reference_removed'
  /** A shape (graphic frame, ink) whose content is gone was removed. */
  | 'shape_removed'
  /** A relationship whose internal target part is missing was dropped. */
  | 'relationship_dropped'
  /** A part without a content type was given one. */
  | 'content_type_added'
  /** A part without a content type that could not be told was dropped. */
  | 'part_dropped'
  /** A shape id used twice in one part was renumbered. */
  | 'shape_id_renumbered';

/** One repair (`results.repairs[]`). */
export interface PackageRepair {
  /** The part repaired, e.g. `/ppt/slides/slide1.xml` (for a relationship, its source part; `/` is the package). */
  part: string;
  /**
   * What was repaired: the element, with its conventional prefix (`a:blip`,
   * `p:graphicFrame`, `p:cNvPr`), `Relationship` for a relationship, `part` for a part.
   */
  element: string;
  action: RepairAction;
  /** In words: the ids, names and targets involved and what was done. */
  detail: string;
}

/**
 * Whether a relationship whose target is missing is left alone (the package stays refused,
 * see above): the document of the package, the presentation's slides, masters and theme, a
 * slide's layout, a layout's master, a master's theme. A master's layout that is missing
 * and a slide's hyperlink to a missing slide are dropped like any other.
 */
function keptWhenMissing(sourceType: string | undefined, relType: string): boolean {
  switch (relType) {
    case RT.officeDocument:
    case RT.slideMaster:
    case RT.theme:
      return true;
    case RT.slideLayout:
      return sourceType !== CT.slideMaster;
    case RT.slide:
      return sourceType !== CT.slide && sourceType !== CT.slideLayout && sourceType !== CT.slideMaster;
    default:
      return false;
  }
}

/** Relationship types not followed from a slide, layout or master: the parts they lead to are not read for a template. */
const NOT_FOLLOWED: ReadonlySet<string> = new Set([
  RT.slide,
  RT.slideLayout,
  RT.slideMaster,
  RT.notesSlide,
  RT.notesMaster,
  RT.handoutMaster,
  RT.comments,
  RT.commentAuthors,
  'http://schemas.microsoft.com/office/2018/10/relationships/comments',
  'http://schemas.microsoft.com/office/2018/10/relationships/authors',
  RT.vbaProject,
]);

/** Content types of the parts whose shape ids must be unique (§19.3.1.12). */
const SHAPE_TREE_TYPES: ReadonlySet<string> = new Set([CT.slide, CT.slideLayout, CT.slideMaster]);

/** Content types by extension for parts that have none (Part 2, §10.1.2.2 Default). */
const TYPE_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  jfif: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  emf: 'image/x-emf',
  wmf: 'image/x-wmf',
  svg: 'image/svg+xml',
  wdp: 'image/vnd.ms-photo',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  wmv: 'video/x-ms-wmv',
  avi: 'video/x-msvideo',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  wma: 'audio/x-ms-wma',
  xlsx: CT.xlsx,
  xls: 'application/vnd.ms-excel',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  bin: 'application/vnd.openxmlformats-officedocument.oleObject',
  fntdata: 'application/x-fontdata',
  odttf: 'application/vnd.openxmlformats-officedocument.obfuscatedFont',
  vml: 'application/vnd.openxmlformats-officedocument.vmlDrawing',
};

const PML = 'application/vnd.openxmlformats-officedocument.presentationml';
const DML = 'application/vnd.openxmlformats-officedocument.drawingml';
const NS_DSP = 'http://schemas.microsoft.com/office/drawing/2008/diagram';
const NS_CX = 'http://schemas.microsoft.com/office/drawing/2014/chartex';
const NS_CS = 'http://schemas.microsoft.com/office/drawing/2012/chartStyle';
const NS_CP = 'http://schemas.openxmlformats.org/package/2006/metadata/core-properties';

/** Content types of XML parts by root element (`namespace local`). */
const TYPE_BY_ROOT: Readonly<Record<string, string>> = {
  [`${NS.p} sld`]: CT.slide,
  [`${NS.p} sldLayout`]: CT.slideLayout,
  [`${NS.p} sldMaster`]: CT.slideMaster,
  [`${NS.p} notes`]: CT.notesSlide,
  [`${NS.p} notesMaster`]: CT.notesMaster,
  [`${NS.p} handoutMaster`]: `${PML}.handoutMaster+xml`,
  [`${NS.p} presentationPr`]: `${PML}.presProps+xml`,
  [`${NS.p} viewPr`]: `${PML}.viewProps+xml`,
  [`${NS.p} tagLst`]: `${PML}.tags+xml`,
  [`${NS.p} cmAuthorLst`]: `${PML}.commentAuthors+xml`,
  [`${NS.p} cmLst`]: `${PML}.comments+xml`,
  [`${NS.a} theme`]: CT.theme,
  [`${NS.a} tblStyleLst`]: `${PML}.tableStyles+xml`,
  [`${NS.c} chartSpace`]: CT.chart,
  [`${NS_CX} chartSpace`]: 'application/vnd.ms-office.chartex+xml',
  [`${NS_CS} chartStyle`]: 'application/vnd.ms-office.chartstyle+xml',
  [`${NS_CS} colorStyle`]: 'application/vnd.ms-office.chartcolorstyle+xml',
  [`${NS.dgm} dataModel`]: `${DML}.diagramData+xml`,
  [`${NS.dgm} layoutDef`]: `${DML}.diagramLayout+xml`,
  [`${NS.dgm} styleDef`]: `${DML}.diagramStyle+xml`,
  [`${NS.dgm} colorsDef`]: `${DML}.diagramColors+xml`,
  [`${NS_DSP} drawing`]: 'application/vnd.ms-office.drawingml.diagramDrawing+xml',
  [`${NS_CP} coreProperties`]: 'application/vnd.openxmlformats-package.core-properties+xml',
  [`${NS.extendedProperties} Properties`]: 'application/vnd.openxmlformats-officedocument.extended-properties+xml',
};

/** Conventional prefixes for the names in repairs. */
const PREFIX: Readonly<Record<string, string>> = {
  [NS.p]: 'p',
  [NS.a]: 'a',
  [NS.r]: 'r',
  [NS.c]: 'c',
  [NS.dgm]: 'dgm',
  [NS.mc]: 'mc',
  [NS.p14]: 'p14',
  [NS.a14]: 'a14',
  [NS_CX]: 'cx',
  [NS_DSP]: 'dsp',
};

/** What has been repaired in one package so far. */
interface RepairState {
  packageDone: boolean;
  /** Parts already repaired (or being repaired), by name. */
  parts: Set<string>;
  repairs: PackageRepair[];
}

/** What has been repaired in a package, kept with the package's other facts in the per-thread registry. */
const REPAIR_STATE = new FactKind<RepairState>('repairs', () => ({ packageDone: false, parts: new Set(), repairs: [] }));

function stateOf(pkg: OpcPackage): RepairState {
  return openedTemplates.factsOf(pkg).of(REPAIR_STATE);
}

/**
 * Repairs the whole template: content types, the package's and presentation part's
 * relationships, every slide, layout and master and the parts they relate to (charts,
 * diagrams, themes, …). Repairs already made to the package are not made twice.
 *
 * @param mainPartName - the presentation part (`/ppt/presentation.xml`)
 * @returns every repair made to the package so far, in the order made
 * @throws PackageError `xml_*` or `too_large` for a slide, layout or master that cannot be
 *   parsed (as reading it would); related parts that cannot be parsed are left as they are
 */
export function repairTemplate(pkg: OpcPackage, mainPartName: string): PackageRepair[] {
  const state = stateOf(pkg);
  repairPackageLevel(pkg, state, mainPartName);
  for (const ct of [CT.slideMaster, CT.slideLayout, CT.slide]) {
    for (const part of pkg.partsOfType(ct)) repairPart(pkg, state, part, true);
  }
  return [...state.repairs];
}

/**
 * Repairs what a preview or one generated slide needs: content types, the package's and
 * presentation part's relationships, and the given parts (slides, layouts, masters) with
 * the parts they relate to. Each part is repaired once per package.
 *
 * @returns the repairs made by this call
 * @throws PackageError as {@link repairTemplate}
 */
export function repairTemplateParts(pkg: OpcPackage, partNames: readonly string[]): PackageRepair[] {
  const state = stateOf(pkg);
  const before = state.repairs.length;
  const main = pkg.relatedPartName('/', RT.officeDocument);
  repairPackageLevel(pkg, state, main);
  for (const part of partNames) repairPart(pkg, state, part, true);
  return state.repairs.slice(before);
}

/** Every repair made to a package so far (none for a package never repaired). */
export function repairsOf(pkg: OpcPackage): PackageRepair[] {
  return [...stateOf(pkg).repairs];
}

// ---------------------------------------------------------------- package level

function repairPackageLevel(pkg: OpcPackage, state: RepairState, mainPartName: string | undefined): void {
  if (state.packageDone) return;
  state.packageDone = true;
  repairContentTypes(pkg, state);
  dropMissingTargets(pkg, state, '/');
  if (mainPartName && pkg.hasPart(mainPartName)) repairPart(pkg, state, mainPartName, false);
}

/** Parts without a content type get one from their extension or root element, else are dropped (Part 2, §10.1.2). */
function repairContentTypes(pkg: OpcPackage, state: RepairState): void {
  for (const part of pkg.partNames()) {
    if (pkg.contentType(part) !== undefined) continue;
    const ext = extensionOf(part);
    let type: string | undefined;
    let why: string;
    if (ext === 'rels' && sourceOfRelsPart(part) !== undefined) {
      type = RELS_CONTENT_TYPE;
      why = 'a relationships part';
    } else if (TYPE_BY_EXTENSION[ext]) {
      type = TYPE_BY_EXTENSION[ext];
      why = `its extension .${ext}`;
    } else {
      const root = xmlRootOf(pkg, part);
      type = root ? (TYPE_BY_ROOT[`${root.namespaceURI ?? ''} ${root.localName}`] ?? 'application/xml') : undefined;
      why = root ? `its root element ${qname(root)}` : '';
    }
    if (type) {
      pkg.setContentType(part, type);
      state.repairs.push({ part, element: 'part', action: 'content_type_added', detail: `${part} had no content type in [Content_Types].xml; given ${type} from ${why}` });
    } else {
      pkg.removePart(part);
      state.repairs.push({ part, element: 'part', action: 'part_dropped', detail: `${part} had no content type and neither its extension${ext ? ` .${ext}` : ''} nor its content tells one; the part is dropped` });
    }
  }
}

/** The root element of a part that parses as XML, else undefined (the parse is bounded like every other). */
function xmlRootOf(pkg: OpcPackage, part: string): Element | undefined {
  try {
    return pkg.getXml(part).documentElement ?? undefined;
  } catch (err) {
    if (err instanceof PackageError) return undefined;
    throw err;
  }
}

// ---------------------------------------------------------------- one part

/**
 * Repairs one part (once): its relationships to missing parts, its dangling ids, its
 * duplicate shape ids, then the XML parts it relates to.
 *
 * @param strict - parse errors propagate (a slide, layout or master); else the part is left as it is
 */
function repairPart(pkg: OpcPackage, state: RepairState, part: string, strict: boolean): void {
  if (state.parts.has(part)) return;
  state.parts.add(part);
  if (!pkg.hasPart(part)) return;
  const dropped = new Map<string, string>();
  const rels = dropMissingTargets(pkg, state, part, dropped);
  // a related part that never names the relationships namespace holds no reference: not parsed
  // (SmartArt layout, style and colour parts are large and have none)
  if (!strict && !mayReferToRelationships(pkg.getBytes(part))) {
    followRelationships(pkg, state, rels);
    return;
  }
  let doc: Document;
  try {
    doc = pkg.getXml(part);
  } catch (err) {
    if (strict || !(err instanceof PackageError)) throw err;
    return;
  }
  const root = doc.documentElement;
  if (!root) return;
  const ct = pkg.contentType(part);
  let changed = repairReferences(state, part, root, new Set(rels.map((r) => r.id)), dropped);
  if (ct !== undefined && SHAPE_TREE_TYPES.has(ct)) changed = renumberDuplicateIds(state, part, root) || changed;
  if (changed) pkg.markDirty(part);
  followRelationships(pkg, state, rels);
}

/** Repairs the XML parts a part relates to (charts, diagrams, themes, …), not the structural ones ({@link NOT_FOLLOWED}). */
function followRelationships(pkg: OpcPackage, state: RepairState, rels: readonly Relationship[]): void {
  for (const r of rels) {
    if (r.external || !r.targetPartName || NOT_FOLLOWED.has(r.type)) continue;
    const targetType = pkg.contentType(r.targetPartName);
    if (targetType?.endsWith('+xml')) repairPart(pkg, state, r.targetPartName, false);
  }
}

/** The relationships namespace URI as UTF-8 bytes. */
const RELATIONSHIPS_NS_BYTES = Buffer.from(NS.r, 'utf8');

/**
 * Whether an XML part's bytes may hold an attribute in the relationships namespace: they
 * declare its URI (a part must, to use it) with a prefix that some attribute with a value
 * carries (`r:embed="rId2"`; empty ids are sound). UTF-16 parts are not scanned (true). Namespaces apply to attributes only
 * through a prefix (Namespaces in XML 1.0, §6.2), so a part without such an attribute holds
 * no relationship reference.
 */
function mayReferToRelationships(bytes: Uint8Array): boolean {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return true;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.indexOf(RELATIONSHIPS_NS_BYTES) < 0) return false;
  const text = buf.toString('utf8');
  const prefixes = new Set<string>();
  for (const m of text.matchAll(/xmlns:([A-Za-z_][\w.-]*)\s*=\s*["']([^"']*)["']/g)) if (m[2] === NS.r) prefixes.add(m[1]!);
  for (const prefix of prefixes) {
    if (new RegExp(`\\s${prefix.replace(/\./g, '\\.')}:[A-Za-z_][\\w.-]*\\s*=\\s*("[^"]|'[^'])`).test(text)) return true;
  }
  return false;
}

/**
 * Drops the relationships of `source` whose internal target is missing (except the
 * structural ones, see {@link keptWhenMissing}).
 * @param dropped - filled with the ids dropped and their missing targets
 * @returns the relationships kept
 */
function dropMissingTargets(pkg: OpcPackage, state: RepairState, source: string, dropped?: Map<string, string>): Relationship[] {
  const rels = pkg.rels(source);
  const sourceType = source === '/' ? undefined : pkg.contentType(source);
  const kept: Relationship[] = [];
  for (const r of rels) {
    if (!r.external && r.targetPartName !== undefined && !pkg.hasPart(r.targetPartName) && !keptWhenMissing(sourceType, r.type)) {
      dropped?.set(r.id, r.targetPartName);
      state.repairs.push({
        part: source,
        element: 'Relationship',
        action: 'relationship_dropped',
        detail: `relationship ${r.id} (${typeName(r.type)}) targets ${r.targetPartName}, which is missing from the package; the relationship is dropped`,
      });
    } else kept.push(r);
  }
  if (kept.length !== rels.length) pkg.setRels(source, kept);
  return kept;
}

/** Last segment of a relationship type URI (`image`, `chart`, `hyperlink`). */
function typeName(type: string): string {
  return type.slice(type.lastIndexOf('/') + 1);
}

/** `prefix:local` with the conventional prefix of the element's namespace. */
function qname(el: Element): string {
  const prefix = PREFIX[el.namespaceURI ?? ''];
  return prefix ? `${prefix}:${el.localName}` : (el.nodeName ?? el.localName ?? '?');
}

function is(el: Element | null | undefined, ns: string, local: string): boolean {
  return !!el && el.namespaceURI === ns && el.localName === local;
}

function parentElement(el: Element): Element | undefined {
  const p = el.parentNode;
  return isElement(p) ? p : undefined;
}

function ancestor(el: Element, ns: string, local: string): Element | undefined {
  for (let p = parentElement(el); p; p = parentElement(p)) if (is(p, ns, local)) return p;
  return undefined;
}

/** Shape elements of a shape tree (§19.3.1.45 `p:spTree` children), and the tree itself (its `p:nvGrpSpPr` has an id too). */
const SHAPE_NAMES: ReadonlySet<string> = new Set(['sp', 'pic', 'graphicFrame', 'grpSp', 'cxnSp', 'contentPart', 'spTree']);

/** The shape (`p:sp`, `p:pic`, …) an element belongs to, or undefined. */
function shapeOf(el: Element): Element | undefined {
  for (let p: Element | undefined = el; p; p = parentElement(p)) {
    if ((p.namespaceURI === NS.p || p.namespaceURI === NS.p14) && SHAPE_NAMES.has(p.localName ?? '')) return p;
  }
  return undefined;
}

/** `"name" (shape id)` of a shape, from its `cNvPr`. */
function describeShape(shape: Element | undefined): string {
  if (!shape) return 'an element';
  if (shape.localName === 'spTree') return 'the shape tree (p:spTree)';
  const nv = children(shape).find((c) => c.localName?.startsWith('nv'));
  const cNvPr = nv ? children(nv).find((c) => c.localName === 'cNvPr') : undefined;
  const kind = shape.localName === 'pic' ? 'picture' : shape.localName === 'graphicFrame' ? 'graphic frame' : shape.localName === 'grpSp' ? 'group' : 'shape';
  return cNvPr ? `${kind} "${attr(cNvPr, 'name') ?? ''}" (id ${attr(cNvPr, 'id') ?? '?'})` : kind;
}

/** Text run properties (§21.1.2.3.9 `a:rPr` and its kin), whose fill colours text. */
const TEXT_PROPERTIES: ReadonlySet<string> = new Set(['rPr', 'defRPr', 'endParaRPr']);

/** A dangling id found on an element: which attribute and value. */
interface Dangling {
  el: Element;
  /** The dangling attributes' qualified names (`r:embed`, `r:id`, …). */
  attrs: string[];
  /** Their values (relationship ids), in the same order. */
  values: string[];
  /** Whether another attribute of the element still names a relationship that exists. */
  othersValid: boolean;
}

/**
 * Finds the elements with an attribute in the relationships namespace naming no
 * relationship in `ids`, and repairs each (see the module comment).
 * @returns whether the tree changed
 */
function repairReferences(state: RepairState, part: string, root: Element, ids: ReadonlySet<string>, dropped: ReadonlyMap<string, string>): boolean {
  const found: Dangling[] = [];
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    const attrs = el.attributes;
    let bad: string[] | undefined;
    let names: string[] | undefined;
    let othersValid = false;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs.item(i)!;
      if (a.namespaceURI !== NS.r || a.value === '') continue;
      if (ids.has(a.value)) othersValid = true;
      else (bad ??= []).push(a.value);
      if (!ids.has(a.value)) (names ??= []).push(`r:${a.localName}`);
    }
    if (bad && names) found.push({ el, attrs: names, values: bad, othersValid });
    for (let c = el.lastChild; c; c = c.previousSibling) if (isElement(c)) stack.push(c);
  }
  if (found.length === 0) return false;
  const removed = new Set<Element>();
  const isGone = (el: Element): boolean => {
    for (let p: Element | undefined = el; p; p = parentElement(p)) if (removed.has(p)) return true;
    return false;
  };
  for (const d of found) {
    if (isGone(d.el) || d.el === root) continue;
    repairOne(state, part, root, d, removed, dropped);
  }
  return true;
}

/** Repairs one element holding dangling ids (see the module comment for the rules). */
function repairOne(state: RepairState, part: string, root: Element, d: Dangling, removed: Set<Element>, dropped: ReadonlyMap<string, string>): void {
  const { el } = d;
  const why = d.attrs
    .map((name, i) => {
      const id = d.values[i]!;
      const target = dropped.get(id);
      return target ? `${name}="${id}" targets ${target}, which is missing` : `${name}="${id}" names no relationship of the part`;
    })
    .join('; ');
  const push = (element: string, action: RepairAction, detail: string): void => {
    state.repairs.push({ part, element, action, detail: `${why}: ${detail}` });
  };
  const remove = (victim: Element): void => {
    removed.add(victim);
    parentElement(victim)?.removeChild(victim);
  };
  const local = el.localName ?? '';

  // Inside the slide's timing: the animations go (§19.3.1.48).
  const timing = ancestor(el, NS.p, 'timing');
  if (timing) {
    remove(timing);
    push('p:timing', 'reference_removed', "the slide's animations (p:timing) are removed");
    return;
  }
  // Inside an extension (a:ext / p:ext of an extension list): the extension goes.
  const ext = extensionOf_(el, root);
  if (ext) {
    const list = parentElement(ext);
    remove(ext);
    // an extension list left empty goes too
    if (list && children(list).length === 0) remove(list);
    const uri = attr(ext, 'uri');
    push(qname(ext), 'reference_removed', `the extension${uri ? ` ${uri}` : ''} holding ${qname(el)} is removed`);
    return;
  }

  if (is(el, NS.a, 'blip')) {
    if (d.othersValid) {
      for (const a of d.attrs) el.removeAttributeNS(NS.r, a.slice(2));
      push('a:blip', 'reference_removed', `the dangling attribute is removed from the image of ${describeShape(shapeOf(el))}; its other reference stays`);
      return;
    }
    const holder = parentElement(el);
    if (holder && is(holder, NS.a, 'buBlip')) {
      remove(holder);
      push('a:buBlip', 'reference_removed', 'the picture bullet is removed (the bullet is inherited)');
      return;
    }
    if (holder && is(holder, NS.p, 'blipFill')) {
      const shape = shapeOf(el);
      remove(el);
      push('a:blip', 'reference_removed', `${describeShape(shape)} loses its image and keeps its frame (an empty p:blipFill, as PowerPoint saves a picture it cannot display)`);
      return;
    }
    if (holder && is(holder, NS.a, 'blipFill') && TEXT_PROPERTIES.has(parentElement(holder)?.localName ?? '')) {
      // text filled with a picture keeps the fill it inherits rather than turning invisible
      const shape = shapeOf(holder);
      remove(holder);
      push('a:blipFill', 'reference_removed', `the picture fill of text in ${describeShape(shape)} has no image; it is removed (the text keeps its inherited fill)`);
      return;
    }
    if (holder && is(holder, NS.a, 'blipFill')) {
      const where = shapeOf(holder) ? describeShape(shapeOf(holder)) : ancestor(holder, NS.p, 'bg') ? 'the background' : 'a fill';
      const noFill = createElement(el.ownerDocument!, NS.a, 'a:noFill');
      parentElement(holder)?.replaceChild(noFill, holder);
      removed.add(holder);
      push('a:blipFill', 'reference_removed', `the picture fill of ${where} has no image; it becomes no fill (a:noFill)`);
      return;
    }
  }
  if ((local === 'hlinkClick' || local === 'hlinkHover' || local === 'hlinkMouseOver') && el.namespaceURI === NS.a) {
    const shape = shapeOf(el);
    remove(el);
    push(qname(el), 'reference_removed', `the hyperlink of ${describeShape(shape)} is removed; its text stays`);
    return;
  }
  if (is(el, NS.c, 'chart') || is(el, NS_CX, 'chart') || is(el, NS.dgm, 'relIds')) {
    const frame = ancestor(el, NS.p, 'graphicFrame');
    const what = is(el, NS.dgm, 'relIds') ? 'diagram (SmartArt)' : 'chart';
    if (frame) {
      const replacement = removeShape(frame, removed);
      push('p:graphicFrame', 'shape_removed', `the ${what} of ${describeShape(frame)} is missing; the frame is removed, as PowerPoint's repair removes a ${what} it cannot read${replacement}`);
      return;
    }
  }
  if ((is(el, NS.p, 'contentPart') || is(el, NS.p14, 'contentPart')) && el !== root) {
    const replacement = removeShape(el, removed);
    push(qname(el), 'shape_removed', `the ink ${describeShape(el)} is missing; it is removed${replacement}`);
    return;
  }
  if (is(el, NS.p, 'oleObj')) {
    for (const a of d.attrs) el.removeAttributeNS(NS.r, a.slice(2));
    push('p:oleObj', 'reference_removed', `the embedded object of ${describeShape(shapeOf(el))} is missing; the reference is removed and the frame keeps its preview picture`);
    return;
  }
  if (is(el, NS.p, 'snd')) {
    const action = ancestor(el, NS.p, 'sndAc');
    if (action) {
      remove(action);
      push('p:sndAc', 'reference_removed', 'the transition sound is removed');
      return;
    }
  }
  if (is(el, NS.p, 'sldLayoutId')) {
    remove(el);
    push('p:sldLayoutId', 'reference_removed', `the master's layout list entry ${attr(el, 'id') ?? ''} is removed`);
    return;
  }
  if (is(el, NS.p, 'sldId') || is(el, NS.p, 'sldMasterId')) return; // left to the presentation checks, which refuse it
  const parent = parentElement(el);
  remove(el);
  const host = shapeOf(parent ?? el);
  push(qname(el), 'reference_removed', `${qname(el)}${host ? ` of ${describeShape(host)}` : ''} is removed`);
}

/** The `a:ext`/`p:ext` (child of an extension list) that holds `el`, if any, below `root`. */
function extensionOf_(el: Element, root: Element): Element | undefined {
  for (let p = parentElement(el); p && p !== root; p = parentElement(p)) {
    const pp = parentElement(p);
    if (p.localName === 'ext' && pp?.localName === 'extLst') return p;
  }
  return undefined;
}

/**
 * Removes a shape. Inside `mc:Choice` the choice goes, and when no choice is left the
 * `mc:AlternateContent` is replaced by its `mc:Fallback`'s content (ECMA-376 Part 3, §10.2).
 * @returns words for the detail (what took its place), '' when nothing did
 */
function removeShape(shape: Element, removed: Set<Element>): string {
  const parent = parentElement(shape);
  removed.add(shape);
  if (parent && is(parent, NS.mc, 'Choice')) {
    const ac = parentElement(parent);
    parent.parentNode?.removeChild(parent);
    removed.add(parent);
    if (ac && children(ac, NS.mc, 'Choice').length === 0) {
      const fallback = children(ac, NS.mc, 'Fallback')[0];
      const host = parentElement(ac);
      if (fallback && host) {
        for (const c of children(fallback)) host.insertBefore(c, ac);
      }
      host?.removeChild(ac);
      removed.add(ac);
      return fallback ? '; its mc:Fallback content takes its place' : '';
    }
    return '; another mc:Choice stays';
  }
  parent?.removeChild(shape);
  return '';
}

// ---------------------------------------------------------------- shape ids

/** A shape's `p:cNvPr` with its id. */
interface IdEntry {
  cNvPr: Element;
  id: number;
}

/**
 * Renumbers shape ids used twice in a slide, layout or master (§19.3.1.12): the first
 * keeps its id, every repeat gets the next id above the part's largest. Shapes inside
 * `mc:Fallback` (the other branch of an `mc:AlternateContent`) and the preview picture of
 * an OLE object are not shapes of their own and keep theirs.
 * @returns whether the tree changed
 */
function renumberDuplicateIds(state: RepairState, part: string, root: Element): boolean {
  const entries: IdEntry[] = [];
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    if (is(el, NS.mc, 'Fallback') || is(el, NS.p, 'oleObj')) continue;
    if (is(el, NS.p, 'cNvPr')) {
      const id = Number(attr(el, 'id'));
      if (Number.isInteger(id) && id >= 0) entries.push({ cNvPr: el, id });
    }
    for (let c = el.lastChild; c; c = c.previousSibling) if (isElement(c)) stack.push(c);
  }
  const seen = new Map<number, IdEntry>();
  const repeats: IdEntry[] = [];
  let max = 0;
  for (const e of entries) {
    if (e.id > max && e.id < 0xffffffff) max = e.id;
    if (seen.has(e.id)) repeats.push(e);
    else seen.set(e.id, e);
  }
  if (repeats.length === 0) return false;
  // connections (a:stCxn / a:endCxn) naming a repeated id: resolved before any id changes
  const repeated = new Set(repeats.map((e) => e.id));
  const byId = new Map<number, IdEntry[]>();
  for (const e of entries) if (repeated.has(e.id)) byId.set(e.id, [...(byId.get(e.id) ?? []), e]);
  const connections: Array<{ el: Element; target: IdEntry }> = [];
  for (const local of ['stCxn', 'endCxn']) {
    for (const c of Array.from(root.getElementsByTagNameNS(NS.a, local))) {
      const id = Number(attr(c, 'id'));
      const candidates = byId.get(id);
      if (candidates) connections.push({ el: c, target: nearest(c, candidates) });
    }
  }
  const newId = new Map<IdEntry, number>();
  for (const e of repeats) {
    const first = seen.get(e.id)!;
    const to = ++max;
    newId.set(e, to);
    const detail = `shape id ${e.id} is used by ${describeShape(shapeOf(first.cNvPr))} and again by ${describeShape(shapeOf(e.cNvPr))}; the repeat is renumbered to ${to} (connections follow the nearest shape; animations on id ${e.id} keep the first)`;
    e.cNvPr.setAttribute('id', String(to));
    state.repairs.push({ part, element: 'p:cNvPr', action: 'shape_id_renumbered', detail });
  }
  for (const { el, target } of connections) {
    const to = newId.get(target);
    if (to !== undefined) el.setAttribute('id', String(to));
  }
  return true;
}

/**
 * Of the shapes sharing an id, the one a connection means: the one sharing the deepest
 * enclosing group with the connector, the first in document order on a tie.
 */
function nearest(connection: Element, candidates: readonly IdEntry[]): IdEntry {
  const groupsOf = (el: Element): Element[] => {
    const out: Element[] = [];
    for (let p = parentElement(el); p; p = parentElement(p)) if (is(p, NS.p, 'grpSp') || is(p, NS.p, 'spTree')) out.push(p);
    return out;
  };
  const mine = groupsOf(connection);
  let best = candidates[0]!;
  let bestDepth = -1;
  for (const c of candidates) {
    const theirs = new Set(groupsOf(c.cNvPr));
    const common = mine.findIndex((g) => theirs.has(g));
    // the lower the index in `mine`, the deeper the shared group
    const depth = common < 0 ? -1 : mine.length - common;
    if (depth > bestDepth) {
      best = c;
      bestDepth = depth;
    }
  }
  return best;
}

/** Names of the actions, for documentation and tests. */
export const REPAIR_ACTIONS: readonly RepairAction[] = ['reference_removed', 'shape_removed', 'relationship_dropped', 'content_type_added', 'part_dropped', 'shape_id_renumbered'];
