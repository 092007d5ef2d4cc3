/**
 * Writes the hostile samples to a folder, for a test that must not build them in its own
 * process (building the large ones leaves a few hundred MiB of freed but still resident
 * memory behind, which would count against the service measured there) and for looking
 * at them by hand:
 *
 *     npx tsx test/hostile/write-samples.ts OUT_DIR [NAME_PART ...]
 *
 * Each sample is written under its name; `CATALOG.tsv` lists name, class, answer, codes
 * and what the sample is.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostileSamples } from './samples.js';

/**
 * Builds the samples whose names contain one of `only` (all when empty) and writes them to `dir`.
 *
 * @returns the names written, in catalog order
 */
export function writeSamples(dir: string, only: readonly string[] = []): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const rows = ['name\tclass\tanswer\tcodes\twhat'];
  for (const s of hostileSamples(...only)) {
    writeFileSync(join(dir, s.name), s.build());
    rows.push([s.name, s.class, s.answer, (s.codes ?? []).join(','), s.what.replace(/\s+/g, ' ')].join('\t'));
    written.push(s.name);
  }
  writeFileSync(join(dir, 'CATALOG.tsv'), `${rows.join('\n')}\n`);
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, ...only] = process.argv.slice(2);
  if (!dir) {
    process.stderr.write('usage: npx tsx test/hostile/write-samples.ts OUT_DIR [NAME_PART ...]\n');
    process.exit(2);
  }
  const names = writeSamples(dir, only);
  process.stdout.write(`wrote ${names.length} samples and CATALOG.tsv to ${dir}\n`);
}
