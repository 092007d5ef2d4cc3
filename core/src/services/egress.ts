/**
 * The egress policy of webhooks: which addresses Slidewright may POST to.
 *
 * A webhook URL names a host that a client chose, so without a policy anyone with an API
 * key could make the service call its own loopback, the private network it runs in, or a
 * cloud metadata endpoint (SSRF). Every address a host resolves to must be public unicast:
 * loopback (127.0.0.0/8, ::1), private (RFC 1918, fc00::/7), link-local (169.254.0.0/16
 * with the cloud metadata address 169.254.169.254, fe80::/10), unspecified (0.0.0.0/8, ::),
 * multicast, broadcast, carrier-grade NAT, reserved and documentation ranges, and IPv6
 * forms that embed an IPv4 address (6to4, Teredo, NAT64) are refused. IPv4-mapped IPv6
 * addresses (::ffff:a.b.c.d) are judged as the IPv4 address they carry. A host is refused
 * when ANY of its addresses is refused, so a name cannot hide a private address behind a
 * public one.
 *
 * The check runs when a request names the URL and again at each delivery, on the
 * addresses the delivery then connects to (the resolution is pinned: the HTTP request is
 * given those checked addresses, never a second lookup), so a name that re-binds to a
 * private address after the first check (DNS rebinding) is refused at delivery.
 *
 * Operators who need internal receivers list them in `SLIDEWRIGHT_WEBHOOK_ALLOW`: CIDR
 * ranges or single addresses (`10.20.0.0/16`, `fd00::/8`, `127.0.0.1`), whose addresses are
 * then accepted, and host names (`hooks.internal`, or `*.corp.example` for its sub-domains),
 * whose every address is accepted.
 *
 * IP range parsing and classification are ipaddr.js's (a well-kept library, used by
 * Fastify's proxy-addr), not our own CIDR arithmetic.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/** Resolves a host name to every address it has (IPv4 and IPv6). */
export type ResolveAll = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (getaddrinfo, as an HTTP client would use it), every address, in its order. */
export const systemResolveAll: ResolveAll = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family }));

/** Outcome of a check: the addresses that may be connected to, or why not. */
export type EgressDecision =
  | { ok: true; hostname: string; addresses: ResolvedAddress[] }
  | {
      ok: false;
      /** `forbidden_address` (a refused address), `unresolvable` (no address), `invalid_url`. */
      code: 'forbidden_address' | 'unresolvable' | 'invalid_url';
      /** Human-readable reason. */
      reason: string;
      /** The refused address, for `forbidden_address`. */
      address?: string;
      /** The address's range as ipaddr.js names it (`loopback`, `private`, `linkLocal`, …). */
      range?: string;
    };

/** An entry of the allow-list, parsed. */
type AllowEntry = { kind: 'cidr'; range: [ipaddr.IPv4 | ipaddr.IPv6, number]; text: string } | { kind: 'host'; name: string; suffix: boolean; text: string };

/**
 * Parses `SLIDEWRIGHT_WEBHOOK_ALLOW`: entries separated by commas or white space.
 * @throws Error naming the first entry that is neither an address, a CIDR range nor a host name
 */
export function parseAllowList(text: string | undefined): string[] {
  const entries = (text ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  for (const e of entries) parseAllowEntry(e);
  return entries;
}

const HOST_NAME = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

function parseAllowEntry(text: string): AllowEntry {
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.isValidCIDR(bare)) return { kind: 'cidr', range: normalizeRange(ipaddr.parseCIDR(bare)), text };
  if (ipaddr.isValid(bare) && isIP(bare)) {
    const addr = ipaddr.process(bare);
    return { kind: 'cidr', range: [addr, addr.kind() === 'ipv4' ? 32 : 128], text };
  }
  if (HOST_NAME.test(text) && !isIP(text)) {
    const suffix = text.startsWith('*.');
    return { kind: 'host', name: (suffix ? text.slice(2) : text).toLowerCase().replace(/\.$/, ''), suffix, text };
  }
  throw new Error(`SLIDEWRIGHT_WEBHOOK_ALLOW: "${text}" is neither an IP address, a CIDR range nor a host name`);
}

/** An IPv4-mapped IPv6 range (::ffff:10.0.0.0/104) is the IPv4 range it maps. */
function normalizeRange([addr, bits]: [ipaddr.IPv4 | ipaddr.IPv6, number]): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96];
  return [addr, bits];
}

export interface EgressPolicyOptions {
  /** Allow-list entries (see {@link parseAllowList}). */
  allow?: readonly string[];
  /** Resolver; the system's by default (tests give their own). */
  resolveAll?: ResolveAll;
  /** A host that has not resolved after this long counts as unresolvable, ms. Default 5 000. */
  resolveTimeoutMs?: number;
}

export class EgressPolicy {
  private readonly allow: AllowEntry[];
  private readonly resolveAll: ResolveAll;
  private readonly resolveTimeoutMs: number;

  constructor(opts: EgressPolicyOptions = {}) {
    this.allow = (opts.allow ?? []).map(parseAllowEntry);
    this.resolveAll = opts.resolveAll ?? systemResolveAll;
    this.resolveTimeoutMs = opts.resolveTimeoutMs ?? 5_000;
  }

  /**
   * Why `address` may not be connected to, as the ipaddr.js range name (`loopback`,
   * `private`, `linkLocal`, `uniqueLocal`, `unspecified`, `multicast`, …), or undefined when
   * it is public unicast or on the allow-list.
   */
  addressRefusal(address: string): string | undefined {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      // process(): an IPv4-mapped IPv6 address becomes the IPv4 address it carries
      parsed = ipaddr.process(address.replace(/%.*$/, ''));
    } catch {
      return 'invalid';
    }
    for (const e of this.allow) {
      if (e.kind === 'cidr' && e.range[0].kind() === parsed.kind() && parsed.match(e.range)) return undefined;
    }
    const range = parsed.range();
    return range === 'unicast' ? undefined : range;
  }

  /** True when `hostname` (lower case, no brackets) is allowed by name. */
  private hostAllowed(hostname: string): boolean {
    const h = hostname.toLowerCase().replace(/\.$/, '');
    return this.allow.some((e) => e.kind === 'host' && (e.suffix ? h.endsWith(`.${e.name}`) : h === e.name));
  }

  /**
   * Resolves the URL's host (every IPv4 and IPv6 address) and checks each address. An IP
   * literal is checked as it is, without a lookup.
   */
  async check(url: string): Promise<EgressDecision> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { ok: false, code: 'invalid_url', reason: 'not an absolute URL' };
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, code: 'invalid_url', reason: 'not an http or https URL' };
    // WHATWG URL has normalized IPv4 forms (decimal, hex, octal) to dotted quads; IPv6 keeps its brackets
    const hostname = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    if (hostname === '') return { ok: false, code: 'invalid_url', reason: 'the URL has no host' };
    const family = isIP(hostname);
    let addresses: ResolvedAddress[];
    if (family !== 0) {
      addresses = [{ address: hostname, family }];
    } else {
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${this.resolveTimeoutMs} ms`)), this.resolveTimeoutMs);
        });
        addresses = await Promise.race([this.resolveAll(hostname), timeout]);
      } catch (err) {
        return { ok: false, code: 'unresolvable', reason: `host ${hostname} does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
      } finally {
        clearTimeout(timer);
      }
      if (addresses.length === 0) return { ok: false, code: 'unresolvable', reason: `host ${hostname} has no address` };
      if (this.hostAllowed(hostname)) return { ok: true, hostname, addresses };
    }
    for (const a of addresses) {
      const range = this.addressRefusal(a.address);
      if (range !== undefined) {
        const what = family === 0 ? `host ${hostname} resolves to ${a.address}, which is` : `${a.address} is`;
        return { ok: false, code: 'forbidden_address', reason: `${what} not a public address (${describeRange(range)}); webhooks go to public addresses only`, address: a.address, range };
      }
    }
    return { ok: true, hostname, addresses };
  }
}

/**
 * A `lookup` function for `http.request` that answers with `addresses` only (already
 * checked), never asking DNS again: the connection goes to a checked address.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const opts: LookupOptions = typeof options === 'object' && options !== null ? options : { family: options as number | undefined };
    const wanted = opts.family === 4 || opts.family === 'IPv4' ? 4 : opts.family === 6 || opts.family === 'IPv6' ? 6 : 0;
    const usable = addresses.filter((a) => wanted === 0 || a.family === wanted);
    if (usable.length === 0) {
      const err: NodeJS.ErrnoException = new Error('no checked address of the requested family');
      err.code = 'ENOTFOUND';
      callback(err, '', 0);
      return;
    }
    if (opts.all) callback(null, usable.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, usable[0]!.address, usable[0]!.family);
  };
}

function describeRange(range: string): string {
  switch (range) {
    case 'loopback':
      return 'loopback';
    case 'private':
      return 'private (RFC 1918)';
    case 'uniqueLocal':
      return 'private (unique local, fc00::/7)';
    case 'linkLocal':
      return 'link-local (including cloud metadata)';
    case 'unspecified':
      return 'unspecified';
    case 'multicast':
      return 'multicast';
    case 'broadcast':
      return 'broadcast';
    case 'carrierGradeNat':
      return 'carrier-grade NAT';
    default:
      return `non-public (${range})`;
  }
}
