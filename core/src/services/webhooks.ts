/**
 * Webhooks: when a generation or an analysis ends, its status record is POSTed to the
 * request's `webhook_url` (or the organization's default), signed so the receiver can
 * trust it, and retried with exponential backoff until it is accepted (2xx) or the
 * attempts run out.
 *
 * Signature header: `X-Slidewright-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">`. The receiver recomputes the HMAC with the shared secret over the raw body
 * and rejects timestamps too far from its clock (replay protection).
 */
import { createHmac } from 'node:crypto';
import pRetry, { AbortError } from 'p-retry';
import type { Logger } from 'pino';
import { ServiceError } from '../errors.js';

export const SIGNATURE_HEADER = 'x-slidewright-signature';
export const EVENT_HEADER = 'x-slidewright-event';

export type WebhookEvent = 'generation.completed' | 'generation.partial' | 'generation.failed' | 'analysis.completed' | 'analysis.failed' | 'analysis.cancelled';

export interface WebhookOptions {
  /** HMAC key. */
  secret: string;
  /** Per-organization default URL, used when a request names none. */
  orgDefaults: ReadonlyMap<string, string>;
  /** Deliveries tried before giving up (first included). */
  attempts?: number;
  /** Delay before the first retry, ms; doubles each time. */
  minDelayMs?: number;
  /** Per-attempt timeout, ms. */
  timeoutMs?: number;
  log: Logger;
}

/** `t=…,v1=…` for a body sent at `timestampSeconds`. */
export function signWebhook(secret: string, body: string, timestampSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}

/**
 * Checks a webhook URL a client sent.
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
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly opts: WebhookOptions) {}

  /** The URL to notify for `org`: the request's, else the organization default, else none. */
  urlFor(org: string, requested: string | undefined): string | undefined {
    return requested || this.opts.orgDefaults.get(org);
  }

  /**
   * Delivers `payload` in the background (the job that ended does not wait for the
   * receiver). Failures are logged; they never fail the job.
   */
  notify(url: string | undefined, event: WebhookEvent, payload: object): void {
    if (!url) return;
    const p = this.deliver(url, event, payload).finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  /** Waits for deliveries under way (for shutdown and tests). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async deliver(url: string, event: WebhookEvent, payload: object): Promise<void> {
    const body = JSON.stringify({ event, data: payload });
    const { log } = this.opts;
    try {
      await pRetry(
        async (attempt) => {
          const t = Math.floor(Date.now() / 1000);
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(this.opts.secret, body, t), [EVENT_HEADER]: event, 'user-agent': 'Slidewright-Webhook/1' },
            body,
            redirect: 'manual',
            signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
          });
          if (res.ok) return;
          // A 4xx other than 408/429 will not get better by retrying.
          if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
            throw new AbortError(`receiver answered ${res.status}`);
          }
          throw new Error(`receiver answered ${res.status} (attempt ${attempt})`);
        },
        { retries: (this.opts.attempts ?? 6) - 1, minTimeout: this.opts.minDelayMs ?? 1000, factor: 2, randomize: true },
      );
      log.info({ url: redact(url), event }, 'webhook delivered');
    } catch (err) {
      log.warn({ url: redact(url), event, err: (err as Error).message }, 'webhook not delivered');
    }
  }
}

/** Logs keep the host and path, never query strings (they may hold tokens). */
function redact(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '<invalid url>';
  }
}
