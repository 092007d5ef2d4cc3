/**
 * The REST gateway process of a distributed deployment (`npm run start:gateway`): Fastify
 * on `PORT` (all interfaces), every route transcoded to a gRPC call on core at
 * `CORE_GRPC_ADDR`. It holds no state; run as many as needed behind a load balancer.
 */
import { createLogger } from '../core/src/observability/logger.js';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../core/src/config.js';
import { buildGateway, connectionLimitsOf } from '../gateway/src/app.js';
import { GrpcInvoker } from '../gateway/src/invoker.js';

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

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
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
