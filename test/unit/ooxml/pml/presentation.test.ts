import t from 'tap';
import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { OpcPackage } from '../../../../core/src/ooxml/opc/package.js';
import { PackageError } from '../../../../core/src/ooxml/errors.js';
import { checkPresentationPackage, readPresentation } from '../../../../core/src/ooxml/pml/presentation.js';
import { corpusPath, needsCorpus } from '../../../helpers/corpus.js';

async function open(rel: string): Promise<OpcPackage> {
  return OpcPackage.open(readFileSync(corpusPath(rel)));
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof PackageError ? err.code : `not a PackageError: ${String(err)}`;
  }
  return undefined;
}

/** A minimal WordprocessingML package: what a .docx renamed to .pptx looks like. */
async function docxLikePackage(): Promise<OpcPackage> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file('word/document.xml', '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>');
  return OpcPackage.open(await zip.generateAsync({ type: 'uint8array' }));
}

t.test('accepts a .pptx and names its main part', needsCorpus('templates/pandoc-footer-reference.pptx'), async (t) => {
  const info = checkPresentationPackage(await open('templates/pandoc-footer-reference.pptx'));
  t.same(info, { mainPartName: '/ppt/presentation.xml', isTemplate: false });
});

t.test('recognises a .potx as a template', needsCorpus('templates/poi-bug59273-template.potx'), async (t) => {
  const info = checkPresentationPackage(await open('templates/poi-bug59273-template.potx'));
  t.equal(info.isTemplate, true);
});

t.test('refuses a macro-enabled .pptm with macro_enabled', needsCorpus('refused/poi-macro-attachments.pptm'), async (t) => {
  const pkg = await open('refused/poi-macro-attachments.pptm');
  try {
    checkPresentationPackage(pkg);
    t.fail('should throw');
  } catch (err) {
    t.ok(err instanceof PackageError);
    t.equal((err as PackageError).code, 'macro_enabled');
    t.match((err as PackageError).message, /templates must never carry code/);
  }
});

t.test('refuses a vbaProject part even under a plain presentation content type', needsCorpus('templates/python-pptx-groupshape.pptx'), async (t) => {
  const pkg = await open('templates/python-pptx-groupshape.pptx');
  pkg.setBytes('/ppt/vbaProject.bin', new Uint8Array([1, 2, 3]), 'application/vnd.ms-office.vbaProject');
  t.equal(codeOf(() => checkPresentationPackage(pkg)), 'macro_enabled');
});

t.test('refuses a vbaProject relationship alone', needsCorpus('templates/python-pptx-groupshape.pptx'), async (t) => {
  const pkg = await open('templates/python-pptx-groupshape.pptx');
  pkg.addRel('/ppt/presentation.xml', 'http://schemas.microsoft.com/office/2006/relationships/vbaProject', '/ppt/presentation.xml');
  t.equal(codeOf(() => checkPresentationPackage(pkg)), 'macro_enabled');
});

t.test('refuses a word-processing package renamed to .pptx as not_presentation', async (t) => {
  const pkg = await docxLikePackage();
  try {
    checkPresentationPackage(pkg);
    t.fail('should throw');
  } catch (err) {
    t.equal((err as PackageError).code, 'not_presentation');
    t.match((err as PackageError).message, /wordprocessingml/);
  }
});

t.test('refuses a package with no officeDocument relationship as not_presentation', async (t) => {
  const pkg = await docxLikePackage();
  pkg.setRels('/', []);
  t.equal(codeOf(() => checkPresentationPackage(pkg)), 'not_presentation');
});

t.test('reads slides in sldIdLst order with slide size', needsCorpus('templates/poi-layouts-showcase.pptx'), async (t) => {
  const info = readPresentation(await open('templates/poi-layouts-showcase.pptx'));
  t.equal(info.slides.length, 10);
  t.equal(info.slideWidthEmu, 9144000);
  t.equal(info.slideHeightEmu, 6858000);
  t.equal(info.masters.length, 1);
  t.ok(info.defaultTextStyle, 'has a default text style');
});

t.test('a presentation part that is missing is bad_structure', needsCorpus('templates/python-pptx-groupshape.pptx'), async (t) => {
  const pkg = await open('templates/python-pptx-groupshape.pptx');
  pkg.removePart('/ppt/presentation.xml');
  t.equal(codeOf(() => readPresentation(pkg)), 'bad_structure');
});

t.test('a macro-enabled word-processing package is not_presentation, not macro_enabled', async (t) => {
  const pkg = await docxLikePackage();
  pkg.setBytes('/word/vbaProject.bin', new Uint8Array([1]), 'application/vnd.ms-office.vbaProject');
  t.equal(codeOf(() => checkPresentationPackage(pkg)), 'not_presentation');
});

t.test('the .pptm content type alone is enough to refuse', needsCorpus('refused/poi-macro-attachments.pptm'), async (t) => {
  const pkg = await open('refused/poi-macro-attachments.pptm');
  for (const name of pkg.partNames()) if (/vbaProject/i.test(name)) pkg.removePart(name);
  t.equal(codeOf(() => checkPresentationPackage(pkg)), 'macro_enabled');
});
