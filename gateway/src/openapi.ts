/**
 * The OpenAPI 3.1 document of the REST API, derived from the same generated definitions
 * the gateway routes and validates with (proto/gen/routes.ts and schemas.ts): nothing
 * about a path, a field or a rule is written twice.
 */
import { ROUTES, type RouteSpec } from '../../proto/gen/routes.js';
import { ROUTE_SCHEMAS, type JsonSchema } from '../../proto/gen/schemas.js';

const ERROR_BODY: JsonSchema = {
  type: 'object',
  required: ['detail'],
  properties: { detail: { type: 'string', description: 'What went wrong.' } },
  additionalProperties: false,
};

const VALIDATION_ERROR_BODY: JsonSchema = {
  type: 'object',
  required: ['detail'],
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        required: ['loc', 'msg', 'type'],
        properties: {
          loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, description: 'Where the fault is, e.g. ["body", "slides", 0, "options", "table_min_font_size"].' },
          msg: { type: 'string' },
          type: { type: 'string', description: 'FastAPI/Pydantic error type: missing, extra_forbidden, greater_than_equal, too_short, ...' },
          input: { description: 'The offending input.' },
          ctx: { type: 'object', description: 'Parameters of the rule, e.g. {"ge": 6}.' },
        },
      },
    },
  },
};

const ERROR_STATUSES: Readonly<Record<string, string>> = {
  '401': 'Missing or unknown API key',
  '403': 'Organization mismatch, or a signed URL that is altered or expired',
  '404': 'Unknown id, or an id of another organization',
  '409': 'Not possible in the resource state (e.g. download before completion)',
  '413': 'Body over the size limit',
  '415': 'Not a PowerPoint presentation, or macro-enabled',
  '429': 'Too many pending generations for the organization (see Retry-After)',
  '503': 'A backing service is unavailable',
};

/** Strips the generator's private keywords (`x-proto-type`, ...) that OpenAPI tools do not know. */
function clean(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(clean);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'x-proto-type' || k === 'x-http-header') continue;
    if (k === 'x-single-or-list') continue;
    out[k] = clean(v);
  }
  // A single-or-list field accepts one item too.
  const s = schema as Record<string, unknown>;
  if (s['x-single-or-list'] === true && out['items']) {
    const list = { ...out };
    const types = Array.isArray(s['type']) ? (s['type'] as string[]) : [];
    return { anyOf: [list, out['items'], ...(types.includes('null') ? [{ type: 'null' }] : [])], description: out['description'] };
  }
  return out;
}

function parameters(route: RouteSpec): unknown[] {
  const schemas = ROUTE_SCHEMAS[route.id];
  const out: unknown[] = [];
  for (const [where, schema] of [['path', schemas?.params], ['query', schemas?.querystring]] as const) {
    const props = (schema?.['properties'] ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema?.['required'] as string[] | undefined) ?? []);
    for (const [name, s] of Object.entries(props)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: clean(s), description: s['description'] });
    }
  }
  if (route.rawRequestBody || route.rawResponse) {
    for (const name of ['expires', 'org', 'signature']) {
      out.push({ name, in: 'query', required: false, schema: { type: 'string' }, description: 'Part of a signed URL (upload_url or download_url); replaces the API key.' });
    }
  }
  return out;
}

function operation(route: RouteSpec): Record<string, unknown> {
  const schemas = ROUTE_SCHEMAS[route.id];
  const op: Record<string, unknown> = {
    operationId: route.rpc,
    summary: route.summary,
    tags: [route.service.split('.').pop()],
    parameters: parameters(route),
    responses: {} as Record<string, unknown>,
  };
  if (route.rawRequestBody) {
    op['requestBody'] = {
      required: true,
      content: {
        'application/vnd.openxmlformats-officedocument.presentationml.presentation': { schema: { type: 'string', format: 'binary' } },
        'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
      },
    };
  } else if (schemas?.body) {
    op['requestBody'] = { required: true, content: { 'application/json': { schema: clean(schemas.body) } } };
  }
  const responses = op['responses'] as Record<string, unknown>;
  const headers = Object.fromEntries(route.responseHeaders.map((h) => [h.header, { schema: { type: 'integer' } }]));
  if (route.rawResponse) {
    const type = route.rpc.includes('Preview') ? 'image/png' : 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
    responses[String(route.successStatus)] = { description: 'The file', headers, content: { [type]: { schema: { type: 'string', format: 'binary' } } } };
  } else {
    responses[String(route.successStatus)] = { description: 'Success', content: { 'application/json': { schema: clean(schemas?.response ?? {}) } } };
  }
  if (route.emptyStatus !== null) responses[String(route.emptyStatus)] = { description: 'Done; no body' };
  responses['422'] = { description: 'Validation error', content: { 'application/json': { schema: VALIDATION_ERROR_BODY } } };
  for (const [status, description] of Object.entries(ERROR_STATUSES)) {
    responses[status] = { description, content: { 'application/json': { schema: ERROR_BODY } }, ...(status === '429' ? { headers: { 'Retry-After': { schema: { type: 'integer' } } } } : {}) };
  }
  op['security'] = [{ ApiKey: [] }];
  return op;
}

/** The OpenAPI 3.1 document. */
export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES as readonly RouteSpec[]) {
    (paths[route.pathTemplate] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Slidewright',
      version,
      description: 'Turns PowerPoint templates into finished decks: template storage and analysis, matching, asynchronous deck generation, previews. Generated from the protos (proto/slidewright/v1).',
    },
    paths,
    components: { securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
  };
}
