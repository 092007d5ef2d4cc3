/**
 * Structural integrity of a presentation package, checked before a template is accepted:
 * the faults that make PowerPoint refuse a file or ask to repair it in ways Slidewright
 * does not (and that would be carried into every deck generated from it). Each fault is
 * named with its part and what is wrong.
 *
 * It runs after the repair step (`repairTemplate`, ./repair.ts), which repairs what
 * PowerPoint repairs (dangling relationship ids, relationships to missing parts, parts
 * without a content type, duplicate shape ids) and lists each repair; what is left here is
 * refused: slide and master ids out of range or repeated, a slide list naming a missing
 * slide, tables whose rows do not match their grid, control characters in text, and any
 * relationship reference the repair step leaves (a slide's missing layout, say).
 */
import { PackageError } from './errors.js';
import type { OpcPackage } from './opc/package.js';
import { CT, RT } from './opc/constants.js';
import { NS, attr, children, descendants, isElement, type Element, type Node } from './xml.js';

/** Limits on the size of a template. */
export interface TemplateLimits {
  /** Most slides a template may have. */
  maxSlides: number;
}

export const DEFAULT_TEMPLATE_LIMITS: TemplateLimits = { maxSlides: 1000 };

/** XML 1.0 forbids these characters even as character references (§2.2). */
const ILLEGAL_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

const SLIDE_ID_MIN = 256;
const SLIDE_ID_MAX = 2147483647;
const MASTER_ID_MIN = 2147483648;
const MASTER_ID_MAX = 4294967295;

/**
 * Checks the presentation part's id lists, every slide, layout and master part's
 * relationship references, tables and text.
 *
 * @param mainPartName - the presentation part (`/ppt/presentation.xml`)
 * @throws PackageError `too_large` past `limits.maxSlides`; `bad_structure` naming the
 *   first fault found
 */
export function checkPresentationIntegrity(pkg: OpcPackage, mainPartName: string, limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS): void {
  const pres = pkg.getXml(mainPartName).documentElement!;
  const slideIds = descendants(pres, NS.p, 'sldId');
  if (slideIds.length > limits.maxSlides) {
    throw new PackageError('too_large', `the presentation has ${slideIds.length} slides; templates may have at most ${limits.maxSlides}`);
  }
  checkIdRange(slideIds, SLIDE_ID_MIN, SLIDE_ID_MAX, 'p:sldId', mainPartName);
  checkIdRange(descendants(pres, NS.p, 'sldMasterId'), MASTER_ID_MIN, MASTER_ID_MAX, 'p:sldMasterId', mainPartName);

  const parts = [CT.slide, CT.slideLayout, CT.slideMaster].flatMap((ct) => pkg.partsOfType(ct));
  for (const part of parts) {
    const root = pkg.getXml(part).documentElement!;
    checkRelationshipReferences(pkg, part, root);
    for (const tbl of descendants(root, NS.a, 'tbl')) checkTable(tbl, part);
    for (const t of descendants(root, NS.a, 't')) {
      const m = ILLEGAL_XML_CHARS.exec(t.textContent ?? '');
      if (m) {
        const code = m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
        throw new PackageError('bad_structure', `${part} has the control character U+${code} in its text, which XML 1.0 forbids`);
      }
    }
  }
  for (const rel of pkg.rels(mainPartName)) {
    if (rel.type === RT.slide && rel.targetPartName && !pkg.hasPart(rel.targetPartName)) {
      throw new PackageError('bad_structure', `${mainPartName} relates slide ${rel.targetPartName}, which is missing`);
    }
  }
}

function checkIdRange(els: Element[], min: number, max: number, what: string, part: string): void {
  const seen = new Set<number>();
  for (const el of els) {
    const id = Number(attr(el, 'id'));
    if (!Number.isInteger(id) || id < min || id > max) {
      throw new PackageError('bad_structure', `${part}: ${what} id="${attr(el, 'id') ?? ''}" is out of the range ${min}–${max}`);
    }
    if (seen.has(id)) throw new PackageError('bad_structure', `${part}: ${what} id="${id}" is used twice`);
    seen.add(id);
  }
}

/**
 * Every attribute in the relationships namespace (r:id, r:embed, r:link, ...) names a
 * relationship whose internal target exists. After the repair step only references it
 * leaves on purpose can fail here.
 */
function checkRelationshipReferences(pkg: OpcPackage, part: string, root: Element): void {
  // A missing target is fatal only when the part uses the relationship: unused dangling
  // relationships are common in real files and harmless.
  const rels = new Map(pkg.rels(part).map((r) => [r.id, r]));
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    const attrs = n.attributes;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs.item(i)!;
      if (a.namespaceURI !== NS.r || a.value === '') continue;
      const rel = rels.get(a.value);
      if (!rel) throw new PackageError('bad_structure', `${part}: ${a.name}="${a.value}" has no relationship in the part's .rels`);
      if (!rel.external && rel.targetPartName && !pkg.hasPart(rel.targetPartName)) {
        throw new PackageError('bad_structure', `${part}: ${a.name}="${a.value}" targets ${rel.targetPartName}, which is missing from the package`);
      }
    }
    for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
  }
}

/** ECMA-376 §21.1.3.13: every row has one a:tc per a:gridCol (merged cells included). */
function checkTable(tbl: Element, part: string): void {
  const grid = children(tbl, NS.a, 'tblGrid')[0];
  const cols = grid ? children(grid, NS.a, 'gridCol').length : 0;
  if (cols === 0) throw new PackageError('bad_structure', `${part}: a table has no grid columns`);
  children(tbl, NS.a, 'tr').forEach((tr, i) => {
    const cells = children(tr, NS.a, 'tc').length;
    if (cells !== cols) {
      throw new PackageError('bad_structure', `${part}: table row ${i + 1} has ${cells} cells but the table grid has ${cols} columns`);
    }
  });
}
