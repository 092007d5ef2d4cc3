/**
 * A worker process of a distributed deployment (`npm run start:worker`): pulls analysis
 * and generation jobs from JetStream and runs them against Redis state and S3 files. It
 * serves nothing; run any number of them (`docker compose up --scale worker=4`). Each
 * runs `SLIDEWRIGHT_JOB_CONCURRENCY` jobs of each kind at once on
 * `SLIDEWRIGHT_WORKER_THREADS` threads.
 *
 * SIGTERM/SIGINT: stop pulling, let running jobs finish (a job interrupted by the
 * shutdown goes back to the queue at once), then close the connections.
 */
import { createLogger } from '../core/src/observability/logger.js';
import { loadConfig, type Config } from '../core/src/config.js';
import { createCoreRuntime, type CoreRuntime } from '../core/src/runtime.js';
import { startConsumers } from '../workers/src/consumers.js';
import { startMetricsServer } from '../core/src/observability/metrics-server.js';

export interface WorkerProcess {
  core: CoreRuntime;
  /** Port of the `/metrics` server, when `SLIDEWRIGHT_METRICS_PORT` is set. */
  metricsPort: number | undefined;
  close(): Promise<void>;
}

/**
 * Starts the job consumers.
 * @throws Error when NATS_URL, REDIS_URL or S3_ENDPOINT is missing, or a backend cannot
 *   be reached within 30 s
 */
export async function startWorker(config: Readonly<Config>): Promise<WorkerProcess> {
  const log = createLogger(config, { component: 'worker', pid: process.pid });
  const core = await createCoreRuntime(config, log, { role: 'worker' });
  const shutdown = new AbortController();
  startConsumers(core, { concurrency: config.jobConcurrency, maxDeliver: config.jobMaxDeliver, signal: shutdown.signal });
  const metrics = config.metricsPort === undefined ? undefined : await startMetricsServer(config.httpHost, config.metricsPort);
  return {
    core,
    metricsPort: metrics?.port,
    async close() {
      shutdown.abort();
      await metrics?.close();
      await core.close();
    },
  };
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
if (isMain) {
  const config = loadConfig();
  const worker = await startWorker(config).catch((err: Error) => {
    process.stderr.write(`slidewright worker: ${err.message}\n`);
    process.exit(1);
  });
  process.stdout.write(
    `Slidewright worker ${process.pid} consuming jobs (concurrency ${config.jobConcurrency} per kind)${worker.metricsPort !== undefined ? `; metrics on port ${worker.metricsPort}` : ''}\n`,
  );
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void worker.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
