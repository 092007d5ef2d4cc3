/**
 * The presentation part (ECMA-376 Part 1, §19.2.1.26 `p:presentation`, §13.3.6 Presentation
 * Part): the upload sanity check, and the reading of the slide list, master list, slide size
 * and default text style.
 */
import { PackageError } from '../errors.js';
import type { OpcPackage, Relationship } from '../opc/package.js';
import { CT, MACRO_MAIN_TYPES, PRESENTATION_MAIN_TYPES, RT } from '../opc/constants.js';
import { NS, attr, attrNS, child, children, decodeXmlBytes, intAttr, type Element } from '../xml.js';

const MACRO_MESSAGE = 'macro-enabled presentations are refused: templates must never carry code into generated decks';

/** Outcome of {@link checkPresentationPackage}. */
export interface PresentationPackageInfo {
  /** Absolute part name of the presentation part, e.g. `/ppt/presentation.xml`. */
  mainPartName: string;
  /** True when the main part is a template (`.potx`, content type `presentationml.template.main+xml`). */
  isTemplate: boolean;
}

/**
 * The upload sanity check: the package relationship `officeDocument` (ECMA-376 Part 2,
 * §9.3; Part 1, §13.3.6 Presentation Part) targets a part whose content type is a
 * presentation main type, and the package carries no macros.
 *
 * Cheap: reads the content types and the relationships parts (small); parses no slide.
 *
 * @throws PackageError `not_presentation` when there is no officeDocument relationship, its
 *   target is missing, or the target is not a presentation (a `.docx` or `.xlsx` renamed,
 *   macro-enabled or not); `macro_enabled` when the main part has a macro-enabled
 *   presentation content type (`.pptm`, `.potm`, `.ppsm`), or any part is a VBA project
 *   (content type or `vbaProject.bin`) or is related as one.
 */
export function checkPresentationPackage(pkg: OpcPackage): PresentationPackageInfo {
  const officeRels = pkg.rels('/').filter((r) => r.type === RT.officeDocument && !r.external);
  const main = officeRels[0]?.targetPartName;
  const mainType = main !== undefined && pkg.hasPart(main) ? pkg.contentType(main) : undefined;

  if (main === undefined) {
    throw new PackageError('not_presentation', 'the package has no officeDocument relationship in /_rels/.rels, so it is not a PowerPoint presentation');
  }
  if (mainType === undefined) {
    throw new PackageError('not_presentation', `the package's main part ${main} is missing or has no content type, so it is not a PowerPoint presentation`);
  }
  // A .pptm/.potm/.ppsm is a presentation, but one refused by policy.
  if (MACRO_MAIN_TYPES.has(mainType)) {
    throw new PackageError('macro_enabled', MACRO_MESSAGE);
  }
  if (!PRESENTATION_MAIN_TYPES.has(mainType)) {
    throw new PackageError('not_presentation', `the package's main part ${main} has content type ${mainType}, not a PowerPoint presentation or template (is it a Word or Excel file renamed to .pptx?)`);
  }
  // A plain presentation content type with a VBA project slipped in is refused all the same.
  if (hasVbaProject(pkg)) {
    throw new PackageError('macro_enabled', MACRO_MESSAGE);
  }
  return { mainPartName: main, isTemplate: mainType === CT.templateMain };
}

/**
 * True when any part has the vbaProject content type or is named `vbaProject.bin`, or any
 * relationships part holds a vbaProject relationship (MS-OFFMACRO2).
 *
 * Only the relationships parts whose text could hold that type are parsed (see
 * {@link mayRelateVba}): parsing them all made the upload check itself the attack — 16
 * relationships parts of 15 MiB each (7 MB zipped) kept it busy for over a minute.
 */
function hasVbaProject(pkg: OpcPackage): boolean {
  const relsParts: string[] = [];
  for (const name of pkg.partNames()) {
    if (pkg.contentType(name) === CT.vbaProject || /\/vbaProject\.bin$/i.test(name)) return true;
    if (/\.rels$/i.test(name)) relsParts.push(name);
  }
  for (const name of relsParts) {
    const m = /^(.*\/)_rels\/([^/]*)\.rels$/.exec(name);
    if (!m || !mayRelateVba(pkg.getBytes(name), name)) continue;
    const source = m[2] === '' ? '/' : `${m[1]}${m[2]}`;
    if (pkg.rels(source).some((r) => r.type === RT.vbaProject)) return true;
  }
  return false;
}

const VBA_MARK = Buffer.from('vbaProject');
const CHAR_REF = Buffer.from('&#');

/**
 * Whether a relationships part's text could give a relationship the vbaProject type: it
 * holds `vbaProject` as written, or a character reference (`&#…;`), the one way an
 * attribute value can spell letters its text does not hold (DTD entities are refused).
 * A byte search for UTF-8; UTF-16 (with its byte order mark) is decoded first.
 */
function mayRelateVba(bytes: Uint8Array, partName: string): boolean {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    const text = decodeXmlBytes(bytes, partName);
    return text.includes('vbaProject') || text.includes('&#');
  }
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return b.includes(VBA_MARK) || b.includes(CHAR_REF);
}

/** One `p:sldId` (§19.2.1.33) of `p:sldIdLst` (§19.2.1.34), resolved. */
export interface SlideRef {
  /** `p:sldId/@id` (ST_SlideId, 256 ≤ id < 2147483648). */
  sldId: number;
  /** Relationship id from the presentation part. */
  rId: string;
  /** Absolute part name of the slide. */
  partName: string;
}

/** One `p:sldMasterId` (§19.2.1.36) of `p:sldMasterIdLst` (§19.2.1.37), resolved. */
export interface MasterRef {
  rId: string;
  partName: string;
}

/** What the engine reads from the presentation part. */
export interface PresentationInfo {
  partName: string;
  isTemplate: boolean;
  /** Slide size `p:sldSz` (§19.2.1.39) in EMU; 9144000 × 6858000 (10 × 7.5 in) when absent. */
  slideWidthEmu: number;
  slideHeightEmu: number;
  /** Slides in `p:sldIdLst` order: this order, not part names, is the deck's order. */
  slides: SlideRef[];
  /** Slide masters in `p:sldMasterIdLst` order. */
  masters: MasterRef[];
  /** `p:defaultTextStyle` (§19.2.1.8), a CT_TextListStyle, when present. */
  defaultTextStyle: Element | undefined;
  /** Section name by slide id (`p14:sectionLst`, PowerPoint 2010 extension); slides in no section are absent. */
  sectionBySlideId: Map<number, string>;
  /** `p:presentation/@firstSlideNum` (default 1). */
  firstSlideNumber: number;
  root: Element;
}

/** Default slide size when `p:sldSz` is absent: 4:3, 10 in × 7.5 in, in EMU. */
export const DEFAULT_SLIDE_SIZE_EMU = { cx: 9144000, cy: 6858000 } as const;

/**
 * Reads the presentation part: slide list (in `p:sldIdLst` order), master list, slide size
 * and default text style.
 *
 * @throws PackageError `bad_structure` when the main part is absent or has no
 *   `p:presentation` root, or a listed slide or master relationship cannot be resolved;
 *   `not_presentation` / `macro_enabled` from {@link checkPresentationPackage}.
 */
export function readPresentation(pkg: OpcPackage): PresentationInfo {
  const office = pkg.rels('/').find((r) => r.type === RT.officeDocument && !r.external);
  if (!office?.targetPartName || !pkg.hasPart(office.targetPartName)) {
    throw new PackageError('bad_structure', office ? `the presentation part ${office.targetPartName ?? office.target} named by /_rels/.rels is missing` : 'the package has no presentation part (no officeDocument relationship in /_rels/.rels)');
  }
  const { mainPartName, isTemplate } = checkPresentationPackage(pkg);
  const root = pkg.getXml(mainPartName).documentElement;
  if (!root || root.localName !== 'presentation' || root.namespaceURI !== NS.p) {
    throw new PackageError('bad_structure', `${mainPartName} has no p:presentation root element`);
  }
  const relsById = indexRels(pkg.rels(mainPartName));

  const slides: SlideRef[] = [];
  for (const el of children(child(root, NS.p, 'sldIdLst') ?? root, NS.p, 'sldId')) {
    const rId = attrNS(el, NS.r, 'id');
    const rel = rId === undefined ? undefined : relsById.get(rId);
    if (!rId || !rel?.targetPartName || !pkg.hasPart(rel.targetPartName)) {
      throw new PackageError('bad_structure', `slide list entry ${attr(el, 'id') ?? '?'} (r:id ${rId ?? 'missing'}) of ${mainPartName} does not lead to a slide part`);
    }
    slides.push({ sldId: intAttr(el, 'id', 0), rId, partName: rel.targetPartName });
  }

  const masters: MasterRef[] = [];
  for (const el of children(child(root, NS.p, 'sldMasterIdLst') ?? root, NS.p, 'sldMasterId')) {
    const rId = attrNS(el, NS.r, 'id');
    const rel = rId === undefined ? undefined : relsById.get(rId);
    if (!rId || !rel?.targetPartName || !pkg.hasPart(rel.targetPartName)) {
      throw new PackageError('bad_structure', `slide master list entry (r:id ${rId ?? 'missing'}) of ${mainPartName} does not lead to a slide master part`);
    }
    masters.push({ rId, partName: rel.targetPartName });
  }
  // Some producers relate masters without listing them; PowerPoint would repair, so do we.
  for (const r of pkg.rels(mainPartName)) {
    if (r.type === RT.slideMaster && r.targetPartName && pkg.hasPart(r.targetPartName) && !masters.some((m) => m.partName === r.targetPartName)) {
      masters.push({ rId: r.id, partName: r.targetPartName });
    }
  }

  const sz = child(root, NS.p, 'sldSz');
  const sectionBySlideId = new Map<number, string>();
  for (const section of root.getElementsByTagNameNS(NS.p14, 'section')) {
    const name = attr(section, 'name') ?? '';
    for (const id of section.getElementsByTagNameNS(NS.p14, 'sldId')) {
      const n = intAttr(id, 'id');
      if (n !== undefined && !sectionBySlideId.has(n)) sectionBySlideId.set(n, name);
    }
  }
  return {
    partName: mainPartName,
    isTemplate,
    slideWidthEmu: intAttr(sz, 'cx', DEFAULT_SLIDE_SIZE_EMU.cx),
    slideHeightEmu: intAttr(sz, 'cy', DEFAULT_SLIDE_SIZE_EMU.cy),
    slides,
    masters,
    defaultTextStyle: child(root, NS.p, 'defaultTextStyle'),
    sectionBySlideId,
    firstSlideNumber: intAttr(root, 'firstSlideNum', 1),
    root,
  };
}

/** Relationships of a part keyed by id. */
export function indexRels(rels: readonly Relationship[]): Map<string, Relationship> {
  const m = new Map<string, Relationship>();
  for (const r of rels) if (!m.has(r.id)) m.set(r.id, r);
  return m;
}
