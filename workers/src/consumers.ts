/**
 * The job runners: analysis and generation jobs taken from the queue and handed to the
 * domain services. The same wiring runs in embedded mode (in-process queue) and in a
 * worker process (JetStream).
 */
import type { CoreRuntime } from '../../core/src/runtime.js';

export interface WorkerOptions {
  /** Jobs of each kind run at once by this process. */
  concurrency: number;
  /** Deliveries before a job is failed for good. */
  maxDeliver: number;
  signal: AbortSignal;
}

export function startConsumers(core: CoreRuntime, opts: WorkerOptions): void {
  const { queue, log } = core.deps;
  queue.consume(
    'analysis',
    (job, ctx) => core.analyses.run(job, ctx),
    {
      concurrency: opts.concurrency,
      maxDeliver: opts.maxDeliver,
      signal: opts.signal,
      onDeadLetter: async (job, err) => {
        log.warn({ job_id: job.id, err: err.message }, 'analysis failed');
        await core.analyses.fail(job, err);
      },
    },
  );
  queue.consume(
    'generation',
    (job, ctx) => core.generations.run(job, ctx),
    {
      concurrency: opts.concurrency,
      maxDeliver: opts.maxDeliver,
      signal: opts.signal,
      onDeadLetter: async (job, err) => {
        log.warn({ job_id: job.id, err: err.message }, 'generation failed');
        await core.generations.fail(job, err);
      },
    },
  );
}
