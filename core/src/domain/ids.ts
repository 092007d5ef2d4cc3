/**
 * Identifiers: a type prefix and a ULID (time-ordered, so lists sort by creation). Slide
 * and layout ids are derived from the template id and the part name, so they stay the
 * same across re-analysis of the same file and are unique per organization.
 */
import { createHash, randomFillSync } from 'node:crypto';
import { ulid } from 'ulid';

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
 * The `ulid` package's PRNG (a fraction in [0, 1) per character) fed from a pool the CSPRNG
 * fills 4 KiB at a time: the package's own asks the CSPRNG for one byte per character, 16
 * calls per id, which was about a tenth of core's time accepting a deck request. One byte
 * per character: `floor(byte / 256 × 32)` is its top 5 bits, uniform.
 */
function pooledRandom(): number {
  if (randomAt >= RANDOM_POOL_BYTES) {
    randomFillSync(randomPool);
    randomAt = 0;
  }
  return randomPool[randomAt++]! / 256;
}

/**
 * A ULID (https://github.com/ulid/spec) made by the `ulid` package: 10 Crockford base-32
 * characters of the time in ms since the epoch, then 16 random ones (80 bits) from
 * {@link pooledRandom}.
 */
export function newUlid(now: number = Date.now()): string {
  return ulid(now, pooledRandom);
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
