/**
 * Every corpus template, analyzed by the engine, checked against an independent reading of
 * the same zip: JSZip and xmldom directly, a few lines of walking, none of the engine's
 * code (no OpcPackage, no pml module). Counts of slides, layouts and masters; per slide the
 * top-level shapes, placeholders and group members; and the resolved geometry of every
 * top-level slide placeholder, looked up here by its own small idx/type walk.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { DOMParser } from '@xmldom/xmldom';
import type { Element as XElement } from '@xmldom/xmldom';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { analyzePresentation } from '../../../core/src/analysis/analyze.js';
import type { AnalyzedShape } from '../../../core/src/analysis/types.js';
import { corpusFilesOf, corpusFilesOfFor, corpusPath, needsCorpus } from '../../helpers/corpus.js';

const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
/**
 * The ISO/IEC 29500 Strict namespace of each Transitional one read here: a Strict package
 * names the same elements under purl.oclc.org namespaces (Part 1, §8.1 and Annex A), and
 * this reading accepts either, as PowerPoint does.
 */
const STRICT_OF: Record<string, string> = {
  [P]: 'http://purl.oclc.org/ooxml/presentationml/main',
  [A]: 'http://purl.oclc.org/ooxml/drawingml/main',
  [R]: 'http://purl.oclc.org/ooxml/officeDocument/relationships',
};

function inNamespace(el: XElement, ns: string): boolean {
  return el.namespaceURI === ns || el.namespaceURI === STRICT_OF[ns];
}

/** The r:id attribute in either namespace. */
function relId(el: XElement): string {
  return el.getAttributeNS(R, 'id') || el.getAttributeNS(STRICT_OF[R]!, 'id') || '';
}

const SHAPE_TAGS = new Set(['sp', 'pic', 'graphicFrame', 'grpSp', 'cxnSp', 'contentPart']);

interface Zip {
  xml(name: string): Promise<XElement>;
  rels(name: string): Promise<Map<string, { type: string; target: string }>>;
  has(name: string): boolean;
}

async function openZip(path: string): Promise<Zip> {
  const zip = await JSZip.loadAsync(readFileSync(path));
  const lower = new Map(Object.keys(zip.files).map((n) => [n.toLowerCase(), n]));
  const file = (name: string) => zip.file(lower.get(name.replace(/^\//, '').toLowerCase()) ?? '') ?? undefined;
  const xml = async (name: string): Promise<XElement> => {
    const f = file(name);
    if (!f) throw new Error(`no ${name}`);
    return new DOMParser().parseFromString((await f.async('string')).replace(/^\uFEFF/, ''), 'application/xml').documentElement as unknown as XElement;
  };
  return {
    xml,
    has: (name) => file(name) !== undefined,
    async rels(name) {
      const slash = name.lastIndexOf('/');
      const relsName = `${name.slice(0, slash)}/_rels/${name.slice(slash + 1)}.rels`;
      const out = new Map<string, { type: string; target: string }>();
      if (!file(relsName)) return out;
      const root = await xml(relsName);
      for (const el of kids(root)) {
        const target = el.getAttribute('Target') ?? '';
        const folder = name.slice(0, slash + 1);
        out.set(el.getAttribute('Id') ?? '', { type: el.getAttribute('Type') ?? '', target: el.getAttribute('TargetMode') === 'External' ? target : norm(target.startsWith('/') ? target : folder + target) });
      }
      return out;
    },
  };
}

function norm(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '..') out.pop();
    else if (seg !== '.' && seg !== '') out.push(seg);
  }
  return `/${out.join('/')}`;
}

function kids(el: XElement): XElement[] {
  const out: XElement[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as XElement);
  return out;
}

function kid(el: XElement | undefined, ns: string, local: string): XElement | undefined {
  return el ? kids(el).find((c) => inNamespace(c, ns) && c.localName === local) : undefined;
}

/** Shapes of a tree: choice of mc:AlternateContent = first Choice needing only p14/a14/chartex, else Fallback. */
function shapesOf(container: XElement): XElement[] {
  const out: XElement[] = [];
  for (const el of kids(container)) {
    if (el.namespaceURI === MC && el.localName === 'AlternateContent') {
      const choice = kids(el).find((c) => c.localName === 'Choice' && (c.getAttribute('Requires') ?? '').split(' ').every((p) => /powerpoint\/2010|drawing\/2010|chartex/.test(c.lookupNamespaceURI(p) ?? '')));
      const branch = choice ?? kids(el).find((c) => c.localName === 'Fallback');
      if (branch) out.push(...shapesOf(branch));
    } else if (SHAPE_TAGS.has(el.localName ?? '') && (inNamespace(el, P) || el.localName === 'contentPart')) out.push(el);
  }
  return out;
}

function phOf(shape: XElement): { type: string; idx: number } | undefined {
  const nv = kids(shape).find((c) => (c.localName ?? '').startsWith('nv'));
  const ph = kid(kid(nv, P, 'nvPr'), P, 'ph');
  if (!ph) return undefined;
  return { type: ph.getAttribute('type') || 'obj', idx: Number(ph.getAttribute('idx') || '0') };
}

function boxOf(shape: XElement): [number, number, number, number] | undefined {
  const xfrm = shape.localName === 'graphicFrame' ? kid(shape, P, 'xfrm') : kid(kid(shape, P, 'spPr'), A, 'xfrm');
  const off = kid(xfrm, A, 'off');
  const ext = kid(xfrm, A, 'ext');
  if (!off || !ext) return undefined;
  return [Number(off.getAttribute('x')), Number(off.getAttribute('y')), Number(ext.getAttribute('cx')), Number(ext.getAttribute('cy'))];
}

async function treeOf(zip: Zip, part: string): Promise<XElement[]> {
  return shapesOf(kid(kid(await zip.xml(part), P, 'cSld'), P, 'spTree')!);
}

function toMaster(type: string): string {
  return type === 'ctrTitle' ? 'title' : ['title', 'dt', 'ftr', 'sldNum', 'hdr'].includes(type) ? type : 'body';
}

/** Members of a group at any depth. */
function deepCount(group: XElement): number {
  return shapesOf(group).reduce((n, s) => n + 1 + (s.localName === 'grpSp' ? deepCount(s) : 0), 0);
}

function countDeep(shapes: AnalyzedShape[], pred: (s: AnalyzedShape) => boolean): number {
  let n = 0;
  for (const s of shapes) n += (pred(s) ? 1 : 0) + countDeep(s.children, pred);
  return n;
}

t.test('the corpus holds the templates this suite expects', needsCorpus(), async (t) => {
  const files = corpusFilesOf('templates');
  t.ok(files.length >= 35, `${files.length} templates`);
});

t.test('every corpus template agrees with an independent reading', needsCorpus(), async (t) => {
  for (const file of corpusFilesOfFor(t, 'templates')) {
    await t.test(`${file}: counts and placeholder geometry agree with an independent reading`, async (t) => {
      const path = corpusPath(file);
      const pkg = await OpcPackage.open(readFileSync(path));
      const r = analyzePresentation({ pkg, options: {}, idFor: (k, p) => `${k}:${p}` });
      const zip = await openZip(path);

      const rootRels = await zip.rels('/');
      const main = [...rootRels.values()].find((x) => x.type.endsWith('/officeDocument'))!.target;
      const pres = await zip.xml(main);
      const presRels = await zip.rels(main);
      const slideParts = kids(kid(pres, P, 'sldIdLst') ?? pres)
        .filter((e) => e.localName === 'sldId')
        .map((e) => presRels.get(relId(e))!.target);
      const masterParts = kids(kid(pres, P, 'sldMasterIdLst') ?? pres)
        .filter((e) => e.localName === 'sldMasterId')
        .map((e) => presRels.get(relId(e))!.target);
      let layoutCount = 0;
      for (const m of masterParts) {
        const mRels = await zip.rels(m);
        const listed = kids(kid(await zip.xml(m), P, 'sldLayoutIdLst') ?? (await zip.xml(m))).filter((e) => e.localName === 'sldLayoutId');
        layoutCount += listed.filter((e) => zip.has(mRels.get(relId(e))?.target ?? '')).length;
      }

      t.equal(r.presentation.slide_count, slideParts.length, 'slide count');
      t.equal(r.slides.length, slideParts.length, 'slides listed');
      t.equal(r.presentation.master_count, masterParts.length, 'master count');
      t.equal(r.presentation.layout_count, layoutCount, 'layout count');
      const sz = kid(pres, P, 'sldSz');
      if (sz) t.equal(r.presentation.slide_width_emu, Number(sz.getAttribute('cx')), 'slide width');

      for (let i = 0; i < slideParts.length; i++) {
        const part = slideParts[i]!;
        const got = r.slides[i]!;
        t.equal(got.part_name, part, `slide ${i + 1} is ${part} (sldIdLst order)`);
        const shapes = await treeOf(zip, part);
        t.equal(got.shapes.length, shapes.length, `slide ${i + 1}: top-level shapes`);
        const phs = shapes.filter((s) => phOf(s));
        t.equal(got.shapes.filter((s) => s.placeholder).length, phs.length, `slide ${i + 1}: placeholders`);
        const groupMembers = shapes.filter((s) => s.localName === 'grpSp').reduce((n, g) => n + shapesOf(g).length, 0);
        t.equal(got.shapes.filter((s) => s.kind === 'grpSp').reduce((n, g) => n + g.children.length, 0), groupMembers, `slide ${i + 1}: group members`);
        t.same(got.shapes.map((s) => s.kind), shapes.map((s) => s.localName), `slide ${i + 1}: kinds in document order`);
        t.equal(got.hidden, (await zip.xml(part)).getAttribute('show') === '0', `slide ${i + 1}: hidden`);

        // Geometry of each placeholder: own xfrm, else layout (idx, then type), else master (mapped type).
        const layout = [...(await zip.rels(part)).values()].find((x) => x.type.endsWith('/slideLayout'))!.target;
        const master = [...(await zip.rels(layout)).values()].find((x) => x.type.endsWith('/slideMaster'))!.target;
        const layoutShapes = (await treeOf(zip, layout)).filter((s) => phOf(s));
        const masterShapes = (await treeOf(zip, master)).filter((s) => phOf(s));
        for (let k = 0; k < shapes.length; k++) {
          const ph = phOf(shapes[k]!);
          if (!ph) continue;
          let box = boxOf(shapes[k]!);
          if (!box) {
            const onLayout = layoutShapes.find((s) => phOf(s)!.idx === ph.idx) ?? layoutShapes.find((s) => phOf(s)!.type === ph.type);
            box = onLayout ? boxOf(onLayout) : undefined;
            const masterType = toMaster(onLayout ? phOf(onLayout)!.type : ph.type);
            if (!box) box = masterShapes.find((s) => phOf(s)!.type === masterType) ? boxOf(masterShapes.find((s) => phOf(s)!.type === masterType)!) : undefined;
          }
          const a = got.shapes[k]!;
          t.same([a.x, a.y, a.cx, a.cy], box ?? [null, null, null, null], `slide ${i + 1} placeholder ${ph.type}/${ph.idx} "${a.name}" geometry`);
        }
      }
      // Layouts: shapes, placeholders and placeholder geometry (own xfrm, else the master's of the mapped type).
      for (const l of r.layouts) {
        const shapes = await treeOf(zip, l.part_name);
        t.equal(l.shapes.length, shapes.length, `layout ${l.layout_index}: top-level shapes`);
        t.equal(countDeep(l.shapes, () => true), shapes.reduce((n, s) => n + 1 + (s.localName === 'grpSp' ? deepCount(s) : 0), 0), `layout ${l.layout_index}: all shapes`);
        const master = [...(await zip.rels(l.part_name)).values()].find((x) => x.type.endsWith('/slideMaster'))!.target;
        t.equal(l.master_part_name, master, `layout ${l.layout_index}: master`);
        const masterShapes = (await treeOf(zip, master)).filter((s) => phOf(s));
        for (let k = 0; k < shapes.length; k++) {
          const ph = phOf(shapes[k]!);
          if (!ph) continue;
          const base = masterShapes.find((s) => phOf(s)!.type === toMaster(ph.type));
          const box = boxOf(shapes[k]!) ?? (base ? boxOf(base) : undefined);
          const a = l.shapes[k]!;
          t.same([a.x, a.y, a.cx, a.cy], box ?? [null, null, null, null], `layout ${l.layout_index} placeholder ${ph.type}/${ph.idx} geometry`);
        }
      }
    });
  }
});
