/**
 * Parts are deflated with a window sized to them (zip-codec `deflateWindowBits`): zlib
 * allocates and clears its window and hash tables by that size on every call, which for a
 * deck's many small parts cost more than compressing them. The output must be exactly what
 * the full 32 KiB window gives, so that decks stay byte for byte what they were, and any
 * inflater reads them.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { compressEntry, deflateWindowBits, expandEntry } from '../../../../core/src/ooxml/opc/zip-codec.js';
import { OpcPackage } from '../../../../core/src/ooxml/opc/package.js';
import { corpusFilesFor, corpusPath } from '../../../helpers/corpus.js';

const benchFiles = corpusFilesFor(t, 'bench');

/** Markup-like bytes of `size` with matches near and far (a repeated 300-byte block). */
function markup(size: number, seed: number): Uint8Array {
  let x = seed;
  const rand = (): number => ((x = (x * 1103515245 + 12345) >>> 0) >>> 16) / 65536;
  const block = Array.from({ length: 300 }, () => String.fromCharCode(32 + Math.floor(rand() * 90))).join('');
  let s = '';
  while (s.length < size) s += rand() < 0.3 ? block : `<a:r><a:rPr lang="en-US" sz="${Math.floor(rand() * 4000)}"/><a:t>${rand().toString(36)}</a:t></a:r>`;
  return new TextEncoder().encode(s.slice(0, size));
}

t.test('the window is the smallest that reaches over the whole part, 512 bytes to 32 KiB', async (t) => {
  t.equal(deflateWindowBits(0), 9);
  t.equal(deflateWindowBits(250), 9, '250 bytes and the 262 bytes of lookahead fit in 512');
  t.equal(deflateWindowBits(251), 10);
  t.equal(deflateWindowBits(1000), 11);
  t.equal(deflateWindowBits(32_768 - 262), 15);
  t.equal(deflateWindowBits(10_000_000), 15, 'never more than zlib’s largest');
});

t.test('compressed parts are byte for byte what the 32 KiB window gives, at every size edge', async (t) => {
  let checked = 0;
  for (const bits of [9, 10, 11, 12, 13, 14, 15]) {
    const edge = 2 ** bits - 262;
    for (const size of [edge - 1, edge, edge + 1, edge + 5000]) {
      if (size < 0) continue;
      for (const level of [1, 6, 9]) {
        const bytes = markup(size, size * 31 + level);
        const entry = compressEntry(bytes, level);
        t.ok(Buffer.from(entry.data).equals(deflateRawSync(bytes, { level })), `${size} bytes, level ${level}`);
        t.ok(Buffer.from(expandEntry('x', entry)).equals(bytes), 'and it inflates back');
        checked++;
      }
    }
  }
  t.ok(checked >= 80, `${checked} cases`);
});

if (benchFiles.length > 0) t.test('corpus parts compress as before and inflate with a default inflater', async (t) => {
  const files = benchFiles;
  let parts = 0;
  for (const f of files) {
    let pkg: OpcPackage;
    try {
      pkg = await OpcPackage.open(readFileSync(corpusPath(`bench/${f}`)));
    } catch {
      continue; // a file the engine refuses has no parts to compress
    }
    for (const name of pkg.partNames()) {
      // a copy: bytes read from a zip are written back with the data they were read from
      const bytes = Uint8Array.from(pkg.getBytes(name));
      const entry = compressEntry(bytes);
      if (entry.method !== 8) continue;
      if (!Buffer.from(entry.data).equals(deflateRawSync(bytes, { level: 6 }))) t.fail(`${f} ${name} compresses differently`);
      if (!inflateRawSync(entry.data).equals(bytes)) t.fail(`${f} ${name} does not inflate back`);
      parts++;
    }
  }
  t.ok(parts > 100, `${parts} parts of ${files.length} files`);
});
