/**
 * The project's own catalog of hostile and malformed uploads: every class of bad input a
 * template upload can be (zip bombs, traversal and odd entry names, ZIP64 oddities, DTDs
 * and entities, deep and huge XML, encrypted and legacy OLE files, macros, broken package
 * structure, bad encodings, resource exhaustion, huge images), each with the answer the
 * service must give. Samples are built in memory, on demand, deterministically (fixed
 * timestamps, seeded bytes): the same catalog always gives the same bytes.
 *
 * `../shared/badinputs/make-bad-inputs.py` is an outside referee only; nothing here comes
 * from it.
 */
import { deflateSync } from 'node:zlib';
import type { PackageErrorCode } from '../../core/src/ooxml/errors.js';
import { encryptedOfficeFile, legacyPptFile, seededBytes } from './compound-file.js';
import {
  CT,
  RT,
  XML_DECL,
  addDefault,
  addOverride,
  addRel,
  chartFrame,
  chartXml,
  deckParts,
  edit,
  picture,
  plainSlide,
  relsXml,
  slideXml,
  text,
  textBox,
  titleShape,
  type Parts,
} from './deck-parts.js';
import {
  DEFLATE,
  FLAG_DATA_DESCRIPTOR,
  FLAG_ENCRYPTED,
  FLAG_UTF8,
  U32_MAX,
  buildZip,
  crcOf,
  dataDescriptor,
  deflatedEntry,
  repeatedDeflate,
  storedEntry,
  zip64Extra,
  zipOf,
  type ZipEntrySpec,
} from './raw-zip.js';

/**
 * The answer a sample must get.
 *
 * - `accepted`: the upload is stored and its analysis completes: a control sample, or a
 *   sample PowerPoint opens after repairing it, whose analysis must list those repairs
 *   ({@link HostileSample.repairs}; the outside referee calls these "reject or repair").
 * - `refused`: a 4xx before anything is stored: 413/415 when the template is created, or
 *   a 4xx to the upload itself.
 * - `rejected`: refused as above, or stored and then its analysis ends `failed` with a reason.
 * - `may-be-accepted`: valid or repairable enough that accepting it is fine; refusing it
 *   with a 4xx, or failing its analysis with a reason, is fine too. Never a 5xx, a hang or
 *   an internal error.
 */
export type ExpectedAnswer = 'accepted' | 'refused' | 'rejected' | 'may-be-accepted';

/** Codes a failure may carry: the package error codes, and `too_complex` (nesting past the stack). */
export type FailureCode = PackageErrorCode | 'too_complex';

/** The families of samples. */
export type SampleClass =
  | 'control'
  | 'container'
  | 'zip-bomb'
  | 'zip64'
  | 'zip-path'
  | 'xml-entity'
  | 'xml-depth'
  | 'xml-size'
  | 'encrypted'
  | 'macro'
  | 'structure'
  | 'encoding'
  | 'resource'
  | 'image';

/** A hostile sample and the answer it must get. */
export interface HostileSample {
  /** Unique name, also the file name uploaded (unless {@link filename}). */
  name: string;
  class: SampleClass;
  /** What the sample is and why it is hostile, in one line. */
  what: string;
  answer: ExpectedAnswer;
  /**
   * The failure codes that name this sample's fault: the code of a 422 (`package_<code>`)
   * or of a failed analysis must be one of them. Unset for controls; for `may-be-accepted`
   * samples, the codes a failure may carry.
   */
  codes?: readonly FailureCode[];
  /**
   * For an accepted sample PowerPoint repairs: the repairs its analysis must list
   * (`results.repairs[]`, core/src/ooxml/repair.ts), in order, by part, element and action.
   */
  repairs?: ReadonlyArray<{ part: string; element: string; action: string }>;
  /** The HTTP statuses a refusal may have (default any 4xx). */
  statuses?: readonly number[];
  /** File name announced when the template is created (default {@link name}). */
  filename?: string;
  /** Media type of the upload body (default the .pptx type). */
  mediaType?: string;
  /** Whether the size is declared when the template is created (default true). */
  declareSize?: boolean;
  /** The sample's bytes (built on each call). */
  build(): Uint8Array;
}

const MiB = 1024 * 1024;
const encoder = new TextEncoder();
const utf8 = (s: string): Uint8Array => encoder.encode(s);

/** The parts of a deck as honest deflated zip entries. */
function entriesOf(parts: Parts): ZipEntrySpec[] {
  return [...parts].map(([name, content]) => deflatedEntry(name, content));
}

/** A valid deck's parts changed by `change`, zipped honestly: deflated, except the parts named in `stored`. */
function deck(change?: (parts: Parts) => void, opts?: Parameters<typeof deckParts>[0], stored?: ReadonlySet<string>): Uint8Array {
  const parts = deckParts(opts);
  change?.(parts);
  if (!stored?.size) return zipOf(parts);
  return buildZip({ entries: [...parts].map(([name, content]) => (stored.has(name) ? storedEntry(name, content) : deflatedEntry(name, content))) });
}

/** `length` letters a–z from `seed`: text that deflate cannot shrink much below 60 %, so a ratio limit does not stop it first. */
function seededText(seed: number, length: number): string {
  const bytes = seededBytes(seed, length);
  let s = '';
  for (let i = 0; i < bytes.length; i += 65536) s += String.fromCharCode(...Array.from(bytes.subarray(i, i + 65536), (b) => 97 + (b % 26)));
  return s;
}

/** A valid deck zipped, then its entries changed by `change` before writing. */
function deckEntries(change: (entries: ZipEntrySpec[], parts: Parts) => ZipEntrySpec[] | void, opts?: Parameters<typeof deckParts>[0]): Uint8Array {
  const parts = deckParts(opts);
  const entries = entriesOf(parts);
  return buildZip({ entries: change(entries, parts) ?? entries });
}

/** Index of the entry called `name`. @throws TypeError when absent */
function indexOf(entries: readonly ZipEntrySpec[], name: string): number {
  const i = entries.findIndex((e) => e.name === name);
  if (i < 0) throw new TypeError(`no entry ${name}`);
  return i;
}

const SLIDE1 = 'ppt/slides/slide1.xml';
const SLIDE1_RELS = 'ppt/slides/_rels/slide1.xml.rels';

/** Slide 1 split around the end of its shape tree, for padding inserted there (valid XML either way). */
function slideHeadTail(): [Uint8Array, Uint8Array] {
  const s = plainSlide(1);
  const cut = s.indexOf('</p:spTree>');
  return [utf8(s.slice(0, cut)), utf8(s.slice(cut))];
}

/** Slide 1 as a DEFLATE stream padded with `repeats` copies of `fillerBytes` spaces. */
function paddedSlide(fillerBytes: number, repeats: number): ReturnType<typeof repeatedDeflate> {
  const [head, tail] = slideHeadTail();
  return repeatedDeflate(head, new Uint8Array(fillerBytes).fill(0x20), repeats, tail);
}

/** A deck whose slide 1 entry is replaced by `entry` fields (the rest honest). */
function withSlide1(fields: Partial<ZipEntrySpec>): Uint8Array {
  return deckEntries((entries) => {
    const i = indexOf(entries, SLIDE1);
    entries[i] = { ...entries[i]!, ...fields };
  });
}

// ---------------------------------------------------------------- pictures

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  out.set(utf8(type), 4);
  out.set(data, 8);
  v.setUint32(8 + data.length, crcOf(out.subarray(4, 8 + data.length)));
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

/** A PNG whose IHDR claims `width × height` RGB pixels, holding only the first 4 scanlines (a decoder that trusts the header allocates the whole). */
export function hugePng(width = 100_000, height = 100_000): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, adaptive filter, no interlace
  const rows = new Uint8Array((1 + width * 3) * 4); // filter byte 0 and black pixels
  return concat([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', new Uint8Array(deflateSync(rows, { level: 9 }))), pngChunk('IEND', new Uint8Array(0))]);
}

/** A baseline JPEG whose SOF0 claims 65500 × 65500 pixels, with a few bytes of scan data. */
export function hugeJpeg(): Uint8Array {
  const seg = (marker: number, body: number[]): number[] => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const jfif = seg(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const dqt = seg(0xdb, [0, ...new Array<number>(64).fill(1)]);
  const sof = seg(0xc0, [8, 0xff, 0xdc, 0xff, 0xdc, 1, 1, 0x11, 0]); // 8-bit, 65500 × 65500, one component
  const dht = seg(0xc4, [0x00, 0, 1, ...new Array<number>(14).fill(0), 0]); // DC table: one code of length 2
  const sos = seg(0xda, [1, 1, 0x00, 0, 63, 0]);
  return new Uint8Array([0xff, 0xd8, ...jfif, ...dqt, ...sof, ...dht, ...sos, 0x00, 0x00, 0x00, 0x00, 0xff, 0xd9]);
}

/** A GIF whose logical screen and only image claim 65535 × 65535 pixels. */
export function hugeGif(): Uint8Array {
  return new Uint8Array([
    ...utf8('GIF89a'), 0xff, 0xff, 0xff, 0xff, 0x80, 0, 0, // screen 65535 × 65535, 2-colour table
    0, 0, 0, 0xff, 0xff, 0xff,
    0x2c, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, // image descriptor 65535 × 65535
    2, 2, 0x44, 0x01, 0, // LZW min code size 2, one tiny block
    0x3b,
  ]);
}

/** A WebP (VP8X) whose canvas claims 16777216 × 16777216 pixels. */
export function hugeWebp(): Uint8Array {
  const vp8x = new Uint8Array([...utf8('VP8X'), 10, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  const body = concat([utf8('WEBP'), vp8x]);
  const riff = new Uint8Array(8);
  riff.set(utf8('RIFF'));
  new DataView(riff.buffer).setUint32(4, body.length, true);
  return concat([riff, body]);
}

/** A deck whose slide 1 shows `image` as `ppt/media/image1.<ext>`. */
function deckWithPicture(image: Uint8Array, ext: string, contentType: string): Uint8Array {
  return deck((p) => {
    p.set(SLIDE1, slideXml(titleShape(2, 'Huge picture') + picture(3, 'rId2')));
    addRel(p, SLIDE1_RELS, { id: 'rId2', type: RT.image, target: `../media/image1.${ext}` });
    if (ext !== 'png') addDefault(p, ext, contentType);
    p.set(`ppt/media/image1.${ext}`, image);
  });
}

// ---------------------------------------------------------------- XML

/** Slide 1 with `text` as its second text box's run (raw XML, not escaped). */
function slideWithText(xmlText: string): string {
  return slideXml(titleShape(2, 'Sample') + textBox(3, xmlText));
}

/** A DOCTYPE inserted after the XML declaration of a part. */
function withDoctype(parts: Parts, part: string, doctype: string): void {
  edit(parts, part, XML_DECL, `${XML_DECL}${doctype}\r\n`);
}

/** Group shapes nested `depth` deep around one text box. */
function nestedGroups(depth: number): string {
  let open = '';
  for (let k = 0; k < depth; k++) {
    open +=
      `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="${k + 10}" name="Group ${k}"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
      '<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/><a:chOff x="0" y="0"/><a:chExt cx="914400" cy="914400"/></a:xfrm></p:grpSpPr>';
  }
  return slideXml(open + textBox(depth + 10, 'deep') + '</p:grpSp>'.repeat(depth));
}

/** `count` small text boxes. */
function manyShapes(count: number): string {
  const shapes: string[] = [];
  for (let k = 0; k < count; k++) shapes.push(textBox(k + 2, String(k), (k % 200) * 45720, Math.floor(k / 200) * 22860, 45720, 22860));
  return slideXml(shapes.join(''));
}

/** Elements nested `depth` deep (unnamespaced, as any part could hold). */
function deepElements(depth: number): string {
  return '<x>'.repeat(depth) + '</x>'.repeat(depth);
}

// ---------------------------------------------------------------- the catalog

const CATALOG: readonly HostileSample[] = [
  // ---- controls: well-formed packages written in the ways real zippers write them
  { name: 'ok-minimal.pptx', class: 'control', what: 'a minimal valid deck (one master, layout, slide, theme)', answer: 'accepted', build: () => deck() },
  {
    name: 'ok-stored-entries.pptx',
    class: 'control',
    what: 'a valid deck whose entries are all STOREd, not deflated',
    answer: 'accepted',
    build: () => buildZip({ entries: [...deckParts()].map(([n, c]) => storedEntry(n, c)) }),
  },
  {
    name: 'ok-data-descriptors.pptx',
    class: 'control',
    what: 'a valid deck written as a streaming zipper does: local headers with zero CRC and sizes (flag bit 3), data descriptors after the data',
    answer: 'accepted',
    build: () =>
      deckEntries((entries) =>
        entries.map((e) => ({ ...e, flags: FLAG_DATA_DESCRIPTOR, local: { crc32: 0, compressedSize: 0, uncompressedSize: 0 }, trailer: dataDescriptor(e.crc32, e.compressedSize, e.uncompressedSize) })),
      ),
  },
  {
    name: 'ok-zip64-records.pptx',
    class: 'control',
    what: 'a valid deck with ZIP64 end records and ZIP64 extra fields carrying every size and offset (saturated 32-bit fields)',
    answer: 'accepted',
    build: () => {
      const entries = entriesOf(deckParts());
      let offset = 0;
      const specs = entries.map((e) => {
        const nameLength = typeof e.name === 'string' ? utf8(e.name).length : e.name.length;
        const local = zip64Extra([e.uncompressedSize, e.compressedSize]);
        const spec: ZipEntrySpec = {
          ...e,
          versionNeeded: 45,
          compressedSize: U32_MAX,
          uncompressedSize: U32_MAX,
          localOffset: U32_MAX,
          localExtra: local,
          centralExtra: zip64Extra([e.uncompressedSize, e.compressedSize, offset]),
        };
        offset += 30 + nameLength + local.length + e.data.length;
        return spec;
      });
      return buildZip({ entries: specs, zip64: {} });
    },
  },
  {
    name: 'ok-folder-entries-and-comment.pptx',
    class: 'control',
    what: 'a valid deck with folder entries (ppt/, ppt/slides/) and an archive comment',
    answer: 'accepted',
    build: () =>
      deckEntries((entries) => [
        { ...storedEntry('ppt/', ''), externalAttributes: (0o040755 << 16) >>> 0 },
        { ...storedEntry('ppt/slides/', ''), externalAttributes: 0x10 },
        ...entries,
      ]),
  },

  // ---- not a zip, or a broken one
  { name: 'not-a-zip.pptx', class: 'container', what: 'plain text with a .pptx name', answer: 'refused', codes: ['not_zip'], statuses: [415], build: () => utf8('This is not a presentation, only text with a .pptx name.\n'.repeat(20)) },
  { name: 'pdf-renamed.pptx', class: 'container', what: 'a PDF with a .pptx name', answer: 'refused', codes: ['not_zip'], statuses: [415], build: () => utf8('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n') },
  { name: 'empty.pptx', class: 'container', what: 'a 0-byte upload', answer: 'refused', codes: ['empty'], build: () => new Uint8Array(0) },
  {
    name: 'exe-prefixed-zip.pptx',
    class: 'container',
    what: 'a polyglot: an executable stub (MZ) before a valid deck zip, as self-extractors are made',
    answer: 'refused',
    codes: ['not_zip'],
    build: () => {
      const entries = entriesOf(deckParts());
      return buildZip({ prefix: concat([utf8('MZ'), seededBytes(21, 4094)]), entries });
    },
  },
  { name: 'zip-no-entries.pptx', class: 'container', what: 'a zip with an end record and nothing else', answer: 'refused', codes: ['missing_part'], build: () => buildZip({ entries: [] }) },
  {
    name: 'truncated-half.pptx',
    class: 'container',
    what: 'a valid deck cut in half: no central directory',
    answer: 'refused',
    codes: ['zip_truncated'],
    build: () => {
      const z = deck();
      return z.slice(0, z.length >> 1);
    },
  },
  {
    name: 'truncated-tail.pptx',
    class: 'container',
    what: 'a valid deck missing its last 100 bytes (the end record cut)',
    answer: 'refused',
    codes: ['zip_truncated'],
    build: () => {
      const z = deck();
      return z.slice(0, z.length - 100);
    },
  },
  { name: 'no-central-directory.pptx', class: 'container', what: 'local headers and data only: no central directory and no end record', answer: 'refused', codes: ['zip_truncated'], build: () => buildZip({ entries: entriesOf(deckParts()), noCentralDirectory: true }) },
  { name: 'end-record-count-too-high.pptx', class: 'container', what: 'the end record declares 40 entries; the central directory holds 12', answer: 'refused', codes: ['zip_truncated'], build: () => buildZip({ entries: entriesOf(deckParts()), end: { entries: 40 } }) },
  { name: 'end-record-offset-past-end.pptx', class: 'container', what: 'the end record puts the central directory 1 GiB past the end of the file', answer: 'refused', codes: ['zip_truncated'], build: () => buildZip({ entries: entriesOf(deckParts()), end: { centralOffset: 1 << 30 } }) },
  {
    name: 'local-header-missing.pptx',
    class: 'container',
    what: 'a central record points at bytes that are not a local header',
    answer: 'refused',
    codes: ['zip_truncated'],
    build: () =>
      deckEntries((entries) => {
        const i = indexOf(entries, SLIDE1);
        entries[i] = { ...entries[i]!, localOffset: 7 };
      }),
  },
  {
    name: 'compressed-size-past-data.pptx',
    class: 'container',
    what: 'slide1.xml declares 1 MiB of compressed data: it would run into the central directory and past the end',
    answer: 'refused',
    codes: ['zip_truncated'],
    build: () => withSlide1({ compressedSize: MiB }),
  },
  {
    name: 'corrupt-deflate-stream.pptx',
    class: 'container',
    what: 'slide1.xml holds bytes that are not a DEFLATE stream (declared CRC and sizes of the real slide)',
    answer: 'refused',
    codes: ['zip_truncated'],
    build: () => withSlide1({ data: concat([new Uint8Array([0xff, 0xff, 0xff]), seededBytes(22, 400)]), compressedSize: 403 }),
  },
  {
    name: 'unsupported-compression.pptx',
    class: 'container',
    what: 'slide1.xml compressed with method 12 (bzip2), which packages may not use (only STORE and DEFLATE)',
    answer: 'refused',
    codes: ['zip_unsupported'],
    build: () => withSlide1({ method: 12, data: concat([utf8('BZh91AY&SY'), seededBytes(23, 300)]), compressedSize: 310 }),
  },
  {
    name: 'crc-mismatch.pptx',
    class: 'container',
    what: 'slide1.xml declares a CRC-32 that its data does not have (a damaged file PowerPoint offers to repair)',
    answer: 'may-be-accepted',
    codes: ['zip_truncated'],
    build: () =>
      deckEntries((entries) => {
        const i = indexOf(entries, SLIDE1);
        entries[i] = { ...entries[i]!, crc32: (entries[i]!.crc32 ^ 0x5a5a5a5a) >>> 0 };
      }),
  },
  {
    name: 'local-central-name-mismatch.pptx',
    class: 'container',
    what: "an extra part whose local header names it '../../evil.txt' while the central directory says ppt/media/data.bin (validators and extractors that read different headers disagree)",
    answer: 'may-be-accepted',
    codes: ['bad_entry_name', 'zip_truncated'],
    build: () =>
      deckEntries((entries) => {
        entries.push({ ...deflatedEntry('ppt/media/data.bin', 'payload\n'), local: { name: '../../evil.txt' } });
      }),
  },
  {
    name: 'docx-renamed.pptx',
    class: 'container',
    what: 'a valid Word document (officeDocument → word/document.xml) with a .pptx name',
    answer: 'refused',
    codes: ['not_presentation'],
    statuses: [415],
    build: () =>
      zipOf([
        [
          '[Content_Types].xml',
          `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="${CT.rels}"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
        ],
        ['_rels/.rels', relsXml([{ id: 'rId1', type: RT.officeDocument, target: 'word/document.xml' }])],
        ['word/document.xml', `${XML_DECL}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>A letter, not a deck</w:t></w:r></w:p></w:body></w:document>`],
      ]),
  },

  // ---- zip bombs
  {
    name: 'zip-bomb-one-part.pptx',
    class: 'zip-bomb',
    what: 'slide1.xml inflates to 1100 MiB (valid XML padded with spaces) from about 1 MiB, sizes declared honestly',
    answer: 'refused',
    codes: ['zip_bomb'],
    build: () => {
      const s = paddedSlide(MiB, 1100);
      return withSlide1({ data: s.data, crc32: s.crc32, compressedSize: s.data.length, uncompressedSize: s.size });
    },
  },
  {
    name: 'zip-bomb-lying-sizes.pptx',
    class: 'zip-bomb',
    what: 'slide1.xml declares 4 KiB uncompressed but its stream inflates to 1100 MiB',
    answer: 'refused',
    codes: ['zip_bomb'],
    build: () => {
      const s = paddedSlide(MiB, 1100);
      return withSlide1({ data: s.data, crc32: s.crc32, compressedSize: s.data.length, uncompressedSize: 4096 });
    },
  },
  {
    name: 'zip-bomb-high-ratio.pptx',
    class: 'zip-bomb',
    what: 'slide1.xml inflates 1000:1 to 32 MiB: within any per-part size limit, far past a sane compression ratio',
    answer: 'refused',
    codes: ['zip_bomb', 'too_large'],
    build: () => {
      const s = paddedSlide(MiB, 32);
      return withSlide1({ data: s.data, crc32: s.crc32, compressedSize: s.data.length, uncompressedSize: s.size });
    },
  },
  {
    name: 'zip-bomb-many-parts.pptx',
    class: 'zip-bomb',
    what: '1100 slides of 1 MiB each (1100 MiB in all, every part within a per-part limit), sizes declared honestly',
    answer: 'refused',
    codes: ['zip_bomb'],
    build: () => manyPartsBomb(false),
  },
  {
    name: 'zip-bomb-many-parts-lying-sizes.pptx',
    class: 'zip-bomb',
    what: '1100 slides that each declare 1 KiB but inflate to 900 KiB (990 MiB in all): only the actual total can stop it',
    answer: 'refused',
    codes: ['zip_bomb'],
    build: () => manyPartsBomb(true),
  },
  {
    name: 'zip-bomb-overlapping-entries.pptx',
    class: 'zip-bomb',
    what: '2000 central records share one local header and its 1 MiB-inflating data (a non-recursive bomb: 2 GiB from 2 KiB of data)',
    answer: 'refused',
    codes: ['zip_bomb'],
    build: () => {
      const s = paddedSlide(MiB, 1);
      const shared: ZipEntrySpec = { name: 'ppt/media/blob0.bin', data: s.data, method: DEFLATE, crc32: s.crc32, compressedSize: s.data.length, uncompressedSize: s.size };
      const entries = entriesOf(deckParts());
      const first = entries.length;
      entries.push(shared);
      for (let k = 1; k < 2000; k++) entries.push({ ...shared, name: `ppt/media/blob${k}.bin`, sharesLocalOf: first });
      return buildZip({ entries });
    },
  },
  {
    name: 'zip-bomb-nested.pptx',
    class: 'zip-bomb',
    what: "a chart's embedded workbook (stored, 1:1) is itself a zip whose one entry inflates to 1024 MiB: the upload and the analysis must not open it",
    answer: 'may-be-accepted',
    codes: ['zip_bomb'],
    build: () => {
      const stored = new Set<string>();
      return deck((p) => {
        const inner = paddedSlide(MiB, 1024);
        const bomb = buildZip({ entries: [{ name: 'xl/worksheets/sheet1.xml', data: inner.data, method: DEFLATE, crc32: inner.crc32, compressedSize: inner.data.length, uncompressedSize: inner.size }] });
        p.set(SLIDE1, slideXml(titleShape(2, 'Chart') + chartFrame(3, 'rId2')));
        addRel(p, SLIDE1_RELS, { id: 'rId2', type: RT.chart, target: '../charts/chart1.xml' });
        p.set('ppt/charts/chart1.xml', chartXml());
        p.set('ppt/charts/_rels/chart1.xml.rels', relsXml([{ id: 'rId1', type: RT.package, target: '../embeddings/Microsoft_Excel_Worksheet1.xlsx' }]));
        p.set('ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx', bomb);
        stored.add('ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx');
        addOverride(p, '/ppt/charts/chart1.xml', CT.chart);
        addDefault(p, 'xlsx', CT.xlsx);
      }, undefined, stored);
    },
  },
  {
    name: 'many-entries.pptx',
    class: 'zip-bomb',
    what: 'a valid deck plus 20,000 empty entries (a part-count attack: per-entry work and memory)',
    answer: 'refused',
    codes: ['too_many_parts'],
    build: () => deckEntries((entries) => [...entries, ...Array.from({ length: 20_000 }, (_, k) => storedEntry(`ppt/media/e${k}.bin`, ''))]),
  },
  {
    name: 'many-entries-under-limit.pptx',
    class: 'zip-bomb',
    what: 'a valid deck plus 19,900 small parts, half of them relationships parts (read at upload), just under a 20,000-entry limit: handled in bounded time',
    answer: 'may-be-accepted',
    codes: ['too_many_parts'],
    build: () => {
      const rels = relsXml([]);
      return deckEntries((entries) => [...entries, ...Array.from({ length: 19_900 }, (_, k) => (k % 2 ? deflatedEntry(`ppt/media/_rels/e${k - 1}.bin.rels`, rels) : storedEntry(`ppt/media/e${k}.bin`, 'x')))]);
    },
  },
  {
    name: 'many-entries-declared.pptx',
    class: 'zip-bomb',
    what: 'the end record declares 65,535 entries for a 12-entry central directory',
    answer: 'refused',
    codes: ['too_many_parts', 'zip_truncated'],
    build: () => buildZip({ entries: entriesOf(deckParts()), end: { entries: 0xffff } }),
  },
  {
    name: 'oversized-declared-size.pptx',
    class: 'zip-bomb',
    what: 'slide1.xml declares 4 GiB − 2 bytes uncompressed (its data is the small real slide)',
    answer: 'refused',
    codes: ['zip_bomb'],
    build: () => withSlide1({ uncompressedSize: U32_MAX - 1 }),
  },

  // ---- ZIP64 oddities
  {
    name: 'zip64-missing-extra.pptx',
    class: 'zip64',
    what: "slide1.xml's central record saturates its sizes (0xFFFFFFFF) but carries no ZIP64 extra field",
    answer: 'refused',
    codes: ['zip_truncated'],
    build: () => withSlide1({ compressedSize: U32_MAX, uncompressedSize: U32_MAX }),
  },
  {
    name: 'zip64-huge-declared-size.pptx',
    class: 'zip64',
    what: "slide1.xml's ZIP64 extra field declares 4 EiB uncompressed",
    answer: 'refused',
    codes: ['zip_bomb'],
    build: () =>
      deckEntries((entries) => {
        const i = indexOf(entries, SLIDE1);
        const e = entries[i]!;
        entries[i] = { ...e, uncompressedSize: U32_MAX, versionNeeded: 45, centralExtra: zip64Extra([1n << 62n]), local: { uncompressedSize: U32_MAX }, localExtra: zip64Extra([1n << 62n, BigInt(e.compressedSize)]) };
      }),
  },
  {
    name: 'zip64-locator-out-of-range.pptx',
    class: 'zip64',
    what: 'the ZIP64 end locator points 1 TiB past the end of the file',
    answer: 'refused',
    codes: ['zip_truncated'],
    build: () => buildZip({ entries: entriesOf(deckParts()), zip64: { recordOffset: 1n << 40n } }),
  },
  { name: 'zip64-spanned.pptx', class: 'zip64', what: 'the ZIP64 end locator declares an archive split over 2 disks', answer: 'refused', codes: ['zip_unsupported'], build: () => buildZip({ entries: entriesOf(deckParts()), zip64: { totalDisks: 2 } }) },
  { name: 'zip64-entry-count-huge.pptx', class: 'zip64', what: 'the ZIP64 end record declares 2^40 entries', answer: 'refused', codes: ['too_many_parts', 'zip_truncated'], build: () => buildZip({ entries: entriesOf(deckParts()), zip64: { entries: 1n << 40n } }) },
  {
    name: 'zip64-offset-past-end.pptx',
    class: 'zip64',
    what: "slide1.xml's ZIP64 extra field puts its local header 1 TiB into the file",
    answer: 'refused',
    codes: ['zip_truncated'],
    build: () =>
      deckEntries((entries) => {
        const i = indexOf(entries, SLIDE1);
        entries[i] = { ...entries[i]!, versionNeeded: 45, localOffset: U32_MAX, centralExtra: zip64Extra([1n << 40n]) };
      }),
  },
  {
    name: 'zip64-central-size-huge.pptx',
    class: 'zip64',
    what: 'the ZIP64 end record declares a central directory of 2^50 bytes',
    answer: 'refused',
    codes: ['zip_truncated'],
    build: () => buildZip({ entries: entriesOf(deckParts()), zip64: { centralSize: 1n << 50n } }),
  },

  // ---- entry names
  ...[
    ['zip-slip-dotdot.pptx', '../../evil.txt', "entry '../../evil.txt' next to a valid deck"],
    ['zip-slip-absolute.pptx', '/etc/cron.d/evil', "absolute entry name '/etc/cron.d/evil'"],
    ['zip-slip-backslash.pptx', '..\\..\\evil.txt', "entry '..\\..\\evil.txt' (Windows separators)"],
    ['zip-slip-drive-letter.pptx', 'C:/Windows/evil.txt', "entry 'C:/Windows/evil.txt' (a drive letter)"],
    ['entry-name-nul.pptx', 'ppt/media/image.png\u0000.xml', 'an entry name with a NUL byte (C code sees ppt/media/image.png)'],
    ['entry-name-dot-segments.pptx', 'ppt/./slides/../evil.xml', "an entry name with '.' and '..' segments inside the package"],
    ['entry-name-too-long.pptx', `ppt/media/${'a'.repeat(5000)}.bin`, 'an entry name of 5,010 characters'],
  ].map(
    ([name, entry, what]): HostileSample => ({
      name: name!,
      class: 'zip-path',
      what: `${what!}: never written anywhere, refused`,
      answer: 'refused',
      codes: ['bad_entry_name'],
      build: () => deckEntries((entries) => [...entries, deflatedEntry(entry!, 'payload\n')]),
    }),
  ),
  {
    name: 'entry-name-bad-utf8.pptx',
    class: 'zip-path',
    what: 'an entry name flagged UTF-8 (bit 11) whose bytes are not UTF-8 (C0 AF: an overlong slash)',
    answer: 'refused',
    codes: ['bad_entry_name'],
    build: () => deckEntries((entries) => [...entries, { ...deflatedEntry(new Uint8Array([0x70, 0x70, 0x74, 0x2f, 0xc0, 0xaf, 0x2e, 0x2e, 0xc0, 0xaf, 0x78]), 'x'), flags: FLAG_UTF8 }]),
  },
  {
    name: 'duplicate-entry-names.pptx',
    class: 'zip-path',
    what: 'ppt/slides/slide1.xml twice with different content (readers disagree on which one wins)',
    answer: 'refused',
    codes: ['duplicate_entry'],
    build: () => deckEntries((entries) => [...entries, deflatedEntry(SLIDE1, slideWithText('SECOND COPY'))]),
  },
  {
    name: 'duplicate-entry-names-case.pptx',
    class: 'zip-path',
    what: 'ppt/slides/slide1.xml and PPT/Slides/Slide1.XML: the same part, as part names ignore case',
    answer: 'refused',
    codes: ['duplicate_entry'],
    build: () => deckEntries((entries) => [...entries, deflatedEntry('PPT/Slides/Slide1.XML', slideWithText('SECOND COPY'))]),
  },
  {
    name: 'encrypted-zip-entry.pptx',
    class: 'zip-path',
    what: 'slide1.xml flagged as encrypted with traditional PKWARE encryption (flag bit 0)',
    answer: 'refused',
    codes: ['encrypted'],
    build: () => withSlide1({ flags: FLAG_ENCRYPTED, data: seededBytes(24, 600), compressedSize: 600 }),
  },

  // ---- DTDs and entities
  {
    name: 'billion-laughs-presentation.pptx',
    class: 'xml-entity',
    what: 'presentation.xml declares ten levels of nested entities (10^9 expansions) and uses the last',
    answer: 'rejected',
    codes: ['xml_dtd'],
    build: () =>
      deck((p) => {
        const ents = ['<!ENTITY lol0 "lol">'];
        for (let i = 1; i < 10; i++) ents.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
        withDoctype(p, 'ppt/presentation.xml', `<!DOCTYPE p:presentation [${ents.join('')}]>`);
        edit(p, 'ppt/presentation.xml', '</p:presentation>', '<p:custShowLst><p:custShow name="&lol9;" id="0"><p:sldLst/></p:custShow></p:custShowLst></p:presentation>');
      }),
  },
  {
    name: 'xxe-etc-passwd-slide.pptx',
    class: 'xml-entity',
    what: 'slide1.xml declares an external entity for file:///etc/passwd and uses it in a text run',
    answer: 'rejected',
    codes: ['xml_dtd'],
    build: () =>
      deck((p) => {
        p.set(SLIDE1, slideWithText('&xxe;'));
        withDoctype(p, SLIDE1, '<!DOCTYPE p:sld [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>');
      }),
  },
  {
    name: 'xxe-external-dtd-ssrf.pptx',
    class: 'xml-entity',
    what: 'slide1.xml names an external DTD at http://127.0.0.1:9/evil.dtd (no request may be made)',
    answer: 'rejected',
    codes: ['xml_dtd'],
    build: () => deck((p) => withDoctype(p, SLIDE1, '<!DOCTYPE p:sld SYSTEM "http://127.0.0.1:9/evil.dtd">')),
  },
  {
    name: 'xxe-parameter-entity.pptx',
    class: 'xml-entity',
    what: 'slide1.xml loads an external parameter entity (the out-of-band exfiltration pattern)',
    answer: 'rejected',
    codes: ['xml_dtd'],
    build: () => deck((p) => withDoctype(p, SLIDE1, '<!DOCTYPE p:sld [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/x.dtd"> %remote;]>')),
  },
  {
    name: 'internal-entity-slide.pptx',
    class: 'xml-entity',
    what: 'slide1.xml declares a harmless internal entity and uses it (still a DTD: refused)',
    answer: 'rejected',
    codes: ['xml_dtd'],
    build: () =>
      deck((p) => {
        p.set(SLIDE1, slideWithText('&company;'));
        withDoctype(p, SLIDE1, '<!DOCTYPE p:sld [<!ENTITY company "Acme">]>');
      }),
  },
  {
    name: 'dtd-in-content-types.pptx',
    class: 'xml-entity',
    what: '[Content_Types].xml (read at upload) declares a billion-laughs DTD',
    answer: 'refused',
    codes: ['xml_dtd'],
    build: () => deck((p) => withDoctype(p, '[Content_Types].xml', '<!DOCTYPE Types [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>')),
  },
  {
    name: 'dtd-in-package-rels.pptx',
    class: 'xml-entity',
    what: '_rels/.rels (read at upload) declares an external entity',
    answer: 'refused',
    codes: ['xml_dtd'],
    build: () => deck((p) => withDoctype(p, '_rels/.rels', '<!DOCTYPE Relationships [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>')),
  },
  {
    name: 'dtd-in-utf16-slide.pptx',
    class: 'xml-entity',
    what: 'slide1.xml in UTF-16LE with a BOM, declaring an external entity (a byte-level DOCTYPE scan of UTF-8 misses it)',
    answer: 'rejected',
    codes: ['xml_dtd'],
    build: () =>
      deck((p) => {
        p.set(SLIDE1, slideWithText('&xxe;'));
        withDoctype(p, SLIDE1, '<!DOCTYPE p:sld [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>');
        p.set(SLIDE1, utf16le(text(p, SLIDE1).replace('encoding="UTF-8"', 'encoding="UTF-16"')));
      }),
  },
  {
    name: 'xinclude-slide.pptx',
    class: 'xml-entity',
    what: 'slide1.xml holds an XInclude of file:///etc/passwd (must never be resolved)',
    answer: 'may-be-accepted',
    codes: ['bad_structure', 'xml_malformed'],
    build: () => deck((p) => edit(p, SLIDE1, '<a:t>Made by test/hostile</a:t>', '<a:t>Made by test/hostile</a:t><xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file:///etc/passwd" parse="text"/>')),
  },

  // ---- nesting
  { name: 'nested-groups-10000.pptx', class: 'xml-depth', what: 'group shapes nested 10,000 deep (recursive walkers overflow the stack)', answer: 'rejected', codes: ['xml_too_deep', 'too_complex'], build: () => deck((p) => p.set(SLIDE1, nestedGroups(10_000))) },
  { name: 'nested-groups-120.pptx', class: 'xml-depth', what: 'group shapes nested 120 deep: within an XML depth limit, deep for every recursive walk after it', answer: 'may-be-accepted', codes: ['xml_too_deep', 'too_complex', 'too_large'], build: () => deck((p) => p.set(SLIDE1, nestedGroups(120))) },
  {
    name: 'deep-xml-content-types.pptx',
    class: 'xml-depth',
    what: '[Content_Types].xml (read at upload) nests 100,000 elements',
    answer: 'refused',
    codes: ['xml_too_deep'],
    build: () => deck((p) => edit(p, '[Content_Types].xml', '</Types>', `${deepElements(100_000)}</Types>`)),
  },
  {
    name: 'deep-xml-package-rels.pptx',
    class: 'xml-depth',
    what: '_rels/.rels (read at upload) nests 100,000 elements',
    answer: 'refused',
    codes: ['xml_too_deep'],
    build: () => deck((p) => edit(p, '_rels/.rels', '</Relationships>', `${deepElements(100_000)}</Relationships>`)),
  },
  {
    name: 'deep-xml-theme.pptx',
    class: 'xml-depth',
    what: 'the theme nests 50,000 elements inside its extension list',
    answer: 'rejected',
    codes: ['xml_too_deep'],
    build: () => deck((p) => edit(p, 'ppt/theme/theme1.xml', '<a:extraClrSchemeLst/>', `<a:extraClrSchemeLst/><a:extLst><a:ext uri="{hostile}">${deepElements(50_000)}</a:ext></a:extLst>`)),
  },

  // ---- huge XML
  {
    name: 'huge-attribute.pptx',
    class: 'xml-size',
    what: "a shape's name attribute is 4 MiB long (the part stays under a 16 MiB part limit)",
    answer: 'may-be-accepted',
    codes: ['too_large'],
    build: () => deck((p) => edit(p, SLIDE1, 'name="Text 3"', `name="${seededText(51, 4 * MiB)}"`)),
  },
  {
    name: 'many-attributes.pptx',
    class: 'xml-size',
    what: 'one element of slide1.xml carries 30,000 distinct attributes (a parser whose duplicate check is quadratic hangs)',
    answer: 'may-be-accepted',
    codes: ['too_large', 'xml_malformed'],
    build: () => {
      const attrs = Array.from({ length: 30_000 }, (_, k) => ` x${k}="${k}"`).join('');
      return deck((p) => edit(p, SLIDE1, '<a:bodyPr/>', `<a:bodyPr${attrs}/>`));
    },
  },
  {
    name: 'huge-text-run.pptx',
    class: 'xml-size',
    what: 'one text run of 10 MiB in slide1.xml',
    answer: 'may-be-accepted',
    codes: ['too_large'],
    build: () => deck((p) => p.set(SLIDE1, slideWithText(seededText(52, 10 * MiB)))),
  },
  {
    name: 'huge-text-run-autofit.pptx',
    class: 'xml-size',
    what: 'one text run of 4 MiB in a shrink-on-overflow body (a:normAutofit: the text is laid out once per step of the fitting search)',
    answer: 'may-be-accepted',
    codes: ['too_large'],
    build: () => deck((p) => p.set(SLIDE1, slideXml(titleShape(2, 'Sample') + textBox(3, seededText(54, 4 * MiB)).replace('<a:bodyPr/>', '<a:bodyPr><a:normAutofit/></a:bodyPr>')))),
  },
  {
    name: 'rels-flood.pptx',
    class: 'xml-size',
    what: '16 relationships parts of 15 MiB each (110,000 relationships apiece, 7 MB zipped), for parts nothing uses: work at upload must not grow with them',
    answer: 'may-be-accepted',
    codes: ['too_large'],
    build: () => {
      const rels = deflatedEntry('', relsXml(Array.from({ length: 110_000 }, (_, k) => ({ id: `rId${k + 1}`, type: RT.image, target: `image${k % 97}.png` }))), 6);
      return deckEntries((entries) => [...entries, ...Array.from({ length: 16 }, (_, i) => [storedEntry(`ppt/media/x${i}.bin`, 'x'), { ...rels, name: `ppt/media/_rels/x${i}.bin.rels` }]).flat()]);
    },
  },
  {
    name: 'huge-attribute-content-types.pptx',
    class: 'xml-size',
    what: '[Content_Types].xml (read at upload) has a Default whose ContentType is 4 MiB long',
    answer: 'may-be-accepted',
    codes: ['too_large'],
    build: () => deck((p) => addDefault(p, 'bin', `application/${seededText(53, 4 * MiB)}`)),
  },
  {
    name: 'shapes-100k.pptx',
    class: 'xml-size',
    what: 'one slide of 100,000 text boxes (~35 MB of XML, ~1 MB zipped)',
    answer: 'rejected',
    codes: ['too_large'],
    build: () => deck((p) => p.set(SLIDE1, manyShapes(100_000))),
  },
  {
    name: 'shapes-5k.pptx',
    class: 'xml-size',
    what: 'one slide of 5,000 text boxes (~1.8 MB of XML, under a part limit): analysed and drawn in bounded time',
    answer: 'may-be-accepted',
    codes: ['too_large'],
    build: () => deck((p) => p.set(SLIDE1, manyShapes(5_000))),
  },

  // ---- OLE containers
  { name: 'encrypted-ole.pptx', class: 'encrypted', what: 'a password-protected .pptx as PowerPoint saves it: an OLE compound file with EncryptionInfo and EncryptedPackage', answer: 'refused', codes: ['encrypted'], build: encryptedOfficeFile },
  { name: 'legacy-ppt-renamed.pptx', class: 'encrypted', what: 'a legacy binary .ppt (OLE compound file with a PowerPoint Document stream) with a .pptx name', answer: 'refused', codes: ['encrypted', 'not_zip'], build: legacyPptFile },

  // ---- macros
  { name: 'macro-enabled.pptm', class: 'macro', what: 'a macro-enabled deck (.pptm, macroEnabled main type, vbaProject.bin)', answer: 'refused', statuses: [415], build: () => macroDeck(true) },
  { name: 'macro-content-type-in.pptx', class: 'macro', what: 'the same macro-enabled package with a .pptx name', answer: 'refused', codes: ['macro_enabled'], statuses: [415], build: () => macroDeck(true) },
  { name: 'vba-project-plain-type.pptx', class: 'macro', what: 'a plain presentation content type with ppt/vbaProject.bin and its relationship slipped in', answer: 'refused', codes: ['macro_enabled'], statuses: [415], build: () => macroDeck(false) },
  {
    name: 'vba-relationship-renamed.pptx',
    class: 'macro',
    what: 'a vbaProject relationship to a part named ppt/media/data.bin with a plain content type',
    answer: 'refused',
    codes: ['macro_enabled'],
    statuses: [415],
    build: () =>
      deck((p) => {
        p.set('ppt/media/data.bin', vbaProjectBytes());
        addDefault(p, 'bin', 'application/octet-stream');
        addRel(p, 'ppt/_rels/presentation.xml.rels', { id: 'rId99', type: RT.vba, target: 'media/data.bin' });
      }),
  },
  {
    name: 'vba-relationship-char-ref.pptx',
    class: 'macro',
    what: "a slide's relationships part spells the vbaProject type with a character reference (vba&#80;roject): only a parser sees it",
    answer: 'refused',
    codes: ['macro_enabled'],
    statuses: [415],
    build: () =>
      deck((p) => {
        p.set('ppt/media/data.bin', vbaProjectBytes());
        addDefault(p, 'bin', 'application/octet-stream');
        edit(p, SLIDE1_RELS, '</Relationships>', `<Relationship Id="rId98" Type="${RT.vba.replace('vbaProject', 'vba&#80;roject')}" Target="../media/data.bin"/></Relationships>`);
      }),
  },
  {
    name: 'macro-media-type.pptx',
    class: 'macro',
    what: 'a valid deck uploaded with the macro-enabled media type',
    answer: 'refused',
    statuses: [415],
    mediaType: 'application/vnd.ms-powerpoint.presentation.macroEnabled.12',
    build: () => deck(),
  },

  // ---- package structure
  { name: 'missing-content-types.pptx', class: 'structure', what: 'no [Content_Types].xml', answer: 'refused', codes: ['missing_part'], build: () => deck((p) => p.delete('[Content_Types].xml')) },
  { name: 'missing-presentation-part.pptx', class: 'structure', what: 'ppt/presentation.xml absent though the content types and _rels/.rels name it', answer: 'rejected', codes: ['not_presentation', 'bad_structure'], build: () => deck((p) => p.delete('ppt/presentation.xml')) },
  { name: 'missing-package-rels.pptx', class: 'structure', what: 'no _rels/.rels: nothing says which part is the document', answer: 'rejected', codes: ['not_presentation', 'bad_structure'], build: () => deck((p) => p.delete('_rels/.rels')) },
  {
    name: 'missing-office-document-rel.pptx',
    class: 'structure',
    what: '_rels/.rels relates only the core properties, no officeDocument',
    answer: 'rejected',
    codes: ['not_presentation', 'bad_structure'],
    build: () => deck((p) => p.set('_rels/.rels', relsXml([{ id: 'rId2', type: RT.core, target: 'docProps/core.xml' }]))),
  },
  {
    name: 'office-document-external.pptx',
    class: 'structure',
    what: 'the officeDocument relationship is external (TargetMode="External" to an http URL)',
    answer: 'rejected',
    codes: ['not_presentation', 'bad_structure'],
    build: () => deck((p) => p.set('_rels/.rels', relsXml([{ id: 'rId1', type: RT.officeDocument, target: 'http://127.0.0.1:9/presentation.xml', external: true }]))),
  },
  {
    name: 'relationship-cycle.pptx',
    class: 'structure',
    what: "the layout's slideMaster relationship leads back to slide1 (slide → layout → slide)",
    answer: 'rejected',
    codes: ['bad_structure'],
    build: () => deck((p) => p.set('ppt/slideLayouts/_rels/slideLayout1.xml.rels', relsXml([{ id: 'rId1', type: RT.master, target: '../slides/slide1.xml' }]))),
  },
  {
    name: 'relationship-self-cycle.pptx',
    class: 'structure',
    what: "slide1's slideLayout relationship targets slide1 itself",
    answer: 'rejected',
    codes: ['bad_structure'],
    build: () => deck((p) => p.set(SLIDE1_RELS, relsXml([{ id: 'rId1', type: RT.layout, target: 'slide1.xml' }]))),
  },
  {
    name: 'master-layout-cycle.pptx',
    class: 'structure',
    what: "the layout's slideMaster relationship targets the layout itself, and the master lists the layout",
    answer: 'rejected',
    codes: ['bad_structure'],
    build: () => deck((p) => p.set('ppt/slideLayouts/_rels/slideLayout1.xml.rels', relsXml([{ id: 'rId1', type: RT.master, target: 'slideLayout1.xml' }]))),
  },
  {
    name: 'relationship-target-escapes-package.pptx',
    class: 'structure',
    what: "slide1's slideLayout relationship targets ../../../../../etc/passwd",
    answer: 'rejected',
    codes: ['bad_structure'],
    build: () => deck((p) => p.set(SLIDE1_RELS, relsXml([{ id: 'rId1', type: RT.layout, target: '../../../../../etc/passwd' }]))),
  },
  {
    name: 'dangling-targets.pptx',
    class: 'structure',
    what: "a picture uses r:embed=\"rId7\", which slide1's relationships do not define, and a relationship targets a missing part (PowerPoint repairs it: the picture keeps its frame, the relationship goes)",
    answer: 'accepted',
    repairs: [
      { part: '/ppt/slides/slide1.xml', element: 'Relationship', action: 'relationship_dropped' },
      { part: '/ppt/slides/slide1.xml', element: 'a:blip', action: 'reference_removed' },
    ],
    build: () =>
      deck((p) => {
        p.set(SLIDE1, slideXml(titleShape(2, 'Dangling') + picture(3, 'rId7')));
        addRel(p, SLIDE1_RELS, { id: 'rId2', type: RT.image, target: '../media/nothere.png' });
      }),
  },
  {
    name: 'dangling-slide.pptx',
    class: 'structure',
    what: 'the slide list names a slide relationship whose part is missing',
    answer: 'rejected',
    codes: ['bad_structure'],
    build: () => deck((p) => p.delete(SLIDE1)),
  },
  {
    name: 'presentation-wrong-root.pptx',
    class: 'structure',
    what: 'ppt/presentation.xml holds a slide (p:sld root) instead of p:presentation',
    answer: 'rejected',
    codes: ['bad_structure'],
    build: () => deck((p) => p.set('ppt/presentation.xml', plainSlide(9))),
  },
  { name: 'empty-presentation-part.pptx', class: 'structure', what: 'ppt/presentation.xml is 0 bytes', answer: 'rejected', codes: ['xml_malformed', 'bad_structure'], build: () => deck((p) => p.set('ppt/presentation.xml', '')) },
  {
    name: 'duplicate-shape-ids.pptx',
    class: 'structure',
    what: 'two shapes on slide1 share cNvPr id 3 (PowerPoint repairs it: the second is renumbered)',
    answer: 'accepted',
    repairs: [{ part: '/ppt/slides/slide1.xml', element: 'p:cNvPr', action: 'shape_id_renumbered' }],
    build: () => deck((p) => p.set(SLIDE1, slideXml(titleShape(2, 'Duplicate ids') + textBox(3, 'one') + textBox(3, 'two', 914400, 3657600)))),
  },
  {
    name: 'duplicate-slide-ids.pptx',
    class: 'structure',
    what: 'two p:sldId entries share id 256',
    answer: 'rejected',
    codes: ['bad_structure'],
    build: () => deck((p) => edit(p, 'ppt/presentation.xml', '<p:sldId id="257"', '<p:sldId id="256"'), { slides: 2 }),
  },
  {
    name: 'slide-id-out-of-range.pptx',
    class: 'structure',
    what: 'p:sldId id="1" (must be ≥ 256) and a master id below 2147483648',
    answer: 'rejected',
    codes: ['bad_structure'],
    build: () =>
      deck((p) => {
        edit(p, 'ppt/presentation.xml', '<p:sldId id="256"', '<p:sldId id="1"');
        edit(p, 'ppt/presentation.xml', '<p:sldMasterId id="2147483648"', '<p:sldMasterId id="5"');
      }),
  },
  {
    name: 'table-row-cell-mismatch.pptx',
    class: 'structure',
    what: 'a 3-column table whose second row has 2 cells and whose third row has none',
    answer: 'rejected',
    codes: ['bad_structure'],
    build: () =>
      deck((p) => {
        const cell = (t: string): string => `<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>${t}</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`;
        const table =
          '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table 3"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>' +
          '<p:xfrm><a:off x="914400" y="2743200"/><a:ext cx="5486400" cy="1097280"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1"/>' +
          '<a:tblGrid><a:gridCol w="1828800"/><a:gridCol w="1828800"/><a:gridCol w="1828800"/></a:tblGrid>' +
          `<a:tr h="365760">${cell('A') + cell('B') + cell('C')}</a:tr><a:tr h="365760">${cell('1') + cell('2')}</a:tr><a:tr h="365760"></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
        p.set(SLIDE1, slideXml(titleShape(2, 'Bad table') + table));
      }),
  },
  { name: 'no-slides.pptx', class: 'structure', what: 'a presentation with an empty slide list (layouts only)', answer: 'may-be-accepted', build: () => deck(undefined, { slides: 0 }) },

  // ---- encodings
  {
    name: 'invalid-utf8.pptx',
    class: 'encoding',
    what: 'slide1.xml declares UTF-8 but a text run holds FF FE C0 AF (invalid and overlong UTF-8)',
    answer: 'rejected',
    codes: ['xml_malformed'],
    build: () =>
      deck((p) => {
        const [before, after] = text(p, SLIDE1).split('Made by test/hostile') as [string, string];
        p.set(SLIDE1, concat([utf8(before), new Uint8Array([0x62, 0x61, 0x64, 0x20, 0xff, 0xfe, 0x20, 0xc0, 0xaf]), utf8(after)]));
      }),
  },
  {
    name: 'control-chars-in-text.pptx',
    class: 'encoding',
    what: 'raw U+000B and U+0001 inside a:t (illegal in XML 1.0)',
    answer: 'rejected',
    codes: ['bad_structure', 'xml_malformed'],
    build: () => deck((p) => p.set(SLIDE1, slideWithText('line one\u000bline two\u0001end'))),
  },
  {
    name: 'control-char-references.pptx',
    class: 'encoding',
    what: 'character references &#1; and &#xB; inside a:t (illegal in XML 1.0 even as references)',
    answer: 'rejected',
    codes: ['bad_structure', 'xml_malformed'],
    build: () => deck((p) => p.set(SLIDE1, slideWithText('one&#1;two&#xB;three'))),
  },
  { name: 'not-well-formed-slide.pptx', class: 'encoding', what: 'slide1.xml has an unclosed a:t element', answer: 'rejected', codes: ['xml_malformed'], build: () => deck((p) => edit(p, SLIDE1, 'Made by test/hostile</a:t>', 'Made by test/hostile')) },
  {
    name: 'utf16-slide.pptx',
    class: 'encoding',
    what: 'slide1.xml in UTF-16LE with a BOM (allowed by OPC, rare in the wild)',
    answer: 'may-be-accepted',
    codes: ['xml_malformed'],
    build: () => deck((p) => p.set(SLIDE1, utf16le(text(p, SLIDE1).replace('encoding="UTF-8"', 'encoding="UTF-16"')))),
  },

  // ---- resources
  {
    name: 'layouts-5000.pptx',
    class: 'resource',
    what: 'one slide and 5,000 slide layouts under one master (a slide-count limit does not see layouts): analysed in bounded time or refused',
    answer: 'may-be-accepted',
    codes: ['too_large', 'too_many_parts'],
    build: () =>
      deck((p) => {
        const n = 5000;
        const layout = text(p, 'ppt/slideLayouts/slideLayout1.xml');
        const layoutRels = text(p, 'ppt/slideLayouts/_rels/slideLayout1.xml.rels');
        const ids: string[] = [];
        const overrides: string[] = [];
        const rels = [{ id: 'rId1', type: RT.layout, target: '../slideLayouts/slideLayout1.xml' }, { id: 'rId2', type: RT.theme, target: '../theme/theme1.xml' }];
        for (let i = 2; i <= n; i++) {
          p.set(`ppt/slideLayouts/slideLayout${i}.xml`, layout.replace('name="Title Only"', `name="Layout ${i}"`));
          p.set(`ppt/slideLayouts/_rels/slideLayout${i}.xml.rels`, layoutRels);
          overrides.push(`<Override PartName="/ppt/slideLayouts/slideLayout${i}.xml" ContentType="${CT.layout}"/>`);
          ids.push(`<p:sldLayoutId id="${2147483648 + i}" r:id="rId${i + 1}"/>`);
          rels.push({ id: `rId${i + 1}`, type: RT.layout, target: `../slideLayouts/slideLayout${i}.xml` });
        }
        edit(p, '[Content_Types].xml', '</Types>', `${overrides.join('')}</Types>`);
        edit(p, 'ppt/slideMasters/slideMaster1.xml', '</p:sldLayoutIdLst>', `${ids.join('')}</p:sldLayoutIdLst>`);
        p.set('ppt/slideMasters/_rels/slideMaster1.xml.rels', relsXml(rels));
      }),
  },
  { name: 'slides-5000.pptx', class: 'resource', what: '5,000 small valid slides', answer: 'refused', codes: ['too_large'], build: () => deck(undefined, { slides: 5000 }) },
  { name: 'slides-1001.pptx', class: 'resource', what: '1,001 small valid slides: one past a 1,000-slide template limit', answer: 'refused', codes: ['too_large'], build: () => deck(undefined, { slides: 1001 }) },
  {
    name: 'over-10mib.pptx',
    class: 'resource',
    what: 'a valid deck plus an 11 MiB incompressible part, its size declared when the template is created',
    answer: 'refused',
    statuses: [413],
    build: () => paddedDeck(),
  },
  {
    name: 'over-10mib-undeclared.pptx',
    class: 'resource',
    what: 'the same 11 MiB deck with no size declared: the upload itself must be refused',
    answer: 'refused',
    statuses: [413],
    declareSize: false,
    build: () => paddedDeck(),
  },

  // ---- pictures
  { name: 'image-huge-png.pptx', class: 'image', what: 'a PNG whose header claims 100000 × 100000 px (30 GB decoded) with 4 scanlines of data', answer: 'may-be-accepted', build: () => deckWithPicture(hugePng(), 'png', 'image/png') },
  { name: 'image-huge-jpeg.pptx', class: 'image', what: 'a JPEG whose SOF0 claims 65500 × 65500 px', answer: 'may-be-accepted', build: () => deckWithPicture(hugeJpeg(), 'jpeg', 'image/jpeg') },
  { name: 'image-huge-gif.pptx', class: 'image', what: 'a GIF whose screen and image claim 65535 × 65535 px', answer: 'may-be-accepted', build: () => deckWithPicture(hugeGif(), 'gif', 'image/gif') },
  { name: 'image-huge-webp.pptx', class: 'image', what: 'a WebP whose VP8X canvas claims 16777216 × 16777216 px', answer: 'may-be-accepted', build: () => deckWithPicture(hugeWebp(), 'webp', 'image/webp') },
];

function utf16le(s: string): Uint8Array {
  const out = new Uint8Array(2 + s.length * 2);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let i = 0; i < s.length; i++) {
    out[2 + i * 2] = s.charCodeAt(i) & 0xff;
    out[3 + i * 2] = s.charCodeAt(i) >> 8;
  }
  return out;
}

/** Bytes shaped like a VBA project storage (an OLE compound file header and seeded content). */
function vbaProjectBytes(): Uint8Array {
  return concat([new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), seededBytes(31, 1528)]);
}

/** A deck with `ppt/vbaProject.bin`, its content type and relationship; with `macroType`, also the macro-enabled main content type. */
function macroDeck(macroType: boolean): Uint8Array {
  return deck(
    (p) => {
      p.set('ppt/vbaProject.bin', vbaProjectBytes());
      addOverride(p, '/ppt/vbaProject.bin', CT.vba);
      addRel(p, 'ppt/_rels/presentation.xml.rels', { id: 'rId99', type: RT.vba, target: 'vbaProject.bin' });
    },
    macroType ? { mainContentType: CT.macroPresentation } : undefined,
  );
}

/** A valid deck plus 11 MiB of seeded (incompressible) bytes, stored. */
function paddedDeck(): Uint8Array {
  return deckEntries((entries) => [...entries, storedEntry('ppt/media/padding.bin', seededBytes(41, 11 * MiB))], undefined);
}

/** 1100 slides of 1 MiB (honest) or 900 KiB declaring 1 KiB each (lying). */
function manyPartsBomb(lying: boolean): Uint8Array {
  const n = 1100;
  const parts = deckParts({ slides: n });
  const s = lying ? paddedSlide(900 * 1024, 1) : paddedSlide(64 * 1024, 16);
  const entries = [...parts].map(([name, content]): ZipEntrySpec => {
    if (!/^ppt\/slides\/slide\d+\.xml$/.test(name)) return deflatedEntry(name, content);
    return { name, data: s.data, method: DEFLATE, crc32: s.crc32, compressedSize: s.data.length, uncompressedSize: lying ? 1024 : s.size };
  });
  return buildZip({ entries });
}

/**
 * The catalog: every sample, not yet built.
 *
 * @param only - keep the samples whose name contains one of these (all when empty)
 */
export function hostileSamples(...only: string[]): HostileSample[] {
  return CATALOG.filter((s) => only.length === 0 || only.some((o) => s.name.includes(o)));
}

/**
 * One sample by exact name.
 * @throws RangeError when the catalog has no such sample
 */
export function hostileSample(name: string): HostileSample {
  const s = CATALOG.find((x) => x.name === name);
  if (!s) throw new RangeError(`no hostile sample ${name}`);
  return s;
}
