/**
 * The job runners: analysis, generation and export (PDF) jobs taken from the queue and handed to the
 * domain services. The same wiring runs in embedded mode (in-process queue) and in a
 * worker process (JetStream). Every job is logged with its id and the request id of the
 * call that submitted it, and measured (duration and outcome by kind).
 */
import type { CoreRuntime } from '../../core/src/runtime.js';
import type { Job, JobContext, JobKind } from '../../core/src/ports/job-queue.js';
import { PermanentJobError } from '../../core/src/ports/job-queue.js';
import { jobDuration, jobsTotal, registerStateGauges } from '../../core/src/observability/metrics.js';

export interface WorkerOptions {
  /** Jobs of each kind run at once by this process. */
  concurrency: number;
  /** Deliveries before a job is failed for good. */
  maxDeliver: number;
  signal: AbortSignal;
}

export const JOB_KINDS: readonly JobKind[] = ['analysis', 'generation', 'export'];

export function startConsumers(core: CoreRuntime, opts: WorkerOptions): void {
  const { queue, state, log } = core.deps;
  registerStateGauges(queue, state, JOB_KINDS);
  const handlers: Record<JobKind, { run(job: Job, ctx: JobContext): Promise<void>; fail(job: Job, err: Error): Promise<void> }> = {
    analysis: core.analyses,
    generation: core.generations,
    // PDF downloads (issue 22): rendered here, not in the process serving the download
    export: core.pdfs,
  };
  for (const kind of JOB_KINDS) {
    const service = handlers[kind];
    queue.consume(
      kind,
      async (job, ctx) => {
        const jobLog = log.child({ job_id: job.id, kind, request_id: job.request_id, attempt: ctx.attempt });
        const end = jobDuration.startTimer({ kind });
        jobLog.info('job started');
        try {
          await service.run(job, ctx);
          end({ outcome: 'ok' });
          jobsTotal.inc({ kind, outcome: 'ok' });
          jobLog.info('job done');
        } catch (err) {
          const final = err instanceof PermanentJobError || ctx.attempt >= opts.maxDeliver;
          end({ outcome: final ? 'failed' : 'retry' });
          jobsTotal.inc({ kind, outcome: final ? 'failed' : 'retry' });
          jobLog.warn({ err: (err as Error).message }, final ? 'job failed' : 'job will be retried');
          throw err;
        }
      },
      {
        concurrency: opts.concurrency,
        maxDeliver: opts.maxDeliver,
        signal: opts.signal,
        onDeadLetter: (job, err) => service.fail(job, err),
      },
    );
  }
}
