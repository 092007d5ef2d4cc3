/**
 * The job queue on NATS JetStream (distributed mode), with the same semantics as the
 * embedded {@link InProcessQueue} so the same handlers run unchanged:
 *
 * - one stream per job kind with work-queue retention (a message lives until a worker
 *   acks or terminates it), file storage, created or updated at start;
 * - publish waits for the stream's acknowledgement and uses the job id as the message id,
 *   so a retried publish within the duplicate window is stored once;
 * - fair across organizations: a job is published on its organization's subject
 *   (`<prefix>.jobs.<kind>.<org token>`), each organization has a durable pull consumer of
 *   its own (`<kind>-org-<org token>`, filtering that subject) shared by every worker
 *   process, and each free slot (`concurrency`) pulls one message from the organization
 *   that this process runs fewest jobs of, taking turns (round-robin) among equals — so
 *   one organization's backlog never starves another's. Pulls are `no_wait` (a message
 *   or nothing at once): a slot never holds work another worker could take, and an idle
 *   slot waits for the next publication (a plain subscription to the subjects) or a
 *   second. Jobs of a deployment from before (on the bare `<prefix>.jobs.<kind>` subject,
 *   consumer `<kind>-workers`) are served as one more organization. Explicit ack;
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

export const JOB_KINDS: readonly JobKind[] = ['analysis', 'generation', 'export'];

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

  /** Durable consumer name of the jobs of `kind` published before subjects per organization (and of the bare subject). */
  durableName(kind: JobKind): string {
    return `${kind}-workers`;
  }

  /** Subject the jobs of `kind` of organization `org` are published on. */
  orgSubject(kind: JobKind, org: string): string {
    return `${this.subject(kind)}.${orgToken(org)}`;
  }

  /** Durable consumer of an organization's subject token (`''` = the bare subject), shared by every worker. */
  consumerName(kind: JobKind, token: string): string {
    return token === '' ? this.durableName(kind) : `${kind}-org-${token}`;
  }

  /**
   * Stores the job in its stream; resolves once the server acknowledged it (persisted).
   * @throws Error at once when NATS is disconnected, or when the acknowledgement does not come
   */
  async publish(job: Job): Promise<void> {
    if (!this.connected || this.nc.isClosed()) throw new Error('NATS is not connected');
    try {
      await this.js.publish(this.orgSubject(job.kind, job.org), new TextEncoder().encode(JSON.stringify(job)), { msgID: job.id });
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
      subjects: [this.subject(kind), `${this.subject(kind)}.>`],
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

  /**
   * Creates or updates the durable consumer of one organization's subject (`token`; `''` =
   * the bare subject of earlier deployments).
   */
  private async ensureConsumer(kind: JobKind, token: string, maxDeliver: number): Promise<void> {
    const stream = this.streamName(kind);
    const durable = this.consumerName(kind, token);
    const config: Partial<ConsumerConfig> = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(this.ackWaitMs),
      max_deliver: maxDeliver + SPARE_DELIVERIES,
      max_ack_pending: 10_000,
      filter_subject: token === '' ? this.subject(kind) : `${this.subject(kind)}.${token}`,
      description: token === '' ? `Slidewright ${kind} workers` : `Slidewright ${kind} workers, one organization`,
    };
    try {
      await this.jsm.consumers.info(stream, durable);
      await this.jsm.consumers.update(stream, durable, config);
    } catch (err) {
      if (!/not found/i.test((err as Error).message)) throw err;
      try {
        await this.jsm.consumers.add(stream, config);
      } catch (addErr) {
        // another process created it between our look and our add
        try {
          await this.jsm.consumers.info(stream, durable);
        } catch {
          throw addErr;
        }
      }
    }
  }

  private async runConsumer(kind: JobKind, handler: JobHandler, opts: ConsumeOptions): Promise<void> {
    const stopped = (): boolean => opts.signal.aborted || this.stop.signal.aborted;
    const puller = new FairPuller(this, kind, opts.maxDeliver, stopped);
    for (;;) {
      try {
        await puller.setUp();
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
        let next: { m: JsMsg; token: string } | undefined;
        try {
          next = await puller.next();
        } catch (err) {
          if (stopped()) return;
          this.log?.debug({ err: (err as Error).message, kind }, 'pull failed; retrying');
          await sleep(500);
          continue;
        }
        if (!next) continue;
        const { m, token } = next;
        if (stopped()) {
          settle(() => m.nak()); // pulled while stopping: hand it straight to another worker
          return;
        }
        puller.started(token);
        try {
          await this.process(kind, m, handler, opts);
        } finally {
          puller.ended(token);
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, slot));
    } finally {
      puller.close();
    }
  }

  /** @internal for {@link FairPuller}: the JetStream handles. */
  get handles(): { nc: NatsConnection; js: JetStreamClient; jsm: JetStreamManager; log: Logger | undefined } {
    return { nc: this.nc, js: this.js, jsm: this.jsm, log: this.log };
  }

  /** @internal for {@link FairPuller}. */
  ensureOrgConsumer(kind: JobKind, token: string, maxDeliver: number): Promise<void> {
    return this.ensureConsumer(kind, token, maxDeliver);
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
    // every consumer of the stream: one per organization
    const sub = this.nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.*`, { queue: `${this.prefix}-dlq-${kind}` });
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
 * The subject token (and consumer name part) of an organization: the name itself when it
 * has only letters, digits, `_` and `-` (and does not start with `x_`), else `x_` and the
 * name's UTF-8 bytes in hex — subject tokens and consumer names cannot hold `.`. One
 * organization, one token; two organizations never share one.
 */
export function orgToken(org: string): string {
  return /^[A-Za-z0-9_-]+$/.test(org) && !org.startsWith('x_') ? org : `x_${Buffer.from(org, 'utf8').toString('hex')}`;
}

/**
 * Takes jobs of one kind for the slots of one process, fairly across organizations: it
 * lists the organizations whose subject holds messages (stream info with per-subject
 * counts, cached for a moment), orders them by how many of their jobs this process runs
 * (fewest first) and then by turn (the one served longest ago first), and pulls one
 * message with `no_wait` from each in that order until one answers. When none does (all
 * their messages are running or waiting out a backoff), it waits for the next publication
 * or a second.
 */
class FairPuller {
  private readonly stream: string;
  private readonly subject: string;
  private readonly consumers = new Map<string, Promise<void>>();
  private readonly running = new Map<string, number>();
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  private listing: { at: number; tokens: Promise<string[]> } | undefined;
  private wake: Subscription | undefined;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly queue: JetStreamQueue,
    private readonly kind: JobKind,
    private readonly maxDeliver: number,
    private readonly stopped: () => boolean,
  ) {
    this.stream = queue.streamName(kind);
    this.subject = queue.subject(kind);
  }

  /** Subscribes to publications (wake-ups) and sets up the consumer of the bare subject. */
  async setUp(): Promise<void> {
    await this.consumerOf('');
    if (!this.wake) {
      const { nc } = this.queue.handles;
      const wake = nc.subscribe(`${this.subject}.>`);
      this.wake = wake;
      void (async () => {
        for await (const _ of wake) this.notify();
      })();
    }
  }

  close(): void {
    this.wake?.unsubscribe();
    this.notify();
  }

  started(token: string): void {
    this.running.set(token, (this.running.get(token) ?? 0) + 1);
  }

  ended(token: string): void {
    const n = (this.running.get(token) ?? 1) - 1;
    if (n <= 0) this.running.delete(token);
    else this.running.set(token, n);
    this.notify(); // a slot is free; so may be a message another slot skipped
  }

  /** The next message and its organization token, or undefined after waiting for work. */
  async next(): Promise<{ m: JsMsg; token: string } | undefined> {
    const tokens = await this.organizationsWithMessages();
    const order = [...tokens].sort((a, b) => (this.running.get(a) ?? 0) - (this.running.get(b) ?? 0) || (this.lastServed.get(a) ?? -1) - (this.lastServed.get(b) ?? -1) || (a < b ? -1 : 1));
    for (const token of order) {
      if (this.stopped()) return undefined;
      const m = await this.pull(token);
      if (m) {
        this.lastServed.set(token, ++this.served);
        return { m, token };
      }
    }
    this.listing = undefined; // look afresh next time
    await this.waitForWork(1_000);
    return undefined;
  }

  /** Tokens of the organizations whose subject holds messages (running, waiting or backing off). */
  private organizationsWithMessages(): Promise<string[]> {
    const now = Date.now();
    if (this.listing && now - this.listing.at < 250) return this.listing.tokens;
    const tokens = (async () => {
      const info = await this.queue.handles.jsm.streams.info(this.stream, { subjects_filter: '>' });
      const out: string[] = [];
      for (const [subject, count] of Object.entries(info.state.subjects ?? {})) {
        if (count <= 0) continue;
        if (subject === this.subject) out.push('');
        else if (subject.startsWith(`${this.subject}.`)) out.push(subject.slice(this.subject.length + 1));
      }
      return out;
    })();
    this.listing = { at: now, tokens };
    tokens.catch(() => {
      if (this.listing?.tokens === tokens) this.listing = undefined;
    });
    return tokens;
  }

  private consumerOf(token: string): Promise<void> {
    let ready = this.consumers.get(token);
    if (!ready) {
      ready = this.queue.ensureOrgConsumer(this.kind, token, this.maxDeliver);
      this.consumers.set(token, ready);
      ready.catch(() => this.consumers.delete(token));
    }
    return ready;
  }

  /** One message of the organization's consumer, or undefined when it has none to give now. */
  private async pull(token: string): Promise<JsMsg | undefined> {
    await this.consumerOf(token);
    try {
      return await this.queue.handles.js.pull(this.stream, this.queue.consumerName(this.kind, token));
    } catch (err) {
      const message = (err as Error).message;
      if (/consumer not found|consumer does not exist/i.test(message)) this.consumers.delete(token); // removed meanwhile: set it up again
      else if (!/no messages|request timeout|timeout|408|404/i.test(message)) throw err;
      return undefined;
    }
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private waitForWork(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.push(done);
    });
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
