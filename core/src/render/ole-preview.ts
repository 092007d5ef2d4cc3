/**
 * The preview picture of a legacy OLE object (ECMA-376 Part 1, §19.3.2.4 `p:oleObj` without
 * a `p:pic`): PowerPoint 2007 keeps it in the slide's VML drawing part, on the `v:shape`
 * whose id is the object's `@spid`, as `v:imagedata/@o:relid` (a relationship of the VML
 * part). VML parts are often not well-formed XML, so they are scanned, not parsed.
 */
import type { OpcPackage } from '../ooxml/opc/package.js';
import { attr, type Element } from '../ooxml/xml.js';

/** Largest VML part scanned, bytes. */
const MAX_VML_BYTES = 8_000_000;

/**
 * Where the preview picture of a legacy OLE object is: the VML part and the relationship
 * id to resolve from it; undefined when the slide has no VML shape for it.
 */
export function legacyOlePreview(pkg: OpcPackage, slidePart: string, oleObj: Element | undefined): { part: string; rId: string } | undefined {
  const spid = attr(oleObj, 'spid');
  if (!spid) return undefined;
  for (const rel of pkg.rels(slidePart)) {
    if (!/\/vmlDrawing$/.test(rel.type) || rel.external || !rel.targetPartName || !pkg.hasPart(rel.targetPartName)) continue;
    const bytes = pkg.getBytes(rel.targetPartName);
    if (bytes.length > MAX_VML_BYTES) continue;
    const vml = new TextDecoder().decode(bytes);
    const id = spid.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const shape = new RegExp(`<v:shape\\b[^>]*?\\b(?:o:spid|id)\\s*=\\s*["']${id}["'][^>]*>([\\s\\S]*?)</v:shape>`).exec(vml);
    const relid = shape ? /<v:imagedata\b[^>]*?\bo:relid\s*=\s*["']([^"']+)["']/.exec(shape[1]!)?.[1] : undefined;
    if (relid) return { part: rel.targetPartName, rId: relid };
  }
  return undefined;
}
