/**
 * Safe HTTP header values: the one place that decides what the gateway writes into a
 * response header, for every route (installed as an `onSend` hook by {@link installHeaderGuard}).
 *
 * A header field value is a sequence of visible ASCII characters, spaces and tabs (RFC 9110
 * §5.5, `field-value`; `obs-text` bytes 0x80–0xFF are obsolete and Node refuses anything
 * past 0xFF with ERR_INVALID_CHAR, which turned previews of templates whose fonts have
 * Japanese, Cyrillic or Arabic names into 500s). So, just before a response is sent:
 *
 * - a value of visible ASCII, spaces and tabs is sent as it is, unless it starts with the
 *   RFC 8187 prefix `UTF-8''` (so that a reader can always tell the two forms apart);
 * - any other value (non-ASCII, CR, LF, NUL or other controls) is sent as an RFC 8187
 *   `ext-value` (§3.2): `UTF-8''` followed by its UTF-8 bytes, each byte that is not an
 *   `attr-char` written as `%XX`. `decodeURIComponent` of what follows the prefix gives
 *   the value back ({@link decodeHeaderValue});
 * - `ETag` must stay an entity tag (RFC 9110 §8.8.3): an unusable one is replaced by a
 *   quoted digest of it ({@link safeEntityTag}), which the handler also compares
 *   `If-None-Match` against;
 * - `Content-Disposition` is built by {@link contentDisposition} (RFC 6266 with an RFC 8187
 *   `filename*` and an ASCII `filename` fallback); an unsafe one that reaches the guard
 *   anyway becomes a plain `attachment`;
 * - a value longer than {@link MAX_HEADER_VALUE_CHARS} once encoded is cut at a character
 *   boundary and ends with `…` (so sent as an ext-value): clients and proxies refuse
 *   headers past a few KiB (Node and undici: 16 KiB for all of them together);
 * - a header whose name is not an HTTP token is dropped.
 *
 * The same rule applies in the other direction to gRPC metadata the gateway sends core
 * ({@link safeMetadataValue}): grpc-js refuses non-ASCII metadata values by throwing,
 * which would make a request with a non-ASCII `X-API-Key` a 500 instead of a 401.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** The RFC 8187 prefix of an encoded value: charset UTF-8, no language. */
export const EXT_VALUE_PREFIX = "UTF-8''";

/** RFC 8187 §3.2.1 `attr-char`: the bytes an ext-value carries as themselves. */
const ATTR_CHAR = /^[A-Za-z0-9!#$&+\-.^_`|~]$/;
/** A field value that can be sent as it is: visible ASCII, SP and HTAB (RFC 9110 §5.5). */
const PLAIN_VALUE = /^[\t\x20-\x7e]*$/;
/** An ext-value's prefix: charset (UTF-8, any case), optional language tag (RFC 8187 §3.2). */
const EXT_PREFIX = /^UTF-8'[A-Za-z0-9-]*'/i;
/** RFC 9110 §5.6.2 `token`: what a field name must be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 9110 §8.8.3 `entity-tag` limited to ASCII `etagc` (no obs-text). */
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e]*"$/;
/** What a gRPC metadata text value may hold (grpc-js: printable ASCII, no tab). */
const METADATA_VALUE = /^[\x20-\x7e]*$/;

/** Longest header value sent, in characters on the wire (after encoding). */
export const MAX_HEADER_VALUE_CHARS = 4096;
/** What ends a value cut to {@link MAX_HEADER_VALUE_CHARS} (U+2026, `%E2%80%A6` encoded). */
export const CUT_MARK = '\u2026';

/** True when `value` may be written as it is: plain visible ASCII, not looking encoded. */
export function isPlainHeaderValue(value: string): boolean {
  return PLAIN_VALUE.test(value) && !EXT_PREFIX.test(value);
}

/**
 * `value` as an RFC 8187 ext-value: `UTF-8''` then its UTF-8 bytes, those outside
 * `attr-char` percent-encoded (upper-case hex). Always visible ASCII.
 */
export function encodeExtValue(value: string): string {
  let out = EXT_VALUE_PREFIX;
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && ATTR_CHAR.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * A header value as a client reads it back: an RFC 8187 ext-value (`UTF-8''…`, any
 * language tag) decoded, any other value unchanged. A malformed encoding comes back as sent.
 */
export function decodeHeaderValue(value: string): string {
  const m = EXT_PREFIX.exec(value);
  if (!m) return value;
  try {
    return decodeURIComponent(value.slice(m[0].length));
  } catch {
    return value;
  }
}

/** Characters a piece of text takes in an ext-value (1 per attr-char byte, 3 per other byte). */
function encodedLength(text: string): number {
  let n = 0;
  for (const byte of Buffer.from(text, 'utf8')) n += byte < 0x80 && ATTR_CHAR.test(String.fromCharCode(byte)) ? 1 : 3;
  return n;
}

/**
 * The longest start of `value` (whole code points) that, followed by {@link CUT_MARK},
 * fits in `max` characters as an ext-value; returned encoded.
 */
function cutToFit(value: string, max: number): string {
  let budget = max - EXT_VALUE_PREFIX.length - encodedLength(CUT_MARK);
  let end = 0;
  for (const ch of value) {
    const cost = encodedLength(ch);
    if (cost > budget) break;
    budget -= cost;
    end += ch.length;
  }
  return encodeExtValue(value.slice(0, end) + CUT_MARK);
}

/**
 * A header value that can be sent: plain values as they are, any other as an ext-value;
 * either cut (ending with {@link CUT_MARK}) when longer than {@link MAX_HEADER_VALUE_CHARS}.
 */
export function safeValue(value: string): string {
  const sent = isPlainHeaderValue(value) ? value : encodeExtValue(value);
  return sent.length <= MAX_HEADER_VALUE_CHARS ? sent : cutToFit(value, MAX_HEADER_VALUE_CHARS);
}

/**
 * An entity tag that can be sent (RFC 9110 §8.8.3): a valid ASCII one as it is, bare
 * `etagc` characters quoted, anything else replaced by `"sha256-<32 hex digits>"` of the
 * value (the same value always gives the same tag, so caching still works); so is a tag
 * longer than 256 characters.
 */
export function safeEntityTag(value: string): string {
  if (value.length <= 256 && ENTITY_TAG.test(value)) return value;
  if (value.length <= 254 && /^[\x21\x23-\x7e]+$/.test(value)) return `"${value}"`;
  return `"sha256-${createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 32)}"`;
}

/**
 * Whether an `If-None-Match` request header names `etag` (RFC 9110 §13.1.2: `*` or a list
 * of entity tags, compared weakly, i.e. ignoring `W/`).
 */
export function ifNoneMatchNames(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/**
 * The ASCII fallback of a file name for `Content-Disposition`'s `filename` (RFC 6266
 * §4.3, Appendix D): accents dropped (NFKD without combining marks), every other character
 * outside visible ASCII — and `"`, `\`, `%`, `/`, which user agents treat differently — as
 * `_` (runs of them as one); `download` for a name with no letter or digit left before
 * its extension.
 */
export function asciiFileName(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|["\\%/]/gu, '_')
    .replace(/_+/g, '_')
    .trim();
  const dot = ascii.lastIndexOf('.');
  const stem = dot > 0 ? ascii.slice(0, dot) : ascii;
  const ext = dot > 0 ? ascii.slice(dot) : '';
  return /[A-Za-z0-9]/.test(stem) ? ascii : `download${/^\.[A-Za-z0-9]+$/.test(ext) ? ext : ''}`;
}

/**
 * `Content-Disposition` for a download (RFC 6266 §4.1): `attachment; filename="<name>"`
 * when the name is plain ASCII without quotes, backslashes or `%`; otherwise the ASCII
 * fallback in `filename` and the exact name in `filename*=UTF-8''…` (RFC 8187), which
 * user agents that know it prefer (RFC 6266 §4.3).
 */
export function contentDisposition(fileName: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const fallback = asciiFileName(fileName);
  if (fallback === fileName) return `${type}; filename="${fileName}"`;
  return `${type}; filename="${fallback}"; filename*=${encodeExtValue(fileName)}`;
}

/**
 * The value a header may be sent with, by the rules of this module's header: ETag and
 * Content-Disposition keep their syntax, any other header is plain or an ext-value.
 * @param name - the header name, any case
 */
export function safeHeaderValue(name: string, value: string): string {
  switch (name.toLowerCase()) {
    case 'etag':
      return safeEntityTag(value);
    case 'content-disposition':
      return isPlainHeaderValue(value) && value.length <= MAX_HEADER_VALUE_CHARS ? value : 'attachment';
    default:
      return safeValue(value);
  }
}

/** A value gRPC metadata can carry (printable ASCII), ext-value encoded otherwise. */
export function safeMetadataValue(value: string): string {
  return METADATA_VALUE.test(value) && !EXT_PREFIX.test(value) ? value : encodeExtValue(value);
}

/** The header map a reply holds, as Fastify keeps it. */
type HeaderMap = Record<string, number | string | string[] | undefined>;

/**
 * Makes every header of `reply` safe in place: names that are not tokens are removed,
 * string values pass {@link safeHeaderValue} (numbers are always safe).
 * @returns the names of the headers that were changed or removed
 */
export function guardReplyHeaders(reply: Pick<FastifyReply, 'getHeaders' | 'header' | 'removeHeader'>): string[] {
  const changed: string[] = [];
  for (const [name, value] of Object.entries(reply.getHeaders() as HeaderMap)) {
    if (!TOKEN.test(name)) {
      reply.removeHeader(name);
      changed.push(name);
      continue;
    }
    if (typeof value === 'string') {
      const safe = safeHeaderValue(name, value);
      if (safe !== value) {
        reply.header(name, safe);
        changed.push(name);
      }
    } else if (Array.isArray(value)) {
      const safe = value.map((v) => safeHeaderValue(name, v));
      if (safe.some((v, i) => v !== value[i])) {
        reply.removeHeader(name);
        reply.header(name, safe);
        changed.push(name);
      }
    }
  }
  return changed;
}

/**
 * Installs the guard on every route of `app` (and of the plugins registered after it): an
 * `onSend` hook that runs {@link guardReplyHeaders} on every answer, errors and 404s included.
 */
export function installHeaderGuard(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    const changed = guardReplyHeaders(reply);
    if (changed.length > 0) req.log.debug({ headers: changed }, 'header values encoded to be sent safely');
    return payload;
  });
}
