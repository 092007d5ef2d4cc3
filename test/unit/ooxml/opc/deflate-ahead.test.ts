/**
 * Parts compressed ahead on the thread pool (`DeflateAhead`) are written by `writeZip`
 * exactly as if it had compressed them itself: same bytes, and every entry inflates back.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { DeflateAhead, writeZip, type ZipInput } from '../../../../core/src/ooxml/opc/zip-codec.js';
import { corpusPath } from '../../../helpers/corpus.js';

async function parts(): Promise<ZipInput[]> {
  const zip = await JSZip.loadAsync(readFileSync(corpusPath('bench/SlideWithTables.pptx')));
  const out: ZipInput[] = [];
  for (const e of Object.values(zip.files)) if (!e.dir) out.push({ name: e.name, bytes: await e.async('uint8array') });
  return out;
}

t.test('entries compressed ahead are written as writeZip compresses them', async (t) => {
  const inPlace = writeZip(await parts());
  const entries = await parts();
  const ahead = new DeflateAhead(6, 2);
  for (const e of entries) {
    ahead.add(e.bytes);
    // give the pool time to take every part (settle would drop the ones still queued)
    await new Promise((r) => setTimeout(r, 2));
  }
  await ahead.settle();
  const written = writeZip(entries);
  t.ok(Buffer.from(written).equals(Buffer.from(inPlace)), 'the same zip, byte for byte');
  const back = await JSZip.loadAsync(written);
  for (const e of entries) t.ok(Buffer.from(await back.file(e.name)!.async('uint8array')).equals(Buffer.from(e.bytes)), `${e.name} reads back`);
});

t.test('settle resolves at once when nothing is in flight; parts it drops from the queue are compressed by writeZip', async (t) => {
  const ahead = new DeflateAhead();
  await ahead.settle();
  const text = new TextEncoder().encode('<a:p>'.repeat(5000));
  const many = Array.from({ length: 9 }, () => new Uint8Array(text));
  for (const b of many) ahead.add(b);
  await ahead.settle();
  // the ones still queued at settle are compressed in place: every entry reads back either way
  const zip = writeZip(many.map((bytes, i) => ({ name: `p${i}.xml`, bytes })));
  const loaded = await JSZip.loadAsync(zip);
  t.equal(Object.keys(loaded.files).length, 9);
  for (let i = 0; i < 9; i++) t.ok(Buffer.from(await loaded.file(`p${i}.xml`)!.async('uint8array')).equals(Buffer.from(text)), `p${i}.xml reads back`);
  t.ok(zip.length < text.length, 'stored compressed');
});

t.test('a producer that gives the event loop a turn between parts has them compressed ahead; one that never does, only the first two', async (t) => {
  const slide = new TextEncoder().encode('<a:p><a:r><a:rPr lang="en-US" sz="1800"/><a:t>Revenue and margin</a:t></a:r></a:p>'.repeat(200));
  const busy = (ms: number): void => {
    const end = performance.now() + ms;
    while (performance.now() < end);
  };
  const produce = async (turns: boolean): Promise<number> => {
    const ahead = new DeflateAhead();
    for (let i = 0; i < 10; i++) {
      ahead.add(new Uint8Array(slide));
      busy(5); // building the next slide
      if (turns) await ahead.turn();
    }
    await ahead.settle();
    return ahead.compressedAhead;
  };
  t.equal(await produce(false), 2, 'without turns only the two streams started first are collected');
  t.ok((await produce(true)) >= 8, 'with a turn after each part, nearly all of the 10 are compressed on the pool');
});
