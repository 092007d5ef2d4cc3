/**
 * Copies template parts into the deck being written (ECMA-376 Part 2 parts and
 * relationships): each part with the closure of its relationships, retargeted at the
 * copies; layouts, masters, themes and binary parts stored once per content (SHA-1 over
 * the part and, recursively, what it relates to), other parts once per owner; dropped
 * relationships (comments, macros, slide-to-slide links, ...) and the references to them
 * removed; template pictures past the pixel limits held back until they are made. What it
 * writes for a slide is recorded in the deck writer's journal, so a failed slide is undone.
 */
import { createHash } from 'node:crypto';
import type { SlideWarning } from '../../domain/content.js';
import { CT, RT } from '../../ooxml/opc/constants.js';
import type { OpcPackage } from '../../ooxml/opc/package.js';
import type { RelationshipDraft } from '../../ooxml/opc/relationships.js';
import { extensionOf } from '../../ooxml/opc/part-names.js';
import { NS, child, children, decodeXmlBytes, type Document, type Element } from '../../ooxml/xml.js';
import { cloneDocument, cloneRootWithStubs } from '../draft/index.js';
import { renumberDuplicateShapeIds, shapeIdStats } from '../slide/shapes.js';
import { deliverOversizedPicture, planOversizedPicture, type OversizedPicture, type TemplatePictureLimits } from './picture-limits.js';
import { SlideFailure } from './slide-failure.js';
import type { TemplateSource } from './templates.js';

const OFFICE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** Relationship types never carried into a generated deck. */
const DROPPED_REL_TYPES: ReadonlySet<string> = new Set([
  RT.notesSlide,
  RT.notesMaster,
  RT.handoutMaster,
  RT.comments,
  RT.commentAuthors,
  'http://schemas.microsoft.com/office/2018/10/relationships/comments',
  'http://schemas.microsoft.com/office/2018/10/relationships/authors',
  RT.vbaProject,
  'http://schemas.microsoft.com/office/2006/relationships/vbaProjectSignature',
  RT.digitalSignatureOrigin,
  `${PKG_REL}/digital-signature/signature`,
  `${PKG_REL}/metadata/thumbnail`,
  RT.slide,
  `${OFFICE_REL}/customXml`,
  `${OFFICE_REL}/printerSettings`,
  `${OFFICE_REL}/slideUpdateInfo`,
]);

/**
 * Parts that are never copied as the target of an ordinary relationship (a hyperlink to
 * another slide): the deck decides which slides, layouts and masters it has.
 */
const STRUCTURAL_CONTENT_TYPES: ReadonlySet<string> = new Set([
  CT.slide,
  CT.slideLayout,
  CT.slideMaster,
  CT.notesSlide,
  CT.notesMaster,
  CT.presentationMain,
  CT.templateMain,
  CT.slideshowMain,
  CT.macroPresentationMain,
  CT.macroTemplateMain,
  CT.macroSlideshowMain,
]);

const FONT_REL = `${OFFICE_REL}/font`;
/** Children of `p:sldMaster` that a deck edits (§19.3.1.42): the rest is written from the template. */
const MASTER_EDITED_CHILDREN: ReadonlySet<string> = new Set(['sldLayoutIdLst']);

function isDroppedContentType(ct: string | undefined): boolean {
  if (!ct) return false;
  return ct === CT.vbaProject || /macroEnabled|digital-signature/i.test(ct);
}

export function isXmlContentType(ct: string | undefined): boolean {
  return !!ct && (ct.endsWith('+xml') || ct.endsWith('/xml'));
}

/** A template picture past the pixel limits, copied into the deck as an empty part until it is made ({@link PartCopier.deliverPictures}). */
export interface PendingPicture {
  src: TemplateSource;
  /** The template's part. */
  part: string;
  /** The deck's part. */
  outName: string;
  /** The part whose relationship brought it. */
  from: string | undefined;
  plan: OversizedPicture;
}

/** A slide master copied into the deck, its layout list written when the deck is finished. */
export interface MasterRecord {
  /** The template and its master part this record copies. */
  src: TemplateSource;
  srcPart: string;
  outName: string;
  doc: Document;
  /** Stand-ins in `doc` for the template's children written unchanged (see `cloneRootWithStubs`). */
  stubs?: Map<Element, Element>;
  rels: RelationshipDraft[];
  /** Output layout part names, in the order they were first used. */
  layouts: string[];
}

/** The parts of one deck copied from its templates. */
export class PartCopier {
  /** Deck part of each template part stored once per content, by template id and part name. */
  private readonly sharedBySource = new Map<string, string>();
  /** Deck part by content key ({@link contentKey}). */
  private readonly sharedByKey = new Map<string, string>();
  /** The slide masters copied, in the order they were first used. */
  readonly masters: MasterRecord[] = [];
  private readonly masterByOut = new Map<string, MasterRecord>();
  /** Template pictures past the pixel limits copied for the slide being added, made once it is built. */
  readonly picturesPending: PendingPicture[] = [];

  /**
   * @param out - the deck
   * @param record - records how to undo a change (the slide being added is all or nothing)
   * @param warn - receives the warnings of pictures past the pixel limits
   */
  constructor(
    private readonly out: OpcPackage,
    private readonly pictureLimits: TemplatePictureLimits,
    private readonly record: (undo: () => void) => void,
    private readonly warn: (warning: SlideWarning) => void,
  ) {}

  /** A picture part stored once per content (the key {@link contentKey} gives a binary part without relationships). */
  storeMedia(bytes: Uint8Array, contentType: string, extension: string): string {
    const h = createHash('sha1');
    h.update(contentType);
    h.update('\u0000');
    h.update(bytes);
    const key = h.digest('hex');
    const same = this.sharedByKey.get(key);
    if (same) return same;
    const name = this.allocate(`/ppt/media/image1.${extension}`, true);
    this.sharedByKey.set(key, name);
    this.out.setBytes(name, bytes, contentType);
    this.record(() => {
      this.sharedByKey.delete(key);
      this.out.removePart(name);
    });
    return name;
  }

  /**
   * A new part name like `srcName`: its own name when free (unless `numbered`), else the
   * same folder and stem with the next free number (`/ppt/media/image7.png`).
   */
  /**
   * A new part name like `srcName` (its own name when free unless `numbered`, else the next
   * free number of its kind), given back if the slide being added is undone.
   */
  allocate(srcName: string, numbered = false): string {
    const name = this.out.newPartName(srcName, numbered);
    this.record(() => this.out.names.release(name));
    return name;
  }

  /**
   * The relationships of `srcPart`, retargeted at copies in the output. Ids are kept, so
   * the part's XML needs no change except where a relationship is dropped (returned in
   * `dropped`). `layoutTarget` retargets a slide's layout relationship; a master's layout
   * relationships are skipped (rebuilt when the deck is finished). With `ownThemes`, a theme
   * is copied for this part alone instead of shared (a notes master's, §13.3.4).
   */
  copyRels(src: TemplateSource, srcPart: string, memo: Map<string, string>, layoutTarget?: string, ownThemes = false): { rels: RelationshipDraft[]; dropped: Set<string> } {
    const rels: RelationshipDraft[] = [];
    const dropped = new Set<string>();
    const srcCt = src.pkg.contentType(srcPart);
    for (const r of src.pkg.rels(srcPart)) {
      if (r.external) {
        rels.push({ id: r.id, type: r.type, external: true, target: r.target, targetPartName: undefined });
        continue;
      }
      if (r.type === RT.slideLayout) {
        if (srcCt === CT.slideMaster) continue;
        if (layoutTarget !== undefined) {
          rels.push({ id: r.id, type: r.type, external: false, targetPartName: layoutTarget });
          layoutTarget = undefined;
        } else dropped.add(r.id);
        continue;
      }
      const target = r.targetPartName!;
      const ct = src.pkg.contentType(target);
      if (DROPPED_REL_TYPES.has(r.type) || isDroppedContentType(ct) || !src.pkg.hasPart(target)) {
        dropped.add(r.id);
        continue;
      }
      if (r.type !== RT.slideMaster && ct !== undefined && STRUCTURAL_CONTENT_TYPES.has(ct)) {
        // a hyperlink to a slide, layout or master: only a link to the part itself survives
        const self = target === srcPart ? memo.get(target) : undefined;
        if (self) rels.push({ id: r.id, type: r.type, external: false, targetPartName: self });
        else dropped.add(r.id);
        continue;
      }
      let outTarget: string;
      if (r.type === RT.slideMaster || (r.type === RT.theme && !ownThemes) || isSharedBinary(ct, r.type)) outTarget = this.importShared(src, target, srcPart);
      else outTarget = this.importOwned(src, target, memo);
      rels.push({ id: r.id, type: r.type, external: false, targetPartName: outTarget });
    }
    return { rels, dropped };
  }

  /** A part copied for one owner (a chart of one slide): once per `memo`. */
  importOwned(src: TemplateSource, part: string, memo: Map<string, string>): string {
    const hit = memo.get(part);
    if (hit) return hit;
    const outName = this.allocate(part);
    memo.set(part, outName);
    this.writeCopy(src, part, outName, memo);
    return outName;
  }

  /**
   * A part stored once per content: layouts, masters, themes, media, fonts, OLE binaries.
   * A binary part whose header says it is a picture past the pixel limits gets a name with
   * the extension of what will be delivered and waits, empty, for {@link deliverPictures}.
   *
   * @param from - the part whose relationship brings it (for warnings)
   */
  importShared(src: TemplateSource, part: string, from?: string): string {
    const sk = `${src.id}\u0000${part}`;
    const hit = this.sharedBySource.get(sk);
    if (hit) return hit;
    const key = this.contentKey(src, part, new Set());
    const same = this.sharedByKey.get(key);
    if (same) {
      this.sharedBySource.set(sk, same);
      this.record(() => this.sharedBySource.delete(sk));
      return same;
    }
    const ct = src.pkg.contentType(part);
    const oversized = isXmlContentType(ct) ? undefined : planOversizedPicture(src.pkg.getBytes(part), this.pictureLimits);
    const outName = this.allocate(oversized ? withExtension(part, oversized.extension) : part);
    this.sharedBySource.set(sk, outName);
    this.sharedByKey.set(key, outName);
    this.record(() => {
      this.sharedBySource.delete(sk);
      this.sharedByKey.delete(key);
    });
    if (ct === CT.slideMaster) this.copyMaster(src, part, outName);
    else if (oversized) {
      this.out.setBytes(outName, new Uint8Array(0), oversized.contentType);
      this.picturesPending.push({ src, part, outName, from, plan: oversized });
      this.record(() => this.out.removePart(outName));
    } else {
      const rels = this.writeCopy(src, part, outName, new Map());
      if (ct === CT.slideLayout) {
        const masterRel = rels.find((r) => r.type === RT.slideMaster);
        const master = masterRel ? this.masterByOut.get(masterRel.targetPartName!) : undefined;
        if (!master) throw new SlideFailure('source_corrupt', `${part} has no slide master`);
        master.layouts.push(outName);
        this.record(() => master.layouts.splice(master.layouts.indexOf(outName), 1));
      }
    }
    return outName;
  }

  /**
   * Makes the template pictures past the pixel limits copied since the last call (a
   * downsampled copy, or a stand-in; see picture-limits.ts) and warns `image_too_large` for
   * each, on the slide that first brought it into the deck (`slide_index` -1 when the deck
   * itself did). What is made is kept with the opened template for later builds.
   */
  async deliverPictures(slideIndex: number, templateSlideId: string): Promise<void> {
    for (const p of this.picturesPending.splice(0)) {
      let made = p.src.oversized.get(p.part);
      if (!made) {
        made = deliverOversizedPicture(p.src.pkg.getBytes(p.part), p.plan, this.pictureLimits);
        p.src.oversized.set(p.part, made);
        // a failure fails this slide only: the next build tries again
        const { oversized } = p.src;
        const part = p.part;
        made.catch(() => oversized.delete(part));
      }
      const d = await made;
      this.out.setBytes(p.outName, d.bytes, p.plan.contentType);
      const { format, width, height } = p.plan.header;
      const limits = this.pictureLimits;
      const what =
        d.action === 'downsample'
          ? `downsampled to ${d.width} × ${d.height} px`
          : `${d.reason ? `it cannot be decoded (${d.reason})` : `too large to decode safely (over ${limits.maxDecodedPixels} pixels)`}, replaced by a plain grey ${d.width} × ${d.height} px picture of its aspect`;
      this.warn({
        slide_index: slideIndex,
        template_slide_id: templateSlideId,
        code: 'image_too_large',
        message: `picture ${p.part} of template ${p.src.id}${p.from ? ` (used by ${p.from})` : ''} is a ${width} × ${height} px ${format.toUpperCase()} (${width * height} pixels), past the limits of ${limits.maxPixels} pixels and ${limits.maxSide} px a side: ${what} (${p.outName} in the deck)`,
      });
    }
  }

  /** Writes a copy of `part` (bytes as they are unless a dropped relationship is referenced) with its relationships. */
  writeCopy(src: TemplateSource, part: string, outName: string, memo: Map<string, string>, ownThemes = false): RelationshipDraft[] {
    const ct = src.pkg.contentType(part);
    // an XML part is copied as bytes, but only once it is known to be well-formed (parsed
    // once per template and cached): a corrupt part fails its slide instead of the deck
    if (isXmlContentType(ct)) src.pkg.getXml(part);
    const { rels, dropped } = this.copyRels(src, part, memo, undefined, ownThemes);
    this.writeCopyWithRels(src, part, outName, rels, dropped);
    return rels;
  }

  /** Writes `part` of `src` as `outName` with `rels` (its XML copied as bytes unless it refers to a `dropped` relationship). */
  writeCopyWithRels(src: TemplateSource, part: string, outName: string, rels: readonly RelationshipDraft[], dropped: ReadonlySet<string>): void {
    const ct = src.pkg.contentType(part);
    let doc: Document | undefined;
    if (dropped.size && isXmlContentType(ct)) {
      const text = decodeXmlBytes(src.pkg.getBytes(part));
      if ([...dropped].some((id) => text.includes(`"${id}"`))) {
        doc = cloneDocument(src.pkg.getXml(part));
        removeDanglingReferences(doc, dropped);
      }
    }
    if (doc) this.out.setXml(outName, doc, ct);
    else this.out.setBytes(outName, src.pkg.getBytes(part), ct);
    if (rels.length) this.out.setRels(outName, rels);
    this.record(() => this.out.removePart(outName));
  }

  copyMaster(src: TemplateSource, part: string, outName: string): void {
    const srcDoc = src.pkg.getXml(part);
    const { rels, dropped } = this.copyRels(src, part, new Map());
    let doc: Document;
    let stubs: Map<Element, Element> | undefined;
    if (dropped.size === 0 && child(srcDoc.documentElement!, NS.p, 'sldLayoutIdLst') && !shapeIdStats(srcDoc).duplicates) {
      // usual case: only the layout list changes; the rest is written from the template
      ({ doc, stubs } = cloneRootWithStubs(srcDoc, MASTER_EDITED_CHILDREN));
    } else {
      doc = cloneDocument(srcDoc);
      removeDanglingReferences(doc, dropped);
      renumberDuplicateShapeIds(doc);
    }
    const rec: MasterRecord = { src, srcPart: part, outName, doc, stubs, rels, layouts: [] };
    this.masters.push(rec);
    this.masterByOut.set(outName, rec);
    // written by finish, once the deck's layouts are known
    this.out.setBytes(outName, new Uint8Array(0), CT.slideMaster);
    this.record(() => {
      this.masters.splice(this.masters.indexOf(rec), 1);
      this.masterByOut.delete(outName);
      this.out.removePart(outName);
    });
  }

  /**
   * A key equal for parts with equal content: SHA-1 over the content type, the bytes (a
   * master's without its `p:sldLayoutIdLst`) and, per relationship kept, its id, type and
   * the key of its target (or the external URI).
   */
  contentKey(src: TemplateSource, part: string, stack: Set<string>): string {
    const cached = src.keys.get(part);
    if (cached) return cached;
    stack.add(part);
    const ct = src.pkg.contentType(part) ?? '';
    const h = createHash('sha1');
    h.update(ct);
    h.update('\u0000');
    if (ct === CT.slideMaster) h.update(decodeXmlBytes(src.pkg.getBytes(part)).replace(/<(\w+:)?sldLayoutIdLst\b[\s\S]*?<\/(\w+:)?sldLayoutIdLst>|<(\w+:)?sldLayoutIdLst\s*\/>/, ''));
    else h.update(src.pkg.getBytes(part));
    for (const r of src.pkg.rels(part)) {
      if (r.external) h.update(`\u0000E${r.id}|${r.type}|${r.target}`);
      else if (r.type === RT.slideLayout && ct === CT.slideMaster) continue;
      else if (DROPPED_REL_TYPES.has(r.type) || !src.pkg.hasPart(r.targetPartName!)) h.update(`\u0000D${r.id}`);
      else if (stack.has(r.targetPartName!)) h.update(`\u0000C${r.id}|${r.targetPartName}`);
      else h.update(`\u0000I${r.id}|${r.type}|${this.contentKey(src, r.targetPartName!, stack)}`);
    }
    stack.delete(part);
    const key = h.digest('hex');
    src.keys.set(part, key);
    return key;
  }
}

/** `part` with its extension (if any) replaced by `extension`: `/ppt/media/image3.gif` → `/ppt/media/image3.png`. */
function withExtension(part: string, extension: string): string {
  const ext = extensionOf(part);
  return `${ext ? part.slice(0, part.length - ext.length - 1) : part}.${extension}`;
}

/** Binary parts other than embedded packages (pictures, media, OLE objects) and fonts are shared by content. */
function isSharedBinary(ct: string | undefined, relType: string): boolean {
  return relType === FONT_REL || (!isXmlContentType(ct) && relType !== RT.package);
}

/**
 * Removes what refers to a dropped relationship: an element carrying an `r:` attribute
 * with a dropped id goes (inside an extension list, its whole `ext` goes), so no `r:id`
 * is left dangling (ECMA-376 Part 2, §9.3).
 */
export function removeDanglingReferences(doc: Document, dropped: ReadonlySet<string>): void {
  if (dropped.size === 0) return;
  stripRelationshipReferences(doc, undefined, dropped);
}

/**
 * Removes elements whose relationship attributes (`r:id`, `r:embed`, ...) name an id that
 * is not in `keep` (when given) or is in `drop` (when given); with neither, every element
 * carrying a relationship attribute goes (for parts copied without relationships).
 */
export function stripRelationshipReferences(doc: Document, keep?: ReadonlySet<string>, drop?: ReadonlySet<string>): void {
  const root = doc.documentElement!;
  const victims: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    const attrs = el.attributes;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs.item(i)!;
      if (a.namespaceURI !== NS.r || a.value === '') continue;
      const bad = drop ? drop.has(a.value) : keep ? !keep.has(a.value) : true;
      if (bad) {
        victims.push(el);
        break;
      }
    }
    for (const c of children(el)) stack.push(c);
  }
  for (const el of victims) {
    if (el === root) continue;
    let target: Element = el;
    for (let p = el.parentNode as Element | null; p && p !== (root as unknown); p = p.parentNode as Element | null) {
      if (p.localName === 'ext' && (p.parentNode as Element | null)?.localName === 'extLst') {
        target = p;
        break;
      }
    }
    target.parentNode?.removeChild(target);
  }
}
