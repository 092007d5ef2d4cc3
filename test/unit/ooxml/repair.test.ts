/**
 * The repair step (core/src/ooxml/repair.ts) on hand-made packages, one fault kind at a
 * time and all together (test/fixtures/damaged-template.ts), and on the real incoming file
 * with an empty picture fill: each fault is repaired in PowerPoint's repaired form and
 * listed; the repaired package passes the integrity check and repairs to nothing when read
 * again; sound packages are left byte for byte; hostile structure stays refused.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { PackageError } from '../../../core/src/ooxml/errors.js';
import { checkPresentationIntegrity } from '../../../core/src/ooxml/integrity.js';
import { checkPresentationPackage } from '../../../core/src/ooxml/pml/presentation.js';
import { repairTemplate, repairTemplateParts, repairsOf, type PackageRepair } from '../../../core/src/ooxml/repair.js';
import { analyzePresentation } from '../../../core/src/analysis/analyze.js';
import { NS, attr, attrNS, children, descendants } from '../../../core/src/ooxml/xml.js';
import run, { type AnalyzeResult } from '../../../core/src/threads/cpu-task.js';
import { miniDeck, sp } from './pml/mini-deck.js';
import { DAMAGED_TEMPLATE_REPAIRS, chartFrame, damagedTemplateBytes, damagedTemplatePackage, pic, redPng } from '../../fixtures/damaged-template.js';
import { hostileSample } from '../../hostile/samples.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

const MISSING_BLIP_FILL = 'incoming/templates/poi-missing-blip-fill.pptx';
const S1 = '/ppt/slides/slide1.xml';
const IMAGE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
const HYPERLINK = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink';

/** Repairs a package as analysis does and returns the repairs. */
function repair(pkg: OpcPackage): PackageRepair[] {
  const { mainPartName } = checkPresentationPackage(pkg);
  return repairTemplate(pkg, mainPartName);
}

const brief = (r: PackageRepair): string => `${r.action} ${r.element} ${r.part}`;
const xmlOf = (pkg: OpcPackage, part: string): string => new TextDecoder().decode(pkg.getBytes(part));

/** Reopens a package from its bytes, as a generated deck or a second analysis would read it. */
async function reopened(pkg: OpcPackage): Promise<OpcPackage> {
  return OpcPackage.open(await pkg.toBytes());
}

t.test('a picture whose r:embed names no relationship keeps its frame without an image', async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: pic(3, 'rId7') }] });
  const repairs = repair(pkg);
  t.same(repairs.map(brief), [`reference_removed a:blip ${S1}`]);
  t.match(repairs[0]!.detail, /r:embed="rId7" names no relationship.*"Picture 3" \(id 3\).*keeps its frame/);
  const p = descendants(pkg.getXml(S1), NS.p, 'pic')[0]!;
  const blipFill = children(p, NS.p, 'blipFill')[0]!;
  t.ok(blipFill, 'p:blipFill stays');
  t.equal(children(blipFill, NS.a, 'blip').length, 0, 'its a:blip is gone');
  t.equal(children(blipFill, NS.a, 'stretch').length, 1, 'the rest of the fill stays');
  t.doesNotThrow(() => checkPresentationIntegrity(pkg, '/ppt/presentation.xml'), 'the integrity check passes');
  t.same(repair(await reopened(pkg)), [], 'the repaired form needs no repair');
});

t.test('a relationship to a missing part is dropped and its picture repaired; an unused one is dropped alone', async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: pic(3, 'rId2'), rels: [['rId2', 'image', '../media/gone.png'], ['rId3', 'image', '../media/unused.png']] }] });
  const repairs = repair(pkg);
  t.same(repairs.map(brief), [`relationship_dropped Relationship ${S1}`, `relationship_dropped Relationship ${S1}`, `reference_removed a:blip ${S1}`]);
  t.match(repairs[0]!.detail, /rId2 \(image\) targets \/ppt\/media\/gone\.png, which is missing/);
  t.match(repairs[2]!.detail, /r:embed="rId2" targets \/ppt\/media\/gone\.png, which is missing/);
  t.same(pkg.rels(S1).map((r) => r.id), ['rId1'], 'only the layout relationship is left');
  t.match(xmlOf(pkg, '/ppt/slides/_rels/slide1.xml.rels'), /slideLayout1\.xml/);
  t.notMatch(xmlOf(pkg, '/ppt/slides/_rels/slide1.xml.rels'), /gone|unused/);
});

t.test('a picture with one dangling and one sound reference keeps the sound one', async (t) => {
  const tree = pic(3, 'rId2').replace('<a:blip r:embed="rId2"/>', '<a:blip r:embed="rId2" r:link="rId8"/>');
  const pkg = await miniDeck({ slides: [{ tree, rels: [['rId2', 'image', '../media/image1.png']] }] });
  pkg.setBytes('/ppt/media/image1.png', redPng(), 'image/png');
  t.same(repair(pkg).map(brief), [`reference_removed a:blip ${S1}`]);
  const blip = descendants(pkg.getXml(S1), NS.a, 'blip')[0]!;
  t.equal(attrNS(blip, NS.r, 'embed'), 'rId2');
  t.equal(attrNS(blip, NS.r, 'link'), undefined);
});

t.test('picture fills: a shape and a background become no fill, text keeps its inherited fill, a picture bullet goes, an SVG extension goes', async (t) => {
  const fill = '<a:blipFill><a:blip r:embed="rId5"/><a:stretch><a:fillRect/></a:stretch></a:blipFill>';
  const bullet = `<a:p><a:pPr><a:buBlip><a:blip r:embed="rId6"/></a:buBlip></a:pPr><a:r><a:rPr lang="en-US">${fill.replace('rId5', 'rId8')}</a:rPr><a:t>item</a:t></a:r></a:p>`;
  const svg = pic(4, 'rId2').replace(
    '<a:blip r:embed="rId2"/>',
    '<a:blip r:embed="rId2"><a:extLst><a:ext uri="{96DAC541-7B7A-43D3-8B79-37D633B846F1}"><asvg:svgBlip xmlns:asvg="http://schemas.microsoft.com/office/drawing/2016/SVG/main" r:embed="rId9"/></a:ext></a:extLst></a:blip>',
  );
  const tree = sp(3, 'Filled', { xfrm: [0, 0, 100, 100], body: bullet }).replace('</a:xfrm>', `</a:xfrm>${fill}`) + svg;
  const pkg = await miniDeck({ slides: [{ tree, rels: [['rId2', 'image', '../media/image1.png']] }] });
  pkg.setBytes('/ppt/media/image1.png', redPng(), 'image/png');
  pkg.setBytes(S1, new TextEncoder().encode(xmlOf(pkg, S1).replace('<p:cSld><p:spTree>', `<p:cSld><p:bg><p:bgPr>${fill.replace('rId5', 'rId7')}<a:effectLst/></p:bgPr></p:bg><p:spTree>`)));
  const repairs = repair(pkg);
  t.same(repairs.map((r) => r.element).sort(), ['a:blipFill', 'a:blipFill', 'a:blipFill', 'a:buBlip', 'a:ext'].sort());
  t.ok(repairs.some((r) => /fill of text in shape "Filled" \(id 3\).*removed/.test(r.detail)), 'a picture fill of text is removed, not made invisible');
  const doc = pkg.getXml(S1);
  t.equal(descendants(doc, NS.a, 'blipFill').length, 0, 'no picture fill is left');
  t.equal(descendants(doc, NS.a, 'noFill').length, 2, 'the shape and the background have no fill');
  t.equal(descendants(doc, NS.a, 'buBlip').length, 0);
  t.equal(descendants(doc, NS.a, 'extLst').length, 0, 'the SVG extension is gone');
  t.equal(attrNS(descendants(doc, NS.a, 'blip')[0], NS.r, 'embed'), 'rId2', 'the picture keeps its PNG');
  t.ok(repairs.some((r) => /the background/.test(r.detail)), 'the background is named');
});

t.test('a hyperlink loses its dangling link and keeps its text; action-only and external links stay', async (t) => {
  const run = (rPr: string, text: string): string => `<a:p><a:r><a:rPr lang="en-US">${rPr}</a:rPr><a:t>${text}</a:t></a:r></a:p>`;
  const body = run('<a:hlinkClick r:id="rId9"/>', 'dangling') + run('<a:hlinkClick r:id="" action="ppaction://hlinkshowjump?jump=nextslide"/>', 'next') + run('<a:hlinkClick r:id="rId2"/>', 'web');
  const pkg = await miniDeck({ slides: [{ tree: sp(3, 'Links', { xfrm: [0, 0, 100, 100], body }) }] });
  pkg.setRels(S1, [...pkg.rels(S1), { id: 'rId2', type: HYPERLINK, external: true, target: 'https://example.com/', targetPartName: undefined }]);
  const repairs = repair(pkg);
  t.same(repairs.map(brief), [`reference_removed a:hlinkClick ${S1}`]);
  t.match(repairs[0]!.detail, /hyperlink of shape "Links" \(id 3\) is removed; its text stays/);
  const links = descendants(pkg.getXml(S1), NS.a, 'hlinkClick');
  t.same(links.map((l) => attrNS(l, NS.r, 'id')), ['', 'rId2']);
  t.same(descendants(pkg.getXml(S1), NS.a, 't').map((x) => x.textContent), ['dangling', 'next', 'web']);
});

t.test('graphic frames whose chart or diagram is gone are removed; in mc:AlternateContent the fallback takes their place', async (t) => {
  const diagram =
    '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="Diagram 4"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="0"/><a:ext cx="100" cy="100"/></p:xfrm>' +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rId20" r:lo="rId21" r:qs="rId22" r:cs="rId23"/></a:graphicData></a:graphic></p:graphicFrame>';
  const alt = `<mc:AlternateContent><mc:Choice xmlns:c14="http://schemas.microsoft.com/office/drawing/2007/8/2/chart" Requires="c14">${chartFrame(6, 'rId30')}</mc:Choice><mc:Fallback>${pic(6, 'rId2', 0, 0, 'Fallback')}</mc:Fallback></mc:AlternateContent>`;
  const pkg = await miniDeck({ slides: [{ tree: chartFrame(3, 'rId8') + diagram + alt, rels: [['rId2', 'image', '../media/image1.png']] }] });
  pkg.setBytes('/ppt/media/image1.png', redPng(), 'image/png');
  const repairs = repair(pkg);
  t.same(repairs.map(brief), [`shape_removed p:graphicFrame ${S1}`, `shape_removed p:graphicFrame ${S1}`, `shape_removed p:graphicFrame ${S1}`]);
  t.match(repairs[1]!.detail, /diagram \(SmartArt\) of graphic frame "Diagram 4"/);
  t.match(repairs[2]!.detail, /mc:Fallback content takes its place/);
  const doc = pkg.getXml(S1);
  t.equal(descendants(doc, NS.p, 'graphicFrame').length, 0, 'no frame is left');
  t.equal(descendants(doc, NS.mc, 'AlternateContent').length, 0, 'the alternate content is unwrapped');
  t.same(descendants(doc, NS.p, 'pic').map((p) => attr(descendants(p, NS.p, 'cNvPr')[0], 'name')), ['Fallback'], 'its fallback picture is a shape of the slide');
});

t.test('an OLE object keeps its frame and preview; a master layout entry, tags and a sound go; a dangling id in the timing drops the animations', async (t) => {
  const ole =
    '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Object 3"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="0"/><a:ext cx="100" cy="100"/></p:xfrm>' +
    `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/presentationml/2006/ole"><p:oleObj r:id="rId40" progId="Excel.Sheet.12"><p:embed/>${pic(0, 'rId2').replace('<p:pic>', '<p:pic>')}</p:oleObj></a:graphicData></a:graphic></p:graphicFrame>`;
  const after =
    '<p:transition><p:sndAc><p:stSnd><p:snd r:embed="rId41" name="chime.wav"/></p:stSnd></p:sndAc></p:transition>' +
    '<p:timing><p:tnLst><p:par><p:cTn id="1" nodeType="tmRoot"><p:childTnLst><p:audio><p:cMediaNode><p:cTn id="2"/><p:tgtEl><p:sndTgt r:embed="rId42" name="x"/></p:tgtEl></p:cMediaNode></p:audio></p:childTnLst></p:cTn></p:par></p:tnLst></p:timing>';
  const pkg = await miniDeck({ slides: [{ tree: ole, rels: [['rId2', 'image', '../media/image1.png']], after }] });
  pkg.setBytes('/ppt/media/image1.png', redPng(), 'image/png');
  const master = '/ppt/slideMasters/slideMaster1.xml';
  pkg.setRels(master, [...pkg.rels(master), { id: 'rId50', type: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout', external: false, targetPartName: '/ppt/slideLayouts/slideLayout9.xml' }]);
  pkg.setBytes(
    master,
    new TextEncoder().encode(xmlOf(pkg, master).replace('</p:sldLayoutIdLst>', '<p:sldLayoutId id="2147483660" r:id="rId50"/></p:sldLayoutIdLst>').replace('</p:cSld>', '<p:custDataLst><p:tags r:id="rId51"/></p:custDataLst></p:cSld>')),
  );
  const repairs = repair(pkg);
  t.same(repairs.map(brief).sort(), [`relationship_dropped Relationship ${master}`, `reference_removed p:sldLayoutId ${master}`, `reference_removed p:tags ${master}`, `reference_removed p:oleObj ${S1}`, `reference_removed p:sndAc ${S1}`, `reference_removed p:timing ${S1}`].sort());
  const doc = pkg.getXml(S1);
  const oleObj = descendants(doc, NS.p, 'oleObj')[0]!;
  t.equal(attrNS(oleObj, NS.r, 'id'), undefined, 'the OLE object has no embedding left');
  t.equal(descendants(oleObj, NS.p, 'pic').length, 1, 'and keeps its preview picture');
  t.equal(descendants(doc, NS.p, 'sndAc').length, 0);
  t.equal(descendants(doc, NS.p, 'timing').length, 0);
  t.equal(descendants(doc, NS.p, 'transition').length, 1, 'the transition stays');
  t.equal(descendants(pkg.getXml(master), NS.p, 'sldLayoutId').length, 1, 'the master lists its one real layout');
  t.equal(descendants(pkg.getXml(master), NS.p, 'tags').length, 0);
  t.doesNotThrow(() => checkPresentationIntegrity(pkg, '/ppt/presentation.xml'));
});

t.test('parts without a content type: by extension, by XML root element, else dropped with what relates them', async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: pic(3, 'rId2') + pic(4, 'rId3', 0, 0), rels: [['rId2', 'image', '../media/image1.png'], ['rId3', 'image', '../media/odd.zzz']] }] });
  pkg.setBytes('/ppt/media/image1.png', redPng());
  pkg.setBytes('/ppt/media/odd.zzz', new Uint8Array([0, 1, 2]));
  t.equal(pkg.contentType('/ppt/media/image1.png'), undefined, 'the PNG has no content type');
  const repairs = repair(pkg);
  t.same(repairs.map(brief), ['content_type_added part /ppt/media/image1.png', 'part_dropped part /ppt/media/odd.zzz', `relationship_dropped Relationship ${S1}`, `reference_removed a:blip ${S1}`]);
  t.equal(pkg.contentType('/ppt/media/image1.png'), 'image/png');
  t.notOk(pkg.hasPart('/ppt/media/odd.zzz'));
  const again = await reopened(pkg);
  t.equal(again.contentType('/ppt/media/image1.png'), 'image/png', 'written as a Default');
  t.match(xmlOf(again, S1), /r:embed="rId2"/, 'the picture with its PNG stays');

  // without an xml Default, a slide part is told by its root element
  const bare = await miniDeck({ slides: [{ tree: '' }] });
  const bytes = await bare.toBytes();
  const JSZip = (await import('jszip')).default;
  const zip = await JSZip.loadAsync(bytes);
  const ct = (await zip.file('[Content_Types].xml')!.async('string')).replace(/<Default Extension="xml"[^>]*\/>/, '').replace(/<Override PartName="\/ppt\/slides\/slide1\.xml"[^>]*\/>/, '');
  zip.file('[Content_Types].xml', ct);
  zip.file('ppt/notes.xml', '<?xml version="1.0"?><foo/>');
  const noXml = await OpcPackage.open(await zip.generateAsync({ type: 'uint8array' }));
  t.equal(noXml.contentType(S1), undefined);
  const r2 = repair(noXml);
  t.same(r2.filter((r) => r.action === 'content_type_added').map((r) => r.part).sort(), ['/ppt/notes.xml', S1].sort());
  t.equal(noXml.contentType(S1), 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml');
  t.equal(noXml.contentType('/ppt/notes.xml'), 'application/xml', 'an unknown root is generic XML');
  t.match(r2.find((r) => r.part === S1)!.detail, /root element p:sld/);
});

t.test('duplicate shape ids: repeats renumbered above the largest; connections follow the nearest shape; animations keep the first', async (t) => {
  const pkg = await damagedTemplatePackage();
  const repairs = repair(pkg);
  const s5 = '/ppt/slides/slide5.xml';
  const renumbered = repairs.filter((r) => r.part === s5);
  t.same(renumbered.map(brief), [`shape_id_renumbered p:cNvPr ${s5}`]);
  t.match(renumbered[0]!.detail, /shape id 3 is used by shape "Box" \(id 3\) and again by shape "Copy of Box" \(id 3\); the repeat is renumbered to 12/);
  const doc = pkg.getXml(s5);
  const ids = descendants(doc, NS.p, 'cNvPr').map((c) => `${attr(c, 'name')}=${attr(c, 'id')}`);
  t.same(ids, ['=1', 'Title 1=2', 'Box=3', 'Group 9=10', 'Copy of Box=12', 'Connector 10=11']);
  t.same([...descendants(doc, NS.a, 'stCxn'), ...descendants(doc, NS.a, 'endCxn')].map((c) => attr(c, 'id')), ['12', '12'], "the group's connector follows the group's copy");
  t.equal(attr(descendants(doc, NS.p, 'bldP')[0], 'spid'), '3', 'the animation keeps the first');

  // alternate content branches and an OLE preview are not repeats
  const alt = `<mc:AlternateContent><mc:Choice Requires="p14">${sp(3, 'A', { xfrm: [0, 0, 1, 1] })}</mc:Choice><mc:Fallback>${sp(3, 'A', { xfrm: [0, 0, 1, 1] })}</mc:Fallback></mc:AlternateContent>`;
  const sound = await miniDeck({ slides: [{ tree: sp(2, 'T', { xfrm: [0, 0, 1, 1] }) + alt }] });
  t.same(repair(sound), [], 'shapes in mc:Fallback share ids with their choice');
});

t.test('the whole damaged template: every repair listed, analysis lists them, the repaired form is stable', async (t) => {
  const bytes = await damagedTemplateBytes();
  const pkg = await OpcPackage.open(bytes);
  const repairs = repair(pkg);
  t.same(repairs.map(brief).sort(), DAMAGED_TEMPLATE_REPAIRS.map((r) => `${r.action} ${r.element} ${r.part}`).sort());
  for (const r of repairs) t.ok(r.detail.length > 30, `${brief(r)}: ${r.detail}`);
  t.same(repairTemplate(pkg, '/ppt/presentation.xml'), repairs, 'repairing again adds nothing');
  t.same(repairsOf(pkg), repairs);
  const results = analyzePresentation({ pkg, options: {}, idFor: (k, p) => `${k}:${p}` });
  t.same(results.repairs, repairs, 'results.repairs');
  t.equal(results.slides.length, 8);
  t.same(repair(await reopened(pkg)), [], 'read again, nothing is left to repair');

  const analyzed = (await run({ op: 'analyze', bytes, templateId: 'tpl_damaged', options: {} })) as AnalyzeResult;
  t.ok(analyzed.ok, 'the analysis task completes');
  if (analyzed.ok) {
    t.equal(analyzed.results.repairs.length, DAMAGED_TEMPLATE_REPAIRS.length);
    t.equal(analyzed.results.doctor.repairs.length, DAMAGED_TEMPLATE_REPAIRS.length, 'and the doctor lists them');
    const s5 = analyzed.results.doctor.repairs.find((r) => r.action === 'shape_id_renumbered')!;
    t.match(s5, { part_kind: 'slide', index: 4, slide_id: analyzed.results.slides[4]!.slide_id });
    t.match(analyzed.results.doctor.repairs.find((r) => r.part_name === '/ppt/media/mystery.qqq'), { part_kind: 'other', slide_id: null, index: null });
    t.match(analyzed.results.doctor.repairs.find((r) => r.part_name.includes('slideLayout1')), { part_kind: 'layout', index: 0 });
  }
});

t.test('parts are repaired once, lazily, as a preview or a generated slide needs them', async (t) => {
  const pkg = await damagedTemplatePackage();
  const first = repairTemplateParts(pkg, [S1]);
  t.same(first.map(brief), ['content_type_added part /ppt/media/image1.png', 'part_dropped part /ppt/media/mystery.qqq', `reference_removed a:blip ${S1}`]);
  t.same(repairTemplateParts(pkg, [S1]), [], 'not twice');
  t.same(repairTemplateParts(pkg, ['/ppt/slideLayouts/slideLayout1.xml']).map((r) => r.action), ['relationship_dropped', 'reference_removed']);
  t.equal(repair(pkg).length, DAMAGED_TEMPLATE_REPAIRS.length, 'the whole list is the same either way');
});

t.test('related parts are repaired too: a chart whose workbook is gone; parts naming no relationship are not parsed', async (t) => {
  const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
  const chart = `<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="${C}" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><c:chart><c:plotArea><c:layout/></c:plotArea></c:chart><c:externalData r:id="rId3"><c:autoUpdate val="0"/></c:externalData></c:chartSpace>`;
  // a diagram style part that declares the namespace with only empty ids, and is not even well-formed: never parsed
  const style = '<?xml version="1.0"?><dgm:styleDef xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><dgm:x r:blip=""><unclosed>';
  const pkg = await miniDeck({
    slides: [{ tree: chartFrame(3, 'rId2'), rels: [['rId2', 'chart', '../charts/chart1.xml'], ['rId4', 'diagramQuickStyle', '../diagrams/quickStyle1.xml']] }],
    parts: {
      'ppt/charts/chart1.xml': ['application/vnd.openxmlformats-officedocument.drawingml.chart+xml', chart],
      'ppt/diagrams/quickStyle1.xml': ['application/vnd.openxmlformats-officedocument.drawingml.diagramStyle+xml', style],
    },
  });
  const repairs = repair(pkg);
  t.same(repairs.map(brief), ['reference_removed c:externalData /ppt/charts/chart1.xml']);
  t.notMatch(xmlOf(pkg, '/ppt/charts/chart1.xml'), /externalData/, 'the chart keeps its cached data without the workbook reference');
  t.match(xmlOf(pkg, S1), /graphicFrame/, 'the chart frame stays');
});

t.test('a sound template is not touched', async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: pic(3, 'rId2') + sp(4, 'Text', { xfrm: [0, 0, 1, 1] }), rels: [['rId2', 'image', '../media/image1.png']] }] });
  pkg.setBytes('/ppt/media/image1.png', redPng(), 'image/png');
  const before = xmlOf(pkg, S1);
  t.same(repair(pkg), []);
  t.equal(xmlOf(pkg, S1), before, 'the slide keeps its bytes');
});

t.test('hostile structure stays refused: a missing slide, a traversal target, a missing layout', async (t) => {
  for (const name of ['dangling-slide.pptx', 'relationship-target-escapes-package.pptx', 'relationship-cycle.pptx']) {
    const r = (await run({ op: 'analyze', bytes: hostileSample(name).build(), templateId: 'tpl_h', options: {} })) as AnalyzeResult;
    t.equal(r.ok ? 'completed' : r.error.code, 'bad_structure', `${name} is rejected`);
  }
  const pkg = await miniDeck({ slides: [{ tree: '' }] });
  pkg.removePart('/ppt/slideLayouts/slideLayout1.xml');
  const repairs = repair(pkg);
  t.same(repairs.filter((r) => r.part === S1), [], 'a slide whose layout is missing is not repaired');
  t.same(pkg.rels(S1).map((r) => r.type.split('/').pop()), ['slideLayout'], 'it keeps its layout relationship');
  t.throws(() => analyzePresentation({ pkg, options: {}, idFor: (k, p) => `${k}:${p}` }), PackageError);
});

t.test('the catalog samples PowerPoint repairs are accepted with their repairs', async (t) => {
  for (const name of ['dangling-targets.pptx', 'duplicate-shape-ids.pptx']) {
    const s = hostileSample(name);
    const r = (await run({ op: 'analyze', bytes: s.build(), templateId: 'tpl_h', options: {} })) as AnalyzeResult;
    t.ok(r.ok, `${name} is analyzed`);
    if (r.ok) t.same(r.results.repairs.map((x) => ({ part: x.part, element: x.element, action: x.action })), s.repairs ?? [], `${name}: its repairs`);
  }
});

t.test('the incoming file with an empty picture fill: nothing to repair, analyzed as it is', needsCorpus(MISSING_BLIP_FILL), async (t) => {
  const bytes = new Uint8Array(readFileSync(corpusPath(MISSING_BLIP_FILL)));
  const pkg = await OpcPackage.open(bytes);
  t.same(repair(pkg), [], 'an empty p:blipFill is PowerPoint-valid (its own saved form of a picture without image)');
  const r = (await run({ op: 'analyze', bytes, templateId: 'tpl_poi', options: {} })) as AnalyzeResult;
  t.ok(r.ok);
  if (r.ok) {
    const picture = r.results.slides[0]!.shapes.find((s) => s.kind === 'pic')!;
    t.match(picture, { name: 'Shape 662', media: 'image', image_part_name: null });
    t.same(r.results.repairs, []);
  }
  // the same picture with a dangling reference instead of none is repaired to this form
  const damaged = await OpcPackage.open(bytes);
  const slide = '/ppt/slides/slide1.xml';
  damaged.setBytes(slide, new TextEncoder().encode(xmlOf(damaged, slide).replace('<p:blipFill/>', '<p:blipFill><a:blip r:embed="rId42"/></p:blipFill>')));
  t.same(repair(damaged).map(brief), [`reference_removed a:blip ${slide}`]);
  t.match(xmlOf(damaged, slide), /<p:blipFill\/>/, 'back to the empty fill PowerPoint wrote');
  void IMAGE;
});
