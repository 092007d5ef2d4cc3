import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { PackageError } from '../../../core/src/ooxml/errors.js';
import { RT, CT } from '../../../core/src/ooxml/opc/constants.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

t.test('opens a real template and resolves its main part through the package relationships', needsCorpus('templates/pandoc-footer-reference.pptx'), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('templates/pandoc-footer-reference.pptx')));
  const main = pkg.relatedPartName('/', RT.officeDocument);
  t.equal(main, '/ppt/presentation.xml');
  t.equal(pkg.contentType(main!), CT.presentationMain);
  const slides = pkg.rels(main!).filter((r) => r.type === RT.slide);
  t.ok(slides.length > 0, 'presentation relates slides');
  for (const r of slides) t.ok(pkg.hasPart(r.targetPartName!), `${r.targetPartName} exists`);
});

t.test('round-trips a package: written parts read back identically', needsCorpus('templates/python-pptx-groupshape.pptx'), async (t) => {
  const src = await OpcPackage.open(readFileSync(corpusPath('templates/python-pptx-groupshape.pptx')));
  const again = await OpcPackage.open(await src.toBytes());
  t.same(again.partNames().sort(), src.partNames().sort());
  for (const n of src.partNames()) t.equal(again.contentType(n), src.contentType(n), `content type of ${n}`);
});

t.test('refuses an encrypted (OLE compound) file by name', needsCorpus('broken/aspose-password-protected.pptx'), async (t) => {
  const err = await OpcPackage.open(readFileSync(corpusPath('broken/aspose-password-protected.pptx'))).catch((e: unknown) => e);
  t.ok(err instanceof PackageError);
  t.equal((err as PackageError).code, 'encrypted');
});

t.test('refuses a truncated zip', needsCorpus('broken/poi-divino-revelado-truncated.pptx'), async (t) => {
  const err = await OpcPackage.open(readFileSync(corpusPath('broken/poi-divino-revelado-truncated.pptx'))).catch((e: unknown) => e);
  t.equal((err as PackageError).code, 'zip_truncated');
});

t.test('refuses bytes that are not a zip at all', async (t) => {
  const err = await OpcPackage.open(new TextEncoder().encode('%PDF-1.4 hello')).catch((e: unknown) => e);
  t.equal((err as PackageError).code, 'not_zip');
});

t.test('part names read from the zip match case-insensitively (Part 2, §9.1.1.2), [Content_Types].xml included', async (t) => {
  const { writeZip } = await import('../../../core/src/ooxml/opc/zip-codec.js');
  const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
  const bytes = writeZip([
    { name: '[content_types].xml', bytes: enc('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>') },
    { name: '_rels/.rels', bytes: enc('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="ppt/presentation.xml"/></Relationships>') },
    { name: 'PPT/Presentation.XML', bytes: enc('<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>') },
  ]);
  const pkg = await OpcPackage.open(bytes);
  t.ok(pkg.hasPart('/ppt/presentation.xml'), 'found under another case');
  t.equal(pkg.relatedPartName('/', RT.officeDocument), '/ppt/presentation.xml');
  t.equal(pkg.contentType('/ppt/presentation.xml'), CT.presentationMain);
  t.notOk(pkg.partNames().some((n) => n.toLowerCase() === '/[content_types].xml'), 'the content types part is not a part');
});
