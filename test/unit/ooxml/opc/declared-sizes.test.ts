/**
 * An entry may not inflate past the size its central directory record declares: the
 * declared sizes are what the total limit checked, so a header that lies is refused at its
 * first surplus byte. Before, a package of 1100 entries each declaring 1 KiB and inflating
 * to 900 KiB (2 MB on disk) made the opening thread hold the whole 512 MiB budget (+400
 * MiB resident) before it was refused; one entry declaring 4 KiB inflated 128 MiB first.
 */
import t from 'tap';
import { OpcPackage } from '../../../../core/src/ooxml/opc/package.js';
import { PackageError } from '../../../../core/src/ooxml/errors.js';
import { hostileSample } from '../../../hostile/samples.js';
import { deckParts } from '../../../hostile/deck-parts.js';
import { buildZip, deflatedEntry, storedEntry } from '../../../hostile/raw-zip.js';

async function openError(bytes: Uint8Array): Promise<PackageError | undefined> {
  try {
    await OpcPackage.open(bytes);
    return undefined;
  } catch (err) {
    if (err instanceof PackageError) return err;
    throw err;
  }
}

/** A valid deck whose slide 1 entry declares `declared` bytes uncompressed (its real size when undefined). */
function deckDeclaring(declared: number | undefined, store = false): Uint8Array {
  const entries = [...deckParts()].map(([name, content]) => (store ? storedEntry(name, content) : deflatedEntry(name, content)));
  const slide = entries.find((e) => e.name === 'ppt/slides/slide1.xml')!;
  if (declared !== undefined) slide.uncompressedSize = declared;
  return buildZip({ entries });
}

t.test('an entry that inflates past its declared size is refused as a zip bomb, naming the declared size', async (t) => {
  const real = (await OpcPackage.open(deckDeclaring(undefined))).getBytes('/ppt/slides/slide1.xml').length;
  t.equal(await openError(deckDeclaring(real)), undefined, 'the declared size exactly: opens');
  const short = await openError(deckDeclaring(real - 1));
  t.equal(short?.code, 'zip_bomb', 'one byte less declared than inflated: refused');
  t.match(short?.message, `past the ${real - 1} bytes its header declares`);
  const stored = await openError(deckDeclaring(100, true));
  t.equal(stored?.code, 'zip_bomb', 'a STOREd entry holding more than it declares: refused');
  const empty = await OpcPackage.open(deckDeclaring(0));
  t.equal(empty.getBytes('/ppt/slides/slide1.xml').length, 0, 'an entry declaring 0 bytes is still an empty part');
});

t.test('lying zip bombs stop at the declared size, not at the limits', async (t) => {
  const one = await openError(hostileSample('zip-bomb-lying-sizes.pptx').build());
  t.equal(one?.code, 'zip_bomb');
  t.match(one?.message, 'past the 4096 bytes its header declares', 'refused at 4 KiB, not after 128 MiB');
  const many = hostileSample('zip-bomb-many-parts-lying-sizes.pptx').build();
  const before = process.memoryUsage().rss;
  const err = await openError(many);
  const grown = process.memoryUsage().rss - before;
  t.equal(err?.code, 'zip_bomb');
  t.match(err?.message, 'ppt/slides/slide1.xml inflates past the 1024 bytes its header declares', 'refused at the first slide');
  t.ok(grown < 64 * 1024 ** 2, `resident memory grew by ${(grown / 1024 ** 2).toFixed(0)} MiB (the whole budget was 512 MiB)`);
});
