/**
 * Builds small, valid presentations for unit tests: one master (with a theme), one or more
 * layouts, any number of slides, each shape tree given as XML text using the `p:`, `a:`,
 * `r:`, `mc:` and `p14:` prefixes.
 */
import JSZip from 'jszip';
import { OpcPackage } from '../../../../core/src/ooxml/opc/package.js';

const NSDECL =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:p14="http://schemas.microsoft.com/office/powerpoint/2010/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PML = 'application/vnd.openxmlformats-officedocument.presentationml';

export interface MiniSlide {
  tree: string;
  /** Extra attributes on p:sld, e.g. `show="0"`. */
  attrs?: string;
  /** Index into `layouts` (default 0). */
  layout?: number;
  /** Extra slide relationships: `[id, type suffix, target]`. */
  rels?: Array<[string, string, string]>;
  /** XML after p:cSld, e.g. a `p:clrMapOvr`. */
  after?: string;
}

export interface MiniDeckSpec {
  masterTree?: string;
  /** `p:txStyles` inner XML. */
  txStyles?: string;
  layouts?: Array<{ tree: string; attrs?: string; name?: string }>;
  slides?: MiniSlide[];
  /** `p:defaultTextStyle` inner XML. */
  defaultTextStyle?: string;
  sldSz?: { cx: number; cy: number } | null;
  majorFont?: string;
  minorFont?: string;
  /** Extra parts: path (no leading slash) → [content type, text]. */
  parts?: Record<string, [string, string]>;
}

const grpProps = '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>';

/** A text shape; `ph` is the inner attributes of p:ph or undefined; `xfrm` `[x, y, cx, cy]`. */
export function sp(id: number, name: string, opts: { ph?: string; xfrm?: [number, number, number, number]; body?: string; lstStyle?: string; style?: string; extraXfrm?: string } = {}): string {
  const nvPr = opts.ph !== undefined ? `<p:nvPr><p:ph ${opts.ph}/></p:nvPr>` : '<p:nvPr/>';
  const xfrm = opts.xfrm ? `<a:xfrm ${opts.extraXfrm ?? ''}><a:off x="${opts.xfrm[0]}" y="${opts.xfrm[1]}"/><a:ext cx="${opts.xfrm[2]}" cy="${opts.xfrm[3]}"/></a:xfrm>` : '';
  const body = opts.body === undefined ? '' : `<p:txBody><a:bodyPr/><a:lstStyle>${opts.lstStyle ?? ''}</a:lstStyle>${opts.body}</p:txBody>`;
  return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr/>${nvPr}</p:nvSpPr><p:spPr>${xfrm}</p:spPr>${opts.style ?? ''}${body}</p:sp>`;
}

/** Builds and opens the package. */
export async function miniDeck(spec: MiniDeckSpec = {}): Promise<OpcPackage> {
  const zip = new JSZip();
  const layouts = spec.layouts ?? [{ tree: '' }];
  const slides = spec.slides ?? [];
  const overrides: string[] = [
    `<Override PartName="/ppt/presentation.xml" ContentType="${PML}.presentation.main+xml"/>`,
    `<Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="${PML}.slideMaster+xml"/>`,
    '<Override PartName="/ppt/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>',
  ];
  layouts.forEach((_, i) => overrides.push(`<Override PartName="/ppt/slideLayouts/slideLayout${i + 1}.xml" ContentType="${PML}.slideLayout+xml"/>`));
  slides.forEach((_, i) => overrides.push(`<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="${PML}.slide+xml"/>`));
  for (const [path, [ct]] of Object.entries(spec.parts ?? {})) overrides.push(`<Override PartName="/${path}" ContentType="${ct}"/>`);
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides.join('')}</Types>`,
  );
  const rels = (items: Array<[string, string, string]>): string =>
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.map(([id, type, target]) => `<Relationship Id="${id}" Type="${type.startsWith('http') ? type : `${REL}/${type}`}" Target="${target}"/>`).join('')}</Relationships>`;
  zip.file('_rels/.rels', rels([['rId1', 'officeDocument', 'ppt/presentation.xml']]));

  const sz = spec.sldSz === null ? '' : `<p:sldSz cx="${spec.sldSz?.cx ?? 12192000}" cy="${spec.sldSz?.cy ?? 6858000}"/>`;
  zip.file(
    'ppt/presentation.xml',
    `<?xml version="1.0" encoding="UTF-8"?><p:presentation ${NSDECL}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>` +
      `<p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${10 + i}"/>`).join('')}</p:sldIdLst>${sz}<p:notesSz cx="6858000" cy="9144000"/>` +
      `${spec.defaultTextStyle ? `<p:defaultTextStyle>${spec.defaultTextStyle}</p:defaultTextStyle>` : ''}</p:presentation>`,
  );
  zip.file('ppt/_rels/presentation.xml.rels', rels([['rId1', 'slideMaster', 'slideMasters/slideMaster1.xml'], ...slides.map((_, i): [string, string, string] => [`rId${10 + i}`, 'slide', `slides/slide${i + 1}.xml`])]));
  zip.file(
    'ppt/theme/theme1.xml',
    `<?xml version="1.0" encoding="UTF-8"?><a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Mini"><a:themeElements>` +
      `<a:clrScheme name="Mini"><a:dk1><a:srgbClr val="111111"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="222222"/></a:dk2><a:lt2><a:srgbClr val="EEEEEE"/></a:lt2>` +
      `<a:accent1><a:srgbClr val="4472C4"/></a:accent1><a:accent2><a:srgbClr val="ED7D31"/></a:accent2><a:accent3><a:srgbClr val="A5A5A5"/></a:accent3><a:accent4><a:srgbClr val="FFC000"/></a:accent4><a:accent5><a:srgbClr val="5B9BD5"/></a:accent5><a:accent6><a:srgbClr val="70AD47"/></a:accent6><a:hlink><a:srgbClr val="0563C1"/></a:hlink><a:folHlink><a:srgbClr val="954F72"/></a:folHlink></a:clrScheme>` +
      `<a:fontScheme name="Mini"><a:majorFont><a:latin typeface="${spec.majorFont ?? 'Major Sans'}"/><a:ea typeface="Major EA"/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="${spec.minorFont ?? 'Minor Serif'}"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>` +
      `<a:fmtScheme name="Mini"><a:fillStyleLst/><a:lnStyleLst/><a:effectStyleLst/><a:bgFillStyleLst/></a:fmtScheme></a:themeElements></a:theme>`,
  );
  zip.file(
    'ppt/slideMasters/slideMaster1.xml',
    `<?xml version="1.0" encoding="UTF-8"?><p:sldMaster ${NSDECL}><p:cSld><p:spTree>${grpProps}${spec.masterTree ?? ''}</p:spTree></p:cSld>` +
      `<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>` +
      `<p:sldLayoutIdLst>${layouts.map((_, i) => `<p:sldLayoutId id="${2147483649 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldLayoutIdLst>` +
      `${spec.txStyles ? `<p:txStyles>${spec.txStyles}</p:txStyles>` : ''}</p:sldMaster>`,
  );
  zip.file('ppt/slideMasters/_rels/slideMaster1.xml.rels', rels([...layouts.map((_, i): [string, string, string] => [`rId${i + 1}`, 'slideLayout', `../slideLayouts/slideLayout${i + 1}.xml`]), ['rId99', 'theme', '../theme/theme1.xml']]));
  layouts.forEach((l, i) => {
    zip.file(`ppt/slideLayouts/slideLayout${i + 1}.xml`, `<?xml version="1.0" encoding="UTF-8"?><p:sldLayout ${NSDECL} ${l.attrs ?? ''}><p:cSld name="${l.name ?? `Layout ${i + 1}`}"><p:spTree>${grpProps}${l.tree}</p:spTree></p:cSld></p:sldLayout>`);
    zip.file(`ppt/slideLayouts/_rels/slideLayout${i + 1}.xml.rels`, rels([['rId1', 'slideMaster', '../slideMasters/slideMaster1.xml']]));
  });
  slides.forEach((s, i) => {
    zip.file(`ppt/slides/slide${i + 1}.xml`, `<?xml version="1.0" encoding="UTF-8"?><p:sld ${NSDECL} ${s.attrs ?? ''}><p:cSld><p:spTree>${grpProps}${s.tree}</p:spTree></p:cSld>${s.after ?? ''}</p:sld>`);
    zip.file(`ppt/slides/_rels/slide${i + 1}.xml.rels`, rels([['rId1', 'slideLayout', `../slideLayouts/slideLayout${(s.layout ?? 0) + 1}.xml`], ...(s.rels ?? [])]));
  });
  for (const [path, [, text]] of Object.entries(spec.parts ?? {})) zip.file(path, text);
  return OpcPackage.open(await zip.generateAsync({ type: 'uint8array' }));
}
