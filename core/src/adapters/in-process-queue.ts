import type { ConsumeOptions, Job, JobHandler, JobKind, JobQueue } from '../ports/job-queue.js';
import { PermanentJobError } from '../ports/job-queue.js';
import type { StateStore } from '../ports/state-store.js';

/** A queued job as kept in the state store. */
interface QueueEntry {
  job: Job;
  /** Deliveries so far. */
  deliveries: number;
  /** Epoch ms before which the job is not delivered (nak backoff). */
  not_before: number;
  /** Publication order, for FIFO delivery. */
  seq: number;
}

const KEY_PREFIX = 'queue:';

/**
 * The embedded job queue. It keeps JetStream's work-queue semantics so the same handlers
 * run unchanged in distributed mode: a job is stored durably before `publish` resolves;
 * it is delivered asynchronously (never inline in the publisher's call); success acks
 * (removes) it; a failure naks it with exponential backoff until `maxDeliver`, after which
 * — or at once for a {@link PermanentJobError} — it is terminated and `onDeadLetter` runs.
 * Jobs that were queued or in flight when the process stopped are delivered again after a
 * restart (at-least-once), so handlers must be idempotent.
 */
export class InProcessQueue implements JobQueue {
  private readonly consumers = new Map<JobKind, Consumer>();
  private seq = Date.now() * 1000;

  /**
   * @param state - where queued jobs are kept
   * @param backoffMs - delay before redelivery number `attempt` (1-based)
   */
  constructor(
    private readonly state: StateStore,
    private readonly backoffMs: (attempt: number) => number = (attempt) => Math.min(30_000, 500 * 2 ** (attempt - 1)),
  ) {}

  async publish(job: Job): Promise<void> {
    const entry: QueueEntry = { job, deliveries: 0, not_before: 0, seq: this.seq++ };
    await this.state.put(this.key(job), entry);
    this.consumers.get(job.kind)?.wake();
  }

  consume(kind: JobKind, handler: JobHandler, opts: ConsumeOptions): void {
    if (this.consumers.has(kind)) throw new Error(`a consumer for ${kind} jobs is already running`);
    const consumer = new Consumer(kind, handler, opts, this.state, this.backoffMs);
    this.consumers.set(kind, consumer);
    opts.signal.addEventListener(
      'abort',
      () => {
        // a stopped consumer's jobs still finish (their ack or nak is a write): close() waits for them
        this.consumers.delete(kind);
        this.stopping.add(consumer);
        void consumer.drain().finally(() => this.stopping.delete(consumer));
      },
      { once: true },
    );
    consumer.wake();
  }

  /** Consumers whose signal was aborted and whose jobs in flight have not settled yet. */
  private readonly stopping = new Set<Consumer>();

  async depth(kind: JobKind): Promise<number> {
    return (await this.state.scan(`${KEY_PREFIX}${kind}:`)).length;
  }

  /** Waits for every job in flight (of running and of stopped consumers) to settle. */
  async close(): Promise<void> {
    await Promise.all([...this.consumers.values(), ...this.stopping].map((c) => c.drain()));
    this.consumers.clear();
  }

  private key(job: Job): string {
    return `${KEY_PREFIX}${job.kind}:${job.id}`;
  }
}

class Consumer {
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private pumping = false;
  private again = false;

  constructor(
    private readonly kind: JobKind,
    private readonly handler: JobHandler,
    private readonly opts: ConsumeOptions,
    private readonly state: StateStore,
    private readonly backoffMs: (attempt: number) => number,
  ) {
    opts.signal.addEventListener('abort', () => clearTimeout(this.timer), { once: true });
  }

  /** Looks for deliverable jobs soon (coalesces bursts of wake-ups). */
  wake(): void {
    if (this.opts.signal.aborted) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    setImmediate(() => {
      this.pumpRun = this.pump().catch(() => {
        // the store failed or closed under a stopping consumer: jobs stay queued for the next look
      });
    });
  }

  async drain(): Promise<void> {
    clearTimeout(this.timer);
    // a look for due jobs under way may still start deliveries: wait for it first
    if (this.pumpRun) await this.pumpRun;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** The look for due jobs under way, if any. */
  private pumpRun: Promise<void> | undefined;

  private async pump(): Promise<void> {
    try {
      do {
        this.again = false;
        const free = this.opts.concurrency - this.inFlight.size;
        if (free <= 0 || this.opts.signal.aborted) break;
        const entries = (await this.state.scan<QueueEntry>(`${KEY_PREFIX}${this.kind}:`))
          .map(([, e]) => e)
          .filter((e) => !this.inFlight.has(e.job.id))
          .sort((a, b) => a.seq - b.seq);
        const now = Date.now();
        const due = entries.filter((e) => e.not_before <= now).slice(0, free);
        for (const e of due) this.deliver(e);
        const next = entries.filter((e) => e.not_before > now).reduce((m, e) => Math.min(m, e.not_before), Infinity);
        clearTimeout(this.timer);
        if (Number.isFinite(next)) this.timer = setTimeout(() => this.wake(), Math.max(10, next - now));
      } while (this.again);
    } finally {
      this.pumping = false;
    }
  }

  private deliver(entry: QueueEntry): void {
    const key = `${KEY_PREFIX}${this.kind}:${entry.job.id}`;
    const attempt = entry.deliveries + 1;
    const run = (async () => {
      await this.state.put(key, { ...entry, deliveries: attempt });
      try {
        await this.handler(entry.job, { attempt, signal: this.opts.signal });
        await this.state.del(key); // ack
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        if (this.opts.signal.aborted) return; // shutting down: leave it queued for the next start
        if (error instanceof PermanentJobError || attempt >= this.opts.maxDeliver) {
          await this.opts.onDeadLetter(entry.job, error).catch(() => undefined);
          await this.state.del(key); // term
        } else {
          await this.state.put(key, { ...entry, deliveries: attempt, not_before: Date.now() + this.backoffMs(attempt) }); // nak
        }
      }
    })();
    this.inFlight.set(entry.job.id, run);
    void run
      .finally(() => {
        this.inFlight.delete(entry.job.id);
        this.wake();
      })
      // a failed ack or nak write leaves the job stored: it is delivered again (at least once)
      .catch(() => undefined);
  }
}
