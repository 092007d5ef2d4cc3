/**
 * Relationships being written (ECMA-376 Part 2, §9.3): the one writer of a relationships
 * part's XML and the one allocator of relationship ids. Every part the engine writes with
 * relationships goes through {@link OpcPackage.setRels}, which writes with
 * {@link relationshipsXml}; every new `rIdN` comes from a {@link RelIdAllocator}.
 */
import { NS } from '../xml.js';
import { relativeTarget } from './part-names.js';

/**
 * A relationship to write: an internal one names its target part (`targetPartName`,
 * absolute), an external one its URI (`target`). Ids are written as given.
 */
export interface RelationshipDraft {
  id: string;
  type: string;
  external: boolean;
  /** Absolute part name of an internal target; undefined for an external one. */
  targetPartName: string | undefined;
  /** The URI of an external target (ignored for an internal one, whose target is made relative to the source). */
  target?: string;
}

function escapeAttribute(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The XML of the relationships part of `source` (`Relationships`, ECMA-376 Part 2,
 * §9.3.2.1), written as text: internal targets relative to the source part's folder
 * (`/` for the package relationships), external ones as given with `TargetMode="External"`.
 *
 * @returns the XML and, per relationship, the `Target` written
 */
export function relationshipsXml(source: string, rels: readonly RelationshipDraft[]): { xml: string; targets: string[] } {
  let xml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Relationships xmlns="${NS.pkgRels}">`;
  const targets: string[] = [];
  for (const r of rels) {
    const target = r.external ? (r.target ?? '') : relativeTarget(source === '/' ? '/x' : source, r.targetPartName!);
    targets.push(target);
    xml += `<Relationship Id="${escapeAttribute(r.id)}" Type="${escapeAttribute(r.type)}" Target="${escapeAttribute(target)}"${r.external ? ' TargetMode="External"' : ''}/>`;
  }
  return { xml: `${xml}</Relationships>`, targets };
}

/**
 * Allocates relationship ids of one source part: `rIdN` with the lowest free N from where
 * it stands, never one already used (ids are unique per source part, ECMA-376 Part 2,
 * §9.3.2.2). It starts at `start` and only moves forward, so ids handed out in a row are
 * increasing.
 */
export class RelIdAllocator {
  private readonly used: Set<string>;
  private n: number;

  /**
   * @param used - the ids the part has already (copied, not changed)
   * @param start - the first N tried (1 by default; one past a list's length makes new ids
   *   follow the numbering of the ones copied)
   */
  constructor(used: Iterable<string> = [], start = 1) {
    this.used = new Set(used);
    this.n = start;
  }

  /** The next free id, taken. */
  next(): string {
    while (this.used.has(`rId${this.n}`)) this.n++;
    const id = `rId${this.n++}`;
    this.used.add(id);
    return id;
  }
}

/**
 * Adds an internal relationship to `rels` with a new id (the lowest free `rIdN` from one
 * past the list's length) and returns that id.
 */
export function appendRelationship(rels: RelationshipDraft[], type: string, targetPartName: string): string {
  const id = new RelIdAllocator(
    rels.map((r) => r.id),
    rels.length + 1,
  ).next();
  rels.push({ id, type, external: false, targetPartName });
  return id;
}
