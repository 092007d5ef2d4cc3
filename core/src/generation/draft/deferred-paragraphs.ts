/**
 * Paragraphs of a DrawingML text body (ECMA-376 Part 1, §21.1.2: `a:p`, `a:r`, `a:br`,
 * `a:endParaRPr`) kept as a small model until the part is written, instead of as a tree.
 *
 * Generation writes most text the same way: one paragraph per string, each run formatted
 * like the template's first run. Building those paragraphs as xmldom nodes (a copy of the
 * run properties with every child for every run), reading them back to measure the text
 * and walking them again to serialize was the largest share of a deck's build time and
 * garbage. The model holds the template's own (unchanged, shared) formatting elements and
 * the strings; readers that understand it (text measuring, size writing, the generation
 * serializer) use it directly, and anything that needs real nodes asks for them first
 * (`materializeParagraphs` in generation), which builds exactly the tree the model stands
 * for.
 *
 * In the tree the model is one marker element in {@link DEFERRED_PARAGRAPHS_NS} standing
 * where the paragraphs go (after `a:bodyPr` and `a:lstStyle`).
 */
import type { Element } from '../../ooxml/xml.js';
import { ModelMarkers } from './model-marker.js';

/** Namespace of the marker element standing for deferred paragraphs. */
export const DEFERRED_PARAGRAPHS_NS = 'urn:slidewright:generation:paragraphs';

/**
 * The paragraphs a text body will hold: paragraph `i` is `lines[i]` split at line breaks
 * (`a:br` between the pieces; an empty piece writes no run), each run with properties
 * {@link runProps}, each paragraph with {@link paraProps} (without `lvl`: level 0) and
 * ending with {@link endProps}.
 */
export interface DeferredParagraphs {
  /** The template's `a:pPr` to write (without its `lvl`) on every paragraph, if any. */
  readonly paraProps: Element | undefined;
  /**
   * The template's run properties copied onto every run and break (as `a:rPr`, without
   * hyperlinks, spell-check marks or `dirty`, plus `dirty="0"`); undefined writes
   * `lang="en-US" dirty="0"`.
   */
  readonly runProps: Element | undefined;
  /** The properties copied into every `a:endParaRPr` (same filtering as {@link runProps}). */
  readonly endProps: Element | undefined;
  /** Per paragraph, the texts between its line breaks (XML-safe already). */
  readonly lines: readonly (readonly string[])[];
  /**
   * Sizes written on the runs and breaks of each paragraph, in document order, and on its
   * end-of-paragraph properties, hundredths of a point (`sz`, ST_TextFontSize
   * §20.1.10.83); unset until the text is fitted.
   */
  sizes?: Array<{ runs: number[]; end: number | undefined }>;
}

/** The marker elements standing for deferred paragraphs in a text body. */
export const paragraphMarkers = new ModelMarkers<DeferredParagraphs>(DEFERRED_PARAGRAPHS_NS, 'sw:paragraphs');

/** The deferred paragraphs of a text body (`p:txBody`/`a:txBody`), if it holds them. */
export function deferredParagraphs(txBody: Element | undefined): DeferredParagraphs | undefined {
  return paragraphMarkers.modelIn(txBody);
}

/**
 * Whether a run-properties copy keeps an attribute of its template: spell-check marks and
 * `dirty` are left out (the copy is written `dirty="0"`).
 */
export function keepsRunAttribute(name: string): boolean {
  return name !== 'dirty' && name !== 'err' && name !== 'smtClean' && name !== 'smtId';
}

/** Whether a run-properties copy keeps a child of its template: hyperlinks are left out. */
export function keepsRunChild(localName: string | null): boolean {
  return localName !== 'hlinkClick' && localName !== 'hlinkMouseOver';
}
