/**
 * The REST gateway: Fastify routes generated from the protos' `google.api.http` bindings
 * (proto/gen/routes.ts), each transcoding JSON (or raw bytes) to a gRPC call on core.
 *
 * Validation runs here with the same rules core applies (core/src/validation), so a bad
 * request is answered with the contract's exact 422 body without a round trip; every
 * other error is `{"detail": "<message>"}` with the status core chose.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { openApiDocument } from './openapi.js';
import { httpDuration, registerConnectionMetrics, registry as metricsRegistry } from '../../core/src/observability/metrics.js';
import type { Config } from '../../core/src/config.js';
import type { Logger } from 'pino';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ROUTES, type RouteSpec } from '../../proto/gen/routes.js';
import { MESSAGE_SCHEMAS, type JsonSchema } from '../../proto/gen/schemas.js';
import { boundedEcho, precompileValidators, validateAndNormalizeBody, validateParams, validateQuery, validationErrorBody, violationsFromServiceError, type Violation } from '../../core/src/validation/index.js';
import { codecOf } from '../../core/src/grpc/messages.js';
import { installJsonBodyParser, JsonTooDeepError } from './json-body.js';
import { URL_OPTIONS } from './url-errors.js';
import { MD } from '../../core/src/protocol/index.js';
import type { RpcInvoker } from './invoker.js';
import { contentDisposition, ifNoneMatchNames, installHeaderGuard, safeEntityTag, safeMetadataValue } from './headers.js';
import { createGuardedServer, defaultMaxConnections, type ConnectionLimits, type GuardedServer } from './connections.js';

export interface GatewayOptions {
  invoker: RpcInvoker;
  logger?: Logger | boolean;
  /** Largest JSON body accepted, bytes. */
  maxJsonBodyBytes?: number;
  /** Largest raw upload accepted, bytes (bigger bodies get 413). */
  maxUploadBytes?: number;
  /** Answers GET /healthz: true once every part of the service is ready. */
  isReady?: () => boolean;
  /** API version shown in the OpenAPI document. */
  version?: string;
  /**
   * Bounds on client connections (timeouts, cap per process; gateway/src/connections.ts).
   * Unset: Fastify's own server with its default timeouts and no cap (for `inject`-only uses).
   */
  connections?: ConnectionLimits;
  /**
   * Before {@link buildGateway} resolves, send one generate-deck and one status request
   * through the whole path, gRPC call to core included (both unauthenticated: core answers
   * 401, nothing is created), so the first client does not pay for the gRPC connection and
   * the first pass through the code. The app is then already `ready()`: no route or hook
   * can be added to it. Default false (an app used through `inject` with a stand-in core).
   */
  warmUp?: boolean;
  /**
   * What `GET /metrics` answers, in Prometheus' text format. Unset: this thread's registry.
   * A gateway on a thread of its own (embedded mode) merges in the registry of core's
   * thread here, so one scrape still sees every component.
   */
  metrics?: () => Promise<string>;
}

/** Slides of the internal warm-up generate-deck request. */
const WARM_UP_REQUEST_SLIDES = 100;
/** Times the internal warm-up requests are sent (V8 optimizes what runs again). */
const WARM_UP_ROUNDS = 3;
/** Longest wait for the internal warm-up requests, ms (a core not yet reachable must not hold the start). */
const WARM_UP_TIMEOUT_MS = 5_000;

/**
 * The connection bounds a configuration asks for (`SLIDEWRIGHT_HTTP_*`): the cap in
 * connections, the timeouts in seconds.
 */
export function connectionLimitsOf(config: Pick<Config, 'httpMaxConnections' | 'httpHeadersTimeoutSeconds' | 'httpRequestTimeoutSeconds' | 'httpKeepAliveTimeoutSeconds'>): ConnectionLimits {
  return {
    maxConnections: config.httpMaxConnections ?? defaultMaxConnections(),
    headersTimeoutSeconds: config.httpHeadersTimeoutSeconds,
    requestTimeoutSeconds: config.httpRequestTimeoutSeconds,
    keepAliveTimeoutSeconds: config.httpKeepAliveTimeoutSeconds,
  };
}

/** Guarded servers of gateways not yet closed; `/metrics` reports their connections summed. */
const liveGuards = new Set<GuardedServer>();
registerConnectionMetrics(() => {
  const sum = { open: 0, refused: 0, closedSilent: 0 };
  for (const guard of liveGuards) {
    const s = guard.stats();
    sum.open += s.open;
    sum.refused += s.refused;
    sum.closedSilent += s.closedSilent;
  }
  return sum;
});

/**
 * Answers a request Node's HTTP parser gave up on before any route saw it, in the
 * gateway's `{"detail": …}` shape (Fastify's own answer has another): 408 when the headers
 * or the whole request came too late, 431 for oversized headers, else 400. The connection
 * is closed either way.
 */
function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail]: [number, string] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'the request did not arrive in time']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'request headers are too large']
        : [400, 'malformed request'];
  const body = JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

const GRPC_TO_HTTP: Readonly<Record<number, number>> = {
  3: 422, // INVALID_ARGUMENT
  5: 404, // NOT_FOUND
  6: 409, // ALREADY_EXISTS
  7: 403, // PERMISSION_DENIED
  8: 429, // RESOURCE_EXHAUSTED
  9: 409, // FAILED_PRECONDITION
  12: 501, // UNIMPLEMENTED
  14: 503, // UNAVAILABLE
  4: 504, // DEADLINE_EXCEEDED
  16: 401, // UNAUTHENTICATED
};

/** Query parameters of a signed URL; they travel to core as metadata, not as fields. */
const SIGNATURE_PARAMS = { expires: MD.signatureExpires, org: MD.signatureOrg, signature: MD.signature } as const;

/**
 * Builds the gateway app (not listening). Also serves `/openapi.json` (OpenAPI 3.1, from
 * the same generated definitions) and Swagger UI at `/docs`.
 */
/** Most bytes of an oversized request body read and discarded before the 413 is sent. */
const OVERSIZED_BODY_DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * Reads and discards what is left of a request body; true once it has ended, false when
 * more than `limitBytes` arrive (the connection is then closed after the answer), when the
 * client goes away, or after 30 s.
 */
function drainRequestBody(req: NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean }, limitBytes: number): Promise<boolean> {
  if (req.readableEnded) return Promise.resolve(true);
  if (req.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (ended: boolean): void => {
      clearTimeout(timer);
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      req.removeListener('close', onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen > limitBytes) {
        req.pause();
        finish(false);
      }
    };
    const onEnd = (): void => finish(true);
    const onError = (): void => finish(false);
    const onClose = (): void => finish(false);
    const timer = setTimeout(() => finish(false), 30_000);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
    req.resume();
  });
}

export async function buildGateway(opts: GatewayOptions): Promise<FastifyInstance> {
  const maxJson = opts.maxJsonBodyBytes ?? 8 * 1024 * 1024;
  const maxUpload = opts.maxUploadBytes ?? 10 * 1024 * 1024;
  const limits = opts.connections;
  // every request validator now, so that no request pays for compiling one
  precompileValidators();
  let guard: GuardedServer | undefined;
  const app = Fastify({
    ...(limits && {
      serverFactory: (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
        guard = createGuardedServer(handler, limits);
        return guard.server;
      },
    }),
    clientErrorHandler: answerClientError,
    loggerInstance: typeof opts.logger === 'object' ? opts.logger : undefined,
    logger: typeof opts.logger === 'boolean' ? opts.logger : undefined,
    bodyLimit: maxJson,
    ...URL_OPTIONS, // long or malformed path parameters: 404 like any unknown name (url-errors.ts)
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
    },
    ajv: { customOptions: { coerceTypes: false } },
  } as Parameters<typeof Fastify>[0]) as unknown as FastifyInstance;
  if (guard) {
    const g = guard;
    liveGuards.add(g);
    // server.close() waits for every connection, and Node stops expiring silent ones once it
    // has begun: they carry no request, so they go first
    app.addHook('preClose', async () => {
      g.closeSilentConnections();
    });
    app.addHook('onClose', async () => {
      liveGuards.delete(g);
    });
  }
  // Every header of every answer (routes, errors, 404s, docs) passes one guard: values
  // that are not plain ASCII are encoded (RFC 8187), never sent raw (gateway/src/headers.ts).
  installHeaderGuard(app);

  // JSON bodies nested deeper than any request can be are refused unparsed (json-body.ts).
  installJsonBodyParser(app);
  // Raw bodies (uploads): any media type arrives as a Buffer; JSON routes check the media type themselves.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxUpload + 1 }, (_req, body, done) => done(null, body));

  app.setErrorHandler(async (err: Error & { statusCode?: number; code?: string }, req, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // the rest of the body is read (up to a bound) before answering: a client still
      // sending would otherwise see its connection reset instead of the 413
      const drained = await drainRequestBody(req.raw, OVERSIZED_BODY_DRAIN_BYTES);
      if (!drained) reply.header('connection', 'close');
      const route = routeOf(req);
      if (route) await reportOversizedUpload(route, req, opts.invoker, contentLength(req));
      return reply.code(413).send({ detail: `request body is over the limit of ${req.routeOptions.config && isRaw(req) ? maxUpload : maxJson} bytes` });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.code(415).send({ detail: err.message });
    if (err instanceof JsonTooDeepError) return reply.code(422).send(validationErrorBody([err.violation]));
    if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return reply.code(422).send(validationErrorBody([{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }]));
    if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (err.statusCode === 400 && /JSON/i.test(err.message))) {
      return reply.code(422).send(validationErrorBody([{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid', input: {}, ctx: { error: err.message } }]));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return reply.code(err.statusCode).send({ detail: err.message });
    req.log.error({ err }, 'gateway error');
    return reply.code(500).send({ detail: 'internal error' });
  });
  app.setNotFoundHandler((req, reply) => reply.code(404).send({ detail: `no route ${req.method} ${boundedEcho(req.url.split('?')[0] ?? '') as string}` }));

  const document = openApiDocument(opts.version ?? '1.0.0');
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', async () => document);

  // Readiness (/healthz, /readyz): 200 once every part is up, 503 while starting or draining.
  // Liveness (/livez): 200 while the process can answer at all.
  const readiness = async (_req: FastifyRequest, reply: FastifyReply) => {
    const ready = opts.isReady ? opts.isReady() : true;
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable' });
  };
  app.get('/healthz', readiness);
  app.get('/readyz', readiness);
  app.get('/livez', async () => ({ status: 'ok' }));
  const metrics = opts.metrics ?? (() => metricsRegistry.metrics());
  app.get('/metrics', async (_req, reply) => reply.type(metricsRegistry.contentType).send(await metrics()));
  // the internal warm-up requests carry this request id and count in no metric
  const warmUpRequestId = `warm-up-${randomUUID()}`;
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url;
    if (!route || route === '/metrics' || req.id === warmUpRequestId) return;
    httpDuration.observe({ method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  for (const route of ROUTES as readonly RouteSpec[]) {
    app.route({
      method: route.method,
      url: route.url,
      config: { raw: route.rawRequestBody, route },
      bodyLimit: route.rawRequestBody ? maxUpload + 1 : maxJson,
      handler: (req, reply) => handle(route, req, reply, opts.invoker, maxUpload),
    });
  }
  if (opts.warmUp) {
    // the app is made ready here (inject from an onReady hook would wait for itself), so
    // nothing can be added to it afterwards; it is returned warm, before it listens
    await app.ready();
    await warmUpRestPath(app, warmUpRequestId);
  }
  return app;
}

/**
 * One POST generate-deck and one status GET through the app (see {@link GatewayOptions.warmUp}),
 * without an API key; whatever they answer is ignored, and after {@link WARM_UP_TIMEOUT_MS}
 * the start goes on without them.
 */
async function warmUpRestPath(app: FastifyInstance, requestId: string): Promise<void> {
  // a deck request as clients send them: bullets and tables with a header row
  const slides = Array.from({ length: WARM_UP_REQUEST_SLIDES }, (_, i) => ({
    template_slide_id: `warm-up-${i % 3}`,
    slide_data:
      i % 2 === 0
        ? { title: `Slide ${i}: warm-up`, content: { blocks: [{ type: 'text', text: { bullets: Array.from({ length: 5 }, (_, b) => `Point ${b + 1} of slide ${i + 1}`) } }] } }
        : {
            title: `Slide ${i}: warm-up`,
            content: { blocks: [{ type: 'table', table: { table: { rows: Array.from({ length: 4 }, (_, r) => ({ is_header: r === 0, cells: Array.from({ length: 4 }, (_, c) => ({ value: `${r}.${c}` })) })) } } }] },
          },
  }));
  const headers = { 'x-request-id': requestId };
  const requests = (async () => {
    for (let round = 0; round < WARM_UP_ROUNDS; round++) {
      await app.inject({ method: 'POST', url: '/api/v1/presentations/generate-deck', headers, payload: { slides, options: { auto_paginate_tables: false } } });
      await app.inject({ method: 'GET', url: '/api/v1/presentations/warm-up/status', headers });
    }
  })().catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([requests, new Promise<void>((resolve) => (timer = setTimeout(resolve, WARM_UP_TIMEOUT_MS)))]);
  clearTimeout(timer);
}

function isRaw(req: FastifyRequest): boolean {
  return (req.routeOptions.config as { raw?: boolean } | undefined)?.raw === true;
}

/** The generated route a request was routed to; undefined outside them (docs, health). */
function routeOf(req: FastifyRequest): RouteSpec | undefined {
  return (req.routeOptions.config as { route?: RouteSpec } | undefined)?.route;
}

/** The request's `Content-Length` in bytes; undefined when absent (chunked) or malformed. */
function contentLength(req: FastifyRequest): number | undefined {
  const v = req.headers['content-length'];
  return typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : undefined;
}

/**
 * The gRPC metadata of a REST request (request id, API key, organization, the parameters
 * of a signed URL) and its query without the signature parameters.
 */
function requestMetadata(req: FastifyRequest): { metadata: Record<string, string>; query: Record<string, unknown> } {
  // gRPC metadata holds printable ASCII only (grpc-js throws otherwise): anything else is
  // sent encoded, and so matches no key, organization or signature (401/403, not 500)
  const metadata: Record<string, string> = { [MD.requestId]: String(req.id) };
  const apiKey = req.headers['x-api-key'];
  const orgName = req.headers['x-org-name'];
  if (typeof apiKey === 'string') metadata[MD.apiKey] = safeMetadataValue(apiKey);
  if (typeof orgName === 'string') metadata[MD.orgName] = safeMetadataValue(orgName);
  const query: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
  for (const [param, key] of Object.entries(SIGNATURE_PARAMS)) {
    const v = query[param];
    if (typeof v === 'string') metadata[key] = safeMetadataValue(v);
    delete query[param];
  }
  return { metadata, query };
}

/**
 * Tells core about a template upload whose body this gateway refused for its size (such a
 * body is never forwarded): UploadTemplateContent with no bytes and the
 * `x-upload-refused-bytes` metadata, so the template records the refusal (`rejected`,
 * with the reason). Core authenticates the call as any upload; whatever it answers, the
 * client gets the gateway's 413. Other routes: nothing.
 * @param sentBytes the size the client sent, when known
 */
async function reportOversizedUpload(route: RouteSpec, req: FastifyRequest, invoker: RpcInvoker, sentBytes: number | undefined): Promise<void> {
  if (route.rpc !== 'UploadTemplateContent' || !route.rawRequestBody) return;
  const params = validateParams(route.id, req.params as Record<string, unknown>);
  if (params.violations.length > 0) return;
  const { metadata } = requestMetadata(req);
  metadata[MD.uploadRefusedBytes] = sentBytes === undefined ? 'unknown' : String(sentBytes);
  const message = codecOf(route.requestType).fromJSON({ ...params.value }) as Record<string, unknown>;
  message[route.body] = { content_type: String(req.headers['content-type'] ?? 'application/octet-stream'), data: new Uint8Array(0), extensions: [] };
  await invoker.call(route, message, metadata).catch(() => undefined);
}

async function handle(route: RouteSpec, req: FastifyRequest, reply: FastifyReply, invoker: RpcInvoker, maxUpload: number): Promise<FastifyReply> {
  const { metadata, query: rawQuery } = requestMetadata(req);

  const violations: Violation[] = [];
  const params = validateParams(route.id, req.params as Record<string, unknown>);
  const query = validateQuery(route.id, rawQuery);
  violations.push(...params.violations, ...query.violations);

  let fields: Record<string, unknown> = {};
  let raw: Buffer | undefined;
  if (route.rawRequestBody) {
    raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (raw.length > maxUpload) {
      await reportOversizedUpload(route, req, invoker, raw.length);
      return reply.code(413).send({ detail: `upload is ${raw.length} bytes; the limit is ${maxUpload} bytes` });
    }
  } else if (route.body !== '') {
    if (Buffer.isBuffer(req.body)) {
      return reply.code(415).send({ detail: `send the request body as application/json (got ${req.headers['content-type'] ?? 'no content type'})` });
    }
    const body = req.body ?? {};
    const checked = validateAndNormalizeBody(route.id, body);
    violations.push(...checked.violations);
    const normalized = checked.value as Record<string, unknown>;
    fields = route.body === '*' ? { ...normalized } : { [route.body]: normalized };
  }
  if (violations.length > 0) return reply.code(422).send(validationErrorBody(violations));

  const requestCodec = codecOf(route.requestType);
  const message = requestCodec.fromJSON({ ...fields, ...query.value, ...params.value }) as Record<string, unknown>;
  if (raw) message[route.body] = { content_type: String(req.headers['content-type'] ?? 'application/octet-stream'), data: raw, extensions: [] };

  let response: Record<string, unknown>;
  try {
    response = (await invoker.call(route, message, metadata)) as Record<string, unknown>;
  } catch (err) {
    return sendRpcError(route, err, reply);
  }

  const out = route.responseBody ? response[route.responseBody] : response;
  if (out === undefined || out === null) {
    if (route.emptyStatus !== null) return reply.code(route.emptyStatus).send();
  }
  // Values go in as core gave them; the header guard (headers.ts) encodes any that is not
  // plain ASCII as it is sent (X-Font-Substitutions names fonts in any script).
  for (const h of route.responseHeaders) {
    const v = response[h.field];
    if (v !== undefined && v !== null && v !== '') reply.header(h.header, String(v));
  }
  if (route.rawResponse) {
    // the tag as sent (the guard would make the same one), so If-None-Match can name it
    const etag = typeof response['etag'] === 'string' && response['etag'] !== '' ? safeEntityTag(response['etag']) : '';
    if (etag) {
      reply.header('etag', etag);
      reply.header('cache-control', 'private, max-age=300');
      const ifNoneMatch = req.headers['if-none-match'];
      if (ifNoneMatchNames(typeof ifNoneMatch === 'string' ? ifNoneMatch : undefined, etag)) return reply.code(304).send();
    }
    const file = out as { content_type?: string; data?: Uint8Array } | undefined;
    const filename = typeof response['filename'] === 'string' ? response['filename'] : '';
    if (filename) reply.header('content-disposition', contentDisposition(filename));
    return reply
      .code(route.successStatus)
      .type(file?.content_type || 'application/octet-stream')
      .send(Buffer.from(file?.data ?? new Uint8Array(0)));
  }
  const json = codecOf(route.responseBodyType).toJSON(out ?? {});
  return reply.code(route.successStatus).send(completeResponse(MESSAGE_SCHEMAS[route.responseBodyType], json));
}

function sendRpcError(route: RouteSpec, err: unknown, reply: FastifyReply): FastifyReply {
  const e = err as { code?: number; details?: string; message?: string; metadata?: { get(k: string): unknown[] } };
  const statusText = e.metadata?.get(MD.httpStatus)[0];
  const status = statusText ? Number(statusText) : (GRPC_TO_HTTP[e.code ?? -1] ?? (e.code === 14 ? 503 : 500));
  if (status === 422) {
    const violations = violationsFromServiceError(err, route);
    if (violations) return reply.code(422).send(validationErrorBody(violations));
  }
  const retryAfter = e.metadata?.get(MD.retryAfter)[0];
  if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
  const detail = e.code === 14 && !statusText ? 'core service unavailable' : (e.details ?? e.message ?? 'error');
  return reply.code(status).send({ detail });
}

/**
 * Proto3 JSON leaves out unset and default-valued fields; the REST contract promises every
 * field it names. Fills what is missing from the response schema: lists `[]`, nullable
 * fields `null`, strings `''`, numbers `0`, booleans `false`, nested messages recursively.
 */
export function completeResponse(schema: JsonSchema | undefined, value: unknown): unknown {
  if (!schema || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = schema['items'] as JsonSchema | undefined;
    return value.map((v) => completeResponse(items, v));
  }
  const props = propertyList(schema);
  if (props.length === 0) return value; // Struct: as is
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [name, ps] of props) {
    if (out[name] === undefined) out[name] = defaultFor(ps);
    else out[name] = completeResponse(ps, out[name]);
  }
  return out;
}

/** Each schema's properties as a list, made once per schema (every response walks them). */
const propertyLists = new WeakMap<JsonSchema, ReadonlyArray<[string, JsonSchema]>>();

function propertyList(schema: JsonSchema): ReadonlyArray<[string, JsonSchema]> {
  let list = propertyLists.get(schema);
  if (!list) {
    list = Object.entries((schema['properties'] as Record<string, JsonSchema> | undefined) ?? {});
    propertyLists.set(schema, list);
  }
  return list;
}

function defaultFor(schema: JsonSchema): unknown {
  const t = schema['type'];
  const types = Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
  if (types.includes('array')) return [];
  if (types.includes('null') || types.length === 0) return null;
  if (types.includes('string')) return '';
  if (types.includes('integer') || types.includes('number')) return 0;
  if (types.includes('boolean')) return false;
  if (types.includes('object')) return completeResponse(schema, {});
  return null;
}
