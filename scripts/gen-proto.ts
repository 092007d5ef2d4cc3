/**
 * Code generation from the protos (`npm run gen:proto`).
 *
 * 1. `buf generate` runs ts-proto (see buf.gen.yaml) into `proto/gen/ts/`.
 * 2. `buf build` writes a JSON descriptor set; from it this script writes
 *    `proto/gen/routes.ts` (the REST route table from the `google.api.http` bindings) and
 *    `proto/gen/schemas.ts` (JSON Schemas, draft 2020-12, of every slidewright message in
 *    its REST JSON form, with the validation rules of `slidewright.v1.rules`), and
 *    `proto/gen/slidewright.binpb` (the binary FileDescriptorSet, e.g. for reflection).
 *
 * Output is deterministic: no timestamps, descriptor order. `--out DIR` writes everything
 * under DIR instead of the repository root (the reproducibility test uses it).
 *
 * Usage: `tsx scripts/gen-proto.ts [--out DIR]`
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BUF = join(ROOT, 'node_modules', '.bin', 'buf');

// ---------------------------------------------------------------------------------------
// Descriptor set, JSON form (protojson of google.protobuf.FileDescriptorSet).

interface FieldRulesJson {
  required?: boolean;
  min?: number;
  max?: number;
  exclusive_min?: number;
  exclusive_max?: number;
  min_items?: number;
  max_items?: number;
  min_length?: number;
  max_length?: number;
  allowed?: string[];
  single_or_list?: boolean;
  nullable?: boolean;
  format?: string;
}

interface FieldDesc {
  name: string;
  number: number;
  label?: string;
  type: string;
  typeName?: string;
  jsonName?: string;
  proto3Optional?: boolean;
  options?: { '[slidewright.v1.rules]'?: FieldRulesJson; '[slidewright.v1.http_header]'?: string };
}

interface MessageDesc {
  name: string;
  field?: FieldDesc[];
  nestedType?: MessageDesc[];
  enumType?: EnumDesc[];
  options?: { mapEntry?: boolean };
}

interface EnumDesc {
  name: string;
  value?: { name: string; number: number }[];
}

interface HttpRuleJson {
  get?: string;
  put?: string;
  post?: string;
  delete?: string;
  patch?: string;
  body?: string;
  responseBody?: string;
}

interface MethodDesc {
  name: string;
  inputType: string;
  outputType: string;
  options?: {
    '[google.api.http]'?: HttpRuleJson;
    '[slidewright.v1.http_status]'?: number;
    '[slidewright.v1.http_empty_status]'?: number;
  };
}

interface ServiceDesc {
  name: string;
  method?: MethodDesc[];
}

interface FileDesc {
  name: string;
  package?: string;
  messageType?: MessageDesc[];
  enumType?: EnumDesc[];
  service?: ServiceDesc[];
  sourceCodeInfo?: { location?: { path?: number[]; leadingComments?: string }[] };
}

interface DescriptorSet {
  file: FileDesc[];
}

// ---------------------------------------------------------------------------------------
// Index

interface MessageInfo {
  fullName: string;
  desc: MessageDesc;
  comment: string;
  fieldComments: string[];
}

const messages = new Map<string, MessageInfo>();
const enums = new Map<string, EnumDesc>();

function cleanComment(c: string | undefined): string {
  if (!c) return '';
  return c
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .join('\n');
}

function indexFile(f: FileDesc): void {
  const comments = new Map<string, string>();
  for (const loc of f.sourceCodeInfo?.location ?? []) {
    if (loc.path && loc.leadingComments) comments.set(loc.path.join('.'), cleanComment(loc.leadingComments));
  }
  const pkg = f.package ? `${f.package}.` : '';
  const visit = (m: MessageDesc, prefix: string, path: number[]): void => {
    const fullName = `${prefix}${m.name}`;
    messages.set(fullName, {
      fullName,
      desc: m,
      comment: comments.get(path.join('.')) ?? '',
      fieldComments: (m.field ?? []).map((_, i) => comments.get([...path, 2, i].join('.')) ?? ''),
    });
    (m.nestedType ?? []).forEach((n, i) => visit(n, `${fullName}.`, [...path, 3, i]));
    for (const e of m.enumType ?? []) enums.set(`${fullName}.${e.name}`, e);
  };
  (f.messageType ?? []).forEach((m, i) => visit(m, pkg, [4, i]));
  for (const e of f.enumType ?? []) enums.set(`${pkg}${e.name}`, e);
}

function stripDot(typeName: string): string {
  return typeName.startsWith('.') ? typeName.slice(1) : typeName;
}

function shortName(fullName: string): string {
  const i = fullName.lastIndexOf('.');
  return i < 0 ? fullName : fullName.slice(i + 1);
}

// ---------------------------------------------------------------------------------------
// JSON Schemas

type Schema = Record<string, unknown>;

/**
 * The values each integer type can hold, as JSON Schema bounds. A value outside them
 * cannot be encoded (int32: "invalid int32") or decoded (64-bit types are JS numbers,
 * `forceLong=number`, and ts-proto refuses one beyond Number.MAX_SAFE_INTEGER), so
 * validation must refuse it first: with them every integer field, parameter and list
 * item gets a 422 with its loc instead of a 500.
 */
const INT32: readonly [number, number] = [-(2 ** 31), 2 ** 31 - 1];
const UINT32: readonly [number, number] = [0, 2 ** 32 - 1];
const INT64: readonly [number, number] = [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
const UINT64: readonly [number, number] = [0, Number.MAX_SAFE_INTEGER];
const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  TYPE_INT32: INT32,
  TYPE_SINT32: INT32,
  TYPE_SFIXED32: INT32,
  TYPE_UINT32: UINT32,
  TYPE_FIXED32: UINT32,
  TYPE_INT64: INT64,
  TYPE_SINT64: INT64,
  TYPE_SFIXED64: INT64,
  TYPE_UINT64: UINT64,
  TYPE_FIXED64: UINT64,
};

function isMap(f: FieldDesc): MessageInfo | undefined {
  if (f.type !== 'TYPE_MESSAGE' || !f.typeName) return undefined;
  const m = messages.get(stripDot(f.typeName));
  return m?.desc.options?.mapEntry ? m : undefined;
}

/** Schema of one value of the field (no repetition, no nullability). */
function valueSchema(f: FieldDesc, stack: readonly string[]): Schema {
  const range = INTEGER_RANGES[f.type];
  if (range) return { type: 'integer', minimum: range[0], maximum: range[1] };
  switch (f.type) {
    case 'TYPE_STRING':
      return { type: 'string' };
    case 'TYPE_BOOL':
      return { type: 'boolean' };
    case 'TYPE_DOUBLE':
    case 'TYPE_FLOAT':
      return { type: 'number' };
    case 'TYPE_BYTES':
      return { type: 'string', contentEncoding: 'base64' };
    case 'TYPE_ENUM': {
      const e = enums.get(stripDot(f.typeName ?? ''));
      return { type: 'string', enum: (e?.value ?? []).map((v) => v.name) };
    }
    case 'TYPE_MESSAGE':
      return messageSchema(stripDot(f.typeName ?? ''), stack);
    default:
      throw new Error(`unsupported field type ${f.type} (${f.name})`);
  }
}

function withNull(s: Schema): Schema {
  const t = s['type'];
  if (typeof t === 'string') {
    const out: Schema = { ...s, type: [t, 'null'] };
    if (Array.isArray(s['enum'])) out['enum'] = [...(s['enum'] as unknown[]), null];
    return out;
  }
  if (t === undefined) return s; // already accepts anything
  return s;
}

function fieldSchema(f: FieldDesc, comment: string, stack: readonly string[]): Schema {
  const rules = f.options?.['[slidewright.v1.rules]'] ?? {};
  const map = isMap(f);
  let s: Schema;
  if (map) {
    const valueField = (map.desc.field ?? []).find((x) => x.number === 2);
    if (!valueField) throw new Error(`map entry without value: ${map.fullName}`);
    s = { type: 'object', additionalProperties: valueSchema(valueField, stack) };
  } else {
    let item = valueSchema(f, stack);
    const isRepeated = f.label === 'LABEL_REPEATED';
    if (!isRepeated) item = applyScalarRules(item, rules);
    // A required string that is sent empty is there but empty: it gets its own error
    // (string_too_short, as Pydantic's min_length=1), not "Field required". (gRPC cannot
    // tell "" from unset; core/src/validation reports it as missing there.)
    if (!isRepeated && rules.required && f.type === 'TYPE_STRING' && !(typeof item['minLength'] === 'number' && item['minLength'] >= 1)) item = { ...item, minLength: 1 };
    if (isRepeated) {
      s = { type: rules.nullable ? ['array', 'null'] : 'array', items: applyScalarRules(item, rules) };
      if (rules.min_items !== undefined) s['minItems'] = rules.min_items;
      if (rules.max_items !== undefined) s['maxItems'] = rules.max_items;
      if (rules.single_or_list) s['x-single-or-list'] = true;
    } else {
      s = f.proto3Optional ? withNull(item) : item;
    }
  }
  const header = f.options?.['[slidewright.v1.http_header]'];
  if (header) s = { ...s, 'x-http-header': header };
  if (comment) {
    const { description: _ignored, ...rest } = s;
    s = { description: comment, ...rest };
  }
  return s;
}

function applyScalarRules(s: Schema, rules: FieldRulesJson): Schema {
  const out: Schema = { ...s };
  // a rule narrows the type's range, never widens it
  if (rules.min !== undefined) out['minimum'] = typeof s['minimum'] === 'number' ? Math.max(s['minimum'], rules.min) : rules.min;
  if (rules.max !== undefined) out['maximum'] = typeof s['maximum'] === 'number' ? Math.min(s['maximum'], rules.max) : rules.max;
  if (rules.exclusive_min !== undefined) out['exclusiveMinimum'] = rules.exclusive_min;
  if (rules.exclusive_max !== undefined) out['exclusiveMaximum'] = rules.exclusive_max;
  if (rules.min_length !== undefined) out['minLength'] = rules.min_length;
  if (rules.max_length !== undefined) out['maxLength'] = rules.max_length;
  if (rules.allowed && rules.allowed.length > 0) out['enum'] = [...rules.allowed];
  if (rules.format) out['format'] = rules.format;
  return out;
}

function messageSchema(fullName: string, stack: readonly string[]): Schema {
  switch (fullName) {
    case 'google.protobuf.Struct':
      return { type: 'object', additionalProperties: true };
    case 'google.protobuf.Value':
      return {};
    case 'google.protobuf.ListValue':
      return { type: 'array', items: {} };
    case 'google.protobuf.Any':
      return { type: 'object', properties: { '@type': { type: 'string' } }, required: ['@type'] };
    default:
      break;
  }
  const info = messages.get(fullName);
  if (!info) throw new Error(`unknown message ${fullName}`);
  if (stack.includes(fullName)) return { type: 'object', 'x-proto-type': fullName };
  const next = [...stack, fullName];
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  (info.desc.field ?? []).forEach((f, i) => {
    const name = f.jsonName ?? f.name;
    properties[name] = fieldSchema(f, info.fieldComments[i] ?? '', next);
    if (f.options?.['[slidewright.v1.rules]']?.required) required.push(name);
  });
  const s: Schema = { title: shortName(fullName) };
  if (info.comment) s['description'] = info.comment;
  s['type'] = 'object';
  s['x-proto-type'] = fullName;
  s['properties'] = properties;
  if (required.length > 0) s['required'] = required;
  s['additionalProperties'] = false;
  return s;
}

/** The message's schema restricted to some fields (body "*" minus path parameters). */
function pick(s: Schema, names: readonly string[], keepRequired: boolean): Schema {
  const props = (s['properties'] ?? {}) as Record<string, Schema>;
  const properties: Record<string, Schema> = {};
  for (const n of names) {
    const p = props[n];
    if (p) properties[n] = p;
  }
  const out: Schema = { ...s, properties };
  const req = ((s['required'] ?? []) as string[]).filter((r) => names.includes(r));
  if (keepRequired && req.length > 0) out['required'] = req;
  else delete out['required'];
  return out;
}

// ---------------------------------------------------------------------------------------
// Routes

interface Route {
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  pathTemplate: string;
  service: string;
  rpc: string;
  grpcMethod: string;
  grpcPath: string;
  requestType: string;
  responseType: string;
  body: string;
  responseBody: string;
  responseBodyType: string;
  rawRequestBody: boolean;
  rawResponse: boolean;
  pathParams: string[];
  queryParams: string[];
  successStatus: number;
  emptyStatus: number | null;
  responseHeaders: { field: string; header: string }[];
  summary: string;
}

interface RouteSchemas {
  params?: Schema;
  querystring?: Schema;
  body?: Schema;
  response?: Schema;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function fieldByName(m: MessageInfo, name: string): FieldDesc {
  const f = (m.desc.field ?? []).find((x) => x.name === name);
  if (!f) throw new Error(`${m.fullName} has no field ${name}`);
  return f;
}

function isScalar(f: FieldDesc): boolean {
  return f.type !== 'TYPE_MESSAGE' && f.type !== 'TYPE_GROUP';
}

function buildRoutes(files: FileDesc[]): { routes: Route[]; routeSchemas: Map<string, RouteSchemas> } {
  const routes: Route[] = [];
  const routeSchemas = new Map<string, RouteSchemas>();
  for (const f of files) {
    if (!f.package?.startsWith('slidewright.')) continue;
    const methodComments = new Map<string, string>();
    for (const loc of f.sourceCodeInfo?.location ?? []) {
      if (loc.path && loc.path.length === 4 && loc.path[0] === 6 && loc.path[2] === 2 && loc.leadingComments)
        methodComments.set(`${loc.path[1]}.${loc.path[3]}`, cleanComment(loc.leadingComments));
    }
    (f.service ?? []).forEach((svc, si) => {
      const service = `${f.package}.${svc.name}`;
      (svc.method ?? []).forEach((m, mi) => {
        const rule = m.options?.['[google.api.http]'];
        if (!rule) throw new Error(`${service}/${m.name} has no google.api.http binding`);
        const verbs = (['get', 'put', 'post', 'delete', 'patch'] as const).filter((v) => rule[v] !== undefined);
        const verb = verbs[0];
        if (verbs.length !== 1 || verb === undefined) throw new Error(`${service}/${m.name}: one HTTP verb expected`);
        const pathTemplate = rule[verb] ?? '';
        if (!pathTemplate.startsWith('/api/v1/')) throw new Error(`${service}/${m.name}: path outside /api/v1`);
        const pathParams: string[] = [];
        const url = pathTemplate.replace(/\{([a-z0-9_.]+)(=[^}]*)?\}/g, (_, name: string) => {
          pathParams.push(name);
          return `:${name}`;
        });
        const requestType = stripDot(m.inputType);
        const responseType = stripDot(m.outputType);
        const req = messages.get(requestType);
        const res = messages.get(responseType);
        if (!req || !res) throw new Error(`${service}/${m.name}: unknown request or response type`);
        const body = rule.body ?? '';
        const responseBody = rule.responseBody ?? '';
        for (const p of pathParams) fieldByName(req, p);
        let rawRequestBody = false;
        if (body !== '' && body !== '*') {
          const bf = fieldByName(req, body);
          rawRequestBody = stripDot(bf.typeName ?? '') === 'google.api.HttpBody';
        }
        let responseBodyType = responseType;
        if (responseBody !== '') {
          const rf = fieldByName(res, responseBody);
          responseBodyType = stripDot(rf.typeName ?? '');
          if (rf.type !== 'TYPE_MESSAGE') throw new Error(`${service}/${m.name}: response_body must be a message field`);
        }
        const rawResponse = responseBodyType === 'google.api.HttpBody';
        const queryParams =
          body === '*'
            ? []
            : (req.desc.field ?? [])
                .filter((x) => !pathParams.includes(x.name) && x.name !== body && isScalar(x))
                .map((x) => x.name);
        const responseHeaders = (res.desc.field ?? [])
          .filter((x) => x.options?.['[slidewright.v1.http_header]'])
          .map((x) => ({ field: x.jsonName ?? x.name, header: x.options?.['[slidewright.v1.http_header]'] ?? '' }));
        const id = `${service}/${m.name}`;
        routes.push({
          id,
          method: verb.toUpperCase() as Route['method'],
          url,
          pathTemplate,
          service,
          rpc: m.name,
          grpcMethod: lowerFirst(m.name),
          grpcPath: `/${service}/${m.name}`,
          requestType,
          responseType,
          body,
          responseBody,
          responseBodyType,
          rawRequestBody,
          rawResponse,
          pathParams,
          queryParams,
          successStatus: m.options?.['[slidewright.v1.http_status]'] ?? 200,
          emptyStatus: m.options?.['[slidewright.v1.http_empty_status]'] ?? null,
          responseHeaders,
          summary: methodComments.get(`${si}.${mi}`) ?? '',
        });

        // Schemas of the route's parts.
        const reqSchema = messageSchema(requestType, []);
        const jsonNameOf = (name: string): string => fieldByName(req, name).jsonName ?? name;
        const rs: RouteSchemas = {};
        if (pathParams.length > 0) {
          const s = pick(reqSchema, pathParams.map(jsonNameOf), true);
          s['required'] = pathParams.map(jsonNameOf);
          delete s['additionalProperties'];
          rs.params = s;
        }
        if (queryParams.length > 0) {
          const s = pick(reqSchema, queryParams.map(jsonNameOf), true);
          delete s['additionalProperties']; // unknown query parameters are ignored
          rs.querystring = s;
        }
        if (body === '*') {
          const bodyFields = (req.desc.field ?? []).filter((x) => !pathParams.includes(x.name)).map((x) => x.jsonName ?? x.name);
          rs.body = pick(reqSchema, bodyFields, true);
        } else if (body !== '' && !rawRequestBody) {
          rs.body = fieldSchema(fieldByName(req, body), '', []);
        }
        if (!rawResponse) rs.response = messageSchema(responseBodyType, []);
        routeSchemas.set(id, rs);
      });
    });
  }
  return { routes, routeSchemas };
}

// ---------------------------------------------------------------------------------------
// Output

const HEADER = '// Code generated by scripts/gen-proto.ts from proto/. DO NOT EDIT.\n// Regenerate with `npm run gen:proto`.\n';

function renderRoutes(routes: Route[]): string {
  return `${HEADER}
/** HTTP methods used by the REST bindings. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One REST route, derived from an RPC's \`google.api.http\` binding. */
export interface RouteSpec {
  /** Route id and RPC key: \`slidewright.v1.PresentationService/GenerateDeck\`. */
  readonly id: string;
  readonly method: HttpMethod;
  /** Fastify-style URL: \`/api/v1/templates/:template_id\`. */
  readonly url: string;
  /** The binding's path template: \`/api/v1/templates/{template_id}\`. */
  readonly pathTemplate: string;
  /** Fully-qualified service name: \`slidewright.v1.TemplateService\`. */
  readonly service: string;
  /** RPC name: \`GetTemplate\`. */
  readonly rpc: string;
  /** Method key in the ts-proto grpc-js service definition / server: \`getTemplate\`. */
  readonly grpcMethod: string;
  /** gRPC method path: \`/slidewright.v1.TemplateService/GetTemplate\`. */
  readonly grpcPath: string;
  /** Fully-qualified request message name. */
  readonly requestType: string;
  /** Fully-qualified response message name. */
  readonly responseType: string;
  /** \`*\`: the JSON body fills the request fields not bound by the path; \`''\`: no body;
   * a field name: the body fills that field (a google.api.HttpBody when rawRequestBody). */
  readonly body: string;
  /** \`''\`: the whole response is the HTTP body; else the response field sent as body. */
  readonly responseBody: string;
  /** Fully-qualified type of what is sent as the HTTP response body. */
  readonly responseBodyType: string;
  /** The request body is raw bytes (google.api.HttpBody field named by \`body\`). */
  readonly rawRequestBody: boolean;
  /** The response body is raw bytes (google.api.HttpBody: content_type + data). */
  readonly rawResponse: boolean;
  /** Path parameters, in path order (request field names). */
  readonly pathParams: readonly string[];
  /** Query parameters (request fields bound neither by path nor body). */
  readonly queryParams: readonly string[];
  /** HTTP status of a successful response. */
  readonly successStatus: number;
  /** HTTP status (no body) when the \`responseBody\` field of the response is unset. */
  readonly emptyStatus: number | null;
  /** Response fields sent as HTTP headers (not in the body). */
  readonly responseHeaders: readonly { readonly field: string; readonly header: string }[];
  /** The RPC's doc comment. */
  readonly summary: string;
}

/** Every REST route of the API, in proto declaration order. */
export const ROUTES = ${JSON.stringify(routes, null, 2)} as const satisfies readonly RouteSpec[];

/** A route id (\`slidewright.v1.PresentationService/GenerateDeck\`). */
export type RouteId = (typeof ROUTES)[number]['id'];
`;
}

function renderSchemas(messageSchemas: Map<string, Schema>, routeSchemas: Map<string, RouteSchemas>): string {
  const ms: Record<string, Schema> = {};
  for (const [k, v] of messageSchemas) ms[k] = v;
  const rs: Record<string, RouteSchemas> = {};
  for (const [k, v] of routeSchemas) rs[k] = v;
  return `${HEADER}
/**
 * A JSON Schema (draft 2020-12) in the REST JSON form of a message. Every message schema
 * is self-contained (referenced messages are inlined) and carries \`title\` (the message
 * name) and \`x-proto-type\` (the full name). Extension keywords:
 * - \`x-proto-type\`: the message a (sub)schema describes;
 * - \`x-single-or-list\`: a list that the REST JSON form also accepts as a single object
 *   (validation normalizes it to a list of one; documentation should show
 *   \`anyOf: [schema, schema.items]\`);
 * - \`x-http-header\`: a response field sent as this HTTP header.
 */
export interface JsonSchema {
  readonly [keyword: string]: unknown;
}

/** The parts of one REST route, keyed like the Fastify route schema. */
export interface RouteSchemaSet {
  /** Path parameters. */
  readonly params?: JsonSchema;
  /** Query parameters (unknown parameters are ignored, as FastAPI does). */
  readonly querystring?: JsonSchema;
  /** The JSON request body (absent for no body and raw bodies). */
  readonly body?: JsonSchema;
  /** The JSON response body (absent for raw responses). */
  readonly response?: JsonSchema;
}

/** JSON Schema of every slidewright message, keyed by full name (\`slidewright.v1.Column\`). */
export const MESSAGE_SCHEMAS: Readonly<Record<string, JsonSchema>> = ${JSON.stringify(ms, null, 2)};

/** Schemas of every route's parts, keyed by route id (\`slidewright.v1.PresentationService/GenerateDeck\`). */
export const ROUTE_SCHEMAS: Readonly<Record<string, RouteSchemaSet>> = ${JSON.stringify(rs, null, 2)};
`;
}

function main(): void {
  const args = process.argv.slice(2);
  const outIdx = args.indexOf('--out');
  const outRoot = outIdx >= 0 && args[outIdx + 1] ? resolve(args[outIdx + 1] ?? '.') : ROOT;

  // 1. ts-proto
  rmSync(join(outRoot, 'proto', 'gen', 'ts'), { recursive: true, force: true });
  execFileSync(BUF, ['generate', '--template', join(ROOT, 'buf.gen.yaml'), '-o', outRoot], {
    cwd: ROOT,
    stdio: 'inherit',
  });

  // 2. descriptor set
  const tmp = mkdtempSync(join(tmpdir(), 'slidewright-desc-'));
  let set: DescriptorSet;
  try {
    const desc = join(tmp, 'descriptor.json');
    execFileSync(BUF, ['build', '-o', desc], { cwd: ROOT, stdio: 'inherit' });
    set = JSON.parse(readFileSync(desc, 'utf8')) as DescriptorSet;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  for (const f of set.file) indexFile(f);

  const messageSchemas = new Map<string, Schema>();
  for (const [name, info] of messages) {
    if (!name.startsWith('slidewright.') || info.desc.options?.mapEntry) continue;
    messageSchemas.set(name, messageSchema(name, []));
  }
  const { routes, routeSchemas } = buildRoutes(set.file);

  const genDir = join(outRoot, 'proto', 'gen');
  mkdirSync(genDir, { recursive: true });
  // Binary FileDescriptorSet (with imports and source info), e.g. for gRPC server reflection.
  execFileSync(BUF, ['build', '-o', join(genDir, 'slidewright.binpb')], { cwd: ROOT, stdio: 'inherit' });
  writeFileSync(join(genDir, 'routes.ts'), renderRoutes(routes));
  writeFileSync(join(genDir, 'schemas.ts'), renderSchemas(messageSchemas, routeSchemas));
  process.stdout.write(`gen:proto: ${routes.length} routes, ${messageSchemas.size} message schemas -> ${genDir}\n`);
}

main();
