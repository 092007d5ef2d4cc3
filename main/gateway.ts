/**
 * The REST gateway process of a distributed deployment (`npm run start:gateway`): Fastify
 * on `PORT` (all interfaces), every route transcoded to a gRPC call on core at
 * `CORE_GRPC_ADDR`. It holds no state; run as many as needed behind a load balancer.
 *
 * The same module is the gateway thread of embedded mode (main/embedded.ts): started as a
 * worker thread with {@link EmbeddedGatewayData}, it serves REST on loopback and calls core
 * on the process's main thread over the in-process channel (or the same gRPC client, with
 * `SLIDEWRIGHT_GATEWAY_CHANNEL=grpc`), so the hop spans two cores.
 */
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { getHeapStatistics } from 'node:v8';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { createLogger } from '../core/src/observability/logger.js';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../core/src/config.js';
import { registry } from '../core/src/observability/metrics.js';
import { buildGateway, connectionLimitsOf } from '../gateway/src/app.js';
import { GrpcInvoker, InProcessInvoker, type RpcInvoker } from '../gateway/src/invoker.js';
import { adoptValidators } from '../core/src/validation/index.js';

export interface GatewayProcess {
  /** Base URL the gateway listens on, e.g. `http://127.0.0.1:8080`. */
  url: string;
  app: FastifyInstance;
  /** Stops listening (letting running requests finish) and closes the gRPC channel. */
  close(): Promise<void>;
}

/**
 * Starts the gateway.
 * @throws Error when CORE_GRPC_ADDR is not set, or the port cannot be bound
 */
export async function startGateway(config: Readonly<Config>, host = config.httpHost): Promise<GatewayProcess> {
  if (!config.coreGrpcAddr) throw new Error('the gateway needs CORE_GRPC_ADDR (host:port of the core gRPC server)');
  const log = createLogger(config, { component: 'gateway' });
  const invoker = new GrpcInvoker(config.coreGrpcAddr);
  let ready = false;
  const app = await buildGateway({ invoker, logger: log, maxUploadBytes: config.maxUploadBytes, isReady: () => ready, connections: connectionLimitsOf(config), warmUp: config.warmUp });
  const address = await app.listen({ port: config.port, host });
  ready = true;
  return {
    url: address.replace('[::1]', '127.0.0.1').replace('0.0.0.0', '127.0.0.1'),
    app,
    async close() {
      ready = false;
      await app.close();
      invoker.close();
    },
  };
}

/** What embedded mode hands the thread that runs its gateway (as `workerData`). */
export interface EmbeddedGatewayData {
  kind: 'slidewright-embedded-gateway';
  config: Config;
  /** `host:port` of core's gRPC server on the main thread. */
  coreGrpcAddr: string;
  /** The gateway's end of the in-process channel to core (core/src/protocol/in-process.ts); unset: calls go to {@link coreGrpcAddr} over gRPC. */
  corePort?: MessagePort;
  /** The per-process secret core trusts (core/src/protocol/metadata.ts, `trustedGateway`). */
  trustedSecret: string;
  /** The request validators core compiled, as standalone sources (core/src/validation, `validatorSources`): taken instead of compiling them again. */
  validators?: Record<string, string>;
}

/** One metric as `Registry.getMetricsAsJSON()` gives it. */
export type MetricJson = MetricObjectWithValues<MetricValue<string>>;

/** Messages between embedded mode's main thread and its gateway thread. */
export type GatewayThreadMessage =
  /** gateway → main: listening at `url` (readiness still answers 503), having taken `validatorsTaken` of core's compiled request validators; its heap's bound is `heapLimitMb` MiB. */
  | { type: 'listening'; url: string; validatorsTaken: number; heapLimitMb: number }
  /** gateway → main: the start failed. */
  | { type: 'failed'; message: string }
  /** main → gateway: every part is up, readiness answers 200. */
  | { type: 'ready' }
  /** main → gateway: stop (readiness 503, stop listening, let running requests finish). */
  | { type: 'close' }
  /** gateway → main: stopped. */
  | { type: 'closed' }
  /** gateway → main: the metrics of core's thread, for a `/metrics` scrape. */
  | { type: 'metrics-request'; id: number }
  /** main → gateway: the answer to `metrics-request` `id`. */
  | { type: 'metrics'; id: number; metrics: MetricJson[] };

/**
 * Prefix of the process metrics (CPU, memory, event loop) every thread's registry collects:
 * the main thread's are the process's, so the gateway thread's are left out of a scrape.
 */
const PROCESS_METRICS_PREFIX = 'slidewright_process_';

/** Runs embedded mode's gateway on this worker thread until the main thread says `close`. */
async function runEmbeddedGateway(data: EmbeddedGatewayData, port: MessagePort): Promise<void> {
  const { config } = data;
  const log = createLogger(config, { component: 'gateway' });
  const invoker: RpcInvoker = data.corePort ? new InProcessInvoker(data.corePort, data.trustedSecret) : new GrpcInvoker(data.coreGrpcAddr, data.trustedSecret);
  const waiting = new Map<number, (metrics: MetricJson[]) => void>();
  let nextId = 0;
  const coreMetrics = (): Promise<MetricJson[]> =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      port.postMessage({ type: 'metrics-request', id } satisfies GatewayThreadMessage);
    });
  // one scrape sees both threads: counters and histograms of the same name are summed
  const metrics = async (): Promise<string> => {
    const [core, own] = await Promise.all([coreMetrics(), registry.getMetricsAsJSON() as Promise<MetricJson[]>]);
    return AggregatorRegistry.aggregate([core, own.filter((m) => !m.name.startsWith(PROCESS_METRICS_PREFIX))]).metrics();
  };
  let ready = false;
  let app: FastifyInstance | undefined;
  port.on('message', (m: GatewayThreadMessage) => {
    if (m.type === 'ready') ready = true;
    else if (m.type === 'metrics') {
      waiting.get(m.id)?.(m.metrics);
      waiting.delete(m.id);
    } else if (m.type === 'close') {
      ready = false;
      void (async () => {
        await app?.close();
        invoker.close();
        port.postMessage({ type: 'closed' } satisfies GatewayThreadMessage);
        port.close();
      })();
    }
  });
  try {
    let taken = 0;
    if (data.validators) {
      const t0 = performance.now();
      try {
        taken = adoptValidators(data.validators);
        log.debug({ validators: taken, ms: Math.round(performance.now() - t0) }, 'request validators taken from core');
      } catch (err) {
        // what could not be taken is compiled by buildGateway as without them
        log.warn({ err: (err as Error).message }, 'request validators could not be taken from core; compiling them');
      }
    }
    app = await buildGateway({ invoker, logger: log, maxUploadBytes: config.maxUploadBytes, isReady: () => ready, connections: connectionLimitsOf(config), warmUp: config.warmUp, metrics });
    const address = await app.listen({ port: config.port, host: '127.0.0.1' });
    port.postMessage({ type: 'listening', url: address.replace('[::1]', '127.0.0.1'), validatorsTaken: taken, heapLimitMb: getHeapStatistics().heap_size_limit / 2 ** 20 } satisfies GatewayThreadMessage);
  } catch (err) {
    invoker.close();
    port.postMessage({ type: 'failed', message: err instanceof Error ? err.message : String(err) } satisfies GatewayThreadMessage);
    port.close();
  }
}

const embeddedData = workerData as EmbeddedGatewayData | undefined;
if (!isMainThread && parentPort && embeddedData?.kind === 'slidewright-embedded-gateway') await runEmbeddedGateway(embeddedData, parentPort);

const isMain = isMainThread && process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
if (isMain) {
  const config = loadConfig();
  const gw = await startGateway(config).catch((err: Error) => {
    process.stderr.write(`slidewright gateway: ${err.message}\n`);
    process.exit(1);
  });
  process.stdout.write(`Slidewright gateway listening on ${gw.url} (core at ${config.coreGrpcAddr})\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void gw.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
