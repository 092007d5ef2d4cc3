import type { StateOp } from './state-store.js';

/**
 * The job queue between the API and the workers, with JetStream's semantics: at-least-once
 * delivery, explicit ack, retry with backoff (nak) up to a bound, then permanent failure
 * (term). Embedded mode runs a durable in-process queue; distributed mode NATS JetStream.
 */
export type JobKind = 'analysis' | 'generation' | 'export';

export interface Job {
  /** Unique per job; a redelivered job carries the same id. */
  id: string;
  kind: JobKind;
  /** Organization that owns the work. */
  org: string;
  /** Record id the job works on (an `ana_` or `gen_` id; for an export, a `gen_` or `tpl_` id). */
  subject: string;
  /** The record the subject belongs to (for an analysis, its template id). */
  parent?: string;
  /** Request id of the call that submitted the job, for logs. */
  request_id?: string;
  /** What an `export` job writes: the subject's file as PDF. */
  export?: ExportSpec;
}

/** The file an `export` job renders (a generated deck or a template's file, as PDF). */
export interface ExportSpec {
  format: 'pdf';
  /** Declare PDF/A-2b conformance. */
  pdfa: boolean;
  /** SHA-256 (hex) of the file the download saw: the PDF is stored under it. */
  sha256: string;
}

export interface JobContext {
  /** 1 on first delivery. */
  attempt: number;
  /** Aborted when the job is cancelled or the process shuts down. */
  signal: AbortSignal;
}

/** Outcome hook: the queue gave up on a job (permanent error, or attempts exhausted). */
export type DeadLetterHandler = (job: Job, error: Error) => Promise<void>;

export type JobHandler = (job: Job, ctx: JobContext) => Promise<void>;

export interface ConsumeOptions {
  /** Jobs of this kind handled at once by this process. */
  concurrency: number;
  /** Deliveries before a job is given up (JetStream `max_deliver`). */
  maxDeliver: number;
  onDeadLetter: DeadLetterHandler;
  signal: AbortSignal;
}

/**
 * A job ready to be enqueued by the caller's own atomic state write ({@link JobQueue.stage}).
 */
export interface StagedJob {
  /** The state-store operations that enqueue the job, to apply with the caller's own. */
  ops: readonly StateOp[];
  /** Call once `ops` are written: the job may be delivered from then on. */
  written(): void;
}

export interface JobQueue {
  /** Durably enqueues a job; resolves once it will survive a restart. */
  publish(job: Job): Promise<void>;
  /**
   * For a queue kept in the state store the caller writes to (embedded mode): the job as
   * operations for the caller's atomic update, so the record that creates it and the job
   * are one write; the job is enqueued exactly when that write succeeds. Unset for a
   * queue of its own (JetStream): the caller writes, then {@link publish}es.
   */
  stage?(job: Job): StagedJob;
  /** Starts handing jobs of `kind` to `handler` until `opts.signal` aborts. */
  consume(kind: JobKind, handler: JobHandler, opts: ConsumeOptions): void;
  /** Jobs of `kind` waiting or in flight, when the queue can tell (for metrics). */
  depth?(kind: JobKind): Promise<number>;
  close(): Promise<void>;
}

/**
 * An error that retrying cannot fix (bad input, a template that cannot be read): the job
 * fails at once instead of being redelivered.
 */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
  /** Why, in the API's terms (e.g. a package error code such as `not_a_zip`); unset: the job's default. */
  readonly code: string | undefined;
  /**
   * @param message - what the job's record says
   * @param options - `code` as above; `cause` the underlying error or failure, for the logs
   */
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}
