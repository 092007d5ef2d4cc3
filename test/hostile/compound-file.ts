/**
 * A small writer of Compound File Binary files ([MS-CFB] version 3: 512-byte sectors, a
 * mini stream of 64-byte sectors for streams under 4096 bytes), enough to make the two
 * OLE containers an upload may be instead of a zip: a password-protected .pptx
 * ([MS-OFFCRYPTO] §2.3.4.14: streams `EncryptionInfo` and `EncryptedPackage` next to the
 * `\x06DataSpaces` storage) and a legacy binary .ppt ([MS-PPT]: `PowerPoint Document`,
 * `Current User`). Deterministic: content comes from {@link seededBytes}.
 */

const SECTOR = 512;
const MINI_SECTOR = 64;
const MINI_CUTOFF = 4096;
const FREESECT = 0xffffffff;
const ENDOFCHAIN = 0xfffffffe;
const FATSECT = 0xfffffffd;
const NOSTREAM = 0xffffffff;

/** A stream (with `data`) or a storage (with `children`) of a compound file. */
export interface CfbNode {
  name: string;
  data?: Uint8Array;
  children?: CfbNode[];
}

/**
 * `length` pseudo-random bytes from `seed` (xorshift32): the same seed always gives the
 * same bytes.
 */
export function seededBytes(seed: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 0x9e3779b9;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

interface FlatEntry {
  node: CfbNode;
  type: 1 | 2 | 5;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

/** [MS-CFB] §2.6.4: siblings are ordered by name length, then by upper-cased name. */
function compareNames(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  const ua = a.toUpperCase();
  const ub = b.toUpperCase();
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

/**
 * Writes a compound file whose root storage holds `children`.
 *
 * @returns the file's bytes (a multiple of 512)
 * @throws RangeError for a name over 31 characters (the directory entry holds 32 UTF-16 units with the terminator)
 */
export function buildCompoundFile(children: readonly CfbNode[]): Uint8Array {
  // Directory entries in order: root first, then each storage's children depth-first.
  const flat: FlatEntry[] = [];
  const add = (node: CfbNode, type: 1 | 2 | 5): number => {
    if (node.name.length > 31) throw new RangeError(`compound file name too long: ${node.name}`);
    flat.push({ node, type, left: NOSTREAM, right: NOSTREAM, child: NOSTREAM, start: ENDOFCHAIN, size: 0 });
    return flat.length - 1;
  };
  /** Siblings as a binary search tree: the middle one on top (all entries black). */
  const tree = (nodes: readonly CfbNode[]): number => {
    if (nodes.length === 0) return NOSTREAM;
    const sorted = [...nodes].sort((a, b) => compareNames(a.name, b.name));
    const build = (lo: number, hi: number): number => {
      if (lo > hi) return NOSTREAM;
      const mid = (lo + hi) >> 1;
      const n = sorted[mid]!;
      const idx = add(n, n.children ? 1 : 2);
      flat[idx]!.left = build(lo, mid - 1);
      flat[idx]!.right = build(mid + 1, hi);
      if (n.children) flat[idx]!.child = tree(n.children);
      return idx;
    };
    return build(0, sorted.length - 1);
  };
  add({ name: 'Root Entry', children: [...children] }, 5);
  flat[0]!.child = tree(children);

  // Small streams go to the mini stream, large ones to their own sectors.
  const mini: Uint8Array[] = [];
  const miniFat: number[] = [];
  const big: FlatEntry[] = [];
  for (const e of flat) {
    if (e.type !== 2) continue;
    const data = e.node.data ?? new Uint8Array(0);
    e.size = data.length;
    if (data.length === 0) continue;
    if (data.length < MINI_CUTOFF) {
      const first = miniFat.length;
      const count = Math.ceil(data.length / MINI_SECTOR);
      for (let i = 0; i < count; i++) miniFat.push(i === count - 1 ? ENDOFCHAIN : first + i + 1);
      const padded = new Uint8Array(count * MINI_SECTOR);
      padded.set(data);
      mini.push(padded);
      e.start = first;
    } else {
      big.push(e);
    }
  }
  const miniStream = concat(mini);
  const sectorsOf = (bytes: number): number => Math.ceil(bytes / SECTOR);
  const dirSectors = sectorsOf(flat.length * 128);
  const miniFatSectors = sectorsOf(miniFat.length * 4);
  const miniStreamSectors = sectorsOf(miniStream.length);
  const bigSectors = big.reduce((n, e) => n + sectorsOf(e.size), 0);
  const payload = dirSectors + miniFatSectors + miniStreamSectors + bigSectors;
  let fatSectors = 1;
  while (fatSectors * (SECTOR / 4) < payload + fatSectors) fatSectors++;
  if (fatSectors > 109) throw new RangeError('compound file too large for a header-only DIFAT');

  const total = fatSectors + payload;
  const fat = new Array<number>(fatSectors * (SECTOR / 4)).fill(FREESECT);
  let next = 0;
  const chain = (count: number): number => {
    if (count === 0) return ENDOFCHAIN;
    const first = next;
    for (let i = 0; i < count; i++) fat[next + i] = i === count - 1 ? ENDOFCHAIN : next + i + 1;
    next += count;
    return first;
  };
  for (let i = 0; i < fatSectors; i++) fat[next++] = FATSECT;
  const dirStart = chain(dirSectors);
  const miniFatStart = chain(miniFatSectors);
  const miniStreamStart = chain(miniStreamSectors);
  flat[0]!.start = miniStreamStart;
  flat[0]!.size = miniStream.length;
  for (const e of big) e.start = chain(sectorsOf(e.size));

  const out = new Uint8Array(SECTOR * (1 + total));
  const view = new DataView(out.buffer);
  // header (§2.2)
  out.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 0);
  view.setUint16(24, 0x003e, true); // minor version
  view.setUint16(26, 0x0003, true); // major version 3
  view.setUint16(28, 0xfffe, true); // little-endian
  view.setUint16(30, 9, true); // 2^9 = 512-byte sectors
  view.setUint16(32, 6, true); // 2^6 = 64-byte mini sectors
  view.setUint32(44, fatSectors, true);
  view.setUint32(48, dirStart, true);
  view.setUint32(56, MINI_CUTOFF, true);
  view.setUint32(60, miniFatSectors ? miniFatStart : ENDOFCHAIN, true);
  view.setUint32(64, miniFatSectors, true);
  view.setUint32(68, ENDOFCHAIN, true); // no DIFAT sectors
  for (let i = 0; i < 109; i++) view.setUint32(76 + i * 4, i < fatSectors ? i : FREESECT, true);

  const sectorAt = (s: number): number => SECTOR * (1 + s);
  fat.forEach((v, i) => view.setUint32(sectorAt(0) + i * 4, v, true));
  flat.forEach((e, i) => {
    const at = sectorAt(dirStart) + i * 128;
    const name = e.node.name;
    for (let k = 0; k < name.length; k++) view.setUint16(at + k * 2, name.charCodeAt(k), true);
    view.setUint16(at + 64, (name.length + 1) * 2, true);
    out[at + 66] = e.type;
    out[at + 67] = 1; // black
    view.setUint32(at + 68, e.left, true);
    view.setUint32(at + 72, e.right, true);
    view.setUint32(at + 76, e.child, true);
    view.setUint32(at + 116, e.type === 1 ? 0 : e.start, true);
    view.setUint32(at + 120, e.size, true);
  });
  // unused directory slots: empty entries with no siblings
  for (let i = flat.length; i < dirSectors * 4; i++) {
    const at = sectorAt(dirStart) + i * 128;
    view.setUint32(at + 68, NOSTREAM, true);
    view.setUint32(at + 72, NOSTREAM, true);
    view.setUint32(at + 76, NOSTREAM, true);
  }
  const miniFatBytes = new Array<number>(miniFatSectors * (SECTOR / 4)).fill(FREESECT);
  miniFat.forEach((v, i) => (miniFatBytes[i] = v));
  if (miniFatSectors) miniFatBytes.forEach((v, i) => view.setUint32(sectorAt(miniFatStart) + i * 4, v, true));
  if (miniStreamSectors) out.set(miniStream, sectorAt(miniStreamStart));
  for (const e of big) out.set(e.node.data!, sectorAt(e.start));
  return out;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function utf16(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 2);
  for (let i = 0; i < s.length; i++) {
    out[i * 2] = s.charCodeAt(i) & 0xff;
    out[i * 2 + 1] = s.charCodeAt(i) >> 8;
  }
  return out;
}

/** A length-prefixed UTF-16 string as [MS-OFFCRYPTO] writes them (UNICODE-LP-P4: byte length, text, padding to 4). */
function lengthPrefixed(s: string): Uint8Array {
  const text = utf16(s);
  const out = new Uint8Array(4 + text.length + ((4 - (text.length % 4)) % 4));
  new DataView(out.buffer).setUint32(0, text.length, true);
  out.set(text, 4);
  return out;
}

function base64(seed: number, length: number): string {
  return Buffer.from(seededBytes(seed, length)).toString('base64');
}

/**
 * A password-protected presentation as PowerPoint saves one: an OLE compound file with
 * the agile `EncryptionInfo` (version 4.4, an XML descriptor of AES-256 / SHA-512 key
 * data), the `EncryptedPackage` (8-byte plaintext size, then ciphertext: here seeded
 * bytes) and the `\x06DataSpaces` storage naming the encryption transform.
 */
export function encryptedOfficeFile(): Uint8Array {
  const xml =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n' +
    '<encryption xmlns="http://schemas.microsoft.com/office/2006/encryption" xmlns:p="http://schemas.microsoft.com/office/2006/keyEncryptor/password">' +
    `<keyData saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512" saltValue="${base64(1, 16)}"/>` +
    `<dataIntegrity encryptedHmacKey="${base64(2, 64)}" encryptedHmacValue="${base64(3, 64)}"/>` +
    '<keyEncryptors><keyEncryptor uri="http://schemas.microsoft.com/office/2006/keyEncryptor/password">' +
    `<p:encryptedKey spinCount="100000" saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512" saltValue="${base64(4, 16)}" encryptedVerifierHashInput="${base64(5, 16)}" encryptedVerifierHashValue="${base64(6, 64)}" encryptedKeyValue="${base64(7, 32)}"/>` +
    '</keyEncryptor></keyEncryptors></encryption>';
  const info = concat([new Uint8Array([4, 0, 4, 0, 0x40, 0, 0, 0]), new TextEncoder().encode(xml)]);
  const plainSize = 28_672;
  const pkg = new Uint8Array(8 + plainSize);
  new DataView(pkg.buffer).setBigUint64(0, BigInt(plainSize - 13), true);
  pkg.set(seededBytes(8, plainSize), 8);
  const version = concat([lengthPrefixed('Microsoft.Container.DataSpaces'), new Uint8Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])]);
  const mapEntry = concat([new Uint8Array([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]), lengthPrefixed('EncryptedPackage'), lengthPrefixed('StrongEncryptionDataSpace')]);
  new DataView(mapEntry.buffer).setUint32(0, mapEntry.length, true);
  const map = concat([new Uint8Array([8, 0, 0, 0, 1, 0, 0, 0]), mapEntry]);
  const dataSpace = concat([new Uint8Array([8, 0, 0, 0, 1, 0, 0, 0]), lengthPrefixed('StrongEncryptionTransform')]);
  const primary = concat([lengthPrefixed('{FF9A3F03-56EF-4613-BDD5-5A41C1D07246}'), lengthPrefixed('Microsoft.Container.EncryptionTransform')]);
  return buildCompoundFile([
    { name: 'EncryptionInfo', data: info },
    { name: 'EncryptedPackage', data: pkg },
    {
      name: '\u0006DataSpaces',
      children: [
        { name: 'Version', data: version },
        { name: 'DataSpaceMap', data: map },
        { name: 'DataSpaceInfo', children: [{ name: 'StrongEncryptionDataSpace', data: dataSpace }] },
        { name: 'TransformInfo', children: [{ name: 'StrongEncryptionTransform', children: [{ name: '\u0006Primary', data: primary }] }] },
      ],
    },
  ]);
}

/**
 * A legacy binary presentation (.ppt, [MS-PPT]) in outline: `Current User`,
 * `PowerPoint Document` (seeded records) and `\x05SummaryInformation` streams.
 */
export function legacyPptFile(): Uint8Array {
  const currentUser = new Uint8Array(64);
  const cu = new DataView(currentUser.buffer);
  cu.setUint32(0, 20, true); // size
  cu.setUint32(4, 0xe391c05f, true); // headerToken: not encrypted
  currentUser.set(new TextEncoder().encode('hostile'), 24);
  return buildCompoundFile([
    { name: 'Current User', data: currentUser },
    { name: 'PowerPoint Document', data: seededBytes(11, 12_000) },
    { name: '\u0005SummaryInformation', data: seededBytes(12, 512) },
  ]);
}
