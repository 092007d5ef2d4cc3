/**
 * Request validation: one source of truth for REST and gRPC.
 *
 * The rules live in the protos (`slidewright.v1.rules` field options); `npm run gen:proto`
 * turns them into the JSON Schemas of `proto/gen/schemas.ts`, which this module applies
 * with Ajv and reports in the FastAPI/Pydantic v2 vocabulary of the contract's 422 body.
 * The REST gateway calls {@link validateBody}, {@link validateQuery} and
 * {@link validateParams}; the gRPC services call {@link validateMessage} and answer with
 * {@link toInvalidArgument}, which the gateway turns back into violations with
 * {@link violationsFromServiceError}.
 */
import { Ajv2020, _ } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { createRequire } from 'node:module';
import { ROUTES, type RouteSpec } from '../../../proto/gen/routes.js';
import { MESSAGE_SCHEMAS, ROUTE_SCHEMAS, type JsonSchema } from '../../../proto/gen/schemas.js';
import { boundedEcho, mapAjvErrors, type Violation } from './errors.js';

export { boundedEcho, ECHO_LIMITS, type Violation } from './errors.js';
export { toInvalidArgument, violationsFromServiceError, fieldPath, parseFieldPath, type InvalidArgumentError } from './grpc.js';

/** Name the standalone code of a validator requires the formats by ({@link validatorSources}). */
const FORMATS_MODULE = 'slidewright:validation-formats';
// bcp47: a well-formed BCP 47 language tag (language, then subtags of 1–8 letters or digits)
const FORMATS = { 'date-time': true, bcp47: /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/ } as const;

const ajv = new Ajv2020({
  allErrors: true,
  verbose: true,
  allowUnionTypes: true,
  strict: true,
  formats: FORMATS,
  // each validator keeps its source, so another thread can take it instead of compiling ({@link validatorSources})
  code: { source: true, formats: _`require(${FORMATS_MODULE})` },
});
ajv.addVocabulary(['x-proto-type', 'x-single-or-list', 'x-http-header']);

const validators = new Map<string, ValidateFunction>();

/** Ajv's standalone code generator (a CommonJS module whose export is the function, and also its `default`). */
const standaloneCode = ((standalone as unknown as { default?: unknown }).default ?? standalone) as unknown as (instance: Ajv2020, validate: ValidateFunction) => string;

function compiled(key: string, schema: JsonSchema): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    v = ajv.compile(schema as Record<string, unknown>);
    validators.set(key, v);
  }
  return v;
}

/**
 * Compiles every validator requests can use — each route's body, query and path schema and
 * each request message's schema — so that no request pays for Ajv's compilation (a first
 * POST generate-deck paid ~350 ms). Idempotent and cheap once done; the gateway calls it
 * when it is built and core when its gRPC server starts (in embedded mode they share it).
 * @returns how many validators were compiled by this call (0 when all were already)
 */
export function precompileValidators(): number {
  const before = validators.size;
  for (const r of ROUTES as readonly RouteSpec[]) {
    const set = ROUTE_SCHEMAS[r.id];
    if (set?.body) compiled(`body:${r.id}`, set.body);
    if (set?.querystring) compiled(`query:${r.id}`, set.querystring);
    if (set?.params) compiled(`path:${r.id}`, set.params);
    const name = r.requestType.startsWith('.') ? r.requestType.slice(1) : r.requestType;
    const message = MESSAGE_SCHEMAS[name];
    if (message) compiled(`message:${name}`, message);
  }
  return validators.size - before;
}

/**
 * The source of every validator compiled so far, by validator key: standalone CommonJS
 * modules (Ajv's standalone code) that {@link adoptValidators} turns back into validators on
 * another thread, which then need not compile them. Embedded mode hands them to its gateway
 * thread (compiling them there took 0.4–0.9 s of its start).
 */
export function validatorSources(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, v] of validators) out[key] = standaloneCode(ajv, v);
  return out;
}

/**
 * Takes validators made on another thread ({@link validatorSources}) so that
 * {@link precompileValidators} finds them made. A key this thread has already compiled
 * keeps its own validator.
 * @returns how many validators were taken
 * @throws Error when a source does not evaluate (it was not made by {@link validatorSources}
 *   of the same code); validators taken before it stay
 */
export function adoptValidators(sources: Readonly<Record<string, string>>): number {
  const base = createRequire(import.meta.url);
  const requireFor = (id: string): unknown => (id === FORMATS_MODULE ? FORMATS : base(id));
  let taken = 0;
  for (const [key, source] of Object.entries(sources)) {
    if (validators.has(key)) continue;
    const module: { exports: unknown } = { exports: {} };
    // the code is Ajv's own output for this module's schemas, made by this process
    new Function('module', 'exports', 'require', source)(module, module.exports, requireFor);
    if (typeof module.exports !== 'function') throw new Error(`validation: the source of ${key} is not a validator`);
    validators.set(key, module.exports as ValidateFunction);
    taken++;
  }
  return taken;
}

const routeIndex = new Map<string, RouteSpec>();
for (const r of ROUTES as readonly RouteSpec[]) {
  const shortService = r.service.slice(r.service.lastIndexOf('.') + 1);
  for (const k of [r.id, r.grpcPath, `${shortService}/${r.rpc}`, `${r.method} ${r.url}`, `${r.method} ${r.pathTemplate}`])
    routeIndex.set(k, r);
}

/**
 * Finds a route by any of its names: the route id
 * (`slidewright.v1.PresentationService/GenerateDeck`), the gRPC path
 * (`/slidewright.v1.PresentationService/GenerateDeck`), `PresentationService/GenerateDeck`,
 * or `POST /api/v1/presentations/generate-deck`.
 * @throws Error when no route has that name (a programming error).
 */
export function resolveRoute(rpc: string): RouteSpec {
  const r = routeIndex.get(rpc);
  if (!r) throw new Error(`validation: unknown route or RPC ${JSON.stringify(rpc)}`);
  return r;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array);
}

function schemaProps(s: JsonSchema | undefined): Record<string, JsonSchema> {
  const p = s?.['properties'];
  return isPlainObject(p) ? (p as Record<string, JsonSchema>) : {};
}

function itemsOf(s: JsonSchema): JsonSchema | undefined {
  const i = s['items'];
  return isPlainObject(i) ? (i as JsonSchema) : undefined;
}

/**
 * Pydantic's lax JSON coercions that proto JSON shares or that are unambiguous: numeric
 * strings for integers and numbers, and `"true"`/`"false"`-like strings and 0/1 for
 * booleans. Strings are never made from numbers (Pydantic refuses that too).
 */
function laxScalar(schema: JsonSchema, value: string | number): unknown {
  const t = baseType(schema);
  if (typeof value === 'string') {
    if (t === 'integer' && /^\s*[+-]?\d+\s*$/.test(value)) return Number(value);
    if (t === 'number' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)) return Number(value);
    if (t === 'boolean') {
      const l = value.trim().toLowerCase();
      if (TRUE_STRINGS.has(l)) return true;
      if (FALSE_STRINGS.has(l)) return false;
    }
    return value;
  }
  if (t === 'boolean' && (value === 0 || value === 1)) return value === 1;
  return value;
}

/**
 * Where a value sits in a body, as a chain to its parent: built as the walk goes down and
 * turned into a list only where an object is wrapped (rare), so walking a 100-slide deck
 * allocates no location per value.
 */
interface Path {
  readonly parent: Path | undefined;
  readonly key: string | number;
}

function locOf(path: Path | undefined): (string | number)[] {
  const out: (string | number)[] = [];
  for (let p = path; p; p = p.parent) out.push(p.key);
  return out.reverse();
}

/** Wraps single objects sent for `x-single-or-list` fields; records where it did. */
function normalize(schema: JsonSchema, value: unknown, path: Path | undefined, wrapped: (string | number)[][]): unknown {
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    if (!items) return value;
    let mapped: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const nv = normalize(items, v, { parent: path, key: i }, wrapped);
      if (nv !== v) {
        mapped ??= value.slice();
        mapped[i] = nv;
      }
    }
    return mapped ?? value;
  }
  if (typeof value === 'string' || typeof value === 'number') return laxScalar(schema, value);
  if (!isPlainObject(value)) return value;
  const props = schemaProps(schema);
  let out: Record<string, unknown> | undefined;
  for (const k in value) {
    if (!Object.prototype.hasOwnProperty.call(value, k)) continue;
    const ps = props[k];
    if (!ps) continue;
    const v = value[k];
    let nv: unknown = v;
    const at: Path = { parent: path, key: k };
    if (ps['x-single-or-list'] === true && isPlainObject(v)) {
      wrapped.push(locOf(at));
      nv = [v];
    }
    nv = normalize(ps, nv, at, wrapped);
    if (nv !== v) {
      out ??= { ...value };
      out[k] = nv;
    }
  }
  return out ?? value;
}

function bodySchema(route: RouteSpec): JsonSchema | undefined {
  return ROUTE_SCHEMAS[route.id]?.body;
}

/**
 * Normalizes a REST request body to the proto JSON form: a single object sent for a
 * single-or-list field (SlideDataInput `content`: one Column) becomes a list of one, and
 * the lax scalar forms Pydantic accepts become proper JSON types (`"10"` → 10 for
 * integers, `"false"` → false for booleans). Pass the result, not the raw body, to
 * `Message.fromJSON`. Returns the input unchanged when nothing needs normalizing; never
 * mutates it.
 * @param rpc a route name as accepted by {@link resolveRoute}
 * @param body the parsed JSON body
 */
export function normalizeRequestBody(rpc: string, body: unknown): unknown {
  const schema = bodySchema(resolveRoute(rpc));
  return schema ? normalize(schema, body, undefined, []) : body;
}

function valueAt(root: unknown, loc: readonly (string | number)[]): { found: boolean; value: unknown } {
  let cur: unknown = root;
  for (const k of loc) {
    if (Array.isArray(cur) && typeof k === 'number' && k < cur.length) cur = cur[k];
    else if (isPlainObject(cur) && typeof k === 'string' && k in cur) cur = cur[k];
    else return { found: false, value: undefined };
  }
  return { found: true, value: cur };
}

/**
 * Orders violations as Pydantic reports them: by field declaration order at every level
 * (array items by index), unknown keys after the declared fields in input order.
 */
function pydanticOrder(schema: JsonSchema, data: unknown, violations: Violation[], skip: number): Violation[] {
  const keyOf = (loc: readonly (string | number)[]): number[] => {
    const out: number[] = [];
    let s: JsonSchema | undefined = schema;
    let d: unknown = data;
    for (const seg of loc.slice(skip)) {
      if (typeof seg === 'number') {
        out.push(seg);
        s = s ? itemsOf(s) : undefined;
        d = Array.isArray(d) ? d[seg] : undefined;
        continue;
      }
      const names = Object.keys(schemaProps(s));
      let i = names.indexOf(seg);
      if (i < 0) i = names.length + (isPlainObject(d) ? Object.keys(d).indexOf(seg) : 0);
      out.push(i);
      s = schemaProps(s)[seg];
      d = isPlainObject(d) ? d[seg] : undefined;
    }
    return out;
  };
  const keyed = violations.map((v, i) => ({ v, k: keyOf(v.loc), i }));
  keyed.sort((a, b) => {
    for (let j = 0; j < Math.min(a.k.length, b.k.length); j++) {
      const d = (a.k[j] ?? 0) - (b.k[j] ?? 0);
      if (d !== 0) return d;
    }
    return a.k.length - b.k.length || a.i - b.i;
  });
  return keyed.map((x) => x.v);
}

function startsWith(loc: readonly (string | number)[], prefix: readonly (string | number)[]): boolean {
  return prefix.length <= loc.length && prefix.every((p, i) => loc[i] === p);
}

/**
 * Validates a REST JSON request body against the route's rules.
 * @param rpc a route name as accepted by {@link resolveRoute}
 *   (e.g. `slidewright.v1.PresentationService/GenerateDeck`)
 * @param body the parsed JSON body (`undefined` when none was sent)
 * @returns violations with loc starting with `'body'`; empty when valid. Routes without a
 *   JSON body (no body, raw bytes) always return an empty list.
 */
export function validateBody(rpc: string, body: unknown): Violation[] {
  return validateAndNormalizeBody(rpc, body).violations;
}

/**
 * {@link validateBody} and {@link normalizeRequestBody} in one walk of the body, as the
 * gateway needs both for each request (walking a 100-slide deck twice was ~a tenth of the
 * gateway's time on a POST generate-deck).
 * @param rpc a route name as accepted by {@link resolveRoute}
 * @param body the parsed JSON body (`undefined` when none was sent)
 * @returns the violations (as {@link validateBody}) and the normalized body (as
 *   {@link normalizeRequestBody}; the body itself when it is not an object)
 */
export function validateAndNormalizeBody(rpc: string, body: unknown): { violations: Violation[]; value: unknown } {
  const route = resolveRoute(rpc);
  const schema = bodySchema(route);
  if (!schema) return { violations: [], value: body };
  if (body === undefined || body === null) {
    const req = schema['required'];
    if (Array.isArray(req) && req.length > 0) return { violations: [{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }], value: body };
    return { violations: [], value: body };
  }
  if (!isPlainObject(body))
    return {
      violations: [
        {
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          type: 'model_attributes_type',
          input: body,
        },
      ],
      value: body,
    };
  const wrapped: (string | number)[][] = [];
  const data = normalize(schema, body, undefined, wrapped);
  const v = compiled(`body:${route.id}`, schema);
  if (v(data)) return { violations: [], value: data };
  const violations = mapAjvErrors(v.errors, data, []);
  // Errors inside a single object that was wrapped into a list: drop the added index.
  const ordered = pydanticOrder(schema, data, violations, 0).map((x) => {
    const w = wrapped.find((p) => startsWith(x.loc, p) && x.loc[p.length] === 0);
    const loc = w ? [...w, ...x.loc.slice(w.length + 1)] : x.loc;
    // Inputs as sent (not as normalized or coerced).
    const at = x.type === 'missing' ? loc.slice(0, -1) : loc;
    const original = valueAt(body, at);
    return { ...x, loc: ['body', ...loc], input: original.found ? original.value : x.input };
  });
  return { violations: ordered, value: data };
}

const TRUE_STRINGS: ReadonlySet<string> = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_STRINGS: ReadonlySet<string> = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

function baseType(s: JsonSchema): string {
  const t = s['type'];
  if (Array.isArray(t)) return String(t.find((x) => x !== 'null') ?? '');
  return typeof t === 'string' ? t : '';
}

/** Coerces one query/path string to the schema's scalar type (Pydantic lax mode). */
function coerce(s: JsonSchema, raw: unknown, loc: (string | number)[]): { ok: true; value: unknown } | { ok: false; violation: Violation } {
  const t = baseType(s);
  const str = typeof raw === 'string' ? raw : String(raw);
  switch (t) {
    case 'integer':
      if (/^\s*[+-]?\d+\s*$/.test(str)) return { ok: true, value: Number(str) };
      return {
        ok: false,
        violation: { loc, msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing', input: raw },
      };
    case 'number': {
      const n = Number(str);
      if (str.trim() !== '' && Number.isFinite(n)) return { ok: true, value: n };
      return {
        ok: false,
        violation: { loc, msg: 'Input should be a valid number, unable to parse string as a number', type: 'float_parsing', input: raw },
      };
    }
    case 'boolean': {
      const l = str.trim().toLowerCase();
      if (TRUE_STRINGS.has(l)) return { ok: true, value: true };
      if (FALSE_STRINGS.has(l)) return { ok: true, value: false };
      return {
        ok: false,
        violation: { loc, msg: 'Input should be a valid boolean, unable to interpret input', type: 'bool_parsing', input: raw },
      };
    }
    default:
      return { ok: true, value: str };
  }
}

function validateStrings(
  key: string,
  schema: JsonSchema | undefined,
  input: Record<string, unknown>,
  where: 'query' | 'path',
): { value: Record<string, unknown>; violations: Violation[] } {
  if (!schema) return { value: {}, violations: [] };
  const value: Record<string, unknown> = {};
  const violations: Violation[] = [];
  for (const [name, ps] of Object.entries(schemaProps(schema))) {
    let raw = input[name];
    if (raw === undefined) continue;
    if (baseType(ps) !== 'array' && Array.isArray(raw)) raw = raw[raw.length - 1]; // last one wins
    if (raw === undefined) continue;
    if (baseType(ps) === 'array') {
      const list = Array.isArray(raw) ? raw : [raw];
      const items = itemsOf(ps) ?? {};
      const out: unknown[] = [];
      list.forEach((item, i) => {
        const c = coerce(items, item, [where, name, i]);
        if (c.ok) out.push(c.value);
        else violations.push(c.violation);
      });
      value[name] = out;
      continue;
    }
    const c = coerce(ps, raw, [where, name]);
    if (c.ok) value[name] = c.value;
    else violations.push(c.violation);
  }
  const v = compiled(key, schema);
  if (!v(value)) {
    const failed = new Set(violations.map((x) => JSON.stringify(x.loc)));
    for (const x of mapAjvErrors(v.errors, value, [where])) {
      if (x.type === 'missing' && failed.has(JSON.stringify(x.loc))) continue; // already reported as unparsable
      violations.push(x);
    }
  }
  return { value, violations };
}

/**
 * Validates and coerces a REST query string (values as parsed by Fastify: strings, or
 * arrays of strings for repeated keys; the last one wins for single-valued parameters).
 * Numeric and boolean strings are coerced as Pydantic does in lax mode; unknown
 * parameters are ignored (and left out of `value`), as FastAPI does.
 * @param rpc a route name as accepted by {@link resolveRoute}
 * @param query the raw query parameters
 * @returns the coerced known parameters and violations with loc starting with `'query'`
 */
export function validateQuery(rpc: string, query: Record<string, unknown>): { value: Record<string, unknown>; violations: Violation[] } {
  const route = resolveRoute(rpc);
  return validateStrings(`query:${route.id}`, ROUTE_SCHEMAS[route.id]?.querystring, query, 'query');
}

/**
 * Validates and coerces REST path parameters (e.g. `slide_number` must be an integer ≥ 1).
 * @param rpc a route name as accepted by {@link resolveRoute}
 * @param params the raw path parameters
 * @returns the coerced parameters and violations with loc starting with `'path'`
 */
export function validateParams(rpc: string, params: Record<string, unknown>): { value: Record<string, unknown>; violations: Violation[] } {
  const route = resolveRoute(rpc);
  return validateStrings(`path:${route.id}`, ROUTE_SCHEMAS[route.id]?.params, params, 'path');
}

/**
 * A JSON-like copy of a decoded message for validation: undefined fields dropped, raw
 * bytes and google.* messages (HttpBody payloads) left out.
 */
function messageData(schema: JsonSchema | undefined, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = schema ? itemsOf(schema) : undefined;
    return value.map((v) => messageData(items, v));
  }
  if (!isPlainObject(value)) return value;
  const props = schemaProps(schema);
  if (!schema || Object.keys(props).length === 0) return value; // Struct: as is
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || v instanceof Uint8Array) continue;
    const ps = props[k];
    const proto = ps?.['x-proto-type'] ?? (ps ? itemsOf(ps)?.['x-proto-type'] : undefined);
    if (typeof proto === 'string' && proto.startsWith('google.')) continue;
    out[k] = messageData(ps, v);
  }
  return out;
}

/** gRPC semantics of `required` strings: an empty string (the proto default) is missing. */
function emptyRequired(schema: JsonSchema | undefined, value: unknown, loc: (string | number)[], out: Violation[]): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    value.forEach((v, i) => emptyRequired(items, v, [...loc, i], out));
    return;
  }
  if (!isPlainObject(value)) return;
  const props = schemaProps(schema);
  const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
  for (const r of required) {
    if (value[r] === '') out.push({ loc: [...loc, r], msg: 'Field required', type: 'missing', input: value });
  }
  for (const [k, v] of Object.entries(value)) emptyRequired(props[k], v, [...loc, k], out);
}

/**
 * Validates a message in its proto JSON form — a ts-proto object decoded by grpc-js
 * (snake_case keys) or `Message.toJSON()` output — with the same rules as REST.
 * gRPC semantics: unset (undefined) fields are absent, and a required string that is
 * empty counts as missing.
 * @param typeName full message name, e.g. `slidewright.v1.GenerateDeckRequest` (a leading
 *   dot is accepted)
 * @param json the message
 * @returns violations with loc relative to the message (no `'body'` prefix)
 * @throws Error for an unknown message name
 */
export function validateMessage(typeName: string, json: unknown): Violation[] {
  const name = typeName.startsWith('.') ? typeName.slice(1) : typeName;
  const schema = MESSAGE_SCHEMAS[name];
  if (!schema) throw new Error(`validation: unknown message ${JSON.stringify(typeName)}`);
  if (!isPlainObject(json))
    return [{ loc: [], msg: 'Input should be a valid dictionary or object to extract fields from', type: 'model_attributes_type', input: json }];
  const data = messageData(schema, json);
  const v = compiled(`message:${name}`, schema);
  const empty: Violation[] = [];
  emptyRequired(schema, data, [], empty);
  // gRPC cannot tell an empty string from an unset one: a required string that is empty
  // is missing here, where REST (which can tell) says string_too_short
  const emptyAt = new Set(empty.map((e) => JSON.stringify(e.loc)));
  const violations = (v(data) ? [] : mapAjvErrors(v.errors, data, [])).filter((x) => !(x.type === 'string_too_short' && emptyAt.has(JSON.stringify(x.loc))));
  const seen = new Set(violations.map((x) => JSON.stringify(x.loc)));
  for (const e of empty) if (!seen.has(JSON.stringify(e.loc))) violations.push(e);
  return pydanticOrder(schema, data, violations, 0);
}

/**
 * Validates the request of an RPC (gRPC side): {@link validateMessage} on the route's
 * request type.
 * @param rpc a route name as accepted by {@link resolveRoute}
 * @param request the decoded request message
 */
export function validateRequest(rpc: string, request: unknown): Violation[] {
  return validateMessage(resolveRoute(rpc).requestType, request);
}

/** Most violations one 422 body lists (a list of a million wrong items is not a million errors). */
export const MAX_REPORTED_VIOLATIONS = 100;

/**
 * The contract's 422 body for a list of violations: `{ detail: [...] }`, at most
 * {@link MAX_REPORTED_VIOLATIONS} of them, each echoing a bounded copy of its `input` and
 * `ctx` ({@link boundedEcho}), so the answer stays small whatever was sent.
 */
export function validationErrorBody(violations: readonly Violation[]): { detail: Violation[] } {
  return {
    detail: violations.slice(0, MAX_REPORTED_VIOLATIONS).map((v) => {
      const out: Violation = { ...v, input: boundedEcho(v.input) };
      if (v.ctx !== undefined) out.ctx = boundedEcho(v.ctx) as Record<string, unknown>;
      return out;
    }),
  };
}

/**
 * The violation FastAPI reports for a body that is not valid JSON:
 * `{type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: {error}}`.
 * @param position character offset of the error in the body (0 when unknown)
 * @param error the parser's short reason, e.g. `Expecting value`
 */
export function jsonInvalidViolation(position: number, error: string): Violation {
  return { type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error } };
}
