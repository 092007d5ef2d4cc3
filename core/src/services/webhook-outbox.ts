/**
 * The webhook outbox: deliveries waiting to be made, kept in the state store so that none
 * is lost when a process stops or is killed.
 *
 * A delivery is written in the same atomic step as the final state of the job it reports
 * (see {@link WebhookNotifier.deliveryOps}), so a job never ends without its delivery
 * being stored. A delivery loop runs in every process that has core's runtime (the
 * embedded process; core and worker processes of a distributed deployment). It looks for
 * due deliveries, claims each one with a lease (an atomic read-modify-write of its record:
 * owner and expiry), attempts it, and then deletes it (delivered, or refused for good) or
 * schedules the next attempt with exponential backoff, capped, until the delivery is older
 * than the maximum age. A lease keeps other processes off a delivery while one attempts it;
 * a process killed mid-attempt leaves a lease that expires, after which another process (or
 * the same one restarted) takes the delivery over. In embedded mode the store belongs to
 * one process, so leases left by an earlier run are void at once.
 *
 * Delivery is at least once: a process killed after the receiver answered but before the
 * record was deleted sends it again. Every attempt of a delivery carries the same delivery
 * id (`X-Slidewright-Delivery`) and the same body, so receivers drop duplicates by id.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { StateStore } from '../ports/state-store.js';

/** State-store key prefix of outbox entries. */
export const OUTBOX_PREFIX = 'whk:';

/** One pending webhook delivery, as kept in the state store. */
export interface OutboxEntry {
  /** `dlv_…`; the same on every attempt. */
  delivery_id: string;
  /** Organization whose job it reports. */
  org: string;
  url: string;
  event: string;
  /** The JSON body, fixed when the delivery was created: every attempt sends these bytes. */
  body: string;
  /** When the delivery was created, epoch ms. */
  created_at: number;
  /** Attempts started so far (an attempt counts when it is claimed). */
  attempts: number;
  /** No attempt before this time, epoch ms. */
  next_at: number;
  /** The process attempting it now. */
  lease_owner?: string;
  /** Until when that process holds it, epoch ms. */
  lease_until?: number;
  /** Why the last attempt failed. */
  last_error?: string;
}

/** What an attempt came to. */
export type SendOutcome =
  | { kind: 'delivered'; status: number }
  /** Worth trying again later (network error, timeout, 408, 429, 5xx). */
  | { kind: 'retry'; reason: string }
  /** Trying again will not help (refused address, redirect, other 4xx): the delivery is dropped. */
  | { kind: 'drop'; reason: string };

export interface OutboxOptions {
  state: StateStore;
  /** Makes one attempt; rejects only when `signal` aborted it (shutdown). */
  send: (entry: OutboxEntry, signal: AbortSignal) => Promise<SendOutcome>;
  log: Logger;
  /** Delay before the first retry, ms; doubles after each failed attempt. Default 1 000. */
  minDelayMs?: number;
  /** Longest delay between attempts, ms. Default 600 000 (10 min). */
  maxDelayMs?: number;
  /** A delivery still failing this long after it was created is given up, ms. Default 86 400 000 (24 h). */
  maxAgeMs?: number;
  /** How long a claim keeps other processes off a delivery, ms; must exceed an attempt's timeout. Default 30 000. */
  leaseMs?: number;
  /** How often the loop looks for due deliveries besides being woken, ms. Default 1 000. */
  pollMs?: number;
  /** Attempts under way at once in this process. Default 8. */
  concurrency?: number;
  /** The store belongs to this process alone (embedded): leases of earlier runs are void. */
  exclusive?: boolean;
}

/** Key of a delivery's record. */
export function outboxKey(deliveryId: string): string {
  return `${OUTBOX_PREFIX}${deliveryId}`;
}

export class WebhookOutbox {
  /** This process's lease owner name. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly stop = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private ticking: Promise<void> | undefined;
  private again = false;
  private readonly minDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxAgeMs: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly concurrency: number;

  constructor(private readonly opts: OutboxOptions) {
    this.minDelayMs = opts.minDelayMs ?? 1_000;
    this.maxDelayMs = opts.maxDelayMs ?? 600_000;
    this.maxAgeMs = opts.maxAgeMs ?? 86_400_000;
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.pollMs = opts.pollMs ?? 1_000;
    this.concurrency = opts.concurrency ?? 8;
  }

  /** Starts the delivery loop (idempotent). */
  start(): void {
    if (this.started || this.stop.signal.aborted) return;
    this.started = true;
    this.kick();
  }

  /** Looks for due deliveries soon (after a delivery was stored by this process). */
  kick(): void {
    if (!this.started || this.stop.signal.aborted) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.tick())
      .catch((err: unknown) => this.opts.log.warn({ err: (err as Error).message }, 'webhook outbox: could not read pending deliveries; will look again'))
      .finally(() => {
        this.ticking = undefined;
        if (this.stop.signal.aborted) return;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Delay before attempt `attempts + 1` after `attempts` failed ones, ms (doubling, capped, up to 20 % later at random). */
  backoffMs(attempts: number): number {
    const base = Math.min(this.maxDelayMs, this.minDelayMs * 2 ** Math.max(0, attempts - 1));
    return Math.min(this.maxDelayMs, Math.round(base * (1 + Math.random() * 0.2)));
  }

  /** Deliveries stored and not yet made or given up (all processes). */
  async pending(): Promise<OutboxEntry[]> {
    return (await this.opts.state.scan<OutboxEntry>(OUTBOX_PREFIX)).map(([, e]) => e);
  }

  /**
   * Stops the loop; attempts under way are aborted and their deliveries released for the
   * next look (here after a restart, or by another process at once).
   */
  async close(): Promise<void> {
    this.stop.abort();
    clearTimeout(this.timer);
    await this.ticking;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Waits for the attempts under way (tests). */
  async drain(): Promise<void> {
    await this.ticking;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  private async tick(): Promise<void> {
    clearTimeout(this.timer);
    let wait = this.pollMs;
    try {
      const free = this.concurrency - this.inFlight.size;
      if (free <= 0) return;
      const now = Date.now();
      const waiting = (await this.pending()).filter((e) => !this.inFlight.has(e.delivery_id));
      const due = waiting
        .filter((e) => e.next_at <= now && this.claimable(e, now))
        .sort((a, b) => a.next_at - b.next_at)
        .slice(0, free);
      // look again when the next retry is due, if that comes before the next poll
      const next = waiting.reduce((m, e) => (e.next_at > now ? Math.min(m, e.next_at) : m), Infinity);
      if (Number.isFinite(next)) wait = Math.max(10, Math.min(wait, next - now));
      for (const e of due) {
        const claimed = await this.claim(e.delivery_id);
        if (claimed) this.attempt(claimed);
      }
    } finally {
      if (!this.stop.signal.aborted) this.timer = setTimeout(() => this.kick(), wait);
    }
  }

  private claimable(e: OutboxEntry, now: number): boolean {
    if (!e.lease_owner || e.lease_until === undefined) return true;
    if (this.opts.exclusive && e.lease_owner !== this.owner) return true; // left by an earlier run
    return e.lease_until < now;
  }

  /** Takes the lease of a delivery; undefined when another process has it or it is gone. */
  private async claim(id: string): Promise<OutboxEntry | undefined> {
    const now = Date.now();
    let mine: OutboxEntry | undefined;
    await this.opts.state.update<OutboxEntry>(outboxKey(id), (cur) => {
      mine = undefined;
      if (!cur || cur.next_at > now || !this.claimable(cur, now)) return { value: cur };
      mine = { ...cur, attempts: cur.attempts + 1, lease_owner: this.owner, lease_until: now + this.leaseMs };
      return { value: mine };
    });
    return mine;
  }

  private attempt(entry: OutboxEntry): void {
    const key = outboxKey(entry.delivery_id);
    const { log } = this.opts;
    const fields = { delivery_id: entry.delivery_id, url: redact(entry.url), event: entry.event, attempt: entry.attempts };
    const run = (async () => {
      let outcome: SendOutcome;
      try {
        outcome = await this.opts.send(entry, this.stop.signal);
      } catch (err) {
        if (this.stop.signal.aborted) {
          // shutting down: hand it back for the next look, at once
          await this.release(key, { next_at: Date.now() });
          return;
        }
        outcome = { kind: 'retry', reason: (err as Error).message };
      }
      if (outcome.kind === 'delivered') {
        await this.opts.state.del(key);
        log.info({ ...fields, status: outcome.status }, 'webhook delivered');
      } else if (outcome.kind === 'drop') {
        await this.opts.state.del(key);
        log.warn({ ...fields, reason: outcome.reason }, 'webhook not delivered: refused for good');
      } else {
        const delay = this.backoffMs(entry.attempts);
        if (Date.now() + delay - entry.created_at > this.maxAgeMs) {
          await this.opts.state.del(key);
          log.warn({ ...fields, reason: outcome.reason }, `webhook not delivered: given up after ${entry.attempts} attempts`);
        } else {
          await this.release(key, { next_at: Date.now() + delay, last_error: outcome.reason.slice(0, 500) });
          log.info({ ...fields, reason: outcome.reason, retry_in_ms: delay }, 'webhook attempt failed; will retry');
        }
      }
    })();
    this.inFlight.set(entry.delivery_id, run);
    void run
      .catch((err: unknown) => log.warn({ ...fields, err: (err as Error).message }, 'webhook outbox: could not record an attempt; the lease will expire'))
      .finally(() => {
        this.inFlight.delete(entry.delivery_id);
        this.kick();
      });
  }

  /** Gives a claimed delivery back with `fields` changed, unless another process has taken it meanwhile. */
  private async release(key: string, fields: Partial<OutboxEntry>): Promise<void> {
    await this.opts.state.update<OutboxEntry>(key, (cur) => {
      if (!cur || cur.lease_owner !== this.owner) return { value: cur };
      const next: OutboxEntry = { ...cur, ...fields };
      delete next.lease_owner;
      delete next.lease_until;
      return { value: next };
    });
  }
}

/** Logs keep the host and path, never query strings (they may hold tokens). */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '<invalid url>';
  }
}
