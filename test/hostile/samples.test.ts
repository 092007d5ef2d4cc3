/**
 * The hostile-sample generator itself: the catalog is complete and deterministic, its
 * well-formed samples are read alike by an independent zip reader (JSZip), its bombs
 * inflate to what they claim, and its compound files are what [MS-CFB] readers expect.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { createInflateRaw } from 'node:zlib';
import { Readable } from 'node:stream';
import JSZip from 'jszip';
import { hostileSample, hostileSamples, type SampleClass } from './samples.js';
import { deckParts } from './deck-parts.js';
import { buildCompoundFile, encryptedOfficeFile, seededBytes } from './compound-file.js';
import { crcOf } from './raw-zip.js';

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

t.test('the catalog: unique names, every class, the answers it promises', async (t) => {
  const all = hostileSamples();
  t.equal(new Set(all.map((s) => s.name)).size, all.length, 'names are unique');
  const classes: SampleClass[] = ['control', 'container', 'zip-bomb', 'zip64', 'zip-path', 'xml-entity', 'xml-depth', 'xml-size', 'encrypted', 'macro', 'structure', 'encoding', 'resource', 'image'];
  for (const c of classes) t.ok(all.some((s) => s.class === c), `class ${c} has samples`);
  for (const s of all) {
    t.match(s.name, /^[a-z0-9-]+\.(pptx|pptm)$/, `${s.name}: a file name`);
    if (s.answer === 'accepted') t.ok(s.class === 'control' || (s.repairs?.length ?? 0) > 0, `${s.name}: only controls and samples PowerPoint repairs (with their repairs) must be accepted`);
    if (s.repairs) t.equal(s.answer, 'accepted', `${s.name}: a sample with repairs is accepted`);
    if (s.answer === 'refused' || s.answer === 'rejected') t.ok(s.codes !== undefined || s.statuses !== undefined, `${s.name}: says how it must be refused`);
  }
  t.equal(hostileSamples('zip-bomb-').length, hostileSamples().filter((s) => s.name.startsWith('zip-bomb-')).length, 'filtering by name');
  t.throws(() => hostileSample('no-such-sample.pptx'), RangeError);
});

/**
 * Every kind of sample the outside referee (../shared/badinputs/make-bad-inputs.py) makes,
 * by its file name, and the sample of ours that stands for it: the catalog must keep
 * covering each, with an answer at least as strict (the referee lets only its control, the
 * duplicate shape ids, the huge picture and the dangling relationship it calls "reject or
 * repair" be accepted; PowerPoint repairs the last, so it is accepted with its repairs).
 */
const REFEREE_COUNTERPARTS: Record<string, string> = {
  'ok-minimal.pptx': 'ok-minimal.pptx',
  'not-a-zip.pptx': 'not-a-zip.pptx',
  'pdf-renamed.pptx': 'pdf-renamed.pptx',
  'empty.pptx': 'empty.pptx',
  'truncated-half.pptx': 'truncated-half.pptx',
  'truncated-tail.pptx': 'truncated-tail.pptx',
  'zip-bomb-one-part.pptx': 'zip-bomb-one-part.pptx',
  'zip-bomb-many-parts.pptx': 'zip-bomb-many-parts.pptx',
  'zip-bomb-lying-sizes.pptx': 'zip-bomb-lying-sizes.pptx',
  'billion-laughs-presentation.pptx': 'billion-laughs-presentation.pptx',
  'xxe-etc-passwd-slide.pptx': 'xxe-etc-passwd-slide.pptx',
  'xxe-external-dtd-ssrf.pptx': 'xxe-external-dtd-ssrf.pptx',
  'zip-slip-dotdot.pptx': 'zip-slip-dotdot.pptx',
  'zip-slip-absolute.pptx': 'zip-slip-absolute.pptx',
  'zip-slip-backslash.pptx': 'zip-slip-backslash.pptx',
  'duplicate-entry-names.pptx': 'duplicate-entry-names.pptx',
  'unsupported-compression.pptx': 'unsupported-compression.pptx',
  'docx-renamed.pptx': 'docx-renamed.pptx',
  'missing-presentation-xml.pptx': 'missing-presentation-part.pptx',
  'missing-content-types.pptx': 'missing-content-types.pptx',
  'relationship-cycle.pptx': 'relationship-cycle.pptx',
  'shapes-100k.pptx': 'shapes-100k.pptx',
  'nested-groups-10000.pptx': 'nested-groups-10000.pptx',
  'image-huge-dimensions.pptx': 'image-huge-png.pptx',
  'invalid-utf8.pptx': 'invalid-utf8.pptx',
  'control-chars-in-text.pptx': 'control-chars-in-text.pptx',
  'not-well-formed-slide.pptx': 'not-well-formed-slide.pptx',
  'over-10mib.pptx': 'over-10mib.pptx',
  'slides-5000.pptx': 'slides-5000.pptx',
  'macro-enabled.pptm': 'macro-enabled.pptm',
  'macro-content-type-in.pptx': 'macro-content-type-in.pptx',
  'encrypted-ole.pptx': 'encrypted-ole.pptx',
  'missing-relationship-target.pptx': 'dangling-targets.pptx',
  'duplicate-shape-ids.pptx': 'duplicate-shape-ids.pptx',
  'table-row-cell-mismatch.pptx': 'table-row-cell-mismatch.pptx',
  'slide-id-out-of-range.pptx': 'slide-id-out-of-range.pptx',
};

t.test("every kind of the outside referee's samples has a counterpart here, answered at least as strictly", async (t) => {
  const lenient = new Set(['ok-minimal.pptx', 'duplicate-shape-ids.pptx', 'image-huge-dimensions.pptx', 'missing-relationship-target.pptx']);
  t.equal(Object.keys(REFEREE_COUNTERPARTS).length, 36, 'the 36 kinds of make-bad-inputs.py');
  for (const [theirs, ours] of Object.entries(REFEREE_COUNTERPARTS)) {
    const s = hostileSample(ours);
    if (lenient.has(theirs)) t.pass(`${theirs} → ${ours} (${s.answer})`);
    else t.ok(s.answer === 'refused' || s.answer === 'rejected', `${theirs} → ${ours}: ${s.answer}`);
  }
});

t.test('every sample is built the same, byte for byte, each time', async (t) => {
  for (const s of hostileSamples()) t.equal(sha(s.build()), sha(s.build()), s.name);
});

t.test('the controls are read by JSZip with the parts they were made of', async (t) => {
  const expected = new Map([...deckParts()].map(([name, content]) => [name, typeof content === 'string' ? new TextEncoder().encode(content) : content]));
  for (const s of hostileSamples('ok-')) {
    const zip = await JSZip.loadAsync(s.build());
    const files = Object.values(zip.files).filter((f) => !f.dir);
    t.same(files.map((f) => f.name).sort(), [...expected.keys()].sort(), `${s.name}: the same part names`);
    for (const f of files) {
      const bytes = await f.async('uint8array');
      if (sha(bytes) !== sha(expected.get(f.name)!)) t.fail(`${s.name}: ${f.name} differs`);
    }
  }
});

/** Inflates a raw DEFLATE stream as a stream, counting the bytes and their CRC without keeping them. */
async function inflatedSizeAndCrc(data: Uint8Array): Promise<{ size: number; crc: number }> {
  let size = 0;
  let crc = 0;
  for await (const chunk of Readable.from([Buffer.from(data)]).pipe(createInflateRaw())) {
    size += (chunk as Buffer).length;
    crc = crcOf(chunk as Buffer, crc);
  }
  return { size, crc };
}

/** The data of entry `name` of a zip (first local header of that name), with what its local header declares. */
function localEntry(zip: Uint8Array, name: string): { data: Uint8Array; crc: number; compressed: number; uncompressed: number } {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const want = new TextEncoder().encode(name);
  for (let p = 0; p + 30 <= zip.length; ) {
    if (v.getUint32(p, true) !== 0x04034b50) break;
    const compressed = v.getUint32(p + 18, true);
    const nameLength = v.getUint16(p + 26, true);
    const start = p + 30 + nameLength + v.getUint16(p + 28, true);
    if (Buffer.from(zip.subarray(p + 30, p + 30 + nameLength)).equals(want)) {
      return { data: zip.subarray(start, start + compressed), crc: v.getUint32(p + 14, true), compressed, uncompressed: v.getUint32(p + 22, true) };
    }
    p = start + compressed;
  }
  throw new Error(`no entry ${name}`);
}

t.test('the bombs inflate to what they claim: 1100 MiB honestly declared, or past what they declare', async (t) => {
  const honest = localEntry(hostileSample('zip-bomb-one-part.pptx').build(), 'ppt/slides/slide1.xml');
  const real = await inflatedSizeAndCrc(honest.data);
  t.ok(real.size > 1100 * 1024 ** 2, `slide1.xml inflates to ${real.size} bytes from ${honest.compressed}`);
  t.equal(real.size, honest.uncompressed, 'as declared');
  t.equal(real.crc, honest.crc, 'with the declared CRC');
  const lying = localEntry(hostileSample('zip-bomb-lying-sizes.pptx').build(), 'ppt/slides/slide1.xml');
  t.equal(lying.uncompressed, 4096, 'the lying one declares 4 KiB');
  t.equal(sha(lying.data), sha(honest.data), 'for the same 1100 MiB stream');
});

/** A minimal [MS-CFB] reader: stream name → bytes, following the FAT, the mini FAT and the directory tree. */
function readCompoundFile(file: Uint8Array): Map<string, Uint8Array> {
  const v = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const sector = (s: number): number => 512 * (s + 1);
  const fat: number[] = [];
  for (let i = 0; i < v.getUint32(44, true); i++) {
    const at = sector(v.getUint32(76 + i * 4, true));
    for (let k = 0; k < 128; k++) fat.push(v.getUint32(at + k * 4, true));
  }
  const chain = (first: number, table: number[]): number[] => {
    const out: number[] = [];
    for (let s = first; s < 0xfffffffa; s = table[s]!) out.push(s);
    return out;
  };
  const readChain = (first: number, size: number): Uint8Array => {
    const out = new Uint8Array(chain(first, fat).length * 512);
    chain(first, fat).forEach((s, i) => out.set(file.subarray(sector(s), sector(s) + 512), i * 512));
    return out.subarray(0, size);
  };
  const dir = readChain(v.getUint32(48, true), Number.MAX_SAFE_INTEGER);
  const dv = new DataView(dir.buffer, dir.byteOffset, dir.byteLength);
  const entry = (i: number) => {
    const at = i * 128;
    const nameLength = dv.getUint16(at + 64, true);
    let name = '';
    for (let k = 0; k < nameLength / 2 - 1; k++) name += String.fromCharCode(dv.getUint16(at + k * 2, true));
    return { name, type: dir[at + 66]!, left: dv.getUint32(at + 68, true), right: dv.getUint32(at + 72, true), child: dv.getUint32(at + 76, true), start: dv.getUint32(at + 116, true), size: dv.getUint32(at + 120, true) };
  };
  const root = entry(0);
  const miniStream = readChain(root.start, root.size);
  const miniFat = v.getUint32(64, true) ? Array.from(readChain(v.getUint32(60, true), v.getUint32(64, true) * 512).reduce<number[]>((a, _, i, b) => (i % 4 === 0 ? [...a, new DataView(b.buffer, b.byteOffset + i).getUint32(0, true)] : a), [])) : [];
  const streams = new Map<string, Uint8Array>();
  const walk = (i: number, path: string): void => {
    if (i === 0xffffffff) return;
    const e = entry(i);
    walk(e.left, path);
    walk(e.right, path);
    if (e.type === 1) walk(e.child, `${path}${e.name}/`);
    else if (e.size < 4096) {
      const out = new Uint8Array(chain(e.start, miniFat).length * 64);
      chain(e.start, miniFat).forEach((s, k) => out.set(miniStream.subarray(s * 64, s * 64 + 64), k * 64));
      streams.set(path + e.name, out.subarray(0, e.size));
    } else streams.set(path + e.name, readChain(e.start, e.size));
  };
  walk(root.child, '');
  return streams;
}

t.test('compound files: streams big and small, in storages, read back through FAT, mini FAT and directory', async (t) => {
  const streams = { a: seededBytes(1, 100), bb: seededBytes(2, 5000), c: seededBytes(3, 4095), d: seededBytes(4, 64), e: seededBytes(5, 20_000) };
  const file = buildCompoundFile([
    { name: 'a', data: streams.a },
    { name: 'bb', data: streams.bb },
    { name: 'Store', children: [{ name: 'c', data: streams.c }, { name: 'Inner', children: [{ name: 'd', data: streams.d }] }] },
    { name: 'e', data: streams.e },
  ]);
  t.same([...file.subarray(0, 8)], [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 'the OLE signature');
  t.equal(file.length % 512, 0, 'whole sectors');
  const read = readCompoundFile(file);
  t.same([...read.keys()].sort(), ['Store/Inner/d', 'Store/c', 'a', 'bb', 'e']);
  for (const [path, want] of [['a', streams.a], ['bb', streams.bb], ['Store/c', streams.c], ['Store/Inner/d', streams.d], ['e', streams.e]] as const) t.equal(sha(read.get(path)!), sha(want), `${path} reads back`);

  const encrypted = readCompoundFile(encryptedOfficeFile());
  t.same(
    [...encrypted.keys()].sort(),
    ['EncryptedPackage', 'EncryptionInfo', '\u0006DataSpaces/DataSpaceInfo/StrongEncryptionDataSpace', '\u0006DataSpaces/DataSpaceMap', '\u0006DataSpaces/TransformInfo/StrongEncryptionTransform/\u0006Primary', '\u0006DataSpaces/Version'].sort(),
    'a password-protected file has the streams Office writes',
  );
  const info = encrypted.get('EncryptionInfo')!;
  t.same([...info.subarray(0, 4)], [4, 0, 4, 0], 'agile encryption, version 4.4');
  t.match(new TextDecoder().decode(info.subarray(8)), /<encryption xmlns="http:\/\/schemas.microsoft.com\/office\/2006\/encryption"/);
});
