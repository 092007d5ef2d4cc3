/**
 * PDF export without an office suite (issue 22): every visible slide of a presentation is
 * drawn by the preview renderer ({@link drawSlide}) onto a page of Skia's PDF backend
 * (@napi-rs/canvas `PDFDocument`), so shapes, fills and outlines are vector paths, text is
 * text (subset TrueType fonts embedded as CID fonts with a ToUnicode map, so it can be
 * selected and searched), pictures are embedded at their own resolution (no resampling;
 * a crop is a clip; see {@link PHOTO_JPEG_QUALITY} for their encoding), and hyperlinks
 * become link annotations.
 *
 * One page per slide not hidden (`p:sld/@show="0"`, §19.3.1.38), in deck order, at the
 * slide's size (`p:sldSz`, EMU → pt, rounded to whole points as Skia writes page sizes). The document information (title, author, subject,
 * keywords) comes from the package's core properties (`docProps/core.xml`, ECMA-376 Part 2,
 * §11). With `pdfa` the file declares PDF/A-2b conformance (XMP metadata with `pdfaid`,
 * an sRGB output intent), as Skia writes it.
 */
import { PDFDocument, type PDFMetadata, type SKRSContext2D } from '@napi-rs/canvas';
import type { OpcPackage } from '../ooxml/opc/package.js';
import { RT } from '../ooxml/opc/constants.js';
import { readPresentation } from '../ooxml/pml/presentation.js';
import { EMU_PT, ShadowPictures, slideDestination } from './draw-context.js';
import { drawSlide, slideSizeEmu } from './render-slide.js';
import { MAX_IMAGE_PIXELS } from './images.js';

/** Options of {@link renderPdf}. */
export interface RenderPdfOptions {
  /** Declare PDF/A-2b conformance (archival; XMP metadata and an sRGB output intent). */
  pdfa?: boolean;
  /** Largest picture decoded, pixels (default 50 megapixels); larger ones draw as a grey box. */
  maxImagePixels?: number;
  /** The slide parts to draw, in order (default: every slide not hidden, in deck order). */
  slidePartNames?: readonly string[];
}

/** A rendered PDF. */
export interface RenderedPdf {
  pdf: Uint8Array;
  /** Slide parts drawn, one per page, in page order. */
  slide_part_names: string[];
  /** Page size, pt (every page has the slide size, rounded to whole points). */
  width_pt: number;
  height_pt: number;
  /** Template font name → the family drawn in its place (only names that were substituted). */
  font_substitutions: Record<string, string>;
  /** Things not drawn as the template has them, prefixed with the slide part. */
  warnings: string[];
}

/**
 * JPEG quality of opaque pictures when most of a deck's picture bytes are JPEG; otherwise
 * pictures stay lossless (Flate). @napi-rs/canvas hands Skia decoded pictures only, so
 * Skia cannot copy a JPEG's own bytes into the file, and one setting holds for the whole
 * document: losslessly, photos grow about tenfold (the 8 JPEGs of onlyoffice-sample-en,
 * 1.1 MB, made a 10.4 MB PDF; 1.2 MB at 95), while line art and screenshots (PNG) grow as
 * JPEG (the 48-slide corpus template, mostly PNG: 1.0 MB lossless, 1.8 MB at 95). Either
 * way pictures keep their full resolution; pictures with transparency are always lossless.
 * (LibreOffice's export re-encodes at JPEG 90, at most 300 dpi.)
 */
const PHOTO_JPEG_QUALITY = 95;
/** Skia's value for lossless pictures. */
const LOSSLESS = 101;

/** The picture encoding for a package: {@link PHOTO_JPEG_QUALITY} when JPEG holds most of its picture bytes, else lossless. */
function pictureQuality(pkg: OpcPackage): number {
  let jpeg = 0;
  let other = 0;
  for (const name of pkg.partNames()) {
    const type = pkg.contentType(name) ?? '';
    if (!type.startsWith('image/')) continue;
    const size = pkg.getBytes(name).length;
    if (type === 'image/jpeg' || type === 'image/jpg') jpeg += size;
    else other += size;
  }
  return jpeg > other ? PHOTO_JPEG_QUALITY : LOSSLESS;
}

/**
 * Flate level of Skia's PDF streams: its "average" (6). "High but slow" (9) made the 48-slide
 * corpus template 3 % smaller (964 vs 992 KiB) for twice the CPU time (≈1.2 vs 0.6 s).
 */
const PDF_COMPRESSION_LEVEL = 6;

/** Producer written in the document information. */
const PRODUCER = 'Slidewright';

/**
 * The slides a PDF shows: every slide of the presentation in deck order, hidden ones
 * (`show="0"` or `"false"`) left out.
 */
export function visibleSlideParts(pkg: OpcPackage): string[] {
  return readPresentation(pkg)
    .slides.map((s) => s.partName)
    .filter((part) => slideShown(pkg, part));
}

/** Whether a slide is shown (`p:sld/@show` not `0` or `false`, §19.3.1.38): a PDF has a page for it. */
export function slideShown(pkg: OpcPackage, slidePart: string): boolean {
  const show = pkg.getXml(slidePart).documentElement?.getAttribute('show');
  return show !== '0' && show !== 'false';
}

/**
 * Renders the visible slides of a presentation package to one PDF document.
 *
 * @throws PackageError when the package cannot be read as a presentation; RangeError when
 *   there is no slide to draw (every slide hidden, or none)
 */
export async function renderPdf(pkg: OpcPackage, opts: RenderPdfOptions = {}): Promise<RenderedPdf> {
  const parts = opts.slidePartNames ? [...opts.slidePartNames] : visibleSlideParts(pkg);
  // A PDF without pages is not a document readers open.
  if (parts.length === 0) throw new RangeError('no slide to draw: a PDF needs at least one page');
  const { widthEmu, heightEmu } = slideSizeEmu(pkg);
  // Skia writes whole-point page sizes (MediaBox); the slide is stretched by at most half a
  // point to fill the page exactly rather than leave a hairline of paper at two edges.
  const widthPt = Math.max(1, Math.round(widthEmu / EMU_PT));
  const heightPt = Math.max(1, Math.round(heightEmu / EMU_PT));
  const doc = new PDFDocument({ ...documentInfo(pkg), producer: PRODUCER, creator: PRODUCER, pdfa: !!opts.pdfa, encodingQuality: pictureQuality(pkg), compressionLevel: PDF_COMPRESSION_LEVEL });
  const fontSubstitutions: Record<string, string> = {};
  const warnings: string[] = [];
  const shadowPictures = new ShadowPictures();
  for (const part of parts) {
    // The page's context is Skia's one 2D context class (drawImage, getTransform, patterns
    // all there at run time), typed narrower; it has no `canvas`, which drawing reads only
    // through the surface given below.
    const ctx = doc.beginPage(widthPt, heightPt) as unknown as SKRSContext2D;
    try {
      // Internal links ("go to slide n") land on this destination at the page's top left.
      ctx.annotateNamedDestination(0, 0, slideDestination(part));
      // No ligatures: Skia maps a ligature glyph (Carlito's "ti", "fi") to no text, so
      // "Objectives" would extract as "Objec ves". Kerning stays.
      ctx.textRendering = 'optimizeSpeed';
      const drawn = await drawSlide(ctx, pkg, part, {
        scale: widthPt / (widthEmu / EMU_PT),
        scaleY: heightPt / (heightEmu / EMU_PT),
        // Shadows are pictures: 2 px per pt (144 dpi; a blurred one half that, as on a canvas), finer than a 1280 px preview.
        surface: { width: widthPt, height: heightPt, oversample: 2, pdf: true, shadowPictures },
        maxImagePixels: opts.maxImagePixels ?? MAX_IMAGE_PIXELS,
      });
      Object.assign(fontSubstitutions, drawn.font_substitutions);
      for (const w of drawn.warnings) warnings.push(`${part}: ${w}`);
    } finally {
      doc.endPage();
    }
  }
  const bytes = doc.close();
  return {
    pdf: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    slide_part_names: parts,
    width_pt: widthPt,
    height_pt: heightPt,
    font_substitutions: fontSubstitutions,
    warnings,
  };
}

const DC = 'http://purl.org/dc/elements/1.1/';
const CP = 'http://schemas.openxmlformats.org/package/2006/metadata/core-properties';
/** Longest document information string kept, characters (a hostile core.xml may hold megabytes). */
const MAX_INFO_CHARS = 1000;

/**
 * Title, author (`dc:creator`), subject and keywords from the core properties part, when
 * the package has one; fields that are empty or missing are left out.
 */
export function documentInfo(pkg: OpcPackage): Pick<PDFMetadata, 'title' | 'author' | 'subject' | 'keywords'> {
  const part = pkg.relatedPartName('/', RT.corePropertiesPackage);
  if (!part || !pkg.hasPart(part)) return {};
  let root;
  try {
    root = pkg.getXml(part).documentElement;
  } catch {
    return {};
  }
  if (!root) return {};
  const text = (ns: string, local: string): string | undefined => {
    const el = root.getElementsByTagNameNS(ns, local)[0];
    const t = (el?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_INFO_CHARS);
    return t === '' ? undefined : t;
  };
  const info: Pick<PDFMetadata, 'title' | 'author' | 'subject' | 'keywords'> = {};
  const title = text(DC, 'title');
  const author = text(DC, 'creator');
  const subject = text(DC, 'subject');
  const keywords = text(CP, 'keywords');
  if (title) info.title = title;
  if (author) info.author = author;
  if (subject) info.subject = subject;
  if (keywords) info.keywords = keywords;
  return info;
}
