/**
 * Inflated parts own memory of their own size. Found with the hostile sample
 * `many-entries-under-limit.pptx` (19,900 small parts, 3.6 MB): each small deflated part
 * came back as a view into zlib's 16 KiB output chunk, so its ~10,000 relationships parts
 * kept 160 MiB alive in every thread that had the package open.
 */
import t from 'tap';
import { OpcPackage } from '../../../../core/src/ooxml/opc/package.js';
import { hostileSample } from '../../../hostile/samples.js';

/** Bytes of the distinct memory blocks the parts' bytes live in. */
function backingBytes(pkg: OpcPackage): number {
  const seen = new Set<ArrayBufferLike>();
  let total = 0;
  for (const name of pkg.partNames()) {
    const buffer = pkg.getBytes(name).buffer;
    if (!seen.has(buffer)) {
      seen.add(buffer);
      total += buffer.byteLength;
    }
  }
  return total;
}

t.test('10,000 small deflated parts keep about their own size, not 16 KiB each', async (t) => {
  const bytes = hostileSample('many-entries-under-limit.pptx').build();
  const pkg = await OpcPackage.open(bytes);
  t.ok(pkg.partNames().length > 19_000, `${pkg.partNames().length} parts`);
  const held = backingBytes(pkg);
  t.ok(held < 4 * bytes.length, `the parts hold ${(held / 2 ** 20).toFixed(1)} MiB for a ${(bytes.length / 2 ** 20).toFixed(1)} MiB file`);
});

t.test('parts read back with the same bytes, small and large', async (t) => {
  const pkg = await OpcPackage.open(hostileSample('shapes-5k.pptx').build());
  const slide = new TextDecoder().decode(pkg.getBytes('/ppt/slides/slide1.xml'));
  t.ok(slide.length > 1_000_000 && slide.endsWith('</p:sld>'), 'a 1.8 MB slide is whole');
  const rels = new TextDecoder().decode(pkg.getBytes('/ppt/slides/_rels/slide1.xml.rels'));
  t.match(rels, /^<\?xml[\s\S]*<\/Relationships>$/, 'a small relationships part is whole');
});
