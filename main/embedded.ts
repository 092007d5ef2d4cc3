/**
 * Embedded mode (`npm start`): gateway, core (gRPC on loopback) and workers in one process,
 * files and state under `SLIDEWRIGHT_DATA_DIR`, jobs on the durable in-process queue.
 */
import { createLogger } from '../core/src/observability/logger.js';
import { loadConfig, type Config } from '../core/src/config.js';
import { createCoreRuntime, type CoreRuntime } from '../core/src/runtime.js';
import { startGrpcServer } from '../core/src/grpc/server.js';
import { startConsumers } from '../workers/src/consumers.js';
import { buildGateway, connectionLimitsOf } from '../gateway/src/app.js';
import { GrpcInvoker } from '../gateway/src/invoker.js';

export interface EmbeddedService {
  /** REST base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  grpcAddress: string;
  core: CoreRuntime;
  close(): Promise<void>;
}

/** Starts everything; resolves once `GET /healthz` would answer 200. */
export async function startEmbedded(config: Readonly<Config>): Promise<EmbeddedService> {
  const log = createLogger(config);
  const core = await createCoreRuntime(config, log);
  const grpcServer = await startGrpcServer(core, config.grpcHost, config.grpcPort, log.child({ component: 'core' }));
  const grpcAddress = `${config.grpcHost}:${grpcServer.port}`;
  const shutdown = new AbortController();
  startConsumers(core, { concurrency: config.jobConcurrency, maxDeliver: 5, signal: shutdown.signal });
  const invoker = new GrpcInvoker(grpcAddress);
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
      await grpcServer.close();
      await core.close();
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
