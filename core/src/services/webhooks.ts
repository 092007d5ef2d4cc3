/**
 * Webhooks: when a generation or an analysis ends, its status record is POSTed to the
 * request's `webhook_url` (or the organization's default), signed so the receiver can
 * trust it.
 *
 * - Egress policy ({@link EgressPolicy}): a URL whose host resolves to a loopback, private,
 *   link-local, unspecified, multicast or otherwise non-public address is refused with 422
 *   when a request names it, and again at each delivery on the addresses the delivery
 *   connects to (pinned, so DNS rebinding cannot switch them); redirects are never
 *   followed. `SLIDEWRIGHT_WEBHOOK_ALLOW` lets operators allow internal receivers.
 * - Durable delivery ({@link WebhookOutbox}): the delivery is stored in the state store in
 *   the same atomic step as the job's final state, survives restarts and crashes, and is
 *   retried with exponential backoff (from 1 s, capped by `SLIDEWRIGHT_WEBHOOK_MAX_DELAY`)
 *   until a 2xx answer, a refusal retrying cannot fix, or `SLIDEWRIGHT_WEBHOOK_MAX_AGE`.
 *
 * Headers of every attempt: `X-Slidewright-Event`, `X-Slidewright-Delivery` (the delivery
 * id, the same on every attempt: receivers drop duplicates by it), `X-Slidewright-Attempt`
 * (1, 2, …) and `X-Slidewright-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">`. The receiver recomputes the HMAC with the shared secret over the raw body
 * and rejects timestamps too far from its clock (replay protection). The body is
 * `{"event", "delivery_id", "data"}`, the same bytes on every attempt.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Logger } from 'pino';
import { ServiceError } from '../errors.js';
import { newUlid } from '../domain/ids.js';
import type { StateOp, StateStore } from '../ports/state-store.js';
import { EgressPolicy, pinnedLookup, type ResolveAll } from './egress.js';
import { outboxKey, redact, WebhookOutbox, type OutboxEntry, type SendOutcome } from './webhook-outbox.js';

export const SIGNATURE_HEADER = 'x-slidewright-signature';
export const EVENT_HEADER = 'x-slidewright-event';
/** The delivery id, the same on every attempt of one delivery. */
export const DELIVERY_HEADER = 'x-slidewright-delivery';
/** 1 on the first attempt of a delivery. */
export const ATTEMPT_HEADER = 'x-slidewright-attempt';

export type WebhookEvent = 'generation.completed' | 'generation.partial' | 'generation.failed' | 'analysis.completed' | 'analysis.failed' | 'analysis.cancelled';

export interface WebhookOptions {
  /** HMAC key. */
  secret: string;
  /** Per-organization default URL, used when a request names none. */
  orgDefaults: ReadonlyMap<string, string>;
  /** Where pending deliveries are kept (the outbox). */
  state: StateStore;
  /** `SLIDEWRIGHT_WEBHOOK_ALLOW` entries: CIDR ranges, addresses, host names. */
  allow?: readonly string[];
  /** Host name resolver (tests give their own); the system's by default. */
  resolveAll?: ResolveAll;
  /** Per-attempt timeout, ms. Default 10 000. */
  timeoutMs?: number;
  /** Delay before the first retry, ms; doubles each time. Default 1 000. */
  minDelayMs?: number;
  /** Longest delay between attempts, ms. Default 600 000. */
  maxDelayMs?: number;
  /** A delivery is given up this long after it was created, ms. Default 86 400 000. */
  maxAgeMs?: number;
  /** How long a claimed delivery is kept from other processes, ms. Default: timeout + 20 000. */
  leaseMs?: number;
  /** The state store belongs to this process alone (embedded mode). */
  exclusive?: boolean;
  log: Logger;
}

/** `t=…,v1=…` for a body sent at `timestampSeconds`. */
export function signWebhook(secret: string, body: string, timestampSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}

/**
 * Checks the form of a webhook URL a client sent (no network): absolute http(s).
 * @throws ServiceError 422 when it is not an absolute http(s) URL
 */
export function checkWebhookUrl(url: string | undefined | null, loc: Array<string | number>): void {
  if (url === undefined || url === null || url === '') return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new ServiceError('invalid_argument', 'webhook_url must be an absolute http or https URL', {
      violations: [{ loc, msg: "URL scheme should be 'http' or 'https'", type: 'url_scheme', input: url, ctx: { expected_schemes: "'http' or 'https'" } }],
    });
  }
}

export class WebhookNotifier {
  readonly policy: EgressPolicy;
  readonly outbox: WebhookOutbox;
  private readonly timeoutMs: number;

  constructor(private readonly opts: WebhookOptions) {
    this.policy = new EgressPolicy({ allow: opts.allow, resolveAll: opts.resolveAll });
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.outbox = new WebhookOutbox({
      state: opts.state,
      send: (entry, signal) => this.send(entry, signal),
      log: opts.log,
      minDelayMs: opts.minDelayMs,
      maxDelayMs: opts.maxDelayMs,
      maxAgeMs: opts.maxAgeMs,
      leaseMs: opts.leaseMs ?? this.timeoutMs + 20_000,
      exclusive: opts.exclusive,
    });
  }

  /** The URL to notify for `org`: the request's, else the organization default, else none. */
  urlFor(org: string, requested: string | undefined): string | undefined {
    return requested || this.opts.orgDefaults.get(org);
  }

  /**
   * Checks a webhook URL a request names: its form, then every address its host resolves
   * to against the egress policy.
   * @throws ServiceError 422 (`url_scheme`, `url_forbidden_address`, `url_unresolvable`)
   */
  async checkUrl(url: string | undefined | null, loc: Array<string | number>): Promise<void> {
    checkWebhookUrl(url, loc);
    if (url === undefined || url === null || url === '') return;
    const decision = await this.policy.check(url);
    if (decision.ok) return;
    const type = decision.code === 'unresolvable' ? 'url_unresolvable' : decision.code === 'forbidden_address' ? 'url_forbidden_address' : 'url_parsing';
    const ctx: Record<string, unknown> = { reason: decision.reason };
    if (decision.address !== undefined) ctx['address'] = decision.address;
    if (decision.range !== undefined) ctx['range'] = decision.range;
    throw new ServiceError('invalid_argument', `webhook_url is refused: ${decision.reason}`, {
      violations: [{ loc, msg: `webhook_url is refused: ${decision.reason}`, type, input: url, ctx }],
    });
  }

  /**
   * Checks the organizations' default URLs (`SLIDEWRIGHT_ORG_WEBHOOKS`) against the policy,
   * for the start of a process: a default that names a refused address is a configuration
   * error; one whose host does not resolve now is only logged (it is checked again at each
   * delivery).
   * @throws Error naming the organization and the reason
   */
  async checkOrgDefaults(): Promise<void> {
    for (const [org, url] of this.opts.orgDefaults) {
      const d = await this.policy.check(url);
      if (d.ok) continue;
      if (d.code === 'unresolvable') this.opts.log.warn({ org, url: redact(url), reason: d.reason }, 'default webhook of an organization does not resolve now');
      else throw new Error(`SLIDEWRIGHT_ORG_WEBHOOKS: the default webhook of ${org} is refused: ${d.reason} (allow it with SLIDEWRIGHT_WEBHOOK_ALLOW)`);
    }
  }

  /**
   * The state-store operations that store a delivery of `event` with `payload` to `url`
   * (none without a URL). Apply them in the same atomic step as the final state they
   * report, then call {@link kick}.
   */
  deliveryOps(org: string, url: string | undefined, event: WebhookEvent, payload: object): StateOp[] {
    if (!url) return [];
    const id = `dlv_${newUlid()}`;
    const now = Date.now();
    const entry: OutboxEntry = { delivery_id: id, org, url, event, body: JSON.stringify({ event, delivery_id: id, data: payload }), created_at: now, attempts: 0, next_at: now };
    return [{ type: 'put', key: outboxKey(id), value: entry }];
  }

  /** Tells the delivery loop that deliveries were stored. */
  kick(): void {
    this.outbox.kick();
  }

  /** Starts the delivery loop of this process. */
  start(): void {
    this.outbox.start();
  }

  /** Stops the delivery loop; pending deliveries stay stored for the next start. */
  async close(): Promise<void> {
    await this.outbox.close();
  }

  /** Waits for attempts under way (tests). */
  async drain(): Promise<void> {
    await this.outbox.drain();
  }

  /**
   * One attempt: checks the URL's addresses again (the policy at delivery time), connects
   * to those checked addresses only, POSTs the signed body, follows no redirect.
   */
  private async send(entry: OutboxEntry, signal: AbortSignal): Promise<SendOutcome> {
    const decision = await this.policy.check(entry.url);
    if (!decision.ok) {
      // a host that does not resolve now may again later; a refused address is final
      return decision.code === 'unresolvable' ? { kind: 'retry', reason: decision.reason } : { kind: 'drop', reason: `egress refused at delivery: ${decision.reason}` };
    }
    const t = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(entry.body)),
      'user-agent': 'Slidewright-Webhook/1',
      [SIGNATURE_HEADER]: signWebhook(this.opts.secret, entry.body, t),
      [EVENT_HEADER]: entry.event,
      [DELIVERY_HEADER]: entry.delivery_id,
      [ATTEMPT_HEADER]: String(entry.attempts),
    };
    const status = await post(new URL(entry.url), headers, entry.body, pinnedLookup(decision.addresses), this.timeoutMs, signal).catch((err: Error) => {
      if (signal.aborted) throw err;
      return err;
    });
    if (status instanceof Error) return { kind: 'retry', reason: status.message };
    if (status >= 200 && status < 300) return { kind: 'delivered', status };
    if (status >= 300 && status < 400) return { kind: 'drop', reason: `receiver answered ${status} (a redirect; redirects are not followed)` };
    // A 4xx other than 408/429 will not get better by retrying.
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) return { kind: 'drop', reason: `receiver answered ${status}` };
    return { kind: 'retry', reason: `receiver answered ${status}` };
  }
}

/**
 * POSTs `body` to `url`, connecting through `lookup` (the pinned, checked addresses), with
 * no redirect handling, no connection reuse and a deadline of `timeoutMs` for the answer's
 * status.
 * @returns the answer's status code
 * @throws Error on a connection failure, a timeout, or when `signal` aborts
 */
function post(url: URL, headers: Record<string, string>, body: string, lookup: LookupFunction, timeoutMs: number, signal: AbortSignal): Promise<number> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
  return new Promise<number>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, lookup, agent: false, signal: deadline }, (res: IncomingMessage) => {
      res.resume(); // the answer's body is not read
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (err: Error) => reject(deadline.aborted && !signal.aborted ? new Error(`no answer within ${timeoutMs} ms`) : err));
    req.end(body);
  });
}
