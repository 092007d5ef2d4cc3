/**
 * Makes ISO/IEC 29500-1 Strict packages out of Transitional ones, for tests: so that every
 * corpus template (and the house template) can be read, previewed and generated from as
 * Strict, and compared with the original.
 *
 * What a Strict writer changes, and so what {@link toStrict} changes:
 * - namespaces: `http://schemas.openxmlformats.org/…` → `http://purl.oclc.org/ooxml/…`
 *   (xmlns declarations and `a:graphicData/@uri`, table and OLE URIs included);
 * - relationship types (with the three irregular names: `extendedProperties`,
 *   `customProperties`, `metadata/thumbnail`);
 * - `conformance="strict"` on `p:presentation`;
 * - value forms: every percentage of the DrawingML, PresentationML and chart types becomes
 *   `"n%"` (thousandths → `"90%"`, `"94.66%"`; chart whole percent → `"150%"`), one
 *   coordinate in {@link ToStrictOptions.measureEvery} becomes a universal measure
 *   (`"1.5in"`, `"2.54cm"`, `"12pt"`, `"1pc"`, `"1pi"`, `"10mm"`, in turn, whichever
 *   writes the value exactly), text points `"12pt"`, booleans `true`/`false`.
 *
 * The attributes converted are those of the schema-derived table the engine reads with
 * (`core/src/ooxml/value-forms-data.ts`); the namespace and relationship tables are the
 * engine's, reversed. Binary parts (pictures, embedded workbooks) are left as they are.
 *
 * {@link canonicalXml} and {@link packageDifferences} compare packages part by part,
 * whatever the prefixes, attribute order and serialization.
 */
import JSZip from 'jszip';
import { XMLSerializer } from '@xmldom/xmldom';
import { STRICT_GRAPHIC_DATA_URIS, STRICT_NAMESPACES, STRICT_RELATIONSHIP_TYPES } from '../../core/src/ooxml/strict.js';
import { VALUE_FORM_ATTRIBUTES, type ValueForm } from '../../core/src/ooxml/value-forms.js';
import { decodeXmlBytes, isElement, parseXml, type Element, type Node } from '../../core/src/ooxml/xml.js';
import { analyzePresentation, type AnalysisResults } from '../../core/src/analysis/analyze.js';
import { buildDeck, type BuildDeckResult, type DeckSlideSpec } from '../../core/src/generation/deck/build-deck.js';
import { CT } from '../../core/src/ooxml/opc/constants.js';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { PmlModel } from '../../core/src/ooxml/pml/parts.js';
import { renderSlide } from '../../core/src/render/render-slide.js';

const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const TO_STRICT_NS = new Map([...STRICT_NAMESPACES].map(([s, t]) => [t, s]));
const TO_STRICT_URI = new Map([...STRICT_GRAPHIC_DATA_URIS].map(([s, t]) => [t, s]));
const TO_STRICT_REL = new Map([...STRICT_RELATIONSHIP_TYPES].map(([s, t]) => [t, s]));

/** Options of {@link toStrict}. */
export interface ToStrictOptions {
  /** One coordinate (EMU) in this many is written as a universal measure (when one writes it exactly); 0: none. Default 3. */
  measureEvery?: number;
  /** Write booleans as `true`/`false`. Default true. */
  booleans?: boolean;
}

/** What {@link toStrict} changed, for tests to check that the conversion did something. */
export interface StrictStats {
  parts: number;
  percentages: number;
  measures: number;
  booleans: number;
  relationships: number;
  units: Record<string, number>;
}

/** `n / 10^scale` as a decimal string, without trailing zeros. */
function decimal(n: bigint, scale: number): string {
  const neg = n < 0n;
  const digits = (neg ? -n : n).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** EMU per unit of ST_UniversalMeasure. */
const EMU_UNITS: Array<[unit: string, emu: bigint]> = [
  ['in', 914400n],
  ['cm', 360000n],
  ['pt', 12700n],
  ['pc', 152400n],
  ['pi', 152400n],
  ['mm', 36000n],
];

/** `emu` as a universal measure with at most 4 decimals, trying units from `start`; undefined when none writes it exactly. */
function emuAsMeasure(emu: bigint, start: number): [string, string] | undefined {
  for (let k = 0; k < EMU_UNITS.length; k++) {
    const [unit, per] = EMU_UNITS[(start + k) % EMU_UNITS.length]!;
    const scaled = emu * 10_000n;
    if (scaled % per === 0n) return [`${decimal(scaled / per, 4)}${unit}`, unit];
  }
  return undefined;
}

/**
 * A Strict copy of a Transitional package (see the module comment).
 * @returns the new package's bytes and what was converted
 */
export async function toStrict(bytes: Uint8Array, options: ToStrictOptions = {}): Promise<{ bytes: Buffer; stats: StrictStats }> {
  const measureEvery = options.measureEvery ?? 3;
  const booleans = options.booleans ?? true;
  const stats: StrictStats = { parts: 0, percentages: 0, measures: 0, booleans: 0, relationships: 0, units: {} };
  let coordinate = 0;
  let unitTurn = 0;
  const zip = await JSZip.loadAsync(bytes);
  const out = new JSZip();
  for (const entry of Object.values(zip.files)) {
    if (entry.dir) continue;
    const date = entry.date;
    const data = await entry.async('uint8array');
    const name = entry.name;
    if (name === '[Content_Types].xml' || !/\.(xml|rels)$/i.test(name)) {
      out.file(name, data, { date });
      continue;
    }
    let text = decodeXmlBytes(data, name);
    if (/\.rels$/i.test(name)) {
      text = text.replace(/(\sType\s*=\s*)(["'])([^"']*)\2/g, (whole: string, lead: string, q: string, type: string) => {
        const strict = TO_STRICT_REL.get(type);
        if (!strict) return whole;
        stats.relationships++;
        return `${lead}${q}${strict}${q}`;
      });
      out.file(name, text, { date });
      stats.parts++;
      continue;
    }
    const doc = parseXml(text, name);
    const root = doc.documentElement!;
    const stack: Node[] = [root];
    while (stack.length) {
      const el = stack.pop()!;
      if (!isElement(el)) continue;
      for (let c = el.lastChild; c; c = c.previousSibling) stack.push(c);
      const forms = VALUE_FORM_ATTRIBUTES[el.namespaceURI ?? '']?.[el.localName ?? ''];
      if (!forms) continue;
      for (const [attrName, form] of Object.entries(forms) as Array<[string, ValueForm]>) {
        const node = el.getAttributeNode(attrName);
        if (!node || node.namespaceURI) continue;
        const v = node.value;
        const next = strictForm(form, v);
        if (next === undefined) continue;
        el.setAttribute(attrName, next.value);
        if (next.kind === 'percent') stats.percentages++;
        else if (next.kind === 'bool') stats.booleans++;
        else {
          stats.measures++;
          stats.units[next.unit!] = (stats.units[next.unit!] ?? 0) + 1;
        }
      }
    }
    if (root.namespaceURI === P && root.localName === 'presentation') root.setAttribute('conformance', 'strict');
    let xml = new XMLSerializer().serializeToString(doc as unknown as Node);
    if (!xml.startsWith('<?xml')) xml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${xml}`;
    // namespaces and graphic data URIs: every quoted Transitional URI of the tables (only
    // namespace declarations and a:graphicData/@uri hold them)
    xml = xml.replace(/(["'])(http:\/\/schemas\.openxmlformats\.org\/[^"']*)\1/g, (whole: string, q: string, uri: string) => {
      const strict = TO_STRICT_NS.get(uri) ?? TO_STRICT_URI.get(uri);
      return strict ? `${q}${strict}${q}` : whole;
    });
    out.file(name, xml, { date });
    stats.parts++;
  }
  return { bytes: await out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }), stats };

  function strictForm(form: ValueForm, v: string): { value: string; kind: 'percent' | 'measure' | 'bool'; unit?: string } | undefined {
    if (form === 'bool') {
      if (!booleans) return undefined;
      if (v === '1') return { value: 'true', kind: 'bool' };
      if (v === '0') return { value: 'false', kind: 'bool' };
      return undefined;
    }
    if (!/^-?[0-9]+$/.test(v)) return undefined;
    const n = BigInt(v);
    switch (form) {
      case 'pct1000':
        return { value: `${decimal(n, 3)}%`, kind: 'percent' };
      case 'pct1':
        return { value: `${v}%`, kind: 'percent' };
      case 'cpt':
        return { value: `${decimal(n, 2)}pt`, kind: 'measure', unit: 'pt' };
      case 'emu': {
        if (!measureEvery || coordinate++ % measureEvery !== 0) return undefined;
        const m = emuAsMeasure(n, unitTurn++);
        return m ? { value: m[0], kind: 'measure', unit: m[1] } : undefined;
      }
    }
  }
}

/**
 * A canonical text of an XML part: elements and attributes by namespace URI and local name
 * (never by prefix), attributes sorted, namespace declarations left out, text as it is.
 * Two parts with the same canonical text are the same markup.
 */
export function canonicalXml(bytes: Uint8Array, partName = 'part'): string {
  const doc = parseXml(decodeXmlBytes(bytes, partName), partName);
  const out: string[] = [];
  const walk = (n: Node): void => {
    if (isElement(n)) {
      const el = n as Element;
      const attrs: string[] = [];
      for (let i = 0; i < el.attributes.length; i++) {
        const a = el.attributes.item(i)!;
        if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) continue;
        attrs.push(`{${a.namespaceURI ?? ''}}${a.localName ?? a.name}=${JSON.stringify(a.value)}`);
      }
      attrs.sort();
      out.push(`<{${el.namespaceURI ?? ''}}${el.localName} ${attrs.join(' ')}>`);
      for (let c = el.firstChild; c; c = c.nextSibling) walk(c);
      out.push('</>');
    } else if (n.nodeType === 3 || n.nodeType === 4) out.push(JSON.stringify(n.nodeValue ?? ''));
  };
  walk(doc.documentElement!);
  return out.join('');
}

/**
 * The differences between two packages: part names, each part's content type, and each
 * part (XML by {@link canonicalXml}, other parts by bytes). Empty when they are the same
 * package.
 */
export async function packageDifferences(a: Uint8Array, b: Uint8Array): Promise<string[]> {
  const [za, zb] = await Promise.all([JSZip.loadAsync(a), JSZip.loadAsync(b)]);
  const names = (z: JSZip): string[] => Object.values(z.files).filter((f) => !f.dir).map((f) => f.name).sort();
  const na = names(za);
  const nb = names(zb);
  const diffs: string[] = [];
  // content types: each part's effective type (the Types part itself is written anew by OpcPackage.toBytes)
  const [pa, pb] = await Promise.all([OpcPackage.open(a), OpcPackage.open(b)]);
  for (const name of pa.partNames().filter((n) => pb.hasPart(n))) {
    if (pa.contentType(name) !== pb.contentType(name)) diffs.push(`${name}: content type ${pa.contentType(name)} vs ${pb.contentType(name)}`);
  }
  if (na.join('\n') !== nb.join('\n')) diffs.push(`part names differ: only in the first ${na.filter((n) => !nb.includes(n)).join(', ') || '-'}; only in the second ${nb.filter((n) => !na.includes(n)).join(', ') || '-'}`);
  for (const name of na.filter((n) => nb.includes(n) && n !== '[Content_Types].xml')) {
    const [x, y] = await Promise.all([za.file(name)!.async('uint8array'), zb.file(name)!.async('uint8array')]);
    if (/\.(xml|rels)$/i.test(name)) {
      const cx = canonicalXml(x, name);
      const cy = canonicalXml(y, name);
      if (cx !== cy) {
        let i = 0;
        while (i < cx.length && cx[i] === cy[i]) i++;
        diffs.push(`${name} differs at ${i}: ${JSON.stringify(cx.slice(Math.max(0, i - 120), i + 120))} vs ${JSON.stringify(cy.slice(Math.max(0, i - 120), i + 120))}`);
      }
    } else if (Buffer.compare(Buffer.from(x), Buffer.from(y)) !== 0) diffs.push(`${name}: bytes differ`);
  }
  return diffs;
}


/** The analysis of a package's bytes, with ids from part names (so two packages compare). */
export async function analysisOf(bytes: Uint8Array): Promise<AnalysisResults> {
  const pkg = await OpcPackage.open(bytes);
  return analyzePresentation({ pkg, options: { parse_master_template_layout: true }, idFor: (kind, partName) => `${kind}:${partName}` });
}

/** Every slide and layout of a package, drawn `widthPx` wide: part name → PNG. */
export async function previewsOf(bytes: Uint8Array, widthPx: number, limit = Infinity): Promise<Map<string, Uint8Array>> {
  const pkg = await OpcPackage.open(bytes);
  const model = new PmlModel(pkg);
  const parts = [...model.presentation.slides.map((s) => s.partName), ...model.presentation.masters.flatMap((m) => model.master(m.partName).layoutPartNames)].slice(0, limit);
  const out = new Map<string, Uint8Array>();
  for (const part of parts) out.set(part, (await renderSlide(pkg, part, { widthPx })).png);
  return out;
}

/**
 * A deck of every slide (title replaced) and every layout (title, subtitle, a bullet list
 * and a table) of one template, with footers and slide numbers: what generation does to
 * most of a template's parts.
 */
export async function deckOfEverything(bytes: Uint8Array, templateId = 'template'): Promise<BuildDeckResult> {
  const pkg = await OpcPackage.open(bytes);
  const slides: DeckSlideSpec[] = [];
  for (const part of pkg.partsOfType(CT.slide)) {
    slides.push({ template_id: templateId, template_slide_id: part, source: { kind: 'slide', part_name: part }, slide_data: { title: 'Generated title' }, options: { footer_text: 'Footer', show_slide_numbers: true } });
  }
  for (const part of pkg.partsOfType(CT.slideLayout)) {
    slides.push({
      template_id: templateId,
      template_slide_id: part,
      source: { kind: 'layout', part_name: part },
      slide_data: {
        title: 'Layout title',
        subtitle: 'Subtitle',
        content: [
          { header: 'Left', blocks: [{ type: 'text', text: { bullets: ['one', 'two'] } }] },
          { header: 'Right', blocks: [{ type: 'table', table: { table: { rows: [{ is_header: true, cells: [{ value: 'Item' }, { value: 'Value' }] }, { cells: [{ value: 'alpha' }, { value: '1' }] }] } } }] },
        ],
      },
      options: { footer_text: 'Footer', show_slide_numbers: true },
    });
  }
  return buildDeck({ slides, templates: new Map([[templateId, bytes]]), reuseOpenedTemplates: false });
}

/** Names of the XML parts of a package that still hold a Strict namespace or relationship type, or `conformance="strict"`. */
export async function strictLeftovers(bytes: Uint8Array): Promise<string[]> {
  const zip = await JSZip.loadAsync(bytes);
  const found: string[] = [];
  for (const f of Object.values(zip.files)) {
    if (f.dir || !/\.(xml|rels)$/i.test(f.name)) continue;
    const text = await f.async('string');
    if (text.includes('http://purl.oclc.org/ooxml/') || /conformance="strict"/.test(text)) found.push(f.name);
  }
  return found;
}
