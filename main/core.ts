/**
 * The core process of a distributed deployment (`npm run start:core`): the gRPC API on
 * `SLIDEWRIGHT_GRPC_HOST:GRPC_PORT` (default 0.0.0.0:50051) over Redis state, S3 files and
 * the JetStream queue. It runs no job consumers (workers do) and serves no REST (the
 * gateway does). Any number of core processes can run side by side behind the gateways.
 */
import { createLogger } from '../core/src/observability/logger.js';
import { loadConfig, type Config } from '../core/src/config.js';
import { createCoreRuntime, type CoreRuntime } from '../core/src/runtime.js';
import { startGrpcServer } from '../core/src/grpc/server.js';
import { startMetricsServer } from '../core/src/observability/metrics-server.js';

export interface CoreProcess {
  /** `host:port` the gRPC server is bound to. */
  grpcAddress: string;
  /** Port of the `/metrics` server, when `SLIDEWRIGHT_METRICS_PORT` is set. */
  metricsPort: number | undefined;
  core: CoreRuntime;
  /** Stops accepting calls, finishes running ones (up to 5 s), closes the adapters. */
  close(): Promise<void>;
}

/**
 * Starts core's gRPC server on distributed adapters.
 * @throws Error when NATS_URL, REDIS_URL, S3_ENDPOINT or SLIDEWRIGHT_SIGNING_SECRET is
 *   missing, or a backend cannot be reached within 30 s
 */
export async function startCore(config: Readonly<Config>): Promise<CoreProcess> {
  const log = createLogger(config, { component: 'core' });
  const core = await createCoreRuntime(config, log, { role: 'core' });
  let server: { port: number; close(): Promise<void> };
  try {
    server = await startGrpcServer(core, config.grpcHost, config.grpcPort, log);
  } catch (err) {
    await core.close();
    throw err;
  }
  const metrics = config.metricsPort === undefined ? undefined : await startMetricsServer(config.httpHost, config.metricsPort);
  return {
    grpcAddress: `${config.grpcHost}:${server.port}`,
    metricsPort: metrics?.port,
    core,
    async close() {
      await metrics?.close();
      await server.close();
      await core.close();
    },
  };
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
if (isMain) {
  const config = loadConfig();
  const proc = await startCore(config).catch((err: Error) => {
    process.stderr.write(`slidewright core: ${err.message}\n`);
    process.exit(1);
  });
  process.stdout.write(`Slidewright core (gRPC) listening on ${proc.grpcAddress}${proc.metricsPort !== undefined ? `; metrics on port ${proc.metricsPort}` : ''}\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void proc.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
