/**
 * ISO/IEC 29500 Strict packages read as Transitional (core/src/ooxml/strict.ts, through
 * OpcPackage): namespaces, relationship types, graphic data URIs, the conformance
 * attribute and the string value forms, on hand-written parts; then the house template
 * made Strict (test/helpers/strict.ts) analyzes, previews and generates exactly as the
 * original does, and the deck is Transitional and clean. Needs no corpus.
 */
import t from 'tap';
import JSZip from 'jszip';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { RT } from '../../../core/src/ooxml/opc/constants.js';
import { checkPresentationPackage } from '../../../core/src/ooxml/pml/presentation.js';
import { STRICT_NAMESPACES, STRICT_RELATIONSHIP_TYPES, normalizePartBytes, normalizeXmlText } from '../../../core/src/ooxml/strict.js';
import { NS, attr, child, decodeXmlBytes } from '../../../core/src/ooxml/xml.js';
import { houseTemplate } from '../../fixtures/house-template.js';
import { lintPptx, refereeSkipped, xsdCheck } from '../../helpers/referee.js';
import { analysisOf, deckOfEverything, packageDifferences, previewsOf, strictLeftovers, toStrict } from '../../helpers/strict.js';

const SP = 'http://purl.oclc.org/ooxml/presentationml/main';
const SA = 'http://purl.oclc.org/ooxml/drawingml/main';
const SR = 'http://purl.oclc.org/ooxml/officeDocument/relationships';
const SC = 'http://purl.oclc.org/ooxml/drawingml/chart';
const PKG_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const norm = (s: string): string => normalizeXmlText(s)?.text ?? s;

t.test('the tables hold the pairs of ISO/IEC 29500-1 and 29500-4', async (t) => {
  t.equal(STRICT_NAMESPACES.get(SP), NS.p);
  t.equal(STRICT_NAMESPACES.get(SA), NS.a);
  t.equal(STRICT_NAMESPACES.get(SR), NS.r);
  t.equal(STRICT_NAMESPACES.get(SC), NS.c);
  t.equal(STRICT_NAMESPACES.get('http://purl.oclc.org/ooxml/officeDocument/extendedProperties'), NS.extendedProperties);
  t.equal(STRICT_RELATIONSHIP_TYPES.get(`${SR}/officeDocument`), RT.officeDocument);
  t.equal(STRICT_RELATIONSHIP_TYPES.get(`${SR}/slideLayout`), RT.slideLayout);
  t.equal(STRICT_RELATIONSHIP_TYPES.get(`${SR}/extendedProperties`), RT.extendedProperties, 'extendedProperties → extended-properties');
  t.equal(STRICT_RELATIONSHIP_TYPES.get(`${SR}/customProperties`), 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties');
  t.equal(STRICT_RELATIONSHIP_TYPES.get(`${SR}/metadata/thumbnail`), 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail', "the thumbnail is the package's own relationship in Transitional");
  for (const [s, tr] of STRICT_RELATIONSHIP_TYPES) t.ok(s.startsWith('http://purl.oclc.org/ooxml/') && tr.startsWith('http://schemas.openxmlformats.org/'), `${s} → ${tr}`);
});

t.test('namespaces are rewritten wherever they are declared, whatever the prefix', async (t) => {
  const out = norm(`<?xml version="1.0"?><x:sld xmlns:x="${SP}" xmlns:d="${SA}"><x:cSld><d:a xmlns="${SA}"><b xmlns:q='${SR}' q:id="rId1"/></d:a></x:cSld></x:sld>`);
  t.equal(out, `<?xml version="1.0"?><x:sld xmlns:x="${NS.p}" xmlns:d="${NS.a}"><x:cSld><d:a xmlns="${NS.a}"><b xmlns:q='${NS.r}' q:id="rId1"/></d:a></x:cSld></x:sld>`);
  t.equal(normalizeXmlText(`<p:sld xmlns:p="${NS.p}"/>`), undefined, 'a Transitional part: nothing to do');
  t.equal(norm(`<p:sld xmlns:p="${SP}x"/>`), `<p:sld xmlns:p="${SP}x"/>`, 'only exact table entries');
  t.equal(norm(`<a:t xmlns:a="${SA}">see ${SA} and "90%"</a:t>`), `<a:t xmlns:a="${NS.a}">see ${SA} and "90%"</a:t>`, 'text is never touched');
});

t.test('relationship types, graphic data URIs and the conformance attribute', async (t) => {
  const rels = norm(`<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${SR}/officeDocument" Target="ppt/presentation.xml"/><Relationship Id="rId2" Type="${SR}/extendedProperties" Target="docProps/app.xml"/><Relationship Id="rId3" Type="${SR}/hyperlink" Target="http://purl.oclc.org/ooxml/drawingml/main" TargetMode="External"/></Relationships>`);
  t.match(rels, `Type="${RT.officeDocument}"`);
  t.match(rels, `Type="${RT.extendedProperties}"`);
  t.match(rels, `Type="${RT.hyperlink}" Target="http://purl.oclc.org/ooxml/drawingml/main"`, 'a Target is not a namespace');
  const frame = norm(`<p:graphicFrame xmlns:p="${SP}" xmlns:a="${SA}"><a:graphic><a:graphicData uri="${SC}"/><a:graphicData uri="http://purl.oclc.org/ooxml/drawingml/table"/><a:graphicData uri="http://purl.oclc.org/ooxml/presentationml/ole"/></a:graphic></p:graphicFrame>`);
  t.match(frame, `uri="${NS.c}"`);
  t.match(frame, 'uri="http://schemas.openxmlformats.org/drawingml/2006/table"');
  t.match(frame, 'uri="http://schemas.openxmlformats.org/presentationml/2006/ole"');
  t.equal(
    norm(`<dgm:dataModel xmlns:dgm="http://purl.oclc.org/ooxml/drawingml/diagram"><dsp:dataModelExt xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" relId="rId6" minVer="http://purl.oclc.org/ooxml/drawingml/diagram"/></dgm:dataModel>`),
    `<dgm:dataModel xmlns:dgm="${NS.dgm}"><dsp:dataModelExt xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" relId="rId6" minVer="${NS.dgm}"/></dgm:dataModel>`,
    'dsp:dataModelExt/@minVer names the diagram namespace',
  );
  t.equal(norm(`<p:presentation xmlns:p="${SP}" saveSubsetFonts="1" conformance="strict"><p:sldSz cx="1" cy="2"/></p:presentation>`), `<p:presentation xmlns:p="${NS.p}" saveSubsetFonts="1"><p:sldSz cx="1" cy="2"/></p:presentation>`, 'conformance="strict" is dropped (omitted means Transitional)');
  t.equal(norm(`<p:presentation conformance="strict" xmlns:p="${SP}"/>`), `<p:presentation xmlns:p="${NS.p}"/>`, 'wherever it stands in the tag');
});

t.test('value forms: only the attributes whose schema type has them', async (t) => {
  const out = norm(
    `<a:x xmlns:a="${SA}" xmlns:c="${SC}"><a:lnSpc><a:spcPct val="90%"/></a:lnSpc><a:tint val="94.66%"/><a:gs pos="-0.5%"/>` +
      `<a:off x="1in" y="2.54cm"/><a:chOff x="12pt" y="-10mm"/><a:bodyPr lIns="1pc" rIns="1pi"/><a:rPr spc="1.5pt" baseline="30%" b="true" i="false" sz="1800"/>` +
      `<a:ext cx="1in" cy="2"/><a:xfrm flipH="true" flipV="0"/><a:tcTxStyle b="on"/>` +
      `<c:gapWidth val="150%"/><c:overlap val="-20%"/><c:numFmt formatCode="0%" sourceLinked="false"/><a:t>50%</a:t><a:hlinkClick tooltip="90%"/></a:x>`,
  );
  for (const s of [
    '<a:spcPct val="90000"/>',
    '<a:tint val="94660"/>',
    '<a:gs pos="-500"/>',
    '<a:off x="914400" y="914400"/>',
    '<a:chOff x="152400" y="-360000"/>',
    '<a:bodyPr lIns="152400" rIns="152400"/>',
    '<a:rPr spc="150" baseline="30000" b="1" i="0" sz="1800"/>',
    '<a:xfrm flipH="1" flipV="0"/>',
    '<c:gapWidth val="150"/>',
    '<c:overlap val="-20"/>',
  ]) t.match(out, s);
  t.match(out, '<a:ext cx="1in" cy="2"/>', 'a:ext/@cx is xsd:long only: left for the reader');
  t.match(out, '<a:tcTxStyle b="on"/>', 'an on/off/def enumeration is not a boolean');
  t.match(out, '<c:numFmt formatCode="0%" sourceLinked="0"/>', 'a format code is text');
  t.match(out, '<a:t>50%</a:t>');
  t.match(out, 'tooltip="90%"');
  t.equal(norm(`<a:x xmlns:a="${NS.a}"><a:spcPct val="90%"/></a:x>`), `<a:x xmlns:a="${NS.a}"><a:spcPct val="90000"/></a:x>`, 'Transitional admits the string forms too');
  t.equal(norm(`<a:x xmlns:a="${NS.a}"><a:spcPct val="90%"/><a:xfrm flipH="true"/></a:x>`), `<a:x xmlns:a="${NS.a}"><a:spcPct val="90000"/><a:xfrm flipH="true"/></a:x>`, 'a Transitional part keeps its booleans as written');
  t.equal(norm(`<a:x xmlns:a="${NS.a}"><a:spcPct val="9&#48;&#x25;"/></a:x>`), `<a:x xmlns:a="${NS.a}"><a:spcPct val="90000"/></a:x>`, 'character references are read');
  t.equal(norm(`<x xmlns:a="urn:other"><a:spcPct val="90%"/></x>`), `<x xmlns:a="urn:other"><a:spcPct val="90%"/></x>`, 'other namespaces are left alone');
});

t.test('comments, CDATA, processing instructions, odd input', async (t) => {
  const src = `<?xml version="1.0"?><?pi a="1in"?><!-- <a:off x="1in"/> --><a:x xmlns:a="${SA}"><![CDATA[<a:off x="1in"/>]]><a:off x='1in' y = "2in" /></a:x>`;
  t.equal(norm(src), `<?xml version="1.0"?><?pi a="1in"?><!-- <a:off x="1in"/> --><a:x xmlns:a="${NS.a}"><![CDATA[<a:off x="1in"/>]]><a:off x='914400' y = "1828800" /></a:x>`);
  t.equal(normalizeXmlText(`<!DOCTYPE x [<!ENTITY e "1in">]><a:x xmlns:a="${SA}"/>`), undefined, 'a DOCTYPE: left for the parser to refuse');
  t.equal(normalizeXmlText(`<a:x xmlns:a="${SA}" b="1`), undefined, 'an unclosed attribute');
  t.equal(normalizeXmlText(`<a:x xmlns:a="${SA}"b="1"/>`), undefined, 'attributes without white space between them');
  t.equal(normalizeXmlText(''), undefined);
  t.equal(normalizeXmlText('<'), undefined);
  const twice = norm(norm(`<a:x xmlns:a="${SA}"><a:spcPct val="90%"/><a:off x="1in" y="0"/></a:x>`));
  t.equal(twice, `<a:x xmlns:a="${NS.a}"><a:spcPct val="90000"/><a:off x="914400" y="0"/></a:x>`, 'idempotent');
});

t.test('normalizePartBytes keeps the bytes when there is nothing to do, and the encoding', async (t) => {
  const plain = enc(`<p:sld xmlns:p="${NS.p}"><p:cSld/></p:sld>`);
  t.equal(normalizePartBytes(plain), plain, 'the same object');
  const pct = enc(`<c:x xmlns:c="${NS.c}"><c:numFmt formatCode="0%"/></c:x>`);
  t.equal(normalizePartBytes(pct), pct, 'a mark but no conversion: the same object');
  const bool = enc(`<a:x xmlns:a="${NS.a}"><a:xfrm flipH="true"/></a:x>`);
  t.equal(normalizePartBytes(bool), bool, 'a Transitional part with booleans only: the same object');
  const strict = `<p:sld xmlns:p="${SP}"><p:cSld name="Café ✓"/></p:sld>`;
  t.equal(new TextDecoder().decode(normalizePartBytes(enc(strict))), `<p:sld xmlns:p="${NS.p}"><p:cSld name="Café ✓"/></p:sld>`);
  for (const [bom, label] of [[[0xff, 0xfe], 'UTF-16LE'], [[0xfe, 0xff], 'UTF-16BE']] as const) {
    const le = Buffer.from(strict, 'utf16le');
    if (bom[0] === 0xfe) le.swap16();
    const bytes = new Uint8Array([...bom, ...le]);
    const out = normalizePartBytes(bytes);
    t.same([out[0], out[1]], bom, `${label}: the byte order mark stays`);
    t.equal(decodeXmlBytes(out), `<p:sld xmlns:p="${NS.p}"><p:cSld name="Café ✓"/></p:sld>`, `${label}: rewritten`);
  }
  const bad = new Uint8Array([...enc(`<p:sld xmlns:p="${SP}">`), 0xff, ...enc('</p:sld>')]);
  t.equal(normalizePartBytes(bad), bad, 'invalid UTF-8: left for the parser to report');
});

/** A small Strict package written by hand, as PowerPoint writes one. */
async function handStrictPackage(): Promise<Uint8Array> {
  const zip = new JSZip();
  const decl = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  zip.file('[Content_Types].xml', `${decl}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>`);
  zip.file('_rels/.rels', `${decl}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${SR}/officeDocument" Target="ppt/presentation.xml"/><Relationship Id="rId2" Type="${SR}/extendedProperties" Target="docProps/app.xml"/></Relationships>`);
  zip.file('ppt/presentation.xml', `${decl}<p:presentation xmlns:a="${SA}" xmlns:r="${SR}" xmlns:p="${SP}" conformance="strict"><p:sldSz cx="12192000" cy="6858000"/><p:defaultTextStyle><a:lvl1pPr><a:lnSpc><a:spcPct val="90%"/></a:lnSpc></a:lvl1pPr></p:defaultTextStyle></p:presentation>`);
  zip.file('ppt/_rels/presentation.xml.rels', `${decl}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${SR}/theme" Target="theme/theme1.xml"/></Relationships>`);
  zip.file('docProps/app.xml', `${decl}<Properties xmlns="http://purl.oclc.org/ooxml/officeDocument/extendedProperties"><Slides>0</Slides></Properties>`);
  return zip.generateAsync({ type: 'uint8array' });
}

t.test('OpcPackage reads a Strict package in Transitional form', async (t) => {
  const bytes = await handStrictPackage();
  const pkg = await OpcPackage.open(bytes);
  t.equal(pkg.conformance, 'strict');
  t.same(checkPresentationPackage(pkg), { mainPartName: '/ppt/presentation.xml', isTemplate: false }, 'the upload check finds the officeDocument relationship (it used to answer 415)');
  t.equal(pkg.relatedPartName('/', RT.extendedProperties), '/docProps/app.xml');
  t.equal(pkg.relatedPartName('/ppt/presentation.xml', RT.theme), '/ppt/theme/theme1.xml');
  const root = pkg.getXml('/ppt/presentation.xml').documentElement!;
  t.equal(root.namespaceURI, NS.p);
  t.equal(attr(root, 'conformance'), undefined);
  t.equal(attr(child(child(child(child(root, NS.p, 'defaultTextStyle'), NS.a, 'lvl1pPr'), NS.a, 'lnSpc'), NS.a, 'spcPct'), 'val'), '90000');
  t.notMatch(decodeXmlBytes(pkg.getBytes('/docProps/app.xml')), 'purl.oclc.org', 'getBytes gives the Transitional form');
  t.same(await strictLeftovers(await pkg.toBytes()), [], 'toBytes writes it Transitional');

  const transitional = await OpcPackage.open(await pkg.toBytes());
  t.equal(transitional.conformance, 'transitional');
  t.equal(OpcPackage.create().conformance, 'transitional');
});

t.test('a Transitional package: the parts are the stored bytes, relationships parts never scanned', async (t) => {
  const house = await houseTemplate();
  const pkg = await OpcPackage.open(house);
  t.equal(pkg.conformance, 'transitional');
  const zip = await JSZip.loadAsync(house);
  for (const name of ['ppt/slides/slide1.xml', 'ppt/slideMasters/slideMaster1.xml', 'ppt/theme/theme1.xml', '_rels/.rels']) {
    const stored = await zip.file(name)!.async('uint8array');
    t.same(Buffer.from(pkg.getBytes(`/${name}`)), Buffer.from(stored), `${name} as stored`);
    t.equal(pkg.getBytes(`/${name}`), pkg.getBytes(`/${name}`), `${name}: the same object every time`);
  }
  // a Transitional package's relationships parts are read as they are, even when they hold a Strict type
  const odd = new JSZip();
  for (const f of Object.values(zip.files)) if (!f.dir) odd.file(f.name, await f.async('uint8array'));
  odd.file('ppt/slides/_rels/slide1.xml.rels', `<?xml version="1.0"?><Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout" Target="../slideLayouts/slideLayout1.xml"/><Relationship Id="rId9" Type="${SR}/image" Target="x.png"/></Relationships>`);
  const oddPkg = await OpcPackage.open(await odd.generateAsync({ type: 'uint8array' }));
  t.equal(oddPkg.rels('/ppt/slides/slide1.xml')[1]!.type, `${SR}/image`);
});

t.test('the house template made Strict analyzes, previews and generates as the original', async (t) => {
  const original = await houseTemplate();
  const { bytes: strict, stats } = await toStrict(original);
  t.ok(stats.percentages > 20 && stats.measures > 10 && stats.booleans > 10 && stats.relationships > 10, `the copy is Strict: ${JSON.stringify(stats)}`);
  for (const unit of ['in', 'cm', 'mm', 'pt', 'pc', 'pi']) t.ok((stats.units[unit] ?? 0) > 0, `some coordinates in ${unit}`);
  t.ok((await strictLeftovers(strict)).length > 20, 'its parts hold Strict namespaces');
  t.equal((await OpcPackage.open(strict)).conformance, 'strict');

  t.same(await analysisOf(strict), await analysisOf(original), 'the same analysis: layouts, shapes, geometry, fonts, colours');

  const [a, b] = [await previewsOf(original, 320), await previewsOf(strict, 320)];
  t.equal(b.size, a.size);
  for (const [part, png] of a) t.ok(Buffer.compare(Buffer.from(png), Buffer.from(b.get(part)!)) === 0, `${part}: the same pixels (PNG bytes equal)`);

  const [deckA, deckB] = [await deckOfEverything(original), await deckOfEverything(strict)];
  t.same(deckB.errors, []);
  t.equal(deckB.pages_generated, deckA.pages_generated);
  t.same(await packageDifferences(deckB.bytes!, deckA.bytes!), [], 'the same deck, part by part');
  t.same(await strictLeftovers(deckB.bytes!), [], 'the deck is Transitional');
  t.equal((await OpcPackage.open(deckB.bytes!)).conformance, 'transitional');

  const dir = mkdtempSync(join(tmpdir(), 'sw-strict-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'house-strict-deck.pptx');
  writeFileSync(file, deckB.bytes!);
  const lint = await lintPptx(file);
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'lint clean');
  const xsd = await xsdCheck(file, { all: true });
  if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, xsd.output.split('\n').filter((l) => !/validates$/.test(l)).join('\n'));
});
