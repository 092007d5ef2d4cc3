/**
 * Warm-up of a CPU thread (issue 20): a synthetic deck built from a tiny template made in
 * memory, so that a thread's first real deck does not also pay for V8 compiling and
 * optimizing the generation path (zip reading and writing, XML parsing, slide cloning, text
 * and table filling, serialization). A fresh thread built its first 100-slide deck ~4-6×
 * slower than a warm one. Then a few of that deck's slides are drawn as previews and the deck
 * is analysed as a template upload is, so that a first template's analysis and previews do
 * not pay for compiling the analysis, the doctor and the renderer either (48 slides drawn by
 * two fresh threads took ~1.0 s, by warm ones ~0.6 s).
 *
 * The template is a 16:9 presentation with one master, one layout, a title-and-bullets
 * slide and a title-and-table slide: what the reference workload edits. It is written
 * here, not read from disk, so the warm-up needs no file and no corpus.
 */
import { OpcPackage } from '../ooxml/opc/package.js';
import { CT, RT } from '../ooxml/opc/constants.js';
import type { DeckSlideSpec } from '../generation/deck/build-deck.js';
import { checkedBuild } from '../quality/checked-build.js';
import type { SlideData } from '../domain/content.js';
import { readPresentation } from '../ooxml/pml/presentation.js';
import { renderSlide } from '../render/index.js';
import { analyzeTemplate } from '../analysis/analyze-template.js';

/** Slides of each synthetic deck: alternately bullets and a table. */
export const WARM_UP_SLIDES = 60;
/** Synthetic decks each thread builds (the later ones run on code V8 has optimized). */
export const WARM_UP_ROUNDS = 3;

const NS_A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const XMLNS = `xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"`;
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Placeholder or text-box shape; `box` in EMU. */
function shape(id: number, name: string, ph: string, box: [number, number, number, number] | undefined, text: string[]): string {
  const xfrm = box ? `<a:xfrm><a:off x="${box[0]}" y="${box[1]}"/><a:ext cx="${box[2]}" cy="${box[3]}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom>` : '';
  const paras = text.length ? text.map((t) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${t}</a:t></a:r></a:p>`).join('') : '<a:p><a:endParaRPr lang="en-US"/></a:p>';
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph ${ph}/></p:nvPr></p:nvSpPr>` +
    `<p:spPr>${xfrm}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle/>${paras}</p:txBody></p:sp>`
  );
}

function spTree(shapes: string[]): string {
  return (
    '<p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
    '<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>' +
    `${shapes.join('')}</p:spTree>`
  );
}

/** A 3×3 table in a graphic frame, as a template's table slide holds it. */
function tableFrame(id: number): string {
  const cell = (t: string): string => `<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="1800"/><a:t>${t}</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`;
  const row = (r: number): string => `<a:tr h="370840">${[1, 2, 3].map((c) => cell(`r${r}c${c}`)).join('')}</a:tr>`;
  return (
    `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="Table ${id}"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>` +
    '<p:xfrm><a:off x="838200" y="1825625"/><a:ext cx="10515600" cy="1112520"/></p:xfrm>' +
    `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1" bandRow="1"/>` +
    `<a:tblGrid><a:gridCol w="3505200"/><a:gridCol w="3505200"/><a:gridCol w="3505200"/></a:tblGrid>${[1, 2, 3].map(row).join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
  );
}

const TITLE_BOX: [number, number, number, number] = [838200, 365125, 10515600, 1325563];
const BODY_BOX: [number, number, number, number] = [838200, 1825625, 10515600, 4351338];

/** The warm-up template's bytes (.pptx): deterministic, ~4 KiB. */
export async function warmUpTemplate(): Promise<Uint8Array> {
  const pkg = OpcPackage.create();
  const enc = new TextEncoder();
  const put = (part: string, xml: string, type: string): void => pkg.setBytes(part, enc.encode(DECL + xml), type);
  const pres = '/ppt/presentation.xml';
  const master = '/ppt/slideMasters/slideMaster1.xml';
  const layout = '/ppt/slideLayouts/slideLayout1.xml';
  const theme = '/ppt/theme/theme1.xml';
  const slides = ['/ppt/slides/slide1.xml', '/ppt/slides/slide2.xml'];
  const levels = [1, 2, 3].map((l) => `<a:lvl${l}pPr marL="${l * 228600}" indent="-228600"><a:buChar char="•"/><a:defRPr sz="${3000 - l * 400}"/></a:lvl${l}pPr>`).join('');
  put(
    theme,
    `<a:theme xmlns:a="${NS_A}" name="Warm-up"><a:themeElements><a:clrScheme name="Warm-up">` +
      '<a:dk1><a:srgbClr val="000000"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="1F2937"/></a:dk2><a:lt2><a:srgbClr val="E5E7EB"/></a:lt2>' +
      ['2563EB', 'F59E0B', '10B981', 'EF4444', '8B5CF6', '6B7280'].map((c, i) => `<a:accent${i + 1}><a:srgbClr val="${c}"/></a:accent${i + 1}>`).join('') +
      '<a:hlink><a:srgbClr val="2563EB"/></a:hlink><a:folHlink><a:srgbClr val="8B5CF6"/></a:folHlink></a:clrScheme>' +
      '<a:fontScheme name="Warm-up"><a:majorFont><a:latin typeface="Calibri Light"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>' +
      '<a:fmtScheme name="Warm-up"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:fillStyleLst>' +
      '<a:lnStyleLst><a:ln w="6350"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="12700"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="19050"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst>' +
      '<a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>' +
      '<a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:bgFillStyleLst></a:fmtScheme>' +
      '</a:themeElements></a:theme>',
    CT.theme,
  );
  put(
    master,
    `<p:sldMaster ${XMLNS}><p:cSld>${spTree([shape(2, 'Title Placeholder', 'type="title"', TITLE_BOX, ['Title']), shape(3, 'Text Placeholder', 'type="body" idx="1"', BODY_BOX, ['Text'])])}</p:cSld>` +
      '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>' +
      `<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst>` +
      `<p:txStyles><p:titleStyle><a:lvl1pPr><a:defRPr sz="4400"/></a:lvl1pPr></p:titleStyle><p:bodyStyle>${levels}</p:bodyStyle><p:otherStyle><a:lvl1pPr><a:defRPr sz="1800"/></a:lvl1pPr></p:otherStyle></p:txStyles></p:sldMaster>`,
    CT.slideMaster,
  );
  put(
    layout,
    `<p:sldLayout ${XMLNS} type="obj" preserve="1"><p:cSld name="Title and Content">${spTree([shape(2, 'Title 1', 'type="title"', undefined, []), shape(3, 'Content Placeholder 2', 'idx="1"', undefined, [])])}</p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`,
    CT.slideLayout,
  );
  put(
    slides[0]!,
    `<p:sld ${XMLNS}><p:cSld>${spTree([shape(2, 'Title 1', 'type="title"', undefined, ['A title']), shape(3, 'Content Placeholder 2', 'idx="1"', undefined, ['One', 'Two'])])}</p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`,
    CT.slide,
  );
  put(
    slides[1]!,
    `<p:sld ${XMLNS}><p:cSld>${spTree([shape(2, 'Title 1', 'type="title"', undefined, ['A table']), tableFrame(3)])}</p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`,
    CT.slide,
  );
  put(
    pres,
    `<p:presentation ${XMLNS}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>` +
      '<p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="257" r:id="rId3"/></p:sldIdLst>' +
      '<p:sldSz cx="12192000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>',
    CT.presentationMain,
  );
  pkg.setRels('/', [{ id: 'rId1', type: RT.officeDocument, targetPartName: pres, external: false }]);
  pkg.setRels(pres, [
    { id: 'rId1', type: RT.slideMaster, targetPartName: master, external: false },
    { id: 'rId2', type: RT.slide, targetPartName: slides[0]!, external: false },
    { id: 'rId3', type: RT.slide, targetPartName: slides[1]!, external: false },
    { id: 'rId4', type: RT.theme, targetPartName: theme, external: false },
  ]);
  pkg.setRels(master, [
    { id: 'rId1', type: RT.slideLayout, targetPartName: layout, external: false },
    { id: 'rId2', type: RT.theme, targetPartName: theme, external: false },
  ]);
  pkg.setRels(layout, [{ id: 'rId1', type: RT.slideMaster, targetPartName: master, external: false }]);
  for (const s of slides) pkg.setRels(s, [{ id: 'rId1', type: RT.slideLayout, targetPartName: layout, external: false }]);
  return pkg.toBytes();
}

/** The synthetic deck's slides: a title and five bullets, then a title and a 4×4 table, in turn. */
export function warmUpSlides(templateId: string, count = WARM_UP_SLIDES): DeckSlideSpec[] {
  const out: DeckSlideSpec[] = [];
  for (let i = 0; i < count; i++) {
    const text = i % 2 === 0;
    const data: SlideData = text
      ? { title: `Warm-up slide ${i + 1}`, content: [{ blocks: [{ type: 'text', text: { bullets: [1, 2, 3, 4, 5].map((b) => `Point ${b} of slide ${i + 1}`) } }] }] }
      : {
          title: `Warm-up table ${i + 1}`,
          content: [{ blocks: [{ type: 'table', table: { table: { rows: [0, 1, 2, 3].map((r) => ({ is_header: r === 0, cells: [0, 1, 2, 3].map((c) => ({ value: `${i}.${r}.${c}` })) })) } } }] }],
        };
    out.push({
      template_id: templateId,
      template_slide_id: `warm-up-${i}`,
      source: { kind: 'slide', part_name: text ? '/ppt/slides/slide1.xml' : '/ppt/slides/slide2.xml' },
      slide_data: data,
      options: { auto_paginate_tables: false },
    });
  }
  return out;
}

/** Slides of the synthetic deck drawn as previews (bullets and tables in turn), and how many times. */
export const RENDER_WARM_UP_SLIDES = 4;
export const RENDER_WARM_UP_ROUNDS = 2;
/** Analyses of the synthetic deck, as of an uploaded template. */
export const ANALYSIS_WARM_UP_ROUNDS = 2;
/** Width the warm-up draws at, px: the preview service's default width. */
const RENDER_WARM_UP_WIDTH_PX = 1280;

/** Slides of each real template's warm-up deck: its first slides in turn, with a title and bullets or a table. */
const TEMPLATE_WARM_UP_SLIDES = 24;
/** Warm-up decks built from each real template (the first opens it, the next runs on warmer code). */
const TEMPLATE_WARM_UP_ROUNDS = 2;

/** What one thread's warm-up did. */
export interface WarmUpResult {
  /** Each synthetic deck's build time, ms. */
  roundsMs: number[];
  /** Slides of the last deck built (a check that the work was done). */
  pages: number;
  /** Real templates opened and kept for later builds (their warm-up decks built). */
  templatesOpened: number;
  /** Time spent on the real templates, ms. */
  templatesMs: number;
  /** Time spent drawing the synthetic deck's slides as previews, ms. */
  renderMs: number;
  /** Previews drawn (PNGs of the synthetic deck's slides). */
  previewsDrawn: number;
  /** Time spent analysing the synthetic deck as a template, ms. */
  analysisMs: number;
  /** Slides the last of those analyses found (a check that the work was done). */
  analyzedSlides: number;
}

/**
 * Builds {@link WARM_UP_ROUNDS} synthetic decks on the calling thread as a generation task
 * does (the build with its package check and quality report; opened synthetic templates are
 * not kept), draws a few of the deck's slides as previews and analyses the deck as a
 * template; then builds a small deck from each of `templates` with opened templates kept,
 * so that a first real deck from them finds them open. A template that cannot be built from
 * is passed over.
 * @param templates - template files by any distinct key (the templates recent decks used)
 * @throws Error when a synthetic deck cannot be built (a fault of the engine)
 */
export async function warmUpThread(rounds = WARM_UP_ROUNDS, templates: ReadonlyArray<[string, Uint8Array]> = []): Promise<WarmUpResult> {
  const synthetic = new Map([['warm-up', await warmUpTemplate()]]);
  const slides = warmUpSlides('warm-up');
  const roundsMs: number[] = [];
  let pages = 0;
  let deck: Uint8Array | undefined;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    // what a generation task runs: the build, its package check and quality report
    const built = await checkedBuild({ slides, templates: synthetic, reuseOpenedTemplates: false });
    roundsMs.push(performance.now() - t0);
    if (!built.ok) throw new Error(`warm-up deck: ${built.error.code}: ${built.error.message}`);
    if (built.errors.length > 0) throw new Error(`warm-up deck: ${built.errors[0]!.code}: ${built.errors[0]!.message}`);
    pages = built.pages_generated;
    deck = built.bytes;
  }
  // previews: the deck's first slides drawn (text, tables, fills, lines, the PNG encoder)
  const tr = performance.now();
  let previewsDrawn = 0;
  if (deck) {
    const pkg = await OpcPackage.open(deck);
    const parts = readPresentation(pkg)
      .slides.slice(0, RENDER_WARM_UP_SLIDES)
      .map((s) => s.partName);
    for (let r = 0; r < RENDER_WARM_UP_ROUNDS; r++) {
      for (const part of parts) if ((await renderSlide(pkg, part, { widthPx: RENDER_WARM_UP_WIDTH_PX })).png.length > 0) previewsDrawn++;
    }
  }
  const renderMs = performance.now() - tr;
  // analysis: the deck read as an uploaded template (checks, repairs, analysis, doctor)
  const ta = performance.now();
  let analyzedSlides = 0;
  if (deck) for (let r = 0; r < ANALYSIS_WARM_UP_ROUNDS; r++) analyzedSlides = (await analyzeTemplate(deck, 'warm-up', {})).slides.length;
  const analysisMs = performance.now() - ta;
  const t0 = performance.now();
  let templatesOpened = 0;
  for (const [id, bytes] of templates) {
    try {
      const partNames = readPresentation(await OpcPackage.open(bytes)).slides.map((s) => s.partName);
      if (partNames.length === 0) continue;
      // the synthetic deck's content (bullets, tables) on the template's own slides; a
      // slide that cannot take it fails alone, which is all the same to a warm-up
      const content = warmUpSlides(id, 2);
      const deck: DeckSlideSpec[] = Array.from({ length: TEMPLATE_WARM_UP_SLIDES }, (_, i) => ({
        ...content[i % 2]!,
        template_slide_id: `warm-up-${i}`,
        source: { kind: 'slide', part_name: partNames[i % partNames.length]! },
      }));
      for (let r = 0; r < TEMPLATE_WARM_UP_ROUNDS; r++) await checkedBuild({ slides: deck, templates: new Map([[id, bytes]]) });
      templatesOpened++;
    } catch {
      // a template the engine cannot build from: its first real deck reports why
    }
  }
  return { roundsMs, pages, templatesOpened, templatesMs: performance.now() - t0, renderMs, previewsDrawn, analysisMs, analyzedSlides };
}
