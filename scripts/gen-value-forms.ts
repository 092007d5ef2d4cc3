/**
 * Generates `core/src/ooxml/value-forms-data.ts` from the ISO/IEC 29500-4 (ECMA-376
 * Part 4) Transitional XML schemas of DrawingML and PresentationML: every attribute whose
 * schema type admits a *string* form of a number next to its integer form, and what the
 * integer form counts, so that `core/src/ooxml/value-forms.ts` can turn the string form
 * into the integer one when a part is read.
 *
 * Where the string forms come from: ISO/IEC 29500-1 Strict writes percentages as strings
 * (`s:ST_Percentage` and its restrictions, §22.9.2: `"90%"`, `"94.66%"`) where ECMA-376
 * 1st edition wrote integers (thousandths of a percent), and it admits universal measures
 * (`s:ST_UniversalMeasure`, §22.9.2.15: `"1in"`, `"2.54cm"`, `"12pt"`) for coordinates and
 * text points. Transitional keeps both: its types are unions of the integer and the string
 * member (`ST_Percentage = ST_PercentageDecimal | s:ST_Percentage`, `ST_Coordinate =
 * ST_CoordinateUnqualified | s:ST_UniversalMeasure`, the chart's `ST_GapAmount =
 * ST_GapAmountPercent | ST_GapAmountUShort`, …), so the unions of these schemas are exactly
 * the attributes where a Strict package writes a form a Transitional reader may not expect.
 * Booleans (`xsd:boolean`, `s:ST_OnOff`) are listed too: `true`/`false` (and Transitional's
 * `on`/`off`) become `1`/`0`.
 *
 * What the integer member counts is not in the schemas (they carry no documentation); it is
 * the one fact this script is told, per anchor type (ISO/IEC 29500-1 §20.1.10, §21.1.10 and
 * §21.2.3): see {@link ANCHORS} and {@link CHART_UNION_PERCENT}. A union with a string form
 * whose integer member reaches no anchor stops the script unless it is listed in
 * {@link NOT_CONVERTED} with the reason, so nothing is guessed.
 *
 *   npx tsx scripts/gen-value-forms.ts [path/to/ooxml-xsd/transitional [out.ts]]
 *
 * (default: `ooxml-xsd/transitional` of the shared tools folder, `../shared/tools` beside
 * the checkout or `$SLIDEWRIGHT_SHARED_DIR/tools`; `out.ts` defaults to the checked-in
 * table, which test/unit/ooxml/value-forms.test.ts compares with a fresh run).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseXml, type Element } from '../core/src/ooxml/xml.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const XSD_DIR = resolve(process.argv[2] ?? join(process.env.SLIDEWRIGHT_SHARED_DIR ?? resolve(ROOT, '..', 'shared'), 'tools', 'ooxml-xsd', 'transitional'));
const OUT = resolve(process.argv[3] ?? resolve(ROOT, 'core/src/ooxml/value-forms-data.ts'));

/** The schemas read: DrawingML (main, chart, chart drawing, diagram, picture, locked canvas), PresentationML, shared types. */
const FILES = ['shared-commonSimpleTypes.xsd', 'shared-relationshipReference.xsd', 'dml-main.xsd', 'dml-chart.xsd', 'dml-chartDrawing.xsd', 'dml-diagram.xsd', 'dml-picture.xsd', 'dml-lockedCanvas.xsd', 'pml.xsd'];

const XSD = 'http://www.w3.org/2001/XMLSchema';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
const DGM = 'http://schemas.openxmlformats.org/drawingml/2006/diagram';

/** What an integer form counts. */
type Unit = 'pct1000' | 'pct1' | 'emu' | 'cpt';

/**
 * Integer types whose unit the standard states (the schemas do not):
 * - `a:ST_PercentageDecimal`: thousandths of a percent (§20.1.10 ST_Percentage: ECMA-376 1st
 *   edition's integer form, which 29500-4 keeps as ST_PercentageDecimal);
 * - `a:ST_CoordinateUnqualified`, `a:ST_Coordinate32Unqualified`: EMU (§20.1.10 ST_Coordinate,
 *   ST_Coordinate32; 914400 per inch, 12700 per point);
 * - `a:ST_TextPointUnqualified`: hundredths of a point (§21.1.10 ST_TextPoint).
 */
const ANCHORS: ReadonlyMap<string, Unit> = new Map([
  [`{${A}}ST_PercentageDecimal`, 'pct1000'],
  [`{${A}}ST_CoordinateUnqualified`, 'emu'],
  [`{${A}}ST_Coordinate32Unqualified`, 'emu'],
  [`{${A}}ST_TextPointUnqualified`, 'cpt'],
]);

/**
 * In the chart namespace (§21.2.3: ST_GapAmount, ST_Overlap, ST_HoleSize, ST_BubbleScale,
 * ST_SecondPieSize, ST_HPercent, ST_DepthPercent, ST_LblOffset, ST_Thickness) a union of a
 * percent string and an integer counts whole percent: each integer member has the range of
 * its string member (0–500 and `0%`–`500%` for ST_GapAmount).
 */
const CHART_UNION_PERCENT = true;

/** Unions with a string form that are deliberately not converted, with the reason. */
const NOT_CONVERTED: ReadonlyMap<string, string> = new Map([
  [`{${DGM}}ST_PrSetCustVal`, 'union of s:ST_Percentage and xsd:int whose integer unit the standard does not state (dgm:prSet custScaleX/Y, custLinFactX/Y…; diagram data is copied, never read)'],
]);

/**
 * Attribute types corrected, as the project's XSD referee does (tools/ooxml-xsd/SOURCE.md,
 * quirk 2): in 29500-4:2008, `CT_TextBulletSizePercent/@val` (`a:buSzPct`) has type
 * `ST_TextBulletSizePercent`, which admits only the `"100%"` string form, while PowerPoint
 * writes thousandths (`val="100000"`) and the schema declares, and uses nowhere, the union
 * of both, `ST_TextBulletSize`: the attribute is read as that union.
 */
const TYPE_OVERRIDES: ReadonlyMap<string, string> = new Map([[`{${A}}CT_TextBulletSizePercent/@val`, `{${A}}ST_TextBulletSize`]]);
const overridesUsed = new Set<string>();

interface Forms {
  /** The integer member's unit, `int` when it reaches no anchor. */
  numeric?: Unit | 'int' | 'real' | 'mixed';
  percentString?: boolean;
  measureString?: boolean;
  bool?: boolean;
  /** Enumerated values of string members (`on`, `off`, `indefinite`, …). */
  enums?: Set<string>;
  /** A string member with no enumeration or known pattern: free text. */
  text?: boolean;
  /** Names of the unions met on the way (for NOT_CONVERTED). */
  via?: string[];
}

interface Schema {
  ns: string;
  root: Element;
}

const simpleTypes = new Map<string, Element>();
const complexTypes = new Map<string, Element>();
const attributeGroups = new Map<string, Element>();
const groups = new Map<string, Element>();
const schemas: Schema[] = [];

function kids(el: Element, local?: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).namespaceURI === XSD && (!local || (n as Element).localName === local)) out.push(n as Element);
  }
  return out;
}

/** `{namespace}local` of a QName attribute value, resolved where it is written. */
function qname(el: Element, value: string): string {
  const i = value.indexOf(':');
  const prefix = i < 0 ? null : value.slice(0, i);
  const local = i < 0 ? value : value.slice(i + 1);
  const ns = el.lookupNamespaceURI(prefix ?? '');
  if (ns === null && prefix !== null) throw new Error(`unbound prefix in ${value}`);
  return `{${ns ?? ''}}${local}`;
}

for (const file of FILES) {
  const doc = parseXml(readFileSync(join(XSD_DIR, file), 'utf8').replace(/^\uFEFF/, ''), file, { maxDepth: 64 });
  const root = doc.documentElement!;
  const ns = root.getAttribute('targetNamespace') ?? '';
  schemas.push({ ns, root });
  for (const el of kids(root)) {
    const name = el.getAttribute('name');
    if (!name) continue;
    const key = `{${ns}}${name}`;
    if (el.localName === 'simpleType') simpleTypes.set(key, el);
    else if (el.localName === 'complexType') complexTypes.set(key, el);
    else if (el.localName === 'attributeGroup') attributeGroups.set(key, el);
    else if (el.localName === 'group') groups.set(key, el);
  }
}

const BUILTIN_INT = new Set(['int', 'long', 'short', 'byte', 'integer', 'unsignedInt', 'unsignedLong', 'unsignedShort', 'unsignedByte', 'nonNegativeInteger', 'positiveInteger', 'negativeInteger', 'nonPositiveInteger']);
const BUILTIN_REAL = new Set(['double', 'float', 'decimal']);

function merge(a: Forms, b: Forms): Forms {
  const out: Forms = { ...a };
  if (b.numeric) {
    // several numeric members (dgm:ST_ParameterVal: int, double…) only matter beside a string form (kindOf)
    out.numeric = out.numeric && out.numeric !== b.numeric ? 'mixed' : b.numeric;
  }
  out.percentString ||= b.percentString;
  out.measureString ||= b.measureString;
  out.bool ||= b.bool;
  out.text ||= b.text;
  if (b.enums) out.enums = new Set([...(out.enums ?? []), ...b.enums]);
  if (b.via) out.via = [...(out.via ?? []), ...b.via];
  return out;
}

const memo = new Map<string, Forms>();

/** The forms a simple type admits, by its `{ns}name`. */
function formsOfType(key: string): Forms {
  const cached = memo.get(key);
  if (cached) return cached;
  let forms: Forms;
  const anchor = ANCHORS.get(key);
  if (anchor) forms = { numeric: anchor };
  else if (key.startsWith(`{${XSD}}`)) {
    const local = key.slice(XSD.length + 2);
    if (BUILTIN_INT.has(local)) forms = { numeric: 'int' };
    else if (BUILTIN_REAL.has(local)) forms = { numeric: 'real' };
    else if (local === 'boolean') forms = { bool: true };
    else forms = { text: true };
  } else {
    const el = simpleTypes.get(key);
    if (!el) throw new Error(`simple type ${key} is not defined in the schemas read`);
    forms = formsOfSimpleType(el, key);
  }
  memo.set(key, forms);
  return forms;
}

const PERCENT_PATTERN = /%\)?\??$/;
const MEASURE_PATTERN = /\(mm\|cm\|in\|pt\|pc\|pi\)$/;

function formsOfSimpleType(el: Element, key: string | undefined): Forms {
  const restriction = kids(el, 'restriction')[0];
  const union = kids(el, 'union')[0];
  const list = kids(el, 'list')[0];
  if (list) return { text: true };
  if (restriction) {
    const base = restriction.getAttribute('base');
    const inline = kids(restriction, 'simpleType')[0];
    const baseForms = base ? formsOfType(qname(restriction, base)) : formsOfSimpleType(inline!, undefined);
    const patterns = kids(restriction, 'pattern').map((p) => p.getAttribute('value') ?? '');
    const enums = kids(restriction, 'enumeration').map((e) => e.getAttribute('value') ?? '');
    if (baseForms.text || baseForms.percentString || baseForms.measureString) {
      if (patterns.length && patterns.every((p) => PERCENT_PATTERN.test(p))) return { percentString: true };
      if (patterns.length && patterns.every((p) => MEASURE_PATTERN.test(p))) return { measureString: true };
      if (enums.length) return { enums: new Set(enums) };
      if (baseForms.percentString || baseForms.measureString) return baseForms;
      return { text: true };
    }
    return baseForms;
  }
  if (union) {
    let forms: Forms = key ? { via: [key] } : {};
    const members = (union.getAttribute('memberTypes') ?? '').split(/\s+/).filter(Boolean);
    for (const m of members) forms = merge(forms, formsOfType(qname(union, m)));
    for (const inline of kids(union, 'simpleType')) forms = merge(forms, formsOfSimpleType(inline, undefined));
    if (key?.startsWith(`{${C}}`) && CHART_UNION_PERCENT && forms.percentString && forms.numeric === 'int') forms.numeric = 'pct1';
    return forms;
  }
  throw new Error(`simple type ${key ?? '(anonymous)'} has no restriction, union or list`);
}

/** The conversion an attribute of these forms gets, if any. */
type Kind = Unit | 'bool';

const skipped = new Map<string, string>();

function kindOf(forms: Forms, where: string): Kind | undefined {
  if (forms.percentString || forms.measureString) {
    const n = forms.numeric;
    const viaSkip = (forms.via ?? []).find((v) => NOT_CONVERTED.has(v));
    if (viaSkip) {
      skipped.set(viaSkip, NOT_CONVERTED.get(viaSkip)!);
      return undefined;
    }
    if (forms.percentString && (n === 'pct1000' || n === 'pct1')) return n;
    if (forms.measureString && (n === 'emu' || n === 'cpt')) return n;
    if (n === undefined) return undefined; // a string form only (c:pageSetup paper sizes): it stays a string
    throw new Error(`${where}: a string form (${forms.percentString ? 'percent' : 'measure'}) beside an integer member of unknown unit (${n}) via ${(forms.via ?? []).join(', ')}: add an anchor or a NOT_CONVERTED entry`);
  }
  if (forms.bool && !forms.numeric && !forms.text && [...(forms.enums ?? [])].every((v) => v === 'on' || v === 'off')) return 'bool';
  return undefined;
}

/** Attributes of a complex type: name → simple-type key or inline simple type. */
function attributesOf(ct: Element, seen = new Set<Element>()): Map<string, { key?: string; inline?: Element }> {
  const out = new Map<string, { key?: string; inline?: Element }>();
  if (seen.has(ct)) return out;
  seen.add(ct);
  const ctKey = ct.getAttribute('name') ? `{${ct.ownerDocument!.documentElement!.getAttribute('targetNamespace') ?? ''}}${ct.getAttribute('name')}` : undefined;
  const visit = (container: Element): void => {
    for (const k of kids(container)) {
      if (k.localName === 'attribute') {
        const name = k.getAttribute('name');
        if (!name) continue; // `ref` (r:id and friends): never a number
        const override = ctKey ? TYPE_OVERRIDES.get(`${ctKey}/@${name}`) : undefined;
        if (override) overridesUsed.add(`${ctKey}/@${name}`);
        const type = override ? undefined : k.getAttribute('type');
        const inline = kids(k, 'simpleType')[0];
        if (override) {
          if (!simpleTypes.has(override)) throw new Error(`override type ${override} is not defined`);
          out.set(name, { key: override });
          continue;
        }
        out.set(name, type ? { key: qname(k, type) } : inline ? { inline } : { key: `{${XSD}}string` });
      } else if (k.localName === 'attributeGroup') {
        const ref = k.getAttribute('ref');
        const g = ref ? attributeGroups.get(qname(k, ref)) : undefined;
        if (ref && !g) throw new Error(`attribute group ${ref} is not defined`);
        if (g) visit(g);
      } else if (k.localName === 'complexContent' || k.localName === 'simpleContent') {
        for (const d of kids(k)) {
          const base = d.getAttribute('base');
          const baseCt = base ? complexTypes.get(qname(d, base)) : undefined;
          if (baseCt && d.localName === 'extension') for (const [n, v] of attributesOf(baseCt, seen)) if (!out.has(n)) out.set(n, v);
          visit(d);
        }
      }
    }
  };
  visit(ct);
  return out;
}

/** `{ns}element` → attribute → kinds met (a kind per declaration; `none` for a declaration without a conversion). */
const found = new Map<string, Map<string, Set<Kind | 'none' | 'text'>>>();

function record(ns: string, element: string, ct: Element): void {
  for (const [attrName, t] of attributesOf(ct)) {
    const forms = t.key ? formsOfType(t.key) : formsOfSimpleType(t.inline!, undefined);
    const kind = kindOf(forms, `{${ns}}${element}/@${attrName}`);
    const key = `{${ns}}${element}`;
    let attrs = found.get(key);
    if (!attrs) found.set(key, (attrs = new Map()));
    let kinds = attrs.get(attrName);
    if (!kinds) attrs.set(attrName, (kinds = new Set()));
    // a declaration where the attribute is free text makes a conversion unsafe for that element
    kinds.add(kind ?? (forms.text && !forms.numeric ? 'text' : 'none'));
  }
}

/** Every element declaration (global or local, in types and groups) with a complex type. */
for (const { ns, root } of schemas) {
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    for (const k of kids(el)) stack.push(k);
    if (el.localName !== 'element' || !el.getAttribute('name')) continue;
    const type = el.getAttribute('type');
    const ct = type ? complexTypes.get(qname(el, type)) : kids(el, 'complexType')[0];
    if (ct) record(ns, el.getAttribute('name')!, ct);
  }
}

for (const o of TYPE_OVERRIDES.keys()) if (!overridesUsed.has(o)) throw new Error(`type override ${o} matched no attribute: the schemas changed`);

// the table: only attributes with one conversion in every declaration (`none` beside a
// conversion is fine: that declaration's integer-only type makes the string form invalid
// there anyway); free text beside a conversion is a conflict and stops the script
const table: Record<string, Record<string, Record<string, Kind>>> = {};
let count = 0;
for (const [key, attrs] of [...found].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const ns = key.slice(1, key.indexOf('}'));
  const element = key.slice(key.indexOf('}') + 1);
  for (const [attrName, kinds] of [...attrs].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const conversions = [...kinds].filter((k): k is Kind => k !== 'none' && k !== 'text');
    if (!conversions.length) continue;
    if (conversions.length > 1) throw new Error(`${key}/@${attrName} has conflicting conversions: ${conversions.join(', ')}`);
    if (kinds.has('text')) throw new Error(`${key}/@${attrName} is free text in one declaration and ${conversions[0]} in another`);
    ((table[ns] ??= {})[element] ??= {})[attrName] = conversions[0]!;
    count++;
  }
}

const PREFIX: Record<string, string> = {
  [A]: 'A',
  [C]: 'C',
  [DGM]: 'DGM',
  'http://schemas.openxmlformats.org/presentationml/2006/main': 'P',
  'http://schemas.openxmlformats.org/drawingml/2006/chartDrawing': 'CDR',
  'http://schemas.openxmlformats.org/drawingml/2006/picture': 'PIC',
  'http://schemas.openxmlformats.org/drawingml/2006/lockedCanvas': 'LC',
};
const byKind = new Map<Kind, number>();
for (const els of Object.values(table)) for (const attrs of Object.values(els)) for (const k of Object.values(attrs)) byKind.set(k, (byKind.get(k) ?? 0) + 1);

const lines: string[] = [];
lines.push('/* eslint-disable */');
lines.push('/**');
lines.push(' * GENERATED by scripts/gen-value-forms.ts from the ISO/IEC 29500-4 Transitional schemas');
lines.push(` * (${FILES.join(', ')}); do not edit.`);
lines.push(' *');
lines.push(' * Per namespace, element and attribute: the conversion of a string form its schema type');
lines.push(' * admits into the integer form the engine reads (see value-forms.ts):');
lines.push(' * `pct1000` "n%" → thousandths of a percent; `pct1` "n%" → whole percent (charts);');
lines.push(' * `emu` universal measure → EMU; `cpt` universal measure → hundredths of a point;');
lines.push(' * `bool` true/on → 1, false/off → 0.');
lines.push(` * ${count} attributes: ${[...byKind].map(([k, n]) => `${n} ${k}`).join(', ')}.`);
if (skipped.size) {
  lines.push(' *');
  lines.push(' * Not converted:');
  for (const [k, why] of skipped) lines.push(` * - ${k}: ${why}`);
}
lines.push(' */');
lines.push("import type { ValueFormTable } from './value-forms.js';");
lines.push('');
for (const [ns, name] of Object.entries(PREFIX)) if (table[ns]) lines.push(`const ${name} = '${ns}';`);
lines.push('');
lines.push('export const VALUE_FORM_ATTRIBUTES: ValueFormTable = {');
for (const [ns, els] of Object.entries(table).sort(([a], [b]) => (a < b ? -1 : 1))) {
  const name = PREFIX[ns];
  if (!name) throw new Error(`no constant name for namespace ${ns}`);
  lines.push(`  [${name}]: {`);
  for (const [el, attrs] of Object.entries(els)) {
    lines.push(`    ${JSON.stringify(el)}: { ${Object.entries(attrs).map(([a, k]) => `${JSON.stringify(a)}: '${k}'`).join(', ')} },`);
  }
  lines.push('  },');
}
lines.push('};');
writeFileSync(OUT, lines.join('\n') + '\n');
console.log(`${count} attributes (${[...byKind].map(([k, n]) => `${n} ${k}`).join(', ')}) in ${Object.values(table).reduce((n, e) => n + Object.keys(e).length, 0)} elements → ${OUT}`);
if (skipped.size) console.log(`not converted: ${[...skipped.keys()].join(', ')}`);
