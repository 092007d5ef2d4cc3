/**
 * Identifiers: a type prefix and a ULID (time-ordered, so lists sort by creation). Slide
 * and layout ids are derived from the template id and the part name, so they stay the
 * same across re-analysis of the same file and are unique per organization.
 */
import { createHash, randomFillSync } from 'node:crypto';

export type IdPrefix = 'tpl' | 'ana' | 'gen' | 'pres' | 'req';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${newUlid()}`;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Random bytes drawn from the system's CSPRNG in one call per {@link RANDOM_POOL_BYTES}. */
const RANDOM_POOL_BYTES = 4096;
const randomPool = Buffer.alloc(RANDOM_POOL_BYTES);
let randomAt = RANDOM_POOL_BYTES;

/**
 * A ULID (https://github.com/ulid/spec): 10 Crockford base-32 characters of the time in ms
 * since the epoch, then 16 of 80 random bits. The random bits come from a pool filled by
 * the CSPRNG (the `ulid` package asked it once per character: 16 calls per id, ~a tenth of
 * core's time accepting a deck request).
 */
export function newUlid(now: number = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  if (randomAt + 10 > RANDOM_POOL_BYTES) {
    randomFillSync(randomPool);
    randomAt = 0;
  }
  let out = time;
  // 80 bits = two runs of 40 bits (5 bytes → 8 characters), exact in a double
  for (let half = 0; half < 2; half++) {
    let acc = 0;
    for (let i = 0; i < 5; i++) acc = acc * 256 + randomPool[randomAt++]!;
    let chunk = '';
    for (let i = 0; i < 8; i++) {
      chunk = CROCKFORD[acc % 32]! + chunk;
      acc = Math.floor(acc / 32);
    }
    out += chunk;
  }
  return out;
}

/**
 * Id of an analyzed slide (`sld_…`) or slide layout (`lay_…`): 26 Crockford base-32
 * characters of SHA-256 over the template id and the part name.
 */
export function templateSlideId(templateId: string, kind: 'slide' | 'layout', partName: string): string {
  const digest = createHash('sha256').update(`${templateId}\n${kind}\n${partName}`).digest();
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const byte of digest) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 26) {
      out += CROCKFORD[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
    if (out.length >= 26) break;
  }
  return `${kind === 'slide' ? 'sld' : 'lay'}_${out}`;
}

/** Current time as the ISO 8601 string the API returns. */
export function nowIso(): string {
  return new Date().toISOString();
}
