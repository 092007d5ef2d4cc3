/**
 * Core's gRPC server: every RPC of the protos, backed by the domain services.
 *
 * One wrapper does for every RPC what each would otherwise repeat: validate the request
 * with the same rules as the REST gateway (INVALID_ARGUMENT with field violations),
 * authenticate the caller from metadata, call the service, build the response message,
 * and map domain errors to status codes. The exact HTTP status travels in the trailing
 * metadata `x-http-status` so the gateway never has to guess.
 */
import * as grpc from '@grpc/grpc-js';
import { timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadFileDescriptorSetFromBuffer } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import { ServiceError, HTTP_STATUS } from '../errors.js';
import { precompileValidators, toInvalidArgument, validateRequest } from '../validation/index.js';
import { ROUTES, type RouteSpec } from '../../../proto/gen/routes.js';
import type { CoreRuntime } from '../runtime.js';
import type { Caller } from '../services/deps.js';
import { UrlSigner } from '../services/signing.js';
import { GrpcStatusError, MD, downloadPath, templateDownloadPath, uploadPath } from '../protocol/index.js';
import { MAX_RPC_MESSAGE_BYTES } from '../protocol/in-process.js';
import { codecOf, SERVICE_DEFINITIONS, type ServiceName } from './messages.js';
import { rpcDuration } from '../observability/metrics.js';
import { DEFAULT_PREVIEW_WIDTH, type PreviewImage } from '../services/preview-service.js';
import type { SlideData } from '../domain/content.js';
import type { AnalysisServiceServer } from '../../../proto/gen/ts/slidewright/v1/analysis_service.js';
import type { SlideDataInput } from '../../../proto/gen/ts/slidewright/v1/content.js';
import type { MatchServiceServer } from '../../../proto/gen/ts/slidewright/v1/match_service.js';
import type { GetPresentationSlidePreviewResponse, PresentationServiceServer } from '../../../proto/gen/ts/slidewright/v1/presentation_service.js';
import type { GetTemplateSlidePreviewResponse, TemplateServiceServer } from '../../../proto/gen/ts/slidewright/v1/template_service.js';

/** What an RPC implementation gets besides its request. */
export interface RpcContext {
  /** The authenticated caller. @throws ServiceError 401 */
  caller(): Caller;
  /**
   * The organization a signed URL authorizes for `method path`, or — when the request is
   * not signed — the authenticated caller's. @throws ServiceError 401, 403
   */
  callerOrSigned(method: string, path: string): Caller;
  requestId: string | undefined;
  /** The first value of a request metadata key, as a string. */
  metadata(key: string): string | undefined;
}

/**
 * What an implementation may return for a response message `T`: any field may be left out
 * or null (the codec's `fromPartial` fills in the defaults), fields the message does not
 * have are dropped, and every field given has the message's type.
 */
type ResponseInput<T> = T extends Uint8Array
  ? Uint8Array
  : T extends readonly (infer E)[]
    ? ResponseInput<E>[]
    : T extends object
      ? { [K in keyof T]?: ResponseInput<T[K]> | null }
      : T;

/**
 * One RPC's implementation: its request arrives decoded by the generated codec and
 * validated by the wrapper; what it returns becomes the response message.
 */
type RpcImpl<Req, Res = object> = (ctx: RpcContext, req: Req) => Promise<ResponseInput<Res>>;

/**
 * The implementations of one service, one per method of its generated (ts-proto) server
 * interface, each taking that method's request message and returning its response. The
 * interface's string index signature (grpc-js's UntypedServiceImplementation) is left
 * out, so a method missing here, or a name the service does not have, is a compile error.
 */
type ServiceImpl<Server> = {
  [Method in keyof Server as string extends Method ? never : Method]: Server[Method] extends grpc.handleUnaryCall<infer Req, infer Res> ? RpcImpl<Req, Res> : never;
};

/** The implementations of every service, keyed by its fully-qualified name. */
interface Implementations {
  'slidewright.v1.TemplateService': ServiceImpl<TemplateServiceServer>;
  'slidewright.v1.AnalysisService': ServiceImpl<AnalysisServiceServer>;
  'slidewright.v1.PresentationService': ServiceImpl<PresentationServiceServer>;
  'slidewright.v1.MatchService': ServiceImpl<MatchServiceServer>;
}

const GRPC_CODE: Readonly<Record<ServiceError['kind'], grpc.status>> = {
  unauthenticated: grpc.status.UNAUTHENTICATED,
  forbidden: grpc.status.PERMISSION_DENIED,
  not_found: grpc.status.NOT_FOUND,
  conflict: grpc.status.FAILED_PRECONDITION,
  payload_too_large: grpc.status.RESOURCE_EXHAUSTED,
  unsupported_media_type: grpc.status.INVALID_ARGUMENT,
  invalid_argument: grpc.status.INVALID_ARGUMENT,
  too_many_requests: grpc.status.RESOURCE_EXHAUSTED,
  unavailable: grpc.status.UNAVAILABLE,
  internal: grpc.status.INTERNAL,
};

/** The RPC implementations, keyed by service and ts-proto method name. */
function implementations(core: CoreRuntime): Implementations {
  const { templates, analyses, generations, previews, pdfs, matching } = core;
  return {
    'slidewright.v1.TemplateService': {
      createTemplate: (ctx, req) => templates.create(ctx.caller(), req),
      uploadTemplateContent: async (ctx, req) => {
        const caller = ctx.callerOrSigned('PUT', uploadPath(req.template_id));
        const refused = ctx.metadata(MD.uploadRefusedBytes);
        const oversized = refused === undefined ? undefined : { bytes: /^\d{1,15}$/.test(refused) ? Number(refused) : undefined };
        return templates.upload(caller, req.template_id, req.file?.data ?? new Uint8Array(0), req.file?.content_type, oversized);
      },
      listTemplates: (ctx, req) => templates.list(ctx.caller(), req),
      getTemplate: async (ctx, req) => ({ template: await templates.get(ctx.caller(), req.template_id) }),
      updateTemplate: async (ctx, req) => ({ template: await templates.patch(ctx.caller(), req.template_id, req.metadata ?? {}) }),
      deleteTemplate: async (ctx, req) => ({ template: await templates.delete(ctx.caller(), req.template_id, req.permanent === true) }),
      restoreTemplate: async (ctx, req) => ({ template: await templates.restore(ctx.caller(), req.template_id) }),
      downloadTemplate: async (ctx, req) => {
        const caller = ctx.callerOrSigned('GET', templateDownloadPath(req.template_id));
        // The signature covers the path, so a signed download URL with `&format=pdf` fetches the PDF.
        const f = req.format === 'pdf' ? await pdfs.template(caller, req.template_id, { pdfa: req.pdfa === true }) : await templates.download(caller, req.template_id);
        return { file: { content_type: f.contentType, data: Buffer.from(f.bytes), extensions: [] }, filename: f.filename };
      },
      getTemplateSlide: async (ctx, req) => ({ slide: await templates.slide(ctx.caller(), req.template_id, req.slide_number) }),
      getTemplateSlidePreview: async (ctx, req) => previewResponse(await previews.templateSlide(ctx.caller(), req.template_id, req.slide_number, req.width ?? DEFAULT_PREVIEW_WIDTH)),
    },
    'slidewright.v1.AnalysisService': {
      startAnalysis: async (ctx, req) => ({ analysis: await analyses.start(ctx.caller(), req.template_id, req) }),
      getAnalysis: async (ctx, req) => ({ analysis: await analyses.get(ctx.caller(), req.template_id, req.analysis_id) }),
      getAnalysisStatus: (ctx, req) => analyses.status(ctx.caller(), req.template_id, req.analysis_id),
      cancelAnalysis: async (ctx, req) => ({ analysis: await analyses.cancel(ctx.caller(), req.template_id, req.analysis_id) }),
    },
    'slidewright.v1.PresentationService': {
      generateDeck: async (ctx, req) => ({
        job: await generations.generateDeck(ctx.caller(), {
          slides: req.slides.map((s) => ({ template_slide_id: s.template_slide_id, slide_data: toSlideData(s.slide_data), options: s.options ?? undefined })),
          org_name: req.org_name,
          options: req.options,
          webhook_url: req.webhook_url,
        }),
      }),
      generateSlide: async (ctx, req) => ({
        job: await generations.generateSlide(ctx.caller(), {
          template_slide_id: req.template_slide_id,
          slide_data: toSlideData(req.slide_data),
          org_name: req.org_name,
          options: req.options,
          webhook_url: req.webhook_url,
        }),
      }),
      updateCharts: async (ctx, req) => ({ job: await core.chartUpdates.updateCharts(ctx.caller(), req) }),
      getGenerationStatus: async (ctx, req) => {
        const s = await generations.status(ctx.caller(), req.generation_id);
        // older records hold warnings as plain strings
        return { ...s, warnings: s.warnings.map((w) => (typeof w === 'string' ? { slide_index: -1, template_slide_id: '', code: 'warning', message: w } : w)) };
      },
      downloadPresentation: async (ctx, req) => {
        const caller = ctx.callerOrSigned('GET', downloadPath(req.presentation_id));
        const f = req.format === 'pdf' ? await pdfs.generation(caller, req.presentation_id, { pdfa: req.pdfa === true }) : await generations.download(caller, req.presentation_id);
        return { file: { content_type: f.contentType, data: Buffer.from(f.bytes), extensions: [] }, filename: f.filename };
      },
      getGenerationReport: async (ctx, req) => {
        const r = await generations.report(ctx.caller(), req.generation_id);
        return { ...r, findings: r.findings.map((f) => ({ ...f, shape_id: f.shape_id ?? undefined })) };
      },
      getPresentationSlidePreview: async (ctx, req) => previewResponse(await previews.generatedSlide(ctx.caller(), req.generation_id, req.slide_number, req.width ?? DEFAULT_PREVIEW_WIDTH)),
    },
    'slidewright.v1.MatchService': {
      matchTemplates: (ctx, req) => matching.match(ctx.caller(), { ...req, match_against: matchAgainst(req.match_against), slide_data: toSlideData(req.slide_data) }),
    },
  };
}

function previewResponse(img: PreviewImage): ResponseInput<GetTemplateSlidePreviewResponse & GetPresentationSlidePreviewResponse> {
  const { png, ...fields } = img;
  return { image: { content_type: 'image/png', data: Buffer.from(png.buffer, png.byteOffset, png.byteLength), extensions: [] }, ...fields };
}

/** `match_against` as validation let it through: one of its allowed values, or unset. */
function matchAgainst(value: string | undefined): 'slides' | 'layouts' | undefined {
  return value === 'slides' || value === 'layouts' ? value : undefined;
}

/**
 * Slide data as the generation engine reads it: the decoded message, with unset optional
 * fields dropped (proto3 leaves them undefined) and `content` always a list. The same
 * value a JSON round trip would give (non-finite numbers become null), in one walk.
 */
function toSlideData(msg: SlideDataInput | undefined): SlideData {
  return plainCopy(msg ?? {}) as SlideData;
}

/** `JSON.parse(JSON.stringify(value))` for the plain values a decoded message holds, without the text. */
function plainCopy(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => (v === undefined || typeof v === 'function' ? null : plainCopy(v)));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined && typeof v !== 'function') out[k] = plainCopy(v);
  return out;
}

/** Options of {@link startGrpcServer}. */
export interface GrpcServerOptions {
  /**
   * The secret shared with the REST gateway of the same process (embedded mode; see
   * `MD.trustedGateway`): a call carrying it was validated by that gateway, and is not
   * validated again. At least 32 characters; unset, every call is validated.
   */
  trustedGatewaySecret?: string;
}

/**
 * One RPC as core serves it: the wrapped implementation (validation, authentication,
 * response message, status mapping) with the codec's (tolerant) request decoder and the
 * response encoder — what the gRPC server registers, and what the in-process channel of
 * embedded mode calls (core/src/grpc/in-process-server.ts).
 */
export interface CoreRpcMethod {
  /** The method's gRPC path, e.g. `/slidewright.v1.PresentationService/GetGenerationStatus`. */
  path: string;
  /** Decodes a request message; bytes the codec cannot decode give a request the handler refuses with INVALID_ARGUMENT. */
  requestDeserialize(bytes: Buffer): unknown;
  /** Encodes a response message. */
  responseSerialize(value: unknown): Buffer;
  /** Answers one decoded request with its metadata: `done(null, response)` or `done(statusError)`. */
  handle(request: unknown, metadata: grpc.Metadata, done: grpc.sendUnaryData<unknown>): void;
}

/** A {@link CoreRpcMethod} with where the gRPC server registers it. */
interface RegisteredRpcMethod extends CoreRpcMethod {
  service: ServiceName;
  /** The method's key in its service definition (ts-proto's name, e.g. `getGenerationStatus`). */
  method: string;
  /** The generated definition with the tolerant request decoder. */
  definition: grpc.MethodDefinition<unknown, unknown>;
}

/**
 * Every RPC of core by gRPC path (see {@link CoreRpcMethod}).
 * @throws Error when `trustedGatewaySecret` is shorter than 32 characters, or an RPC of the protos has no implementation or route
 */
function coreRpcMethods(core: CoreRuntime, log: Logger, opts: GrpcServerOptions = {}): ReadonlyMap<string, RegisteredRpcMethod> {
  const secret = opts.trustedGatewaySecret;
  if (secret !== undefined && secret.length < 32) throw new Error('the trusted gateway secret must have at least 32 characters');
  const trusted = secret === undefined ? () => false : trustedCallCheck(secret);
  // every request validator now, so that no call pays for compiling one
  precompileValidators();
  // By method name for the generic registration below: the codec of each definition
  // decodes exactly the request type its implementation takes.
  const impls = implementations(core) satisfies Record<ServiceName, object> as unknown as Record<ServiceName, Record<string, RpcImpl<unknown> | undefined>>;
  const routesByPath = new Map((ROUTES as readonly RouteSpec[]).map((r) => [r.grpcPath, r]));
  const methods = new Map<string, RegisteredRpcMethod>();
  for (const [serviceName, definition] of Object.entries(SERVICE_DEFINITIONS) as Array<[ServiceName, grpc.ServiceDefinition]>) {
    for (const [method, def] of Object.entries(definition)) {
      const impl = impls[serviceName][method];
      const route = routesByPath.get(def.path);
      if (!impl || !route) throw new Error(`no implementation or route for ${def.path}`);
      const requestDeserialize = tolerantDeserializer(def.requestDeserialize);
      methods.set(def.path, {
        path: def.path,
        service: serviceName,
        method,
        definition: { ...def, requestDeserialize },
        requestDeserialize,
        responseSerialize: def.responseSerialize,
        // uploads carry bytes the gateway does not look into: always validated here
        handle: wrap(core, route, impl, log, route.rawRequestBody ? () => false : trusted),
      });
    }
  }
  return methods;
}

/** Core's gRPC server as {@link startGrpcServer} started it. */
export interface CoreGrpcServer {
  /** The bound port. */
  port: number;
  /** Every RPC the server serves, by gRPC path: the same handlers serve embedded mode's in-process channel. */
  methods: ReadonlyMap<string, CoreRpcMethod>;
  /** Stops the server: running calls get up to 5 s to finish. */
  close(): Promise<void>;
}

/**
 * Starts core's gRPC server.
 * @throws Error when `trustedGatewaySecret` is shorter than 32 characters, or the address cannot be bound
 */
export async function startGrpcServer(core: CoreRuntime, host: string, port: number, log: Logger, opts: GrpcServerOptions = {}): Promise<CoreGrpcServer> {
  const methods = coreRpcMethods(core, log, opts);
  const server = new grpc.Server({ 'grpc.max_receive_message_length': MAX_RPC_MESSAGE_BYTES, 'grpc.max_send_message_length': MAX_RPC_MESSAGE_BYTES });
  const services = new Map<ServiceName, { definition: Record<string, grpc.MethodDefinition<unknown, unknown>>; handlers: grpc.UntypedServiceImplementation }>();
  for (const m of methods.values()) {
    let service = services.get(m.service);
    if (!service) services.set(m.service, (service = { definition: {}, handlers: {} }));
    service.definition[m.method] = m.definition;
    service.handlers[m.method] = ((call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => m.handle(call.request, call.metadata, callback)) satisfies grpc.handleUnaryCall<unknown, unknown>;
  }
  for (const { definition, handlers } of services.values()) server.addService(definition as grpc.ServiceDefinition, handlers);
  // Server reflection (grpcurl, Postman) from the descriptor set gen:proto writes, and the
  // standard health service: '' is the whole server, then each service by name.
  // From the sources (core/src/grpc) or from the build (dist/core/src/grpc).
  const descriptorFile = ['../../../proto/gen/slidewright.binpb', '../../../../proto/gen/slidewright.binpb']
    .map((p) => fileURLToPath(new URL(p, import.meta.url)))
    .find((p) => existsSync(p));
  if (!descriptorFile) throw new Error('proto/gen/slidewright.binpb is missing; run npm run gen:proto');
  const descriptors = readFileSync(descriptorFile);
  new ReflectionService(loadFileDescriptorSetFromBuffer(descriptors)).addToServer(server);
  const health = new HealthImplementation({ '': 'SERVING', ...Object.fromEntries(Object.keys(SERVICE_DEFINITIONS).map((n) => [n, 'SERVING' as const])) });
  health.addToServer(server);
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    port: bound,
    methods,
    close: () =>
      new Promise<void>((resolve) => {
        health.setStatus('', 'NOT_SERVING');
        server.tryShutdown(() => resolve());
        setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 5000).unref();
      }),
  };
}

/** A request the codec could not decode (e.g. an int64 beyond Number.MAX_SAFE_INTEGER). */
class UndecodableRequest {
  constructor(readonly reason: string) {}
}

/**
 * The codec's deserializer, except that a request it cannot decode becomes an
 * {@link UndecodableRequest} for the handler to refuse with INVALID_ARGUMENT (422), as
 * validation refuses any other bad input; grpc-js would answer INTERNAL ("Error
 * deserializing request"), a server fault for what is the client's.
 */
function tolerantDeserializer(decode: grpc.deserialize<unknown>): grpc.deserialize<unknown> {
  return (bytes: Buffer) => {
    try {
      return decode(bytes);
    } catch (err) {
      return new UndecodableRequest(err instanceof Error ? err.message : String(err));
    }
  };
}

/** Whether a call's metadata carries `secret` as `MD.trustedGateway` (compared in constant time). */
function trustedCallCheck(secret: string): (md: grpc.Metadata) => boolean {
  const expected = Buffer.from(secret);
  return (md) => {
    const given = md.get(MD.trustedGateway)[0];
    if (given === undefined) return false;
    const bytes = Buffer.from(String(given));
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  };
}

function wrap(core: CoreRuntime, route: RouteSpec, impl: RpcImpl<unknown>, log: Logger, trusted: (md: grpc.Metadata) => boolean): CoreRpcMethod['handle'] {
  const responseCodec = codecOf(route.responseType);
  return (request, md, callback) => {
    const one = (k: string): string | undefined => {
      const v = md.get(k)[0];
      return v === undefined ? undefined : String(v);
    };
    const requestId = one(MD.requestId);
    let authenticated: Caller | undefined;
    const ctx: RpcContext = {
      requestId,
      metadata: one,
      caller: () => (authenticated ??= { org: core.auth.organization(one(MD.apiKey), one(MD.orgName)), requestId }),
      callerOrSigned: (method, path) => {
        const q = { expires: one(MD.signatureExpires), org: one(MD.signatureOrg), signature: one(MD.signature) };
        if (UrlSigner.isSigned(q)) return { org: core.deps.signer.verify(method, path, q), requestId };
        return ctx.caller();
      },
    };
    const end = rpcDuration.startTimer({ rpc: route.rpc });
    const reply: grpc.sendUnaryData<unknown> = (err, value) => {
      end({ code: err ? String(err.code ?? grpc.status.UNKNOWN) : '0' });
      if (err && err.code === grpc.status.INTERNAL) log.error({ rpc: route.id, request_id: requestId }, 'RPC failed');
      else log.debug({ rpc: route.id, request_id: requestId, code: err?.code ?? 0 }, 'RPC');
      callback(err, value);
    };
    void (async () => {
      // the gateway of this process validated the REST request with the same rules
      const violations =
        request instanceof UndecodableRequest
          ? [{ loc: [], msg: `The request cannot be decoded: ${request.reason}`, type: 'value_error', input: null }]
          : trusted(md)
            ? []
            : validateRequest(route.grpcPath, request);
      if (violations.length > 0) {
        const err = toInvalidArgument(violations);
        err.metadata.set(MD.httpStatus, '422');
        reply(err);
        return;
      }
      const result = await impl(ctx, request);
      reply(null, responseCodec.fromPartial(result));
    })().catch((err: unknown) => reply(toGrpcError(err, route, log, requestId)));
  };
}

function toGrpcError(err: unknown, route: RouteSpec, log: Logger, requestId: string | undefined): grpc.ServiceError {
  const metadata = new grpc.Metadata();
  if (err instanceof ServiceError) {
    if (err.kind === 'invalid_argument' && err.extra.violations?.length) {
      const e = toInvalidArgument(err.extra.violations);
      e.metadata.set(MD.httpStatus, '422');
      return e;
    }
    metadata.set(MD.httpStatus, String(HTTP_STATUS[err.kind]));
    if (err.extra.retryAfterSeconds !== undefined) metadata.set(MD.retryAfter, String(err.extra.retryAfterSeconds));
    return new GrpcStatusError(GRPC_CODE[err.kind], err.message, metadata, { cause: err });
  }
  log.error({ err, rpc: route.id, request_id: requestId }, 'unexpected error in RPC');
  metadata.set(MD.httpStatus, '500');
  return new GrpcStatusError(grpc.status.INTERNAL, 'internal error', metadata, { cause: err });
}
