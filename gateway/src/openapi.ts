/**
 * The OpenAPI 3.1 document of the REST API, derived from the same generated definitions
 * the gateway routes and validates with (proto/gen/routes.ts and schemas.ts): nothing
 * about a path, a field or a rule is written twice.
 */
import { ROUTES, type RouteSpec } from '../../proto/gen/routes.js';
import { MESSAGE_SCHEMAS, ROUTE_SCHEMAS, type JsonSchema } from '../../proto/gen/schemas.js';
import { PDF_RETRY_AFTER_SECONDS } from '../../core/src/services/pdf-service.js';

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

/** What each error status means, in every operation that can answer it. */
const ERROR_STATUSES: Readonly<Record<string, string>> = {
  '401': 'Missing or unknown API key',
  '403': 'Organization mismatch, or a signed URL that is altered or expired',
  '404': 'Unknown id, or an id of another organization',
  '409': 'Not possible in the resource state (e.g. download before completion)',
  '413': 'Body over the size limit',
  '415': 'Not a PowerPoint presentation, or macro-enabled',
  '422': 'Validation error',
  '429': 'Too many pending generations for the organization (see Retry-After)',
  '500': 'Internal error',
  '503': 'A backing service is unavailable',
};

/**
 * Operations whose path is also the target of a signed URL (`upload_url`, `download_url`):
 * they accept `expires`, `org` and `signature` in place of the API key (core's
 * `callerOrSigned`).
 */
const SIGNED_URL_RPCS: ReadonlySet<string> = new Set(['UploadTemplateContent', 'DownloadTemplate', 'DownloadPresentation']);

/**
 * Operations that answer 409 when the resource is not in a state that allows them (the
 * `conflict` errors the services raise): uploading to a deleted or analyzed template,
 * downloading or reading what does not exist yet, restoring what is not deleted,
 * cancelling what has ended, generating from a deleted template's slides.
 */
const CONFLICT_RPCS: ReadonlySet<string> = new Set([
  'UploadTemplateContent',
  'RestoreTemplate',
  'DownloadTemplate',
  'GetTemplateSlide',
  'GetTemplateSlidePreview',
  'StartAnalysis',
  'CancelAnalysis',
  'GenerateDeck',
  'GenerateSlide',
  'UpdateCharts',
  'DownloadPresentation',
  'GetGenerationReport',
  'GetPresentationSlidePreview',
]);

/**
 * How a response header whose value can hold any text is sent (gateway/src/headers.ts
 * makes it so for every header of every answer).
 */
export const HEADER_ENCODING =
  "Plain ASCII values are sent as they are; any other value (a name in another script, a control character) is sent as an RFC 8187 ext-value: UTF-8'' followed by the value's UTF-8 bytes, percent-encoded (decodeURIComponent of what follows the prefix gives the value back).";

/**
 * Descriptions of response headers that come from response fields, where the REST header
 * says more than the field's own description (the protos describe the gRPC field, which
 * carries the value unencoded).
 */
const HEADER_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'X-Font-Substitutions': `Fonts drawn with a stand-in: "requested=drawn" pairs separated by "; " (split each pair at its last "="; drawn family names never hold "=" or ";"), e.g. "Calibri=Carlito; Segoe UI=Liberation Sans". Absent when no font was substituted. ${HEADER_ENCODING}`,
  ETag: 'Entity tag of the image, quoted (changes when the file or the width changes); send it back in If-None-Match to get 304.',
};

/** Headers every file answer of one kind carries besides those of response fields. */
const PREVIEW_HEADERS: Readonly<Record<string, unknown>> = {
  'Cache-Control': { description: 'private, max-age=300', schema: { type: 'string' } },
};
const DOWNLOAD_HEADERS: Readonly<Record<string, unknown>> = {
  'Content-Disposition': {
    description: `attachment with the file name (RFC 6266): filename="<name>" when the name is plain ASCII; otherwise an ASCII stand-in in filename and the exact name in filename*=UTF-8''<percent-encoded UTF-8> (RFC 8187), which clients should prefer.`,
    schema: { type: 'string' },
  },
};

/** The success response headers of a route: its header fields, typed and described, and the file headers. */
function responseHeaders(route: RouteSpec): Record<string, unknown> {
  const props = (MESSAGE_SCHEMAS[route.responseType]?.['properties'] ?? {}) as Record<string, JsonSchema>;
  const out: Record<string, unknown> = {};
  for (const h of route.responseHeaders) {
    const field = props[h.field];
    const numeric = field?.['type'] === 'integer' || /^u?int(32|64)$|^s?fixed(32|64)$/.test(String(field?.['x-proto-type'] ?? '')) || /(_px|_emu)$/.test(h.field);
    const own = typeof field?.['description'] === 'string' ? (field['description'] as string) : '';
    out[h.header] = { description: HEADER_DESCRIPTIONS[h.header] ?? own, schema: { type: numeric ? 'integer' : 'string' } };
  }
  if (route.rawResponse) Object.assign(out, route.rpc.includes('Preview') ? PREVIEW_HEADERS : DOWNLOAD_HEADERS);
  return out;
}

/** The type of a started job: operations answering with it count against the pending limit (429). */
const JOB_TYPE = 'slidewright.v1.GenerationJob';

function bodyProperties(route: RouteSpec): Record<string, unknown> {
  return (ROUTE_SCHEMAS[route.id]?.body?.['properties'] ?? {}) as Record<string, unknown>;
}

/** True when a path or query parameter can fail validation (anything but a free string). */
function hasCheckedParameters(route: RouteSpec): boolean {
  if (route.queryParams.length > 0) return true;
  const props = (ROUTE_SCHEMAS[route.id]?.params?.['properties'] ?? {}) as Record<string, JsonSchema>;
  return Object.values(props).some((s) => s['type'] !== 'string' || Object.keys(s).some((k) => k !== 'type' && k !== 'description'));
}

/**
 * The error statuses an operation can answer, derived from the route: every operation
 * may answer 401, 500 and 503; 403 where the body names an organization or a signed URL
 * is accepted; 404 where an id is looked up (path ids, slide ids of a generation); 409
 * per {@link CONFLICT_RPCS}; 413 and 415 where there is a request body; 422 where a body
 * or a parameter is validated; 429 where a generation job starts.
 */
export function errorStatuses(route: RouteSpec): string[] {
  const out = new Set<string>(['401', '500', '503']);
  const hasBody = route.body !== '';
  if ('org_name' in bodyProperties(route) || SIGNED_URL_RPCS.has(route.rpc)) out.add('403');
  if (route.pathParams.length > 0 || route.responseBodyType === JOB_TYPE) out.add('404');
  if (CONFLICT_RPCS.has(route.rpc)) out.add('409');
  if (hasBody) {
    out.add('413');
    out.add('415');
  }
  if (hasBody || hasCheckedParameters(route)) out.add('422');
  if (route.responseBodyType === JOB_TYPE) out.add('429');
  return [...out].sort();
}

/** True for the downloads that can answer a PDF (`format=pdf`, issue 22): the template and presentation downloads. */
function servesPdf(route: RouteSpec): boolean {
  return route.rawResponse && !route.rpc.includes('Preview') && route.queryParams.includes('format');
}

/**
 * The headers an error answer of an operation may carry: `Retry-After` (RFC 9110 §10.2.3,
 * delay in seconds) on 429, where the pending-generation limit is reached, and on the 409
 * of a PDF download while the PDF is still being rendered (core's pdf-service sends
 * {@link PDF_RETRY_AFTER_SECONDS}; its other 409s, no file or no visible slide, carry none).
 *
 * @returns the OpenAPI Header Objects by name, or undefined when the answer has none
 */
export function errorHeaders(route: RouteSpec, status: string): Record<string, unknown> | undefined {
  if (status === '429') {
    return { 'Retry-After': { description: 'Seconds to wait before starting another generation.', schema: { type: 'integer', minimum: 0 } } };
  }
  if (status === '409' && servesPdf(route)) {
    return {
      'Retry-After': {
        description: `Only with format=pdf while the PDF is still being rendered: seconds to wait before asking again (${PDF_RETRY_AFTER_SECONDS}). Absent on the other 409 answers (no file uploaded or generated yet, no visible slide).`,
        schema: { type: 'integer', minimum: 0 },
      },
    };
  }
  return undefined;
}

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
  if (SIGNED_URL_RPCS.has(route.rpc)) {
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
  const headers = responseHeaders(route);
  if (route.rawResponse) {
    const binary = { schema: { type: 'string', format: 'binary' } };
    const types = route.rpc.includes('Preview')
      ? ['image/png']
      : // downloads: the .pptx, or with format=pdf a PDF (issue 22)
        ['application/vnd.openxmlformats-officedocument.presentationml.presentation', ...(servesPdf(route) ? ['application/pdf'] : [])];
    responses[String(route.successStatus)] = { description: 'The file', headers, content: Object.fromEntries(types.map((type) => [type, binary])) };
  } else {
    responses[String(route.successStatus)] = { description: 'Success', content: { 'application/json': { schema: clean(schemas?.response ?? {}) } } };
  }
  if (route.emptyStatus !== null) responses[String(route.emptyStatus)] = { description: 'Done; no body' };
  if (route.responseHeaders.some((h) => h.header === 'ETag')) responses['304'] = { description: 'Not modified: If-None-Match names the current ETag' };
  for (const status of errorStatuses(route)) {
    const description = ERROR_STATUSES[status] ?? 'Error';
    if (status === '422') responses[status] = { description, content: { 'application/json': { schema: VALIDATION_ERROR_BODY } } };
    else {
      const headers = errorHeaders(route, status);
      responses[status] = { description, content: { 'application/json': { schema: ERROR_BODY } }, ...(headers ? { headers } : {}) };
    }
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
    // No `jsonSchemaDialect`: the default (the OpenAPI 3.1 base dialect, JSON Schema
    // 2020-12 with the OpenAPI vocabulary) is what these schemas are written in, and
    // Swagger UI shows a warning box for any other value.
    openapi: '3.1.0',
    info: {
      title: 'Slidewright',
      version,
      description: 'Turns PowerPoint templates into finished decks: template storage and analysis, matching, asynchronous deck generation, previews. Generated from the protos (proto/slidewright/v1).',
    },
    paths,
    components: { securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
  };
}
