/**
 * Embedded mode (`npm start`): gateway, core (gRPC on loopback) and workers in one process,
 * files and state under `SLIDEWRIGHT_DATA_DIR`, jobs on the durable in-process queue.
 *
 * Core and the job consumers run on the main thread; the gateway runs on a worker thread of
 * its own (main/gateway.ts, `SLIDEWRIGHT_GATEWAY_THREAD`), so the hop between them spans two
 * cores: a status GET's HTTP, routing and transcoding no longer share one event loop with
 * core's work. The gateway's gRPC calls travel over an in-process channel (a MessagePort,
 * core/src/protocol/in-process.ts) answered by the handlers of core's gRPC server, which
 * still listens on loopback for other callers (`SLIDEWRIGHT_GATEWAY_CHANNEL=grpc`: the
 * gateway dials it too). The gateway sends a per-process secret with each call, so
 * core does not validate again what the gateway validated, and it hands the thread the
 * request validators core compiled (their standalone sources), so the thread does not
 * compile them again.
 */
import { randomBytes } from 'node:crypto';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { Logger } from 'pino';
import { createLogger } from '../core/src/observability/logger.js';
import { loadConfig, type Config } from '../core/src/config.js';
import { createCoreRuntime, type CoreRuntime } from '../core/src/runtime.js';
import { startGrpcServer } from '../core/src/grpc/server.js';
import { registry } from '../core/src/observability/metrics.js';
import { startConsumers } from '../workers/src/consumers.js';
import { buildGateway, connectionLimitsOf } from '../gateway/src/app.js';
import { GrpcInvoker, InProcessInvoker, type RpcInvoker } from '../gateway/src/invoker.js';
import { serveInProcess, type InProcessServer } from '../core/src/grpc/in-process-server.js';
import type { EmbeddedGatewayData, GatewayThreadMessage, MetricJson } from './gateway.js';
import { validatorSources } from '../core/src/validation/index.js';
import { REQUEST_THREAD_OLD_GENERATION_MB, THREAD_YOUNG_GENERATION_MB } from '../core/src/threads/heap-limits.js';

export interface EmbeddedService {
  /** REST base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  grpcAddress: string;
  core: CoreRuntime;
  /**
   * The gateway's own thread (`SLIDEWRIGHT_GATEWAY_THREAD`), when it runs on one: how many
   * request validators it took from core instead of compiling, and the bound of its V8 heap
   * as the thread reads it (`heap_size_limit`), MiB.
   */
  gatewayThread?: { validatorsTaken: number; heapLimitMb: number };
  close(): Promise<void>;
}

/** Starts everything; resolves once `GET /healthz` would answer 200. */
export async function startEmbedded(config: Readonly<Config>): Promise<EmbeddedService> {
  const log = createLogger(config);
  const core = await createCoreRuntime(config, log);
  const trustedSecret = randomBytes(32).toString('hex');
  const grpcServer = await startGrpcServer(core, config.grpcHost, config.grpcPort, log.child({ component: 'core' }), { trustedGatewaySecret: trustedSecret });
  const grpcAddress = `${config.grpcHost}:${grpcServer.port}`;
  const shutdown = new AbortController();
  startConsumers(core, { concurrency: config.jobConcurrency, maxDeliver: 5, signal: shutdown.signal });
  // the gateway's end of the in-process channel; core serves the other end
  let channel: { gatewayPort: MessagePort; server: InProcessServer } | undefined;
  if (config.gatewayChannel === 'in-process') {
    const { port1, port2 } = new MessageChannel();
    channel = { gatewayPort: port2, server: serveInProcess(port1, grpcServer.methods) };
  }
  if (config.gatewayThread) {
    let gateway: GatewayThread;
    try {
      // the validators core compiled go along, so the gateway thread does not compile them again
      gateway = await startGatewayThread({ kind: 'slidewright-embedded-gateway', config: { ...config }, coreGrpcAddr: grpcAddress, corePort: channel?.gatewayPort, trustedSecret, validators: validatorSources() }, log);
    } catch (err) {
      shutdown.abort();
      channel?.server.close();
      await grpcServer.close();
      await core.close();
      throw err;
    }
    if (!config.publicUrlExplicit && config.port === 0) core.deps.signer.publicUrl = gateway.url;
    gateway.ready();
    return {
      url: gateway.url,
      grpcAddress,
      core,
      gatewayThread: { validatorsTaken: gateway.validatorsTaken, heapLimitMb: gateway.heapLimitMb },
      async close() {
        await gateway.close();
        shutdown.abort();
        channel?.server.close();
        await grpcServer.close();
        await core.close();
      },
    };
  }
  const invoker: RpcInvoker = channel ? new InProcessInvoker(channel.gatewayPort, trustedSecret) : new GrpcInvoker(grpcAddress, trustedSecret);
  let ready = false;
  const app = await buildGateway({
    invoker,
    logger: log.child({ component: 'gateway' }),
    maxUploadBytes: config.maxUploadBytes,
    isReady: () => ready,
    connections: connectionLimitsOf(config),
    warmUp: config.warmUp,
  });
  const address = await app.listen({ port: config.port, host: config.embedded ? '127.0.0.1' : '0.0.0.0' });
  const url = address.replace('[::1]', '127.0.0.1');
  if (!config.publicUrlExplicit && config.port === 0) core.deps.signer.publicUrl = url;
  ready = true;
  return {
    url,
    grpcAddress,
    core,
    async close() {
      ready = false;
      await app.close();
      invoker.close();
      shutdown.abort();
      channel?.server.close();
      await grpcServer.close();
      await core.close();
    },
  };
}

/** The gateway thread as the main thread drives it. */
interface GatewayThread {
  url: string;
  /** Request validators the thread took from core's (see {@link EmbeddedGatewayData.validators}); the rest it compiled. */
  validatorsTaken: number;
  /** The bound of the thread's V8 heap, MiB (as the thread reads it). */
  heapLimitMb: number;
  /** Readiness answers 200 from now on. */
  ready(): void;
  /** Stops the gateway (running requests finish) and waits for its thread to end. */
  close(): Promise<void>;
}

/** Longest wait for the gateway thread to end after it closed, ms, before it is terminated. */
const GATEWAY_EXIT_WAIT_MS = 5_000;

/**
 * Starts the gateway thread (main/gateway.ts) and answers its requests for core's metrics.
 * From the TypeScript sources (tests, `npm run dev`) the thread registers tsx itself before
 * loading the module, as the CPU threads do (core/src/threads/cpu-task.dev.mjs).
 * @throws Error when the gateway cannot start (e.g. its port is taken)
 */
async function startGatewayThread(data: EmbeddedGatewayData, log: Logger): Promise<GatewayThread> {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSources ? './gateway.ts' : './gateway.js', import.meta.url);
  // the young generation the CPU threads get: V8 would grow the gateway's to 16 MiB
  // semi-spaces on the request bodies it decodes, memory that mostly holds garbage; and the
  // old generation of a thread serving requests (heap-limits.ts), so garbage is collected
  // before the heap grows to 4× what it keeps
  const resourceLimits = { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB, maxOldGenerationSizeMb: REQUEST_THREAD_OLD_GENERATION_MB };
  const transferList = data.corePort ? [data.corePort] : [];
  const worker = fromSources
    ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true, workerData: data, transferList, resourceLimits })
    : new Worker(entry, { workerData: data, transferList, resourceLimits });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const send = (m: GatewayThreadMessage): void => worker.postMessage(m);
  let closed: () => void = () => undefined;
  const { url, validatorsTaken, heapLimitMb } = await new Promise<{ url: string; validatorsTaken: number; heapLimitMb: number }>((resolve, reject) => {
    worker.on('message', (m: GatewayThreadMessage) => {
      if (m.type === 'listening') resolve(m);
      else if (m.type === 'failed') reject(new Error(`the gateway did not start: ${m.message}`));
      else if (m.type === 'closed') closed();
      else if (m.type === 'metrics-request') {
        void (registry.getMetricsAsJSON() as Promise<MetricJson[]>).then(
          (metrics) => send({ type: 'metrics', id: m.id, metrics }),
          () => send({ type: 'metrics', id: m.id, metrics: [] }),
        );
      }
    });
    worker.on('error', (err) => {
      log.error({ err }, 'the gateway thread failed');
      reject(err);
    });
    void exited.then(() => reject(new Error('the gateway thread ended before listening')));
  });
  return {
    url,
    validatorsTaken,
    heapLimitMb,
    ready: () => send({ type: 'ready' }),
    async close() {
      const done = new Promise<void>((resolve) => (closed = resolve));
      send({ type: 'close' });
      await Promise.race([done, exited]);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, GATEWAY_EXIT_WAIT_MS)))]);
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
if (isMain) {
  const config = loadConfig();
  const service = await startEmbedded(config);
  const key = service.core.devKey;
  process.stdout.write(
    `Slidewright (embedded mode) listening on ${service.url}\n` +
      `  gRPC core: ${service.grpcAddress}\n  data: ${config.dataDir}\n` +
      (key ? `  dev API key: ${key}   (send it as X-API-Key)\n` : '') +
      (config.devMode ? '  dev mode: X-Org-Name accepted\n' : ''),
  );
  const stop = (): void => {
    void service.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
