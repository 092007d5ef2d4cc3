/**
 * Prometheus metrics (prom-client): request latency at the gateway and in core, job
 * durations and outcomes by kind, queue depth, pending generations per organization.
 * One registry per process; `/metrics` on the gateway serves it (in embedded mode it holds
 * every component's metrics).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { JobKind, JobQueue } from '../ports/job-queue.js';
import type { StateStore } from '../ports/state-store.js';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'slidewright_process_' });

/** Seconds from request to response at the REST gateway. */
export const httpDuration = new Histogram({
  name: 'slidewright_http_request_duration_seconds',
  help: 'REST request latency, seconds',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

/** Seconds an RPC takes in core. */
export const rpcDuration = new Histogram({
  name: 'slidewright_grpc_request_duration_seconds',
  help: 'gRPC request latency in core, seconds',
  labelNames: ['rpc', 'code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

/** Seconds a job handler runs, by kind and outcome (`ok`, `retry`, `failed`). */
export const jobDuration = new Histogram({
  name: 'slidewright_job_duration_seconds',
  help: 'Job handler run time, seconds',
  labelNames: ['kind', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers: [registry],
});

export const jobsTotal = new Counter({
  name: 'slidewright_jobs_total',
  help: 'Jobs handled, by kind and outcome (ok, retry, failed)',
  labelNames: ['kind', 'outcome'] as const,
  registers: [registry],
});

/**
 * Gauges read at scrape time: jobs waiting per kind (when the queue can tell) and pending
 * or processing generations per organization.
 */
export function registerStateGauges(queue: JobQueue, state: StateStore, kinds: readonly JobKind[]): void {
  for (const name of ['slidewright_queue_depth', 'slidewright_pending_generations']) registry.removeSingleMetric(name);
  new Gauge({
    name: 'slidewright_queue_depth',
    help: 'Jobs waiting or in flight, by kind',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      if (!queue.depth) return;
      for (const kind of kinds) this.set({ kind }, await queue.depth(kind));
    },
  });
  new Gauge({
    name: 'slidewright_pending_generations',
    help: 'Pending or processing generations, by organization',
    labelNames: ['org'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const [key, ids] of await state.scan<string[]>('pending:')) this.set({ org: key.slice('pending:'.length) }, ids.length);
    },
  });
}

/**
 * Metrics of the REST server's client connections, read at scrape time from `read`: open
 * now, refused at the cap (503), and closed having sent nothing (gateway/src/connections.ts).
 */
export function registerConnectionMetrics(read: () => { open: number; refused: number; closedSilent: number }): void {
  const names = ['slidewright_http_connections_open', 'slidewright_http_connections_refused_total', 'slidewright_http_connections_closed_silent_total'];
  for (const name of names) registry.removeSingleMetric(name);
  new Gauge({
    name: 'slidewright_http_connections_open',
    help: 'Client connections open at the REST server',
    registers: [registry],
    collect() {
      this.set(read().open);
    },
  });
  new Counter({
    name: 'slidewright_http_connections_refused_total',
    help: 'Client connections answered 503 because the REST server was at its connection cap',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read().refused);
    },
  });
  new Counter({
    name: 'slidewright_http_connections_closed_silent_total',
    help: 'Client connections closed having sent nothing (silent past the headers timeout, or closed to make room at the cap)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read().closedSilent);
    },
  });
}
