/**
 * The zip reader under OpcPackage.open: the same entries and bytes as jszip (the referee)
 * on every corpus template; ZIP64, comments, data descriptors, name encodings, folders;
 * and every lying offset or size ending in a PackageError without reading out of range.
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import JSZip from 'jszip';
import { readZipEntries, type ZipEntry } from '../../../../core/src/ooxml/opc/zip-reader.js';
import { compressEntry, inflateEntry, writeZip } from '../../../../core/src/ooxml/opc/zip-codec.js';
import { OpcPackage } from '../../../../core/src/ooxml/opc/package.js';
import { PackageError, type PackageErrorCode } from '../../../../core/src/ooxml/errors.js';
import { corpusFilesOf, corpusFilesOfFor, corpusPath, needsCorpus } from '../../../helpers/corpus.js';

const LIMITS = { maxEntries: 20_000 };
const enc = new TextEncoder();

function inflated(e: ZipEntry): Uint8Array {
  return e.uncompressedSize === 0 ? new Uint8Array(0) : inflateEntry(e.name, e.method, e.data, 1 << 30);
}

function codeOf(fn: () => unknown): PackageErrorCode | string {
  try {
    fn();
  } catch (err) {
    return err instanceof PackageError ? err.code : `not a PackageError: ${String(err)}`;
  }
  return 'no error';
}

async function openCode(bytes: Uint8Array): Promise<PackageErrorCode | string> {
  try {
    await OpcPackage.open(bytes);
  } catch (err) {
    return err instanceof PackageError ? err.code : `not a PackageError: ${String(err)}`;
  }
  return 'no error';
}

/** Runs a Python 3 zipfile script that writes the zip to sys.argv[1]; returns the file's bytes. */
function pythonZip(dir: string, name: string, script: string): Uint8Array {
  const path = join(dir, name);
  execFileSync('python3', ['-c', script, path], { stdio: ['ignore', 'ignore', 'inherit'] });
  return new Uint8Array(readFileSync(path));
}

interface RawEntry {
  name: Uint8Array | string;
  data?: Uint8Array | string;
  method?: number;
  flags?: number;
  extra?: Uint8Array;
  externalAttributes?: number;
  madeBy?: number;
}

/** A zip written field by field (STORE unless told), so tests can put any value in any header. */
function buildZip(entries: RawEntry[], comment = new Uint8Array(0)) {
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  const localOffsets: number[] = [];
  const centralOffsets: number[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = typeof e.name === 'string' ? enc.encode(e.name) : e.name;
    const data = typeof e.data === 'string' ? enc.encode(e.data) : (e.data ?? new Uint8Array(0));
    const extra = e.extra ?? new Uint8Array(0);
    const crc = crc32(data) >>> 0;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(6, e.flags ?? 0, true);
    local.setUint16(8, e.method ?? 0, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, data.length, true);
    local.setUint16(26, name.length, true);
    localOffsets.push(offset);
    chunks.push(new Uint8Array(local.buffer), name, data);
    const cd = new DataView(new ArrayBuffer(46));
    cd.setUint32(0, 0x02014b50, true);
    cd.setUint16(4, e.madeBy ?? 20, true);
    cd.setUint16(6, 20, true);
    cd.setUint16(8, e.flags ?? 0, true);
    cd.setUint16(10, e.method ?? 0, true);
    cd.setUint32(16, crc, true);
    cd.setUint32(20, data.length, true);
    cd.setUint32(24, data.length, true);
    cd.setUint16(28, name.length, true);
    cd.setUint16(30, extra.length, true);
    cd.setUint32(38, e.externalAttributes ?? 0, true);
    cd.setUint32(42, offset, true);
    central.push(new Uint8Array(cd.buffer), name, extra);
    offset += 30 + name.length + data.length;
  }
  const cdOffset = offset;
  for (let i = 0, at = cdOffset; i < central.length; i += 3) {
    centralOffsets.push(at);
    at += central[i]!.length + central[i + 1]!.length + central[i + 2]!.length;
  }
  const cdSize = central.reduce((n, c) => n + c.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, cdSize, true);
  end.setUint32(16, cdOffset, true);
  end.setUint16(20, comment.length, true);
  const bytes = new Uint8Array(Buffer.concat([...chunks, ...central, new Uint8Array(end.buffer), comment]));
  const eocd = cdOffset + cdSize;
  return { bytes, view: new DataView(bytes.buffer), localOffsets, centralOffsets, cdOffset, eocd };
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/octet-stream"/></Types>';

t.test('reads every corpus template to the entries and bytes jszip reads', needsCorpus(), async (t) => {
  const files = [...corpusFilesOfFor(t, 'templates'), ...corpusFilesOf('bench')];
  t.ok(files.length >= 40, `${files.length} corpus files`);
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(corpusPath(file)));
    const ours = readZipEntries(bytes, LIMITS);
    const zip = await JSZip.loadAsync(bytes, { createFolders: false });
    const theirs = Object.values(zip.files);
    const ourFiles = ours.filter((e) => !e.isDirectory);
    t.same(ourFiles.map((e) => e.name).sort(), theirs.filter((f) => !f.dir).map((f) => f.name).sort(), `${file}: same file entries`);
    t.same(
      ours.filter((e) => e.isDirectory).map((e) => (e.name.endsWith('/') ? e.name : `${e.name}/`)).sort(),
      theirs.filter((f) => f.dir).map((f) => f.name).sort(),
      `${file}: same folder entries`,
    );
    const problems: string[] = [];
    for (const e of ourFiles) {
      const mine = inflated(e);
      const ref = await zip.file(e.name)!.async('uint8array');
      if (!Buffer.from(mine.buffer, mine.byteOffset, mine.byteLength).equals(ref)) problems.push(`${e.name}: bytes differ`);
      if (mine.length !== e.uncompressedSize) problems.push(`${e.name}: ${mine.length} bytes, ${e.uncompressedSize} declared`);
      if ((crc32(mine) >>> 0) !== e.crc32) problems.push(`${e.name}: CRC-32 differs`);
      if (e.data.buffer !== bytes.buffer) problems.push(`${e.name}: data copied, not a view`);
    }
    t.same(problems, [], `${file}: ${ourFiles.length} entries inflate to jszip's bytes, CRC-32 and sizes match`);
  }
});

t.test('ZIP64: end record through the locator and zip64 extra fields in central headers', async (t) => {
  const dir = t.testdir();
  // Lowering zipfile's limits makes Python write every ZIP64 structure for a tiny archive:
  // ZIP64 end record + locator, central headers with 0xFFFFFFFF sizes/offsets and the 0x0001 extra.
  const bytes = pythonZip(
    dir,
    'z64.zip',
    `
import sys, zipfile
zipfile.ZIP64_LIMIT = 0
zipfile.ZIP_FILECOUNT_LIMIT = 0
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED, allowZip64=True) as zf:
    def put(name, data, method=zipfile.ZIP_DEFLATED):
        zi = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
        zi.compress_type = method
        if name.endswith('/'):
            zi.external_attr = (0o40755 << 16) | 0x10
        with zf.open(zi, 'w', force_zip64=True) as f:
            f.write(data)
    put('[Content_Types].xml', ${JSON.stringify(CONTENT_TYPES)}.encode())
    put('ppt/', b'', zipfile.ZIP_STORED)
    put('ppt/x.bin', bytes(range(256)) * 3, zipfile.ZIP_STORED)
    put('ppt/y.xml', b'<y>' + b'z' * 5000 + b'</y>')
    put('empty.xml', b'')
`,
  );
  const b = Buffer.from(bytes);
  t.ok(b.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06])) && b.includes(Buffer.from([0x50, 0x4b, 0x06, 0x07])), 'the file has a ZIP64 end record and locator');
  // Python keeps the true values in the classic end record; saturate them as other writers
  // do, so only the ZIP64 end record can say where the central directory is.
  const eocd = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  dv.setUint16(eocd + 8, 0xffff, true);
  dv.setUint16(eocd + 10, 0xffff, true);
  dv.setUint32(eocd + 12, 0xffffffff, true);
  dv.setUint32(eocd + 16, 0xffffffff, true);

  const entries = readZipEntries(bytes, LIMITS);
  t.same(entries.map((e) => [e.name, e.isDirectory, e.method]), [
    ['[Content_Types].xml', false, 8],
    ['ppt/', true, 0],
    ['ppt/x.bin', false, 0],
    ['ppt/y.xml', false, 8],
    ['empty.xml', false, 8],
  ]);
  const x = entries[2]!;
  t.equal(x.uncompressedSize, 768, 'size from the zip64 extra');
  t.same([...inflated(x)], [...Buffer.alloc(768).map((_, i) => i % 256)]);
  t.equal(new TextDecoder().decode(inflated(entries[3]!)), `<y>${'z'.repeat(5000)}</y>`);
  t.equal(inflated(entries[4]!).length, 0);

  const pkg = await OpcPackage.open(bytes);
  t.same(pkg.partNames().sort(), ['/empty.xml', '/ppt/x.bin', '/ppt/y.xml'], 'OpcPackage opens it, folder skipped');
  t.equal(pkg.getBytes('/ppt/x.bin').length, 768);

  // A zip64 extra field that lacks the sizes its saturated fields announce.
  const entriesAt = b.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  const noExtra = new Uint8Array(bytes);
  new DataView(noExtra.buffer).setUint16(entriesAt + 46 + 19 + 0, 0x9999, true); // first extra block's id
  t.equal(codeOf(() => readZipEntries(noExtra, LIMITS)), 'zip_truncated', 'missing zip64 extra → zip_truncated');

  // A ZIP64 end record that claims an entry count beyond the limit.
  const rec = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]));
  const many = new Uint8Array(bytes);
  new DataView(many.buffer).setBigUint64(rec + 32, 1n << 40n, true);
  t.equal(codeOf(() => readZipEntries(many, LIMITS)), 'too_many_parts');
  // … and a central directory offset of 2^60.
  const far = new Uint8Array(bytes);
  new DataView(far.buffer).setBigUint64(rec + 48, 1n << 60n, true);
  t.equal(codeOf(() => readZipEntries(far, LIMITS)), 'zip_truncated');
  // … a locator pointing past the end.
  const loc = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x07]));
  const lost = new Uint8Array(bytes);
  new DataView(lost.buffer).setBigUint64(loc + 8, BigInt(bytes.length + 100), true);
  t.equal(codeOf(() => readZipEntries(lost, LIMITS)), 'zip_truncated');
  // … a zip64 compressed size of 2^62 in a central header (the second field: uncompressed size comes first).
  const huge = new Uint8Array(bytes);
  new DataView(huge.buffer).setBigUint64(entriesAt + 46 + 19 + 4 + 8, 1n << 62n, true);
  t.equal(codeOf(() => readZipEntries(huge, LIMITS)), 'zip_truncated');
  // … or an uncompressed size of 2^62: read as declared, refused by OpcPackage's declared-total limit.
  const bomb = new Uint8Array(bytes);
  new DataView(bomb.buffer).setBigUint64(entriesAt + 46 + 19 + 4, 1n << 62n, true);
  t.equal(readZipEntries(bomb, LIMITS)[0]!.uncompressedSize, 2 ** 62);
  t.equal(await openCode(bomb), 'zip_bomb');
});

t.test('a zip comment, even one holding a fake end record, is skipped', async (t) => {
  const dir = t.testdir();
  // The comment starts with an end-record signature whose comment length (0xFFFF) cannot fit.
  const bytes = pythonZip(
    dir,
    'comment.zip',
    `
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as zf:
    zf.writestr('[Content_Types].xml', ${JSON.stringify(CONTENT_TYPES)})
    zf.writestr('a.xml', '<a/>' * 100)
    zf.comment = b'PK\\x05\\x06' + b'\\x00' * 16 + b'\\xff\\xff' + b' a comment' * 100
`,
  );
  const entries = readZipEntries(bytes, LIMITS);
  t.same(entries.map((e) => e.name), ['[Content_Types].xml', 'a.xml']);
  t.equal(new TextDecoder().decode(inflated(entries[1]!)), '<a/>'.repeat(100));
  t.ok(await OpcPackage.open(bytes));

  // The end record is sought at most 65,535 + 22 bytes back: past that it is not found.
  const { bytes: small } = buildZip([{ name: 'a', data: 'x' }]);
  const padded = Buffer.concat([small, Buffer.alloc(0x10000)]);
  t.equal(codeOf(() => readZipEntries(padded, LIMITS)), 'zip_truncated', 'an end record 64 KiB + 22 before the end is not found');
  const { bytes: withComment } = buildZip([{ name: 'a', data: 'x' }], new Uint8Array(0xffff).fill(0x20));
  t.same(readZipEntries(withComment, LIMITS).map((e) => e.name), ['a'], 'a 65,535-byte comment is fine');
});

t.test('data descriptors (flag bit 3): sizes come from the central directory', async (t) => {
  const dir = t.testdir();
  // Writing to a stream that cannot seek makes zipfile use data descriptors.
  const bytes = pythonZip(
    dir,
    'dd.zip',
    `
import io, sys, zipfile
class Sink(io.RawIOBase):
    def __init__(self, f): self.f = f
    def writable(self): return True
    def write(self, b): return self.f.write(b)
with open(sys.argv[1], 'wb') as f:
    with zipfile.ZipFile(Sink(f), 'w', zipfile.ZIP_DEFLATED) as zf:
        zf.writestr('[Content_Types].xml', ${JSON.stringify(CONTENT_TYPES)})
        with zf.open('ppt/one.xml', 'w') as w:
            w.write(b'<one>' + b'1' * 3000 + b'</one>')
        with zf.open('ppt/two.bin', 'w') as w:
            w.write(bytes(range(256)) * 40)
`,
  );
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  t.equal(dv.getUint16(6, true) & 8, 8, 'first local header has flag bit 3');
  t.equal(dv.getUint32(18, true), 0, 'and no sizes');
  const entries = readZipEntries(bytes, LIMITS);
  t.same(entries.map((e) => e.name), ['[Content_Types].xml', 'ppt/one.xml', 'ppt/two.bin']);
  t.equal(new TextDecoder().decode(inflated(entries[1]!)), `<one>${'1'.repeat(3000)}</one>`);
  t.equal(crc32(inflated(entries[2]!)) >>> 0, entries[2]!.crc32);
  const zip = await JSZip.loadAsync(bytes);
  t.same([...inflated(entries[2]!)], [...(await zip.file('ppt/two.bin')!.async('uint8array'))], 'same bytes as jszip');
});

t.test('entry names: UTF-8 with flag bit 11, CP437 without, Info-ZIP Unicode Path', async (t) => {
  const high = new Uint8Array(128).map((_, i) => 0x80 + i);
  const cp437 = execFileSync('python3', ['-c', "import sys; sys.stdout.buffer.write(bytes(range(128, 256)).decode('cp437').encode('utf-8'))"]).toString('utf8');
  t.equal([...cp437].length, 128);
  const upathName = enc.encode('Präsentation (from the Unicode Path field).xml');
  const latinName = Buffer.from('Pr\x84sentation.xml', 'latin1'); // ä in CP437 is 0x84
  const upath = Buffer.concat([Buffer.from([0x75, 0x70]), Buffer.alloc(2), Buffer.from([1]), Buffer.alloc(4), upathName]);
  upath.writeUInt16LE(upath.length - 4, 2);
  upath.writeUInt32LE(crc32(latinName) >>> 0, 5);
  const { bytes } = buildZip([
    { name: 'ascii/name.xml' },
    { name: Buffer.concat([Buffer.from('x/'), high]) },
    { name: 'δοκιμή/日本.xml', flags: 1 << 11 },
    { name: latinName, extra: upath },
    { name: latinName, extra: Buffer.concat([upath.subarray(0, 5), Buffer.alloc(4), upath.subarray(9)]) },
  ]);
  const names = readZipEntries(bytes, LIMITS).map((e) => e.name);
  t.same(
    names,
    ['ascii/name.xml', `x/${cp437}`, 'δοκιμή/日本.xml', 'Präsentation (from the Unicode Path field).xml', 'Präsentation.xml'],
    'the last one through CP437: its Unicode Path CRC does not match the stored name',
  );
  t.equal(names[4], 'Pr' + cp437[0x84 - 0x80] + 'sentation.xml');

  const { bytes: badUtf8 } = buildZip([{ name: Buffer.from([0x61, 0xff, 0xfe]), flags: 1 << 11 }]);
  t.equal(codeOf(() => readZipEntries(badUtf8, LIMITS)), 'bad_entry_name');
});

t.test('folders: trailing slash, MS-DOS directory attribute, Unix S_IFDIR', async (t) => {
  const { bytes } = buildZip([
    { name: 'a/' },
    { name: 'dos', externalAttributes: 0x10 },
    { name: 'unix', madeBy: (3 << 8) | 20, externalAttributes: (0o040755 << 16) >>> 0 },
    { name: 'file', madeBy: (3 << 8) | 20, externalAttributes: (0o100644 << 16) >>> 0, data: 'x' },
  ]);
  t.same(readZipEntries(bytes, LIMITS).map((e) => [e.name, e.isDirectory]), [['a/', true], ['dos', true], ['unix', true], ['file', false]]);
});

t.test('truncated files, lying sizes and offsets end in zip_truncated', async (t) => {
  const base = buildZip([
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: 'ppt/a.xml', data: '<a/>'.repeat(50) },
  ]);
  t.equal(codeOf(() => readZipEntries(base.bytes, LIMITS)), 'no error', 'the unaltered zip reads');
  t.ok(await OpcPackage.open(base.bytes), 'and opens');

  for (const cut of [base.bytes.length - 1, base.bytes.length - 22, base.eocd + 10, base.cdOffset + 10, base.cdOffset, Math.floor(base.bytes.length / 2), 40, 4]) {
    t.equal(codeOf(() => readZipEntries(base.bytes.subarray(0, cut), LIMITS)), 'zip_truncated', `cut to ${cut} of ${base.bytes.length} bytes`);
    t.equal(await openCode(base.bytes.slice(0, cut)), 'zip_truncated', `OpcPackage.open: cut to ${cut}`);
  }

  const patched = (what: string, patch: (v: DataView) => void): void => {
    const copy = new Uint8Array(base.bytes);
    patch(new DataView(copy.buffer));
    t.equal(codeOf(() => readZipEntries(copy, LIMITS)), 'zip_truncated', what);
  };
  const [c0, c1] = base.centralOffsets as [number, number];
  patched('compressed size of 4 GiB - 2', (v) => v.setUint32(c1 + 20, 0xfffffffe, true));
  patched('compressed size one byte into the central directory', (v) => v.setUint32(c1 + 20, v.getUint32(c1 + 20, true) + 1, true));
  patched('local header offset past the end', (v) => v.setUint32(c1 + 42, 0x7fffffff, true));
  patched('local header offset at no local header', (v) => v.setUint32(c1 + 42, 7, true));
  patched('local header offset inside the central directory', (v) => v.setUint32(c0 + 42, base.cdOffset, true));
  patched('local name length past the data', (v) => v.setUint16(base.localOffsets[1]! + 26, 0xffff, true));
  patched('central name length past the directory', (v) => v.setUint16(c1 + 28, 0xffff, true));
  patched('central extra length past the directory', (v) => v.setUint16(c0 + 30, 2000, true));
  patched('central directory offset past the end', (v) => v.setUint32(base.eocd + 16, 0xfffffff0, true));
  patched('central directory size past the end record', (v) => v.setUint32(base.eocd + 12, v.getUint32(base.eocd + 12, true) + 1, true));
  patched('central directory smaller than its entries', (v) => v.setUint32(base.eocd + 12, 50, true));
  patched('more entries declared than present', (v) => v.setUint16(base.eocd + 10, 3, true));
  patched('fewer entries declared than present', (v) => v.setUint16(base.eocd + 10, 1, true));
  patched('bad central header signature', (v) => v.setUint32(c1, 0x02014b51, true));
});

t.test('an encrypted entry is refused as encrypted', async (t) => {
  const { bytes } = buildZip([
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: 'ppt/secret.xml', data: 'not really encrypted', flags: 1 },
  ]);
  t.equal(codeOf(() => readZipEntries(bytes, LIMITS)), 'encrypted');
  t.equal(await openCode(bytes), 'encrypted');
  const { bytes: strong } = buildZip([{ name: 'x', flags: 1 << 13 }]);
  t.equal(codeOf(() => readZipEntries(strong, LIMITS)), 'encrypted', 'encrypted central directory (bit 13)');
});

t.test('an entry count above the limit is refused before any entry is read', async (t) => {
  // The end record declares 65,534 entries over a central directory of garbage: reading
  // even one entry would fail with zip_truncated instead.
  const bytes = new Uint8Array(4 + 100 + 22);
  const v = new DataView(bytes.buffer);
  v.setUint32(0, 0x04034b50, true);
  v.setUint32(104, 0x06054b50, true);
  v.setUint16(104 + 8, 0xfffe, true);
  v.setUint16(104 + 10, 0xfffe, true);
  v.setUint32(104 + 12, 100, true);
  v.setUint32(104 + 16, 4, true);
  t.equal(codeOf(() => readZipEntries(bytes, LIMITS)), 'too_many_parts');
  t.equal(await openCode(bytes), 'too_many_parts');
  t.equal(codeOf(() => readZipEntries(bytes, { maxEntries: 100_000 })), 'zip_truncated', 'with a higher limit the garbage is found');

  const { bytes: three } = buildZip([{ name: 'a' }, { name: 'b' }, { name: 'c/' }]);
  t.equal(codeOf(() => readZipEntries(three, { maxEntries: 2 })), 'too_many_parts', 'folder entries count');
  t.equal(readZipEntries(three, { maxEntries: 3 }).length, 3);
});

t.test('entries that share bytes are refused as a zip bomb', async (t) => {
  const z = buildZip([
    { name: 'a.xml', data: 'x'.repeat(100) },
    { name: 'b.xml', data: 'y'.repeat(100) },
  ]);
  z.view.setUint32(z.centralOffsets[1]! + 42, 0, true); // b's central record points at a's local header
  t.equal(codeOf(() => readZipEntries(z.bytes, LIMITS)), 'zip_bomb');
});

t.test('entries sharing one byte array are compressed once and each stands on its own', async (t) => {
  const shared = enc.encode('<Relationships>' + '<Relationship Id="rId1"/>'.repeat(50) + '</Relationships>');
  const parts = [
    { name: 'ppt/slides/_rels/slide1.xml.rels', bytes: shared },
    { name: 'ppt/slides/slide1.xml', bytes: enc.encode('<sld/>') },
    { name: 'ppt/slides/_rels/slide2.xml.rels', bytes: shared },
  ];
  const zip = writeZip(parts);
  const entries = readZipEntries(zip, LIMITS);
  t.same(entries.map((e) => e.name), parts.map((p) => p.name));
  // one local header and one copy of the data per entry (a reader that refuses shared data accepts it)
  t.not(entries[0]!.data.byteOffset, entries[2]!.data.byteOffset);
  t.same([...entries[0]!.data], [...entries[2]!.data], 'the same compressed stream');
  for (const i of [0, 2]) t.same([...inflated(entries[i]!)], [...shared], `${entries[i]!.name} bytes`);
  const file = join(t.testdir(), 'shared.zip');
  writeFileSync(file, zip);
  t.equal(execFileSync('python3', ['-c', 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).testzip())', file], { encoding: 'utf8' }).trim(), 'None');
});

t.test('round trip: what writeZip writes reads back, STORE and DEFLATE, empty entries', async (t) => {
  const parts = [
    { name: 'a.xml', bytes: enc.encode('<a>' + 'text '.repeat(1000) + '</a>') },
    { name: 'pic.png', bytes: new Uint8Array(5000).map((_, i) => (i * 7) & 255), store: true },
    { name: 'empty.xml', bytes: new Uint8Array(0) },
    { name: 'dir/ünïcode.xml', bytes: enc.encode('<u/>') },
  ];
  const entries = readZipEntries(writeZip(parts), LIMITS);
  t.same(entries.map((e) => [e.name, e.method]), [['a.xml', 8], ['pic.png', 0], ['empty.xml', 0], ['dir/ünïcode.xml', 8]]);
  entries.forEach((e, i) => t.same([...inflated(e)], [...parts[i]!.bytes], `${e.name} bytes`));
  // writeZip output is also what jszip sees
  const file = join(t.testdir(), 'rt.zip');
  writeFileSync(file, writeZip(parts));
  const zip = await JSZip.loadAsync(readFileSync(file));
  t.same(Object.keys(zip.files), parts.map((p) => p.name));
});

t.test('parts held compressed (setCompressed): read back, parsed, counted, written as given, replaced and removed', needsCorpus('bench/RootTemplate.pptx'), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('bench/RootTemplate.pptx')));
  const before = pkg.totalBytes();
  const xml = enc.encode(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main">${'<p:cSld/>'.repeat(200)}</p:sld>`);
  const held = compressEntry(xml);
  t.equal(held.method, 8, 'deflated');
  t.ok(held.data.length < xml.length / 10, `held in ${held.data.length} of ${xml.length} bytes`);
  t.equal(held.crc32, crc32(xml) >>> 0, 'its CRC-32 is that of the bytes');
  pkg.setCompressed('/ppt/slides/held1.xml', held, 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml');
  t.same([...pkg.getBytes('/ppt/slides/held1.xml')], [...xml], 'read back inflated');
  t.equal(pkg.getXml('/PPT/slides/HELD1.xml').documentElement!.childNodes.length, 200, 'parsed (its name matched in any case)');
  t.equal(pkg.totalBytes(), before + xml.length, 'counted at its uncompressed size');
  const written = await pkg.toBytes(1);
  const entries = readZipEntries(written, LIMITS);
  const entry = entries.find((e) => e.name === 'ppt/slides/held1.xml')!;
  t.same([...entry.data], [...held.data], 'written as given (not re-compressed at the level toBytes was given)');
  t.same([...inflated(entry)], [...xml]);
  const file = join(t.testdir(), 'held.pptx');
  writeFileSync(file, written);
  t.equal(execFileSync('python3', ['-c', 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).testzip())', file], { encoding: 'utf8' }).trim(), 'None', "python's zipfile checks every entry's CRC");
  const reopened = await OpcPackage.open(written);
  t.same([...reopened.getBytes('/ppt/slides/held1.xml')], [...xml], 'the written package reads it back');
  // replaced by plain bytes: the held form is gone
  pkg.setBytes('/ppt/slides/held1.xml', enc.encode('<x/>'));
  t.equal(new TextDecoder().decode(pkg.getBytes('/ppt/slides/held1.xml')), '<x/>');
  const again = readZipEntries(await pkg.toBytes(), LIMITS).find((e) => e.name === 'ppt/slides/held1.xml')!;
  t.equal(new TextDecoder().decode(inflated(again)), '<x/>', 'the new bytes are written');
  pkg.setCompressed('/ppt/slides/held1.xml', held);
  pkg.removePart('/ppt/slides/held1.xml');
  t.notOk(pkg.hasPart('/ppt/slides/held1.xml'), 'removed');
  t.equal(pkg.totalBytes(), before, 'and no longer counted');
  t.notOk(readZipEntries(await pkg.toBytes(), LIMITS).some((e) => e.name === 'ppt/slides/held1.xml'), 'nor written');
  // a corrupt held entry fails when read, as a part of a corrupt zip does
  pkg.setCompressed('/ppt/slides/bad.xml', { ...held, size: held.size + 1 });
  t.throws(() => pkg.getBytes('/ppt/slides/bad.xml'), { code: 'zip_truncated' });
});
