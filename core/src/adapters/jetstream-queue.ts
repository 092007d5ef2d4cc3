/**
 * The job queue on NATS JetStream (distributed mode), with the same semantics as the
 * embedded {@link InProcessQueue} so the same handlers run unchanged:
 *
 * - one stream per job kind with work-queue retention (a message lives until a worker
 *   acks or terminates it), file storage, created or updated at start;
 * - publish waits for the stream's acknowledgement and uses the job id as the message id,
 *   so a retried publish within the duplicate window is stored once;
 * - one durable pull consumer per kind shared by every worker process; each process pulls
 *   one message per free slot (`concurrency`), never prefetching work another worker
 *   could take; explicit ack;
 * - `working()` heartbeats every third of the ack wait while a handler runs, so long jobs
 *   are not redelivered while a live worker holds them, and a killed worker's job is
 *   redelivered to another one after the ack wait;
 * - a failure naks with backoff until `maxDeliver` deliveries, then — or at once for a
 *   {@link PermanentJobError} — `onDeadLetter` marks the job failed and the message is
 *   terminated (and removed from the stream). The server's `max_deliver` leaves a few spare deliveries past
 *   `maxDeliver` so that a job whose last attempt died with its worker still gets its
 *   dead-letter step; should even those run out, the server's MAX_DELIVERIES advisory
 *   triggers it.
 */
import {
  AckPolicy,
  connect,
  DeliverPolicy,
  DiscardPolicy,
  Events,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
  type StreamConfig,
  type Subscription,
} from 'nats';
import type { Logger } from 'pino';
import { PermanentJobError, type ConsumeOptions, type Job, type JobHandler, type JobKind, type JobQueue } from '../ports/job-queue.js';

export const JOB_KINDS: readonly JobKind[] = ['analysis', 'generation'];

/** Deliveries the server allows past `maxDeliver`, for the dead-letter step. */
const SPARE_DELIVERIES = 3;

export interface JetStreamQueueOptions {
  /** NATS server URL(s), comma-separated. */
  servers: string;
  /** Stream name prefix (`<PREFIX>_GENERATION`) and subject prefix (`<prefix>.jobs.generation`). Default `SLIDEWRIGHT`. */
  prefix?: string;
  /** Milliseconds without an ack or heartbeat before a job is redelivered. Default 30 000. */
  ackWaitMs?: number;
  /** Delay before redelivery number `attempt + 1` after failed attempt `attempt` (1-based), ms. */
  backoffMs?: (attempt: number) => number;
  /** How long to keep trying to reach NATS at start, ms. Default 30 000. */
  connectTimeoutMs?: number;
  /** Publish acknowledgement timeout, ms. Default 5 000. */
  publishTimeoutMs?: number;
  /** Client name shown by the server. */
  name?: string;
  log?: Logger;
}

/** Default retry delays: 1 s, 4 s, 16 s, then 60 s. */
export function defaultBackoffMs(attempt: number): number {
  return Math.min(60_000, 1_000 * 4 ** (attempt - 1));
}

export class JetStreamQueue implements JobQueue {
  private connected = true;
  private readonly workers = new Set<Promise<void>>();
  private readonly subs: Subscription[] = [];
  private readonly stop = new AbortController();
  private readonly ackWaitMs: number;
  private readonly backoffMs: (attempt: number) => number;
  private readonly prefix: string;
  private readonly log: Logger | undefined;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly opts: JetStreamQueueOptions,
  ) {
    this.ackWaitMs = opts.ackWaitMs ?? 30_000;
    this.backoffMs = opts.backoffMs ?? defaultBackoffMs;
    this.prefix = opts.prefix ?? 'SLIDEWRIGHT';
    this.log = opts.log;
    void this.watchStatus();
  }

  /**
   * Connects (retrying until `connectTimeoutMs`) and creates or updates one work-queue
   * stream per job kind.
   * @throws Error when NATS cannot be reached in time or JetStream is not enabled on it
   */
  static async connect(opts: JetStreamQueueOptions): Promise<JetStreamQueue> {
    const deadline = Date.now() + (opts.connectTimeoutMs ?? 30_000);
    let nc: NatsConnection | undefined;
    for (;;) {
      try {
        nc = await connect({
          servers: opts.servers.split(',').map((s) => s.trim()).filter(Boolean),
          name: opts.name ?? 'slidewright',
          maxReconnectAttempts: -1,
          reconnectTimeWait: 500,
          timeout: 5_000,
        });
        break;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`cannot connect to NATS at ${opts.servers}: ${(err as Error).message}`);
        opts.log?.warn({ err: (err as Error).message }, 'NATS not reachable yet; retrying');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    try {
      const jsm = await nc.jetstreamManager({ timeout: 5_000 });
      const queue = new JetStreamQueue(nc, nc.jetstream({ timeout: opts.publishTimeoutMs ?? 5_000 }), jsm, opts);
      for (const kind of JOB_KINDS) await queue.ensureStream(kind);
      return queue;
    } catch (err) {
      await nc.close();
      throw new Error(`NATS at ${opts.servers} has no usable JetStream: ${(err as Error).message}`);
    }
  }

  /** Stream holding jobs of `kind`. */
  streamName(kind: JobKind): string {
    return `${this.prefix}_${kind.toUpperCase()}`;
  }

  /** Subject jobs of `kind` are published on. */
  subject(kind: JobKind): string {
    return `${this.prefix.toLowerCase()}.jobs.${kind}`;
  }

  /** Durable consumer name shared by every worker for `kind`. */
  durableName(kind: JobKind): string {
    return `${kind}-workers`;
  }

  /**
   * Stores the job in its stream; resolves once the server acknowledged it (persisted).
   * @throws Error at once when NATS is disconnected, or when the acknowledgement does not come
   */
  async publish(job: Job): Promise<void> {
    if (!this.connected || this.nc.isClosed()) throw new Error('NATS is not connected');
    try {
      await this.js.publish(this.subject(job.kind), new TextEncoder().encode(JSON.stringify(job)), { msgID: job.id });
    } catch (err) {
      throw new Error(`NATS did not store the job: ${(err as Error).message}`);
    }
  }

  consume(kind: JobKind, handler: JobHandler, opts: ConsumeOptions): void {
    const run = this.runConsumer(kind, handler, opts).catch((err: unknown) => this.log?.error({ err, kind }, 'job consumer stopped'));
    this.workers.add(run);
    void run.finally(() => this.workers.delete(run));
  }

  /**
   * Jobs of `kind` waiting or in flight: the messages in its work-queue stream (a message
   * stays there until it is acked or terminated).
   * @throws Error when NATS does not answer
   */
  async depth(kind: JobKind): Promise<number> {
    const info = await this.jsm.streams.info(this.streamName(kind));
    return info.state.messages;
  }

  /** Stops pulling, lets running jobs finish (or nak on abort), then closes the connection. */
  async close(): Promise<void> {
    this.stop.abort();
    await Promise.allSettled([...this.workers]);
    for (const s of this.subs) s.unsubscribe();
    if (!this.nc.isClosed()) await this.nc.close();
  }

  private async ensureStream(kind: JobKind): Promise<void> {
    const config: Partial<StreamConfig> & { name: string } = {
      name: this.streamName(kind),
      subjects: [this.subject(kind)],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      duplicate_window: nanos(120_000),
      num_replicas: 1,
    };
    try {
      await this.jsm.streams.info(config.name);
      await this.jsm.streams.update(config.name, config);
    } catch (err) {
      if (!/not found/i.test((err as Error).message)) throw err;
      try {
        await this.jsm.streams.add(config);
      } catch (addErr) {
        // another process (a second core starting at the same moment) created it between
        // our look and our add: NATS then refuses the add ("subjects overlap" / "name
        // already in use"); the stream exists, so bring it to our configuration instead
        try {
          await this.jsm.streams.info(config.name);
        } catch {
          throw addErr;
        }
        await this.jsm.streams.update(config.name, config);
      }
    }
  }

  private async ensureConsumer(kind: JobKind, maxDeliver: number): Promise<void> {
    const stream = this.streamName(kind);
    const durable = this.durableName(kind);
    const config: Partial<ConsumerConfig> = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(this.ackWaitMs),
      max_deliver: maxDeliver + SPARE_DELIVERIES,
      max_ack_pending: 10_000,
      filter_subject: this.subject(kind),
      description: `Slidewright ${kind} workers`,
    };
    try {
      await this.jsm.consumers.info(stream, durable);
      await this.jsm.consumers.update(stream, durable, config);
    } catch (err) {
      if (!/not found/i.test((err as Error).message)) throw err;
      await this.jsm.consumers.add(stream, config);
    }
  }

  private async runConsumer(kind: JobKind, handler: JobHandler, opts: ConsumeOptions): Promise<void> {
    const stopped = (): boolean => opts.signal.aborted || this.stop.signal.aborted;
    let consumer: Awaited<ReturnType<JetStreamClient['consumers']['get']>>;
    for (;;) {
      try {
        await this.ensureConsumer(kind, opts.maxDeliver);
        consumer = await this.js.consumers.get(this.streamName(kind), this.durableName(kind));
        break;
      } catch (err) {
        if (stopped()) return;
        this.log?.warn({ err: (err as Error).message, kind }, 'cannot set up the job consumer yet; retrying');
        await sleep(1_000);
      }
    }
    this.watchMaxDeliveries(kind, opts);
    const slot = async (): Promise<void> => {
      while (!stopped()) {
        let m: JsMsg | null;
        try {
          m = await consumer.next({ expires: 2_000 });
        } catch (err) {
          if (stopped()) return;
          this.log?.debug({ err: (err as Error).message, kind }, 'pull failed; retrying');
          await sleep(500);
          continue;
        }
        if (!m) continue;
        if (stopped()) {
          settle(() => m.nak()); // pulled while stopping: hand it straight to another worker
          return;
        }
        await this.process(kind, m, handler, opts);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, slot));
  }

  private async process(kind: JobKind, m: JsMsg, handler: JobHandler, opts: ConsumeOptions): Promise<void> {
    let job: Job;
    try {
      job = JSON.parse(new TextDecoder().decode(m.data)) as Job;
      if (typeof job.id !== 'string' || job.kind !== kind) throw new Error('not a job of this kind');
    } catch (err) {
      this.log?.error({ err: (err as Error).message, kind, seq: m.seq }, 'unreadable job message; terminated');
      settle(() => m.term('unreadable job'));
      await this.discard(kind, m);
      return;
    }
    const attempt = m.info.deliveryCount;
    if (attempt > opts.maxDeliver) {
      // The last allowed attempt never reported back (its worker died): give up now.
      await this.deadLetter(m, job, new Error(`gave up after ${opts.maxDeliver} deliveries without a result (the worker stopped)`), opts, attempt);
      return;
    }
    this.log?.info({ job_id: job.id, kind, attempt }, 'job started');
    const beat = setInterval(() => settle(() => m.working()), Math.max(200, Math.floor(this.ackWaitMs / 3)));
    try {
      await handler(job, { attempt, signal: opts.signal });
      settle(() => m.ack());
      this.log?.debug({ job_id: job.id, kind, attempt }, 'job acked');
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      if (opts.signal.aborted || this.stop.signal.aborted) {
        settle(() => m.nak()); // shutting down: another worker takes it at once
      } else if (error instanceof PermanentJobError || attempt >= opts.maxDeliver) {
        await this.deadLetter(m, job, error, opts, attempt);
      } else {
        const delay = this.backoffMs(attempt);
        this.log?.warn({ job_id: job.id, kind, attempt, err: error.message, retry_in_ms: delay }, 'job failed; will retry');
        settle(() => m.nak(delay));
      }
    } finally {
      clearInterval(beat);
    }
  }

  /** Marks the job failed, then terminates the message; if marking fails, retries later. */
  private async deadLetter(m: JsMsg, job: Job, error: Error, opts: ConsumeOptions, attempt: number): Promise<void> {
    try {
      await opts.onDeadLetter(job, error);
      settle(() => m.term(error.message.slice(0, 200)));
      await this.discard(job.kind, m);
      this.log?.warn({ job_id: job.id, kind: job.kind, attempt, err: error.message }, 'job given up');
    } catch (err) {
      this.log?.error({ job_id: job.id, err: (err as Error).message }, 'could not record the failed job; will retry');
      settle(() => m.nak(this.backoffMs(attempt)));
    }
  }

  /**
   * Removes a terminated message from its stream. A work-queue stream drops a message when
   * it is acked, but (on NATS 2.9) keeps a terminated one stored, never to be delivered
   * again; removing it keeps the stream's size equal to the jobs still waiting.
   */
  private async discard(kind: JobKind, m: JsMsg): Promise<void> {
    try {
      await this.jsm.streams.deleteMessage(this.streamName(kind), m.seq, false);
    } catch {
      /* already gone */
    }
  }

  /**
   * The server gave up on a message (its `max_deliver` reached without an ack or term):
   * run the dead-letter step for it and remove it. One worker of the queue group handles
   * each advisory.
   */
  private watchMaxDeliveries(kind: JobKind, opts: ConsumeOptions): void {
    const stream = this.streamName(kind);
    const sub = this.nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.${this.durableName(kind)}`, { queue: `${this.prefix}-dlq-${kind}` });
    this.subs.push(sub);
    void (async () => {
      for await (const msg of sub) {
        try {
          const advisory = JSON.parse(new TextDecoder().decode(msg.data)) as { stream_seq: number };
          const stored = await this.jsm.streams.getMessage(stream, { seq: advisory.stream_seq });
          const job = JSON.parse(new TextDecoder().decode(stored.data)) as Job;
          await opts.onDeadLetter(job, new Error('gave up: the job was delivered too often without a result'));
          await this.jsm.streams.deleteMessage(stream, advisory.stream_seq, false);
          this.log?.warn({ job_id: job.id, kind }, 'job given up after the last delivery');
        } catch (err) {
          this.log?.error({ err: (err as Error).message, kind }, 'max-deliveries advisory not handled');
        }
      }
    })();
  }

  private async watchStatus(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === Events.Disconnect) {
        if (this.connected) this.log?.warn('NATS disconnected');
        this.connected = false;
      } else if (s.type === Events.Reconnect) {
        this.connected = true;
        this.log?.info('NATS reconnected');
      }
    }
  }
}

/**
 * Sends an ack, nak, term or heartbeat. These throw when the connection is closed; the
 * server then redelivers after the ack wait anyway, which is the outcome we want.
 */
function settle(fn: () => void): void {
  try {
    fn();
  } catch {
    /* connection gone: JetStream redelivers */
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
