/**
 * The template doctor's picture check: every picture of the template whose header says it
 * is past the pixel limits (50 megapixels, 32767 px a side: `core/src/ooxml/image-header.ts`),
 * with each place that shows it (slide, layout, master, theme, chart; the shape, background,
 * table cell or fill) and what generated decks get instead (a downsampled copy or a plain
 * stand-in: `core/src/generation/deck/picture-limits.ts`). Headers only: no picture is decoded.
 */
import type { AnalysisResults } from '../analysis/types.js';
import { planOversizedPicture } from '../generation/deck/picture-limits.js';
import { CT } from '../ooxml/opc/constants.js';
import { RELS_CONTENT_TYPE, type OpcPackage } from '../ooxml/opc/package.js';
import { relsPartName } from '../ooxml/opc/part-names.js';
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from '../ooxml/image-header.js';
import { NS, children, isElement, type Element, type Node } from '../ooxml/xml.js';
import type { OversizedPictureFinding, OversizedPictureUsage } from './types.js';

/** Shape elements whose `p:cNvPr` names a finding's shape (ECMA-376 Part 1, §19.3.1). */
const SHAPES: ReadonlySet<string> = new Set(['pic', 'sp', 'graphicFrame', 'cxnSp', 'grpSp', 'contentPart']);

/** Parts generation never copies into a deck (notes and handouts): their pictures are not reported. */
const NOT_COPIED: ReadonlySet<string> = new Set([CT.notesSlide, CT.notesMaster, 'application/vnd.openxmlformats-officedocument.presentationml.handoutMaster+xml']);

/**
 * One finding per place that shows a picture past the pixel limits (a relationship no
 * element uses gives one finding of usage `unreferenced`: generation still copies it).
 * Ordered by picture part, then by the part that shows it, in document order.
 */
export function oversizedPictures(pkg: OpcPackage, results: Pick<AnalysisResults, 'slides' | 'layouts' | 'masters'>): OversizedPictureFinding[] {
  const names = pkg.partNames();
  const present = new Set(names.map((n) => n.toLowerCase()));
  const plans = new Map<string, NonNullable<ReturnType<typeof planOversizedPicture>>>();
  for (const name of names) {
    const ct = pkg.contentType(name);
    if (ct === undefined || ct === RELS_CONTENT_TYPE || ct.endsWith('+xml') || ct.endsWith('/xml')) continue;
    const plan = planOversizedPicture(pkg.getBytes(name));
    if (plan) plans.set(name, plan);
  }
  if (plans.size === 0) return [];

  const idOf = new Map<string, string>();
  for (const s of results.slides) idOf.set(s.part_name, s.slide_id);
  for (const l of results.layouts) idOf.set(l.part_name, l.slide_id);
  const masters = new Set(results.masters.map((m) => m.part_name));

  const out: OversizedPictureFinding[] = [];
  for (const source of names) {
    if (!present.has(relsPartName(source).toLowerCase())) continue;
    const ct = pkg.contentType(source);
    if (ct === undefined || NOT_COPIED.has(ct)) continue;
    const rels = pkg.rels(source).filter((r) => !r.external && r.targetPartName !== undefined && plans.has(r.targetPartName));
    if (rels.length === 0) continue;
    let root: Element | undefined;
    try {
      root = pkg.getXml(source).documentElement ?? undefined;
    } catch {
      root = undefined; // unreadable: its relationships still bring the pictures
    }
    const kind: OversizedPictureFinding['part_kind'] =
      ct === CT.slide ? 'slide' : ct === CT.slideLayout ? 'layout' : ct === CT.slideMaster || masters.has(source) ? 'master' : ct === CT.theme ? 'theme' : ct === CT.chart ? 'chart' : 'other';
    for (const r of rels) {
      const plan = plans.get(r.targetPartName!)!;
      const base = {
        image_part_name: r.targetPartName!,
        format: plan.header.format,
        width_px: plan.header.width,
        height_px: plan.header.height,
        pixels: plan.header.width * plan.header.height,
        limit_pixels: MAX_IMAGE_PIXELS,
        limit_side_px: MAX_IMAGE_SIDE,
        generation: plan.action === 'downsample' ? ('downsampled' as const) : ('replaced' as const),
        part_name: source,
        part_kind: kind,
        slide_id: idOf.get(source) ?? null,
      };
      const users = root ? referencing(root, r.id) : [];
      if (users.length === 0) out.push({ ...base, shape_id: null, shape_name: null, usage: 'unreferenced' });
      for (const el of users) out.push({ ...base, ...placeOf(el, kind) });
    }
  }
  return out.sort((a, b) => (a.image_part_name < b.image_part_name ? -1 : a.image_part_name > b.image_part_name ? 1 : 0));
}

/** Elements carrying a relationship attribute (`r:embed`, `r:link`, `r:id`, ...) equal to `rId`, in document order. */
function referencing(root: Element, rId: string): Element[] {
  const found: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    const attrs = el.attributes;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs.item(i)!;
      if (a.namespaceURI === NS.r && a.value === rId) {
        found.push(el);
        break;
      }
    }
    const kids = children(el);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return found;
}

/** The shape that shows `el` (nearest shape ancestor) and how: picture, background, table cell or fill. */
function placeOf(el: Element, kind: OversizedPictureFinding['part_kind']): Pick<OversizedPictureFinding, 'shape_id' | 'shape_name' | 'usage'> {
  let usage: OversizedPictureUsage | undefined;
  let shape: Element | undefined;
  for (let p: Node | null = el.parentNode; isElement(p); p = p.parentNode) {
    const local = p.localName;
    if (!usage && local === 'bg' && p.namespaceURI === NS.p) usage = 'background';
    if (!usage && local === 'tc' && p.namespaceURI === NS.a) usage = 'table_cell';
    if (SHAPES.has(local ?? '') && p.namespaceURI === NS.p) {
      shape = p;
      break;
    }
  }
  if (!usage) {
    const direct = (el.parentNode as Element | null)?.localName === 'blipFill' && (el.parentNode as Element | null)?.namespaceURI === NS.p;
    usage = shape && shape.localName === 'pic' && direct ? 'picture' : shape ? 'shape_fill' : kind === 'theme' ? 'theme_fill' : 'other';
  }
  const cNvPr = shape ? nonVisual(shape) : undefined;
  const id = cNvPr ? Number(cNvPr.getAttribute('id')) : NaN;
  return { shape_id: Number.isInteger(id) ? id : null, shape_name: cNvPr ? cNvPr.getAttribute('name') ?? '' : null, usage };
}

/** `p:cNvPr` of a shape (inside its first child, `p:nvPicPr`, `p:nvSpPr`, ...). */
function nonVisual(shape: Element): Element | undefined {
  const nv = children(shape).find((c) => c.localName?.startsWith('nv') && c.namespaceURI === NS.p);
  return nv ? children(nv, NS.p, 'cNvPr')[0] : undefined;
}
