import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { PackageError } from '../../../core/src/ooxml/errors.js';
import { RT, CT } from '../../../core/src/ooxml/opc/constants.js';
import { corpusPath } from '../../helpers/corpus.js';

t.test('opens a real template and resolves its main part through the package relationships', async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('templates/pandoc-footer-reference.pptx')));
  const main = pkg.relatedPartName('/', RT.officeDocument);
  t.equal(main, '/ppt/presentation.xml');
  t.equal(pkg.contentType(main!), CT.presentationMain);
  const slides = pkg.rels(main!).filter((r) => r.type === RT.slide);
  t.ok(slides.length > 0, 'presentation relates slides');
  for (const r of slides) t.ok(pkg.hasPart(r.targetPartName!), `${r.targetPartName} exists`);
});

t.test('round-trips a package: written parts read back identically', async (t) => {
  const src = await OpcPackage.open(readFileSync(corpusPath('templates/python-pptx-groupshape.pptx')));
  const again = await OpcPackage.open(await src.toBytes());
  t.same(again.partNames().sort(), src.partNames().sort());
  for (const n of src.partNames()) t.equal(again.contentType(n), src.contentType(n), `content type of ${n}`);
});

t.test('refuses an encrypted (OLE compound) file by name', async (t) => {
  const err = await OpcPackage.open(readFileSync(corpusPath('broken/aspose-password-protected.pptx'))).catch((e: unknown) => e);
  t.ok(err instanceof PackageError);
  t.equal((err as PackageError).code, 'encrypted');
});

t.test('refuses a truncated zip', async (t) => {
  const err = await OpcPackage.open(readFileSync(corpusPath('broken/poi-divino-revelado-truncated.pptx'))).catch((e: unknown) => e);
  t.equal((err as PackageError).code, 'zip_truncated');
});

t.test('refuses bytes that are not a zip at all', async (t) => {
  const err = await OpcPackage.open(new TextEncoder().encode('%PDF-1.4 hello')).catch((e: unknown) => e);
  t.equal((err as PackageError).code, 'not_zip');
});
