/**
 * Embedded mode's in-process channel (issue 20): the gateway's InProcessInvoker and core's
 * serveInProcess carry a unary call as gRPC does — the request and response messages
 * encoded by the method's codec, the metadata, and a failed call's status code, details and
 * trailers (the exact HTTP status, Retry-After), which the gateway maps to HTTP as it maps a
 * status that came over the network. Unknown methods, deadlines and a closed channel end as
 * grpc-js ends them. Core's side runs the handlers given here (stand-ins for core's RPCs;
 * the REST suites run the real ones through this channel, and test/e2e/gateway-channels
 * compares the two channels' REST answers).
 */
import t from 'tap';
import { MessageChannel } from 'node:worker_threads';
import * as grpc from '@grpc/grpc-js';
import { ROUTES, type RouteSpec } from '../../../proto/gen/routes.js';
import { codecOf, SERVICE_DEFINITIONS, type ServiceName } from '../../../core/src/grpc/messages.js';
import { serveInProcess } from '../../../core/src/grpc/in-process-server.js';
import type { CoreRpcMethod } from '../../../core/src/grpc/server.js';
import { GrpcStatusError, MD } from '../../../core/src/protocol/index.js';
import { ChannelStatusError, InProcessInvoker } from '../../../gateway/src/invoker.js';
import { buildGateway } from '../../../gateway/src/app.js';

const routeOf = (rpc: string): RouteSpec => {
  const r = (ROUTES as readonly RouteSpec[]).find((x) => x.rpc === rpc);
  if (!r) throw new Error(`no route ${rpc}`);
  return r;
};
const STATUS = routeOf('GetGenerationStatus');
const CREATE = routeOf('CreateTemplate');

/**
 * Core's method for `route`, answering with `handle`, encoded by the route's real codec
 * (responses completed by `fromPartial`, as core's RPC wrapper does).
 */
function methodFor(route: RouteSpec, handle: CoreRpcMethod['handle']): CoreRpcMethod {
  const def = (SERVICE_DEFINITIONS[route.service as ServiceName] as grpc.ServiceDefinition)[route.grpcMethod]!;
  const responses = codecOf(route.responseType);
  return {
    path: def.path,
    requestDeserialize: def.requestDeserialize,
    responseSerialize: def.responseSerialize,
    handle: (request, md, done) => handle(request, md, (err, value) => (err ? done(err) : done(null, responses.fromPartial(value as object)))),
  };
}

/** A request message as the gateway makes it (every field present). */
const request = (route: RouteSpec, fields: object): unknown => codecOf(route.requestType).fromPartial(fields);

function channel(methods: CoreRpcMethod[], secret?: string) {
  const { port1, port2 } = new MessageChannel();
  const server = serveInProcess(port1, new Map(methods.map((m) => [m.path, m])));
  const invoker = new InProcessInvoker(port2, secret);
  return { server, invoker, close: () => (invoker.close(), server.close()) };
}

t.test('a call arrives decoded with its metadata and the trusted secret; the response comes back decoded', async (t) => {
  const seen: Array<{ request: unknown; md: Record<string, unknown> }> = [];
  const ch = channel(
    [
      methodFor(STATUS, (request, md, done) => {
        seen.push({ request, md: md.getMap() });
        const id = (request as { generation_id: string }).generation_id;
        done(null, { generation_id: id, status: 'completed', message: 'done: ünïcødé ✓', progress: 100, total_slides_requested: 3, warnings: [], errors: [] });
      }),
    ],
    's'.repeat(32),
  );
  t.teardown(ch.close);
  const res = (await ch.invoker.call(STATUS, request(STATUS, { generation_id: 'gen_abc' }), { [MD.requestId]: 'req-1', [MD.apiKey]: 'key-1' })) as Record<string, unknown>;
  t.equal(res['generation_id'], 'gen_abc');
  t.equal(res['status'], 'completed');
  t.equal(res['message'], 'done: ünïcødé ✓', 'text survives the encoding both ways');
  t.equal(res['total_slides_requested'], 3);
  t.same((seen[0]!.request as { generation_id: string }).generation_id, 'gen_abc');
  t.equal(seen[0]!.md[MD.requestId], 'req-1');
  t.equal(seen[0]!.md[MD.apiKey], 'key-1');
  t.equal(seen[0]!.md[MD.trustedGateway], 's'.repeat(32), 'the trusted-gateway secret travels as over gRPC');
  t.equal(ch.server.pending(), 0, 'nothing left running on core');
});

t.test("a status with trailers reaches the gateway's HTTP mapping as over gRPC", async (t) => {
  const trailers = new grpc.Metadata();
  trailers.set(MD.httpStatus, '429');
  trailers.set(MD.retryAfter, '7');
  const ch = channel([methodFor(STATUS, (_request, _md, done) => done(new GrpcStatusError(grpc.status.RESOURCE_EXHAUSTED, 'too many decks at once', trailers)))]);
  t.teardown(ch.close);
  const err = await ch.invoker.call(STATUS, request(STATUS, { generation_id: 'gen_x' }), {}).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(err instanceof ChannelStatusError);
  const e = err as ChannelStatusError;
  t.equal(e.code, grpc.status.RESOURCE_EXHAUSTED);
  t.equal(e.details, 'too many decks at once');
  t.same(e.metadata.get(MD.httpStatus), ['429']);
  t.same(e.metadata.get(MD.retryAfter), ['7']);

  // the REST answer the gateway makes of it
  const app = await buildGateway({ invoker: ch.invoker, logger: false });
  t.teardown(() => app.close());
  const r = await app.inject({ method: 'GET', url: '/api/v1/presentations/gen_x/status', headers: { 'x-api-key': 'k' } });
  t.equal(r.statusCode, 429);
  t.equal(r.headers['retry-after'], '7');
  t.same(r.json(), { detail: 'too many decks at once' });
});

t.test('messages of every size arrive intact: small ones from an encoder pool, large ones handed over', async (t) => {
  const ch = channel([
    methodFor(CREATE, (request, _md, done) => {
      // the request's description comes back as the upload URL: the size rides both ways
      done(null, { template_id: 'tpl_1', upload_url: (request as { metadata?: { description?: string } }).metadata?.description ?? '', status: 'pending' });
    }),
  ]);
  t.teardown(ch.close);
  for (const size of [0, 10, 5_000, 70_000, 3_000_000]) {
    const text = 'é'.repeat(size);
    const res = (await ch.invoker.call(CREATE, request(CREATE, { filename: 'x.pptx', file_size: 1, metadata: { description: text } }), {})) as { upload_url: string };
    t.equal(res.upload_url, text, `${size} characters both ways`);
  }
});

t.test('unknown methods, deadlines and a closed channel end with the status grpc-js gives', async (t) => {
  let answerLate: (() => void) | undefined;
  const ch = channel([
    methodFor(STATUS, (_request, _md, done) => {
      answerLate = () => done(null, { generation_id: 'late' });
    }),
  ]);
  // UNIMPLEMENTED: core serves only the status method here
  const unimplemented = await ch.invoker.call(CREATE, request(CREATE, { filename: 'x.pptx' }), {}).catch((e: ChannelStatusError) => e);
  t.equal((unimplemented as ChannelStatusError).code, grpc.status.UNIMPLEMENTED);
  // DEADLINE_EXCEEDED: core does not answer in time; its late answer is dropped
  const late = await ch.invoker.call(STATUS, request(STATUS, { generation_id: 'gen_1' }), {}, 0.05).catch((e: ChannelStatusError) => e);
  t.equal((late as ChannelStatusError).code, grpc.status.DEADLINE_EXCEEDED);
  answerLate?.();
  // UNAVAILABLE: a call waiting when core's end closes, and every call after
  const waiting = ch.invoker.call(STATUS, request(STATUS, { generation_id: 'gen_2' }), {}).catch((e: ChannelStatusError) => e);
  await new Promise((r) => setTimeout(r, 20));
  ch.server.close();
  t.equal(((await waiting) as ChannelStatusError).code, grpc.status.UNAVAILABLE, 'the waiting call');
  const after = await ch.invoker.call(STATUS, request(STATUS, { generation_id: 'gen_3' }), {}).catch((e: ChannelStatusError) => e);
  t.equal((after as ChannelStatusError).code, grpc.status.UNAVAILABLE, 'a later call');
  ch.invoker.close();

  // the gateway answers a closed channel as an unreachable core: 503
  const app = await buildGateway({ invoker: ch.invoker, logger: false });
  t.teardown(() => app.close());
  const r = await app.inject({ method: 'GET', url: '/api/v1/presentations/gen_4/status', headers: { 'x-api-key': 'k' } });
  t.equal(r.statusCode, 503);
  t.same(r.json(), { detail: 'core service unavailable' });
});
