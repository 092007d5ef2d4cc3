/**
 * Signed URLs: a URL that carries its own authorization, so a client can upload or download
 * without its API key. The signature is an HMAC-SHA256 over the HTTP method, the path, the
 * expiry (Unix seconds) and the organization; changing any of them, or using the URL after
 * its expiry, makes it invalid.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../errors.js';

export interface SignedQuery {
  expires?: string;
  org?: string;
  signature?: string;
}

export class UrlSigner {
  /**
   * @param secret - HMAC key
   * @param publicUrl - external base URL, no trailing slash
   * @param ttlSeconds - default lifetime, seconds
   */
  constructor(
    private readonly secret: string,
    /** External base URL the signed URLs start with; set once the listening port is known. */
    public publicUrl: string,
    readonly ttlSeconds: number,
  ) {}

  /** A full URL for `method path` valid for `ttlSeconds` (default: the configured lifetime). */
  sign(method: string, path: string, org: string, ttlSeconds = this.ttlSeconds, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + ttlSeconds;
    const signature = this.mac(method, path, expires, org);
    const q = new URLSearchParams({ expires: String(expires), org, signature });
    return `${this.publicUrl}${path}?${q.toString()}`;
  }

  /** True when the query carries signature fields at all. */
  static isSigned(q: SignedQuery): boolean {
    return q.signature !== undefined || q.expires !== undefined;
  }

  /**
   * Checks a signed request and returns the organization it authorizes.
   * @throws ServiceError `forbidden` when the signature is missing, altered or expired
   */
  verify(method: string, path: string, q: SignedQuery, now = Date.now()): string {
    const expires = Number(q.expires);
    if (!q.signature || !q.org || !Number.isInteger(expires)) throw new ServiceError('forbidden', 'signed URL is incomplete');
    const expected = Buffer.from(this.mac(method, path, expires, q.org));
    const given = Buffer.from(q.signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new ServiceError('forbidden', 'signed URL signature does not match');
    if (expires * 1000 < now) throw new ServiceError('forbidden', 'signed URL has expired');
    return q.org;
  }

  private mac(method: string, path: string, expires: number, org: string): string {
    return createHmac('sha256', this.secret).update(`${method.toUpperCase()}\n${path}\n${expires}\n${org}`).digest('base64url');
  }
}
