import type { ConsumeOptions, Job, JobHandler, JobKind, JobQueue, StagedJob } from '../ports/job-queue.js';
import { PermanentJobError } from '../ports/job-queue.js';
import type { StateStore } from '../ports/state-store.js';

/** A queued job as kept in the state store. */
export interface QueueEntry {
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
 *
 * Fair across organizations: each free slot goes to the organization with the fewest jobs
 * of this kind running, taking turns (round-robin: the one served longest ago first) among
 * equals, and to that organization's oldest due job — so one organization's backlog never
 * starves another's. Within an organization jobs run in publication order.
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
    const staged = this.stage(job);
    await this.state.batch(staged.ops);
    staged.written();
  }

  /** The job's entry as one put into the state store this queue reads (see {@link JobQueue.stage}). */
  stage(job: Job): StagedJob {
    const entry: QueueEntry = { job, deliveries: 0, not_before: 0, seq: this.seq++ };
    return { ops: [{ type: 'put', key: this.key(job), value: entry }], written: () => this.consumers.get(job.kind)?.wake() };
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

/**
 * Picks up to `free` of the `due` entries (in publication order) fairly: each pick goes to
 * the organization with the fewest jobs running (`running`, counting the picks), then the
 * one served longest ago (`lastServed`: a turn number, absent = never), then the one whose
 * oldest due job is oldest; that organization's oldest due job is taken.
 * @param lastServed updated with the turns given
 * @param turn the last turn number given; @returns the picks and the new last turn number
 */
export function fairPick(
  due: readonly QueueEntry[],
  free: number,
  running: ReadonlyMap<string, number>,
  lastServed: Map<string, number>,
  turn: number,
): { picks: QueueEntry[]; turn: number } {
  const byOrg = new Map<string, QueueEntry[]>();
  for (const e of [...due].sort((a, b) => a.seq - b.seq)) {
    const list = byOrg.get(e.job.org);
    if (list) list.push(e);
    else byOrg.set(e.job.org, [e]);
  }
  const load = new Map(running);
  const picks: QueueEntry[] = [];
  while (picks.length < free && byOrg.size > 0) {
    let best: string | undefined;
    for (const [org, list] of byOrg) {
      if (best === undefined) {
        best = org;
        continue;
      }
      const d = (load.get(org) ?? 0) - (load.get(best) ?? 0) || (lastServed.get(org) ?? -1) - (lastServed.get(best) ?? -1) || list[0]!.seq - byOrg.get(best)![0]!.seq;
      if (d < 0) best = org;
    }
    const list = byOrg.get(best!)!;
    picks.push(list.shift()!);
    if (list.length === 0) byOrg.delete(best!);
    load.set(best!, (load.get(best!) ?? 0) + 1);
    lastServed.set(best!, ++turn);
  }
  return { picks, turn };
}

class Consumer {
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Organization → jobs of it running in this consumer. */
  private readonly running = new Map<string, number>();
  /** Organization → the turn it was last served (round-robin among equals). */
  private readonly lastServed = new Map<string, number>();
  private turn = 0;
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
        const fair = fairPick(
          entries.filter((e) => e.not_before <= now),
          free,
          this.running,
          this.lastServed,
          this.turn,
        );
        this.turn = fair.turn;
        for (const e of fair.picks) this.deliver(e);
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
    const org = entry.job.org;
    this.running.set(org, (this.running.get(org) ?? 0) + 1);
    void run
      .finally(() => {
        this.inFlight.delete(entry.job.id);
        const n = (this.running.get(org) ?? 1) - 1;
        if (n <= 0) this.running.delete(org);
        else this.running.set(org, n);
        this.wake();
      })
      // a failed ack or nak write leaves the job stored: it is delivered again (at least once)
      .catch(() => undefined);
  }
}
