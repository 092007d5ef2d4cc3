/**
 * Schema-driven fuzz test of the REST API (issue 18): requests generated with fast-check
 * from the service's own OpenAPI document, for every operation it lists, against a real
 * service holding a real analyzed template and a finished generation.
 *
 * Each operation gets a fixed number of examples (fixed seed, so a failure replays):
 * path parameters from real ids, arbitrary strings and numbers beyond any range; query
 * parameters valid and invalid; JSON bodies built from the operation's request schema
 * (valid-ish) and mutated (wrong types, huge and fractional numbers, deep nesting,
 * unicode, empty strings, unknown and missing fields, long lists), or not JSON at all;
 * upload bodies real, truncated and random; API keys right, wrong, missing and not ASCII.
 *
 * Every answer must be a documented one: no 5xx; a status the operation documents; a body
 * that validates against the documented schema of that status (or is empty, or a file of
 * the documented kind); documented response headers of their documented type; every
 * header printable ASCII; an error body of bounded size whatever was sent.
 *
 * `SLIDEWRIGHT_FUZZ_RUNS` (default 100) sets the examples per operation and
 * `SLIDEWRIGHT_FUZZ_SEED` the seed, for a longer or different hunt than CI's.
 */
import t from 'tap';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import * as grpc from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { PPTX_MEDIA_TYPE, uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { ORG_A, ORG_B, startTestService, type TestService } from '../helpers/service.js';

const RUNS = Number(process.env['SLIDEWRIGHT_FUZZ_RUNS'] ?? 100);
const SEED = Number(process.env['SLIDEWRIGHT_FUZZ_SEED'] ?? 20_250_118);
/** Time one operation may take; fast-check stops generating after it (slow machines). */
const OPERATION_TIME_LIMIT_MS = 25_000;
/** The biggest error body any request may get back. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

// ---------------------------------------------------------------------------------------
// The parts of the OpenAPI document this test reads.

interface Schema {
  readonly [keyword: string]: unknown;
}
interface ParameterDoc {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}
interface MediaTypeDoc {
  schema?: Schema;
}
interface ResponseDoc {
  description: string;
  content?: Record<string, MediaTypeDoc>;
  headers?: Record<string, { schema?: Schema }>;
}
interface OperationDoc {
  operationId: string;
  parameters?: ParameterDoc[];
  requestBody?: { content: Record<string, MediaTypeDoc> };
  responses: Record<string, ResponseDoc>;
}
interface OpenApiDoc {
  paths: Record<string, Record<string, OperationDoc>>;
}
interface Operation {
  method: string;
  path: string;
  doc: OperationDoc;
}

// ---------------------------------------------------------------------------------------
// Requests

/** JSON text put in a body as it is: numbers no JS number holds, nesting no JS stack walks. */
class RawJson {
  constructor(readonly text: string) {}
}

/** A generated request. */
interface FuzzRequest {
  /** What kind of example it is (`valid`, `mutated:huge-int`, `raw:not-json`, ...). */
  kind: string;
  params: Record<string, string>;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body?: { contentType?: string; data: string | Uint8Array };
}

/** Real ids of the service, by the name of the field or parameter that takes them. */
interface Ids {
  template_id: string[];
  template_slide_id: string[];
  analysis_id: string[];
  generation_id: string[];
}

/**
 * Values that let a valid-ish request get past the checks that need more than a schema,
 * by field name: the caller's organization, file names of templates (and a few others).
 */
const HINTS: Readonly<Record<string, readonly string[]>> = {
  org_name: ['acme'],
  filename: ['deck.pptx', 'brand.potx', 'UPPER.PPTX', 'macro.pptm', 'no-extension', 'report.pdf', 'ünïcödé.pptx'],
};
/** Integers that let a valid-ish request name a real thing: the chart of the finished deck. */
const INTEGER_HINTS: Readonly<Record<string, readonly number[]>> = { slide_index: [0], chart_index: [0] };
/**
 * Fields a valid-ish request leaves out: a webhook URL that passed the egress policy would
 * have the service call out of the test (mutations still send any value there).
 */
const LEFT_OUT = new Set(['webhook_url']);
/** Query parameters of a signed URL: sent now and then, else every download is a forgery. */
const SIGNED_URL_PARAMS = new Set(['org', 'expires', 'signature']);

/** JSON text of a generated value ({@link RawJson} parts written as they are). */
function toJsonText(v: unknown): string {
  if (v instanceof RawJson) return v.text;
  if (Array.isArray(v)) return `[${v.map(toJsonText).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${toJsonText(x)}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** Latin-1 spelling of a string's UTF-8 bytes: how a non-ASCII header value travels. */
const utf8Header = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');

const types = (s: Schema): string[] => {
  const t = s['type'];
  return Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
};
const num = (s: Schema, k: string): number | undefined => (typeof s[k] === 'number' ? (s[k] as number) : undefined);

/** Strings worth trying anywhere a string goes. */
const NASTY_STRINGS = ['', ' ', '0', '-1', 'null', 'true', '[]', '{}', '\u0000', '\t\n', 'é', '𝄞', '中文', 'עברית', '\u202e', '\ufeff', 'x'.repeat(300), '%00', '../x', '%2F', '"quoted"', "'; DROP TABLE t;--"];
/** Numbers worth trying anywhere a number goes (as JSON text: some no JS number holds). */
const NASTY_NUMBERS = ['2147483648', '-2147483649', '4294967296', '9007199254740991', '9007199254740993', '-9007199254740993', '1e300', '-1e300', '1e400', '1.5', '-0', '0.0000001', '123456789012345678901234567890'];

/** A string for a string schema: bounded, sometimes unicode or odd. */
function stringArb(s: Schema, hint: readonly string[] | undefined): fc.Arbitrary<string> {
  const min = num(s, 'minLength') ?? 0;
  const max = Math.max(min, Math.min(num(s, 'maxLength') ?? 24, 24));
  if (s['format'] === 'date-time') return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
  const plain = fc.oneof(fc.string({ minLength: min, maxLength: max }), fc.string({ unit: 'grapheme', minLength: min, maxLength: max }));
  if (hint && hint.length > 0) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...hint) }, { weight: 1, arbitrary: plain });
  return plain;
}

/**
 * A value for a JSON Schema, meant to be valid (types, enums, ranges, lengths, required
 * fields) but small: lists of at most 3, strings of at most 24 characters, nesting cut at
 * 8 levels. Fields named like an id take real ids most of the time.
 */
function fromSchema(s: Schema, ids: Ids, depth = 0, name = ''): fc.Arbitrary<unknown> {
  const anyOf = s['anyOf'];
  if (Array.isArray(anyOf) && anyOf.length > 0) return fc.oneof(...(anyOf as Schema[]).map((x) => fromSchema(x, ids, depth, name)));
  const en = s['enum'];
  if (Array.isArray(en) && en.length > 0) return fc.constantFrom(...(en as unknown[]));
  const ts = types(s);
  if (ts.length === 0) return fc.jsonValue({ maxDepth: 2 });
  const nonNull = ts.filter((x) => x !== 'null');
  const pick = (type: string): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'string':
        return stringArb(s, (ids as unknown as Record<string, string[] | undefined>)[name] ?? HINTS[name]);
      case 'integer': {
        const lo = Math.max(num(s, 'minimum') ?? -1000, -1000);
        const hi = Math.min(num(s, 'maximum') ?? 1000, 1000);
        const any = fc.integer({ min: lo, max: Math.max(lo, hi) });
        const hint = INTEGER_HINTS[name];
        return hint ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...hint) }, { weight: 1, arbitrary: any }) : any;
      }
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: num(s, 'minimum') ?? -1e6, max: num(s, 'maximum') ?? 1e6 });
      case 'boolean':
        return fc.boolean();
      case 'array': {
        const items = (s['items'] as Schema | undefined) ?? {};
        const min = num(s, 'minItems') ?? 0;
        if (depth > 8) return fc.constant([]);
        return fc.array(fromSchema(items, ids, depth + 1, name), { minLength: min, maxLength: Math.max(min, Math.min(num(s, 'maxItems') ?? 3, 3)) });
      }
      case 'object': {
        const props = (s['properties'] ?? {}) as Record<string, Schema>;
        if (Object.keys(props).length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
        const required = (s['required'] as string[] | undefined) ?? [];
        if (depth > 8) return fc.constant({});
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [k, p] of Object.entries(props)) if (!LEFT_OUT.has(k) || required.includes(k)) model[k] = fromSchema(p, ids, depth + 1, k);
        return fc.record(model, { requiredKeys: required });
      }
      default:
        return fc.constant(null);
    }
  };
  if (nonNull.length === 0) return fc.constant(null);
  const value = fc.oneof(...nonNull.map(pick));
  return ts.includes('null') ? fc.oneof({ weight: 5, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) }) : value;
}

/** Every location in a value (the root is `[]`). */
function locations(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => locations(x, [...at, i], out));
  else if (v !== null && typeof v === 'object' && !(v instanceof RawJson)) for (const [k, x] of Object.entries(v)) locations(x, [...at, k], out);
  return out;
}

/** A copy of `v` with the value at `loc` replaced (`undefined`: the key removed). */
function replaceAt(v: unknown, loc: readonly (string | number)[], by: unknown): unknown {
  if (loc.length === 0) return by;
  const [head, ...rest] = loc;
  if (Array.isArray(v)) {
    const out = [...v];
    out[head as number] = replaceAt(v[head as number], rest, by);
    return out;
  }
  const obj = { ...(v as Record<string, unknown>) };
  const next = replaceAt(obj[head as string], rest, by);
  if (next === undefined) delete obj[head as string];
  else obj[head as string] = next;
  return obj;
}

const MUTATIONS = ['wrong-type', 'huge-number', 'empty-string', 'unicode', 'deep', 'extra-field', 'drop-field', 'long-list', 'long-string', 'null'] as const;
type Mutation = (typeof MUTATIONS)[number];
interface MutationSpec {
  kind: Mutation;
  at: number;
  pick: number;
  text: string;
}
const mutationArb: fc.Arbitrary<MutationSpec> = fc.record({
  kind: fc.constantFrom(...MUTATIONS),
  at: fc.nat(),
  pick: fc.nat(),
  text: fc.string({ unit: 'grapheme', maxLength: 30 }),
});

/** Applies one mutation at one location of a valid-ish value. */
function mutate(value: unknown, m: MutationSpec): unknown {
  const locs = locations(value);
  const loc = locs[m.at % locs.length] ?? [];
  const choose = <T>(xs: readonly T[]): T => xs[m.pick % xs.length] as T;
  switch (m.kind) {
    case 'wrong-type':
      return replaceAt(value, loc, choose<unknown>([true, 'text', 42, -7.5, [], {}, [1, 'a'], { nested: { x: 1 } }]));
    case 'huge-number':
      return replaceAt(value, loc, new RawJson(choose(NASTY_NUMBERS)));
    case 'empty-string':
      return replaceAt(value, loc, '');
    case 'unicode':
      return replaceAt(value, loc, m.pick % 2 === 0 ? m.text : choose(NASTY_STRINGS));
    case 'deep': {
      const levels = choose([10, 63, 64, 65, 200, 10_000]);
      const open = m.pick % 3 === 0 ? '{"a":' : '[';
      const close = open === '[' ? ']' : '}';
      return replaceAt(value, loc, new RawJson(`${open.repeat(levels)}${open === '[' ? '' : '1'}${close.repeat(levels)}`));
    }
    case 'extra-field': {
      const objects = locs.filter((l) => {
        let cur: unknown = value;
        for (const k of l) cur = (cur as Record<string | number, unknown>)[k];
        return cur !== null && typeof cur === 'object' && !Array.isArray(cur) && !(cur instanceof RawJson);
      });
      const target = objects[m.at % Math.max(objects.length, 1)] ?? [];
      return replaceAt(value, [...target, m.text || 'unknown_field'], choose<unknown>([1, 'x', null, {}]));
    }
    case 'drop-field':
      return loc.length === 0 ? {} : replaceAt(value, loc, undefined);
    case 'long-list':
      return replaceAt(value, loc, Array.from({ length: choose([501, 2000, 20_000]) }, () => choose<unknown>(['x', 1, {}, { type: 'text' }])));
    case 'long-string':
      return replaceAt(value, loc, 'é'.repeat(choose([201, 10_001, 100_000])));
    case 'null':
      return replaceAt(value, loc, null);
  }
}

/** Bodies that are not the JSON of an object, or not JSON. */
const RAW_BODIES: ReadonlyArray<{ contentType?: string; data: string }> = [
  { contentType: 'application/json', data: '' },
  { contentType: 'application/json', data: '{' },
  { contentType: 'application/json', data: '[1, 2' },
  { contentType: 'application/json', data: 'null' },
  { contentType: 'application/json', data: '"a string"' },
  { contentType: 'application/json', data: '12345678901234567890' },
  { contentType: 'application/json', data: '[]' },
  { contentType: 'application/json', data: '{"a": 1} trailing' },
  { contentType: 'application/json', data: '\ufeff{}' },
  { contentType: 'application/json', data: '{"__proto__": {"admin": true}}' },
  { contentType: 'application/json', data: '{"constructor": {"prototype": {"admin": true}}}' },
  { contentType: 'application/json', data: `{"a": "${'\\ud800'}"}` },
  { contentType: 'application/json', data: `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
  { contentType: 'application/json; charset=utf-16', data: '{}' },
  { contentType: 'application/json', data: `{"s": "${'x'.repeat(9 * 1024 * 1024)}"}` },
  { contentType: 'text/plain', data: '{}' },
  { contentType: 'application/x-www-form-urlencoded', data: 'a=1&b=2' },
  { contentType: 'multipart/form-data; boundary=x', data: '--x\r\n\r\n--x--' },
  { contentType: 'application/xml', data: '<a/>' },
  { data: '{}' },
];

/**
 * Valid bodies written out, for operations a generated body hardly ever gets through (a
 * chart update must name a chart that exists and give it matching data); they are mixed
 * in with the generated ones, and mutated like them.
 */
const KNOWN_GOOD_BODIES: Readonly<Record<string, unknown>> = {
  UpdateCharts: { charts: [{ slide_index: 0, chart_index: 0, title: 'Updated', categories: ['A', 'B'], series: [{ name: 'S', values: [3, 4] }] }] },
};

/** A request body for a JSON operation: valid-ish, mutated, or raw. */
function jsonBodyArb(schema: Schema, ids: Ids, known: unknown): fc.Arbitrary<{ kind: string; body: { contentType?: string; data: string } }> {
  const generated = fromSchema(schema, ids);
  const valid = known === undefined ? generated : fc.oneof(generated, fc.constant(known));
  return fc.oneof(
    { weight: 5, arbitrary: valid.map((v) => ({ kind: 'valid', body: { contentType: 'application/json', data: toJsonText(v) } })) },
    { weight: 5, arbitrary: fc.tuple(valid, mutationArb).map(([v, m]) => ({ kind: `mutated:${m.kind}`, body: { contentType: 'application/json', data: toJsonText(mutate(v, m)) } })) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((b) => ({ kind: 'raw', body: b })) },
  );
}

/** A request body for the raw upload: the real file, broken files, random bytes. */
function uploadBodyArb(house: Buffer): fc.Arbitrary<{ kind: string; body: { contentType?: string; data: Uint8Array } }> {
  const contentType = fc.constantFrom<string | undefined>(
    PPTX_MEDIA_TYPE,
    PPTX_MEDIA_TYPE,
    PPTX_MEDIA_TYPE,
    PPTX_MEDIA_TYPE,
    'application/octet-stream',
    'application/zip',
    'application/vnd.openxmlformats-officedocument.presentationml.template',
    'application/vnd.ms-powerpoint.presentation.macroEnabled.12',
    'application/json',
    'text/plain',
    'image/png',
    undefined,
  );
  const data = fc.oneof(
    { weight: 3, arbitrary: fc.constant({ kind: 'house', data: new Uint8Array(house) }) },
    { weight: 1, arbitrary: fc.nat({ max: house.length }).map((n) => ({ kind: 'truncated', data: new Uint8Array(house.subarray(0, n)) })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 512 }).map((d) => ({ kind: 'random', data: d })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'empty', data: new Uint8Array(0) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'oversized', data: new Uint8Array(10 * 1024 * 1024 + 1) }) },
  );
  return fc.tuple(contentType, data).map(([ct, d]) => ({ kind: `upload:${d.kind}`, body: { contentType: ct, data: d.data } }));
}

/** A path parameter: real ids of its kind mostly, else anything. */
function pathParamArb(p: ParameterDoc, ids: Ids): fc.Arbitrary<string> {
  const idKind: Record<string, keyof Ids> = { template_id: 'template_id', analysis_id: 'analysis_id', generation_id: 'generation_id', presentation_id: 'generation_id', id: 'generation_id' };
  const odd = fc.oneof(
    fc.constantFrom(...NASTY_STRINGS, ...NASTY_NUMBERS),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  );
  if (types(p.schema).includes('integer')) {
    const min = num(p.schema, 'minimum') ?? 0;
    return fc.oneof({ weight: 4, arbitrary: fc.integer({ min, max: min + 4 }).map(String) }, { weight: 3, arbitrary: odd });
  }
  const kind = idKind[p.name];
  const real = kind ? ids[kind] : [];
  const prefixed = fc.string({ maxLength: 30 }).map((s) => `${p.name.startsWith('template') ? 'tpl_' : p.name.startsWith('analysis') ? 'ana_' : 'gen_'}${s}`);
  return real.length > 0 ? fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: prefixed }, { weight: 2, arbitrary: odd }) : fc.oneof(prefixed, odd);
}

/** A query parameter's value: from its schema mostly (as a string), else anything. */
function queryValueArb(p: ParameterDoc, ids: Ids): fc.Arbitrary<string> {
  const odd = fc.oneof(fc.constantFrom(...NASTY_STRINGS, ...NASTY_NUMBERS), fc.string({ unit: 'grapheme', maxLength: 30 }));
  const valid = fromSchema(p.schema, ids, 0, p.name).filter((v) => v !== null).map((v) => String(v));
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: odd });
}

/** Query: each documented parameter or not, sometimes repeated, sometimes unknown ones. */
function queryArb(params: readonly ParameterDoc[], ids: Ids): fc.Arbitrary<Array<[string, string]>> {
  const each = params.map((p) =>
    fc.oneof(
      { weight: SIGNED_URL_PARAMS.has(p.name) ? 30 : 3, arbitrary: fc.constant<Array<[string, string]>>([]) },
      { weight: 4, arbitrary: queryValueArb(p, ids).map((v): Array<[string, string]> => [[p.name, v]]) },
      { weight: 1, arbitrary: fc.tuple(queryValueArb(p, ids), queryValueArb(p, ids)).map(([a, b]): Array<[string, string]> => [[p.name, a], [p.name, b]]) },
    ),
  );
  const unknown = fc.oneof(
    { weight: 5, arbitrary: fc.constant<Array<[string, string]>>([]) },
    { weight: 1, arbitrary: fc.tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }), fc.string({ maxLength: 10 })).map(([k, v]): Array<[string, string]> => [[k, v]]) },
    // the parameters of a signed URL, forged
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('acme', 'globex', 'é'), fc.string({ maxLength: 20 })).map(([org, sig]): Array<[string, string]> => [['org', org], ['expires', '99999999999'], ['signature', sig]]) },
  );
  return fc.tuple(fc.tuple(...each), unknown).map(([ps, u]) => [...ps.flat(), ...u]);
}

/** Request headers: the API key (right, of the other organization, wrong, absent, not ASCII) and odd extras. */
function headersArb(preview: boolean): fc.Arbitrary<Record<string, string>> {
  const key = fc.oneof(
    { weight: 12, arbitrary: fc.constant<string | undefined>(ORG_A.key) },
    { weight: 1, arbitrary: fc.constant<string | undefined>(ORG_B.key) },
    { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n\0]/g, '') as string | undefined) },
    { weight: 1, arbitrary: fc.constantFrom('ключ-0123456789', 'clé', '🔑', `${ORG_A.key}é`).map((s) => utf8Header(s) as string | undefined) },
  );
  const org = fc.oneof({ weight: 6, arbitrary: fc.constant<string | undefined>(undefined) }, { weight: 1, arbitrary: fc.constantFrom('acme', 'globex', utf8Header('организация')) });
  const requestId = fc.oneof({ weight: 6, arbitrary: fc.constant<string | undefined>(undefined) }, { weight: 1, arbitrary: fc.constantFrom('req-1', 'x'.repeat(500), utf8Header('запрос')) });
  const ifNoneMatch = preview ? fc.option(fc.constantFrom('*', '"abc"', 'W/"x", "y"', 'garbage', utf8Header('"ü"')), { freq: 3 }) : fc.constant(null);
  return fc.tuple(key, org, requestId, ifNoneMatch).map(([k, o, r, inm]) => {
    const h: Record<string, string> = {};
    if (k !== undefined) h['x-api-key'] = k;
    if (o !== undefined) h['x-org-name'] = o;
    if (r !== undefined) h['x-request-id'] = r;
    if (inm !== null) h['if-none-match'] = inm;
    return h;
  });
}

/** The generator of one operation's requests. */
function requestArb(op: Operation, ids: Ids, house: Buffer): fc.Arbitrary<FuzzRequest> {
  const params = op.doc.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const pathArb = fc.tuple(...pathParams.map((p) => pathParamArb(p, ids))).map((vs) => Object.fromEntries(vs.map((v, i) => [pathParams[i]!.name, v])));
  const content = op.doc.requestBody?.content ?? {};
  const jsonSchema = content['application/json']?.schema;
  const bodyArb: fc.Arbitrary<{ kind: string; body?: { contentType?: string; data: string | Uint8Array } }> = jsonSchema
    ? jsonBodyArb(jsonSchema, ids, KNOWN_GOOD_BODIES[op.doc.operationId])
    : op.doc.requestBody
      ? uploadBodyArb(house)
      : fc.constant({ kind: 'no-body' });
  return fc
    .tuple(pathArb, queryArb(queryParams, ids), headersArb(op.path.endsWith('/preview')), bodyArb)
    .map(([p, q, h, b]) => ({ kind: b.kind, params: p, query: q, headers: h, ...(b.body ? { body: b.body } : {}) }));
}

/** The URL of a request: path parameters percent-encoded (dot segments, which a URL resolves away, kept as text). */
function urlOf(base: string, op: Operation, req: FuzzRequest): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = req.params[name] ?? '';
    return v === '.' || v === '..' ? `x${v}` : encodeURIComponent(v);
  });
  const qs = new URLSearchParams(req.query).toString();
  return `${base}${path}${qs ? `?${qs}` : ''}`;
}

// ---------------------------------------------------------------------------------------
// Checking answers

/** RFC 3339 date-time, as `format: date-time` means. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const ajv = new Ajv2020({
  strict: false,
  allErrors: true,
  validateFormats: true,
  formats: { 'date-time': (s: string) => DATE_TIME.test(s) && !Number.isNaN(Date.parse(s)), binary: true },
});
const validators = new Map<string, ValidateFunction>();
function validatorFor(key: string, schema: Schema): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    v = ajv.compile(schema);
    validators.set(key, v);
  }
  return v;
}

/** What is wrong with one answer, as short sentences; empty when it is as documented. */
function checkAnswer(op: Operation, status: number, headers: Headers, body: Buffer): string[] {
  const problems: string[] = [];
  if (status >= 500) problems.push(`status ${status}`);
  const doc = op.doc.responses[String(status)];
  if (!doc) {
    problems.push(`status ${status} is not documented (documented: ${Object.keys(op.doc.responses).join(', ')})`);
    return problems;
  }
  headers.forEach((value, name) => {
    if (!/^[\t\x20-\x7e]*$/.test(value)) problems.push(`header ${name} is not printable ASCII: ${JSON.stringify(value.slice(0, 80))}`);
  });
  for (const [name, h] of Object.entries(doc.headers ?? {})) {
    const value = headers.get(name);
    if (value === null || !h.schema) continue;
    if (types(h.schema).includes('integer')) {
      const n = Number(value);
      if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n)) problems.push(`header ${name} is documented integer, got ${JSON.stringify(value)}`);
      else if ((num(h.schema, 'minimum') ?? -Infinity) > n || (num(h.schema, 'maximum') ?? Infinity) < n) problems.push(`header ${name} ${n} is out of its documented range`);
    }
  }
  if (status >= 400 && body.length > MAX_ERROR_BODY_BYTES) problems.push(`error body of ${body.length} bytes`);
  const content = doc.content;
  if (!content) {
    if (body.length > 0) problems.push(`status ${status} documents no body, got ${body.length} bytes`);
    return problems;
  }
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim();
  const json = content['application/json'];
  if (json) {
    if (type !== 'application/json') {
      problems.push(`content type ${JSON.stringify(type)}, documented application/json`);
      return problems;
    }
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      problems.push(`body is not JSON: ${body.toString('utf8').slice(0, 120)}`);
      return problems;
    }
    if (json.schema) {
      const v = validatorFor(`${op.method} ${op.path} ${status}`, json.schema);
      if (!v(value)) {
        const errs = (v.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
        problems.push(`body does not match the ${status} schema: ${errs.join('; ')} — ${JSON.stringify(value).slice(0, 300)}`);
      }
    }
    return problems;
  }
  // a file: one of the documented media types (a template may be a .potx)
  const documented = Object.keys(content);
  const potx = 'application/vnd.openxmlformats-officedocument.presentationml.template';
  if (!documented.includes(type) && !(type === potx && documented.includes(PPTX_MEDIA_TYPE))) problems.push(`content type ${JSON.stringify(type)}, documented ${documented.join(', ')}`);
  if (body.length === 0) problems.push('an empty file');
  return problems;
}

/** A short description of a request for failure messages. */
/**
 * Whether a fetch failed because its connection was closed under it (undici's
 * UND_ERR_SOCKET "other side closed", or a reset), before any answer arrived.
 */
function isClosedConnection(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause;
  return cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'ECONNRESET';
}

function describe(op: Operation, req: FuzzRequest, url: string): string {
  const body = req.body ? (typeof req.body.data === 'string' ? req.body.data : `<${req.body.data.length} bytes>`) : '';
  return `${op.method.toUpperCase()} ${url.replace(/^https?:\/\/[^/]+/, '').slice(0, 200)} [${req.kind}] headers=${JSON.stringify(req.headers).slice(0, 120)} body=${body.slice(0, 200)}`;
}

// ---------------------------------------------------------------------------------------
// The service and its real ids

let svc: TestService;
let house: Buffer;
const ids: Ids = { template_id: [], template_slide_id: [], analysis_id: [], generation_id: [] };

t.before(async () => {
  svc = await startTestService();
});
t.teardown(() => svc.close());

t.test('fuzz every operation of the OpenAPI document', async (t) => {
  const started = Date.now();
  const path = await houseTemplatePath(t);
  house = readFileSync(path);
  const { templateId, results } = await uploadAndAnalyze(svc, path);
  const slideIds = [...((results['slides'] ?? []) as Array<{ slide_id: string }>), ...((results['layouts'] ?? []) as Array<{ slide_id: string }>)].map((s) => s.slide_id);
  const analysis = (await (await svc.api(`/api/v1/templates/${templateId}/analysis`)).json()) as { analysis_id: string };
  // a finished deck with a chart on its first slide, for downloads, previews and chart updates
  const layouts = (results['layouts'] ?? []) as Array<{ slide_id: string; type: string }>;
  const chartSlide = layouts.find((l) => l.type === 'obj')?.slide_id ?? slideIds[0];
  const chart = { type: 'chart', chart: { chart_type: 'column', title: 'Fuzz', categories: ['A', 'B'], series: [{ name: 'S', values: [1, 2] }] } };
  const gen = (await (await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: chartSlide, slide_data: { title: 'Fuzz', content: { blocks: [chart] } } }] } })).json()) as { generation_id: string };
  const done = await waitForGeneration(svc, gen.generation_id);
  t.equal(done['status'], 'completed', 'the deck of the setup is made');
  // templates waiting for their file (uploads; one declared a size the house file is not),
  // and a deleted one (restores)
  const create = async (json: Record<string, unknown>): Promise<string> => ((await (await svc.api('/api/v1/templates', { method: 'POST', json })).json()) as { template_id: string }).template_id;
  const pending = await create({ filename: 'pending.pptx' });
  const declared = await create({ filename: 'declared.pptx', file_size: house.length + 1 });
  const deleted = await create({ filename: 'deleted.pptx' });
  t.equal((await svc.api(`/api/v1/templates/${deleted}`, { method: 'DELETE' })).status, 200, 'a deleted template for the restores');
  ids.template_id.push(templateId, pending, declared, deleted);
  ids.template_slide_id.push(...slideIds);
  ids.analysis_id.push(analysis.analysis_id);
  ids.generation_id.push(gen.generation_id);
  t.comment(`setup: template ${templateId} (${slideIds.length} slide ids), generation ${gen.generation_id}, ${Date.now() - started} ms`);

  const doc = (await (await svc.api('/openapi.json', { as: null })).json()) as OpenApiDoc;
  // reads first, then writes, then cancelling, deleting and restoring, so most requests
  // meet the real records still there and the restores meet deleted ones
  const LAST = ['CancelAnalysis', 'DeleteTemplate', 'RestoreTemplate'];
  const order = (o: Operation): number => (LAST.includes(o.doc.operationId) ? 2 + LAST.indexOf(o.doc.operationId) : o.method === 'get' ? 0 : 1);
  const operations: Operation[] = Object.entries(doc.paths)
    .flatMap(([p, ops]) => Object.entries(ops).map(([method, d]) => ({ method, path: p, doc: d })))
    .sort((a, b) => order(a) - order(b));
  t.ok(operations.length >= 21, `${operations.length} operations`);

  let examples = 0;
  let resent = 0;
  const allStatuses = new Map<number, number>();
  for (const op of operations) {
    const statuses = new Map<number, number>();
    const kinds = new Map<string, number>();
    const problems: string[] = [];
    const opStart = Date.now();
    await fc.assert(
      fc.asyncProperty(requestArb(op, ids, house), async (req) => {
        const url = urlOf(svc.url, op, req);
        const headers: Record<string, string> = { ...req.headers };
        if (req.body?.contentType !== undefined) headers['content-type'] = req.body.contentType;
        const send = (): Promise<Response> => fetch(url, { method: op.method.toUpperCase(), headers, ...(req.body ? { body: req.body.data } : {}) });
        let res: Response;
        try {
          res = await send();
        } catch (first) {
          // A kept-alive connection the server closed while this process was starved (tap runs
          // files two at a time) fails before any answer; undici drops that socket, so one
          // resend goes out on a fresh connection. A service that closes connections on us
          // fails the resend too and is reported.
          if (!isClosedConnection(first)) {
            problems.push(`${describe(op, req, url)}: no answer (${(first as Error).message})`);
            return;
          }
          resent++;
          try {
            res = await send();
          } catch (err) {
            problems.push(`${describe(op, req, url)}: no answer, twice (${(first as Error).message}; ${(err as Error).message})`);
            return;
          }
        }
        const body = Buffer.from(await res.arrayBuffer());
        examples++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        allStatuses.set(res.status, (allStatuses.get(res.status) ?? 0) + 1);
        kinds.set(req.kind.split(':')[0]!, (kinds.get(req.kind.split(':')[0]!) ?? 0) + 1);
        for (const p of checkAnswer(op, res.status, res.headers, body)) if (problems.length < 20) problems.push(`${describe(op, req, url)} → ${res.status}: ${p}`);
      }),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: OPERATION_TIME_LIMIT_MS, markInterruptAsFailure: false, endOnFailure: true },
    );
    const seen = [...statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(' ');
    const ran = [...kinds.entries()].map(([k, n]) => `${k} ${n}`).join(', ');
    t.comment(`${op.method.toUpperCase()} ${op.path} (${op.doc.operationId}): ${[...statuses.values()].reduce((a, b) => a + b, 0)} examples (${ran}) in ${Date.now() - opStart} ms; statuses ${seen}`);
    t.same(problems, [], `${op.doc.operationId}: every answer is a documented one`);
    t.ok([...statuses.keys()].some((s) => s < 400 || s === 404 || s === 409), `${op.doc.operationId}: some requests got past validation`);
  }
  const overall = [...allStatuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(' ');
  t.comment(`total: ${operations.length} operations, ${examples} examples in ${Math.round((Date.now() - started) / 1000)} s (${resent} resent after a closed kept-alive connection); statuses ${overall}`);
});

t.test('the reported 500s are documented answers now', async (t) => {
  const tpl = ids.template_id[0] ?? 'tpl_x';
  const gen = ids.generation_id[0] ?? 'gen_x';
  const loc = async (r: Response): Promise<unknown> => ((await r.json()) as { detail: Array<{ loc: unknown }> }).detail[0]?.loc;
  const page = await svc.api('/api/v1/templates?page=2147483648');
  t.equal(page.status, 422);
  t.same(await loc(page), ['query', 'page']);
  for (const suffix of ['', '/preview']) {
    const r = await svc.api(`/api/v1/templates/${tpl}/slides/2147483648${suffix}`);
    t.equal(r.status, 422, `slide 2^31${suffix}`);
    t.same(await loc(r), ['path', 'slide_number']);
  }
  const charts = await svc.api(`/api/v1/presentations/${gen}/update-charts`, { method: 'PUT', json: { charts: [{ slide_index: 2 ** 31 }] } });
  t.equal(charts.status, 422);
  t.same(await loc(charts), ['body', 'charts', 0, 'slide_index']);
  const deep = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"slides":${'['.repeat(10_000)}${']'.repeat(10_000)}}` });
  t.equal(deep.status, 422);
  const deepBody = (await deep.json()) as { detail: Array<{ type: string; msg: string }> };
  t.match(deepBody.detail[0], { type: 'json_invalid', msg: 'JSON nested deeper than 64 levels' });
  const size = await svc.api('/api/v1/templates', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"filename":"a.pptx","file_size":9007199254740993}' });
  t.equal(size.status, 422);
  t.same(await loc(size), ['body', 'file_size']);
  const empty = await svc.api('/api/v1/presentations/generate', { method: 'POST', json: { template_slide_id: '', slide_data: {} } });
  t.match(((await empty.json()) as { detail: unknown[] }).detail[0], { type: 'string_too_short', loc: ['body', 'template_slide_id'], msg: 'String should have at least 1 character' });
  const noExt = await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'no-extension' } });
  t.equal(noExt.status, 415, 'a file name without an extension: 415, documented');
});

t.test('gRPC: an int64 beyond what JS holds is INVALID_ARGUMENT, not INTERNAL', async (t) => {
  const client = new grpc.Client(svc.grpcAddress, grpc.credentials.createInsecure());
  t.teardown(() => client.close());
  // CreateTemplateRequest { filename (1) = "a.pptx", file_size (3) = 2^60 }, written by hand:
  // the generated encoder would not write what the decoder refuses
  const name = Buffer.from('a.pptx');
  const varint = (n: bigint): number[] => {
    const out: number[] = [];
    while (n >= 0x80n) {
      out.push(Number(n & 0x7fn) | 0x80);
      n >>= 7n;
    }
    out.push(Number(n));
    return out;
  };
  const request = Buffer.from([0x0a, name.length, ...name, 0x18, ...varint(2n ** 60n)]);
  const md = new grpc.Metadata();
  md.set('x-api-key', ORG_A.key);
  const err = await new Promise<grpc.ServiceError | null>((resolve) =>
    client.makeUnaryRequest('/slidewright.v1.TemplateService/CreateTemplate', (b: Buffer) => b, (b: Buffer) => b, request, md, (e) => resolve(e)),
  );
  t.equal(err?.code, grpc.status.INVALID_ARGUMENT, err?.details ?? 'no error');
  t.match(err?.details, /cannot be decoded/);
});
