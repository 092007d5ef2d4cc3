/**
 * The parts of a small, valid presentation for hostile samples to start from: one master,
 * one layout, a theme and N slides (ECMA-376 Part 1, §13.3.6 Presentation Part, §13.3.8
 * Slide Part, §13.3.9 Slide Layout Part, §13.3.10 Slide Master Part; Part 2, §9.3
 * relationships and §10.1 content types). A sample takes the parts as text, breaks what it
 * wants, and zips them with `raw-zip.ts`.
 *
 * Parts are kept in an ordered map of part name (no leading slash, as zip entry names)
 * to text or bytes, `[Content_Types].xml` first.
 */

export const NS_A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
export const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const NS_P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
export const NS_C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
const NS_DECL = `xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"`;
export const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';

const PML = 'application/vnd.openxmlformats-officedocument.presentationml';
/** Content types of the parts a deck has. */
export const CT = {
  presentation: `${PML}.presentation.main+xml`,
  macroPresentation: 'application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml',
  slide: `${PML}.slide+xml`,
  layout: `${PML}.slideLayout+xml`,
  master: `${PML}.slideMaster+xml`,
  theme: 'application/vnd.openxmlformats-officedocument.theme+xml',
  chart: 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  vba: 'application/vnd.ms-office.vbaProject',
  rels: 'application/vnd.openxmlformats-package.relationships+xml',
  core: 'application/vnd.openxmlformats-package.core-properties+xml',
} as const;

const OFFICE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
/** Relationship types. */
export const RT = {
  officeDocument: `${OFFICE_REL}/officeDocument`,
  slide: `${OFFICE_REL}/slide`,
  layout: `${OFFICE_REL}/slideLayout`,
  master: `${OFFICE_REL}/slideMaster`,
  theme: `${OFFICE_REL}/theme`,
  image: `${OFFICE_REL}/image`,
  chart: `${OFFICE_REL}/chart`,
  package: `${OFFICE_REL}/package`,
  vba: 'http://schemas.microsoft.com/office/2006/relationships/vbaProject',
  core: 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties',
} as const;

/** Part name (zip entry name) → content, in zip order. */
export type Parts = Map<string, string | Uint8Array>;

/** One relationship: id, type, target as written, and whether it is external. */
export interface Rel {
  id: string;
  type: string;
  target: string;
  external?: boolean;
}

/** Escapes text for an attribute value or element content. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A relationships part (Part 2, §9.3.2). */
export function relsXml(rels: readonly Rel[]): string {
  return `${XML_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.map(relXml).join('')}</Relationships>`;
}

function relXml(r: Rel): string {
  return `<Relationship Id="${esc(r.id)}" Type="${esc(r.type)}" Target="${esc(r.target)}"${r.external ? ' TargetMode="External"' : ''}/>`;
}

/** A content types part (Part 2, §10.1.2): Defaults by extension, Overrides by part name (with leading slash). */
export function contentTypesXml(defaults: ReadonlyArray<readonly [string, string]>, overrides: ReadonlyArray<readonly [string, string]>): string {
  const d = defaults.map(([ext, ct]) => `<Default Extension="${esc(ext)}" ContentType="${esc(ct)}"/>`);
  const o = overrides.map(([part, ct]) => `<Override PartName="${esc(part)}" ContentType="${esc(ct)}"/>`);
  return `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">${d.join('')}${o.join('')}</Types>`;
}

/** The group properties every shape tree starts with (§19.3.1.45 `p:spTree`). */
const TREE_HEAD =
  '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
  '<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>';

/** A text body with one run. */
export function textBody(text: string): string {
  return `<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" dirty="0"/><a:t>${text}</a:t></a:r></a:p></p:txBody>`;
}

/** A text box (a `p:sp` with `txBox="1"`) at `x, y` of size `cx × cy` EMU. */
export function textBox(id: number, text: string, x = 914400, y = 1828800, cx = 7315200, cy = 914400): string {
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Text ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
    `<p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
    `${textBody(text)}</p:sp>`
  );
}

/** A title placeholder shape. */
export function titleShape(id: number, text: string): string {
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Title ${id}"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr>` +
    `<p:spPr/>${textBody(text)}</p:sp>`
  );
}

/** A picture of the image related as `rId` (§19.3.1.37 `p:pic`). */
export function picture(id: number, rId: string): string {
  return (
    `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="Picture ${id}"/><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr>` +
    `<p:blipFill><a:blip r:embed="${rId}"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>` +
    `<p:spPr><a:xfrm><a:off x="914400" y="2743200"/><a:ext cx="1828800" cy="1828800"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`
  );
}

/** A slide (§19.3.1.38) whose shape tree holds `shapes`. */
export function slideXml(shapes: string): string {
  return `${XML_DECL}<p:sld ${NS_DECL}><p:cSld><p:spTree>${TREE_HEAD}${shapes}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`;
}

/** The slide every sample has unless it says otherwise: a title and a text box. */
export function plainSlide(n: number): string {
  return slideXml(titleShape(2, `Hostile sample slide ${n}`) + textBox(3, 'Made by test/hostile'));
}

function levelStyle(size: number, font: 'mj' | 'mn'): string {
  return `<a:lvl1pPr><a:defRPr sz="${size}"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+${font}-lt"/></a:defRPr></a:lvl1pPr>`;
}

function masterXml(): string {
  const title =
    '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title Placeholder"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr>' +
    '<p:spPr><a:xfrm><a:off x="457200" y="274638"/><a:ext cx="8229600" cy="1143000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>' +
    `${textBody('Master title')}</p:sp>`;
  const body =
    '<p:sp><p:nvSpPr><p:cNvPr id="3" name="Text Placeholder"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr>' +
    '<p:spPr><a:xfrm><a:off x="457200" y="1600200"/><a:ext cx="8229600" cy="4525963"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>' +
    `${textBody('Master text')}</p:sp>`;
  return (
    `${XML_DECL}<p:sldMaster ${NS_DECL}><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>${TREE_HEAD}${title}${body}</p:spTree></p:cSld>` +
    '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>' +
    '<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst>' +
    `<p:txStyles><p:titleStyle>${levelStyle(4400, 'mj')}</p:titleStyle><p:bodyStyle>${levelStyle(2800, 'mn')}</p:bodyStyle><p:otherStyle>${levelStyle(1800, 'mn')}</p:otherStyle></p:txStyles></p:sldMaster>`
  );
}

function layoutXml(): string {
  return `${XML_DECL}<p:sldLayout ${NS_DECL} type="titleOnly" preserve="1"><p:cSld name="Title Only"><p:spTree>${TREE_HEAD}${titleShape(2, 'Layout title')}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`;
}

function themeXml(): string {
  const colours: Array<[string, string]> = [
    ['dk1', '<a:srgbClr val="000000"/>'],
    ['lt1', '<a:srgbClr val="FFFFFF"/>'],
    ['dk2', '<a:srgbClr val="1F2A44"/>'],
    ['lt2', '<a:srgbClr val="EEECE1"/>'],
    ['accent1', '<a:srgbClr val="2E75B6"/>'],
    ['accent2', '<a:srgbClr val="C55A11"/>'],
    ['accent3', '<a:srgbClr val="7F7F7F"/>'],
    ['accent4', '<a:srgbClr val="BF9000"/>'],
    ['accent5', '<a:srgbClr val="2F5597"/>'],
    ['accent6', '<a:srgbClr val="548235"/>'],
    ['hlink', '<a:srgbClr val="0563C1"/>'],
    ['folHlink', '<a:srgbClr val="954F72"/>'],
  ];
  const fill = '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>';
  const line = (w: number): string => `<a:ln w="${w}"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>`;
  const font = (latin: string): string => `<a:latin typeface="${latin}"/><a:ea typeface=""/><a:cs typeface=""/>`;
  return (
    `${XML_DECL}<a:theme xmlns:a="${NS_A}" name="Hostile"><a:themeElements>` +
    `<a:clrScheme name="Hostile">${colours.map(([k, v]) => `<a:${k}>${v}</a:${k}>`).join('')}</a:clrScheme>` +
    `<a:fontScheme name="Hostile"><a:majorFont>${font('Calibri Light')}</a:majorFont><a:minorFont>${font('Calibri')}</a:minorFont></a:fontScheme>` +
    `<a:fmtScheme name="Hostile"><a:fillStyleLst>${fill.repeat(3)}</a:fillStyleLst><a:lnStyleLst>${line(6350)}${line(12700)}${line(19050)}</a:lnStyleLst>` +
    `<a:effectStyleLst>${'<a:effectStyle><a:effectLst/></a:effectStyle>'.repeat(3)}</a:effectStyleLst><a:bgFillStyleLst>${fill.repeat(3)}</a:bgFillStyleLst></a:fmtScheme>` +
    '</a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>'
  );
}

/** What a deck is made of; every field has a default. */
export interface DeckOptions {
  /** Number of slides (default 1). */
  slides?: number;
  /** XML of slide `n` (1-based); default {@link plainSlide}. */
  slide?: (n: number) => string;
  /** Content type of the presentation part (default the plain presentation type). */
  mainContentType?: string;
}

/**
 * The parts of a valid deck: `[Content_Types].xml`, package relationships, core
 * properties, the presentation with one master, one layout, a theme and the slides.
 */
export function deckParts(opts: DeckOptions = {}): Parts {
  const n = opts.slides ?? 1;
  const slide = opts.slide ?? plainSlide;
  const slideNums = Array.from({ length: n }, (_, i) => i + 1);
  const parts: Parts = new Map();
  parts.set(
    '[Content_Types].xml',
    contentTypesXml(
      [
        ['rels', CT.rels],
        ['xml', 'application/xml'],
        ['png', 'image/png'],
      ],
      [
        ['/ppt/presentation.xml', opts.mainContentType ?? CT.presentation],
        ['/ppt/slideMasters/slideMaster1.xml', CT.master],
        ['/ppt/slideLayouts/slideLayout1.xml', CT.layout],
        ['/ppt/theme/theme1.xml', CT.theme],
        ['/docProps/core.xml', CT.core],
        ...slideNums.map((i) => [`/ppt/slides/slide${i}.xml`, CT.slide] as const),
      ],
    ),
  );
  parts.set(
    '_rels/.rels',
    relsXml([
      { id: 'rId1', type: RT.officeDocument, target: 'ppt/presentation.xml' },
      { id: 'rId2', type: RT.core, target: 'docProps/core.xml' },
    ]),
  );
  parts.set(
    'docProps/core.xml',
    `${XML_DECL}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Hostile sample</dc:title><dc:creator>test/hostile</dc:creator></cp:coreProperties>`,
  );
  parts.set(
    'ppt/presentation.xml',
    `${XML_DECL}<p:presentation ${NS_DECL} saveSubsetFonts="1"><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>` +
      `<p:sldIdLst>${slideNums.map((i) => `<p:sldId id="${255 + i}" r:id="rId${2 + i}"/>`).join('')}</p:sldIdLst>` +
      '<p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>',
  );
  parts.set(
    'ppt/_rels/presentation.xml.rels',
    relsXml([
      { id: 'rId1', type: RT.master, target: 'slideMasters/slideMaster1.xml' },
      { id: 'rId2', type: RT.theme, target: 'theme/theme1.xml' },
      ...slideNums.map((i) => ({ id: `rId${2 + i}`, type: RT.slide, target: `slides/slide${i}.xml` })),
    ]),
  );
  parts.set('ppt/slideMasters/slideMaster1.xml', masterXml());
  parts.set(
    'ppt/slideMasters/_rels/slideMaster1.xml.rels',
    relsXml([
      { id: 'rId1', type: RT.layout, target: '../slideLayouts/slideLayout1.xml' },
      { id: 'rId2', type: RT.theme, target: '../theme/theme1.xml' },
    ]),
  );
  parts.set('ppt/slideLayouts/slideLayout1.xml', layoutXml());
  parts.set('ppt/slideLayouts/_rels/slideLayout1.xml.rels', relsXml([{ id: 'rId1', type: RT.master, target: '../slideMasters/slideMaster1.xml' }]));
  parts.set('ppt/theme/theme1.xml', themeXml());
  const slideRels = relsXml([{ id: 'rId1', type: RT.layout, target: '../slideLayouts/slideLayout1.xml' }]);
  for (const i of slideNums) {
    parts.set(`ppt/slides/slide${i}.xml`, slide(i));
    parts.set(`ppt/slides/_rels/slide${i}.xml.rels`, slideRels);
  }
  return parts;
}

/** Text of a part that must be text. @throws TypeError when the part is missing or binary */
export function text(parts: Parts, name: string): string {
  const v = parts.get(name);
  if (typeof v !== 'string') throw new TypeError(`part ${name} is ${v === undefined ? 'missing' : 'binary'}`);
  return v;
}

/** Replaces the first occurrence of `find` in a text part. @throws TypeError when `find` is not there */
export function edit(parts: Parts, name: string, find: string, replacement: string): void {
  const s = text(parts, name);
  const at = s.indexOf(find);
  if (at < 0) throw new TypeError(`${name} has no ${JSON.stringify(find)}`);
  parts.set(name, s.slice(0, at) + replacement + s.slice(at + find.length));
}

/** Adds an Override to `[Content_Types].xml` (part name with leading slash). */
export function addOverride(parts: Parts, partName: string, contentType: string): void {
  edit(parts, '[Content_Types].xml', '</Types>', `<Override PartName="${esc(partName)}" ContentType="${esc(contentType)}"/></Types>`);
}

/** Adds a Default to `[Content_Types].xml`. */
export function addDefault(parts: Parts, ext: string, contentType: string): void {
  edit(parts, '[Content_Types].xml', '<Default ', `<Default Extension="${esc(ext)}" ContentType="${esc(contentType)}"/><Default `);
}

/** Adds a relationship to a relationships part. */
export function addRel(parts: Parts, relsPart: string, rel: Rel): void {
  edit(parts, relsPart, '</Relationships>', `${relXml(rel)}</Relationships>`);
}

/**
 * A chart part (§21.2.2.27 `c:chartSpace`): a clustered bar chart of one series over
 * three categories, with its caches, whose embedded workbook is related as `rId1`.
 */
export function chartXml(): string {
  const cats = ['North', 'South', 'West'];
  const vals = [3, 5, 2];
  const strCache = `<c:strCache><c:ptCount val="3"/>${cats.map((c, i) => `<c:pt idx="${i}"><c:v>${c}</c:v></c:pt>`).join('')}</c:strCache>`;
  const numCache = `<c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="3"/>${vals.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:numCache>`;
  return (
    `${XML_DECL}<c:chartSpace xmlns:c="${NS_C}" xmlns:a="${NS_A}" xmlns:r="${NS_R}"><c:chart><c:autoTitleDeleted val="1"/><c:plotArea><c:layout/>` +
    '<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/>' +
    `<c:ser><c:idx val="0"/><c:order val="0"/><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>Sales</c:v></c:pt></c:strCache></c:strRef></c:tx>` +
    `<c:cat><c:strRef><c:f>Sheet1!$A$2:$A$4</c:f>${strCache}</c:strRef></c:cat><c:val><c:numRef><c:f>Sheet1!$B$2:$B$4</c:f>${numCache}</c:numRef></c:val></c:ser>` +
    '<c:axId val="111"/><c:axId val="222"/></c:barChart>' +
    '<c:catAx><c:axId val="111"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="222"/></c:catAx>' +
    '<c:valAx><c:axId val="222"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:crossAx val="111"/></c:valAx>' +
    '</c:plotArea><c:plotVisOnly val="1"/></c:chart><c:externalData r:id="rId1"><c:autoUpdate val="0"/></c:externalData></c:chartSpace>'
  );
}

/** A graphic frame showing the chart related as `rId` (§19.3.1.21 `p:graphicFrame`). */
export function chartFrame(id: number, rId: string): string {
  return (
    `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="Chart ${id}"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>` +
    '<p:xfrm><a:off x="914400" y="1828800"/><a:ext cx="5486400" cy="3200400"/></p:xfrm>' +
    `<a:graphic><a:graphicData uri="${NS_C}"><c:chart xmlns:c="${NS_C}" r:id="${rId}"/></a:graphicData></a:graphic></p:graphicFrame>`
  );
}
