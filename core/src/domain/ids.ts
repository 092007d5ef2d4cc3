/**
 * Identifiers: a type prefix and a ULID (time-ordered, so lists sort by creation). Slide
 * and layout ids are derived from the template id and the part name, so they stay the
 * same across re-analysis of the same file and are unique per organization.
 */
import { createHash } from 'node:crypto';
import { ulid } from 'ulid';

export type IdPrefix = 'tpl' | 'ana' | 'gen' | 'pres' | 'req';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

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
