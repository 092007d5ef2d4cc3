/**
 * The upload's macro check parses only the relationships parts that could relate a VBA
 * project. Found by the hostile sample `rels-flood.pptx` (16 relationships parts of 15 MiB
 * for parts nothing uses, 7 MB zipped): parsing every relationships part took the upload
 * check and the analysis 75 s and 3.3 GiB between them.
 */
import t from 'tap';
import { OpcPackage } from '../../../../core/src/ooxml/opc/package.js';
import { PackageError } from '../../../../core/src/ooxml/errors.js';
import { checkPresentationPackage } from '../../../../core/src/ooxml/pml/presentation.js';
import { hostileSample } from '../../../hostile/samples.js';
import { RT, addDefault, deckParts, edit, text } from '../../../hostile/deck-parts.js';
import { zipOf } from '../../../hostile/raw-zip.js';

async function checkCode(bytes: Uint8Array): Promise<string | undefined> {
  try {
    checkPresentationPackage(await OpcPackage.open(bytes));
    return undefined;
  } catch (err) {
    if (err instanceof PackageError) return err.code;
    throw err;
  }
}

t.test('relationships parts that cannot relate a VBA project are not parsed', async (t) => {
  const pkg = await OpcPackage.open(hostileSample('rels-flood.pptx').build());
  const cpu = process.cpuUsage();
  checkPresentationPackage(pkg);
  const used = process.cpuUsage(cpu);
  const seconds = (used.user + used.system) / 1e6;
  t.ok(seconds < 3, `240 MiB of relationships checked in ${seconds.toFixed(2)} s of CPU`);
});

t.test('a VBA relationship is still found however it is written', async (t) => {
  for (const name of ['vba-project-plain-type.pptx', 'vba-relationship-renamed.pptx', 'vba-relationship-char-ref.pptx', 'macro-content-type-in.pptx']) {
    t.equal(await checkCode(hostileSample(name).build()), 'macro_enabled', name);
  }
  // UTF-16 with a byte order mark: a byte search for the UTF-8 text would miss it
  const parts = deckParts();
  parts.set('ppt/media/data.bin', new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]));
  addDefault(parts, 'bin', 'application/octet-stream');
  edit(parts, 'ppt/slides/_rels/slide1.xml.rels', '</Relationships>', `<Relationship Id="rId9" Type="${RT.vba}" Target="../media/data.bin"/></Relationships>`);
  const rels = text(parts, 'ppt/slides/_rels/slide1.xml.rels').replace('encoding="UTF-8"', 'encoding="UTF-16"');
  const utf16 = new Uint8Array(2 + rels.length * 2);
  utf16.set([0xff, 0xfe]);
  for (let i = 0; i < rels.length; i++) utf16[2 + i * 2] = rels.charCodeAt(i) & 0xff;
  parts.set('ppt/slides/_rels/slide1.xml.rels', utf16);
  t.equal(await checkCode(zipOf(parts)), 'macro_enabled', 'a UTF-16 relationships part');
  t.equal(await checkCode(hostileSample('ok-minimal.pptx').build()), undefined, 'a plain deck passes');
});
