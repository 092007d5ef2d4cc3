/**
 * The rows of a DrawingML table (ECMA-376 Part 1, §21.1.3: `a:tr` §21.1.3.18, `a:tc`
 * §21.1.3.16) kept as a small model until the part is written, instead of as a tree, as
 * `deferred-paragraphs.ts` does for paragraphs.
 *
 * Generation rewrites a table's rows from the template's own cells: each new cell is the
 * template's `a:tc` (its attributes, text body properties, list style, cell properties
 * with their borders and fill) around new text. Copying those cells node by node was most
 * of the elements a deck allocates, although nothing but the text and the fitted sizes
 * ever differs from the template. The model holds the template cells themselves
 * (unchanged, shared) and per cell its paragraphs; fitting reads and sizes it, the
 * generation serializer writes it, and `materializeRows` (generation) builds exactly the
 * tree it stands for when something needs nodes.
 *
 * In the tree the model is one marker element in {@link DEFERRED_ROWS_NS} standing where
 * the rows go in `a:tbl` (after `a:tblGrid`, before any `a:extLst`).
 */
import type { Element } from '../../ooxml/xml.js';
import type { DeferredParagraphs } from './deferred-paragraphs.js';
import { ModelMarkers } from './model-marker.js';

/** Namespace of the marker element standing for deferred rows. */
export const DEFERRED_ROWS_NS = 'urn:slidewright:generation:rows';

/** Cell attributes a new cell does not take from its template (merges are not carried over). */
export const MERGE_ATTRS: readonly string[] = ['gridSpan', 'rowSpan', 'hMerge', 'vMerge'];

/**
 * A cell: the template's `a:tc` written with new paragraphs. Its attributes (less
 * {@link MERGE_ATTRS}) and children are written as they are, except that the paragraphs
 * of its text body are replaced by {@link paragraphs}; a template without a text body
 * gets an empty one (`a:bodyPr`, `a:lstStyle`) first. Without a template the cell is
 * `a:tc` with that empty text body and an empty `a:tcPr`.
 */
export interface DeferredCell {
  /** The template's `a:tc` (never changed; shared by every cell made from it). */
  readonly template: Element | undefined;
  /** The paragraphs of the cell's text body; fitting writes their sizes. */
  readonly paragraphs: DeferredParagraphs;
}

/** A row: `a:tr` with only its height (a template row's `a:extLst` holds ids, not copied). */
export interface DeferredRow {
  /** Row height, EMU (`a:tr/@h`, ST_Coordinate); fitting writes the measured height. */
  h: number;
  readonly cells: readonly DeferredCell[];
}

/** The rows a table will hold, in order. */
export interface DeferredRows {
  readonly rows: readonly DeferredRow[];
}

/** The marker elements standing for deferred rows in an `a:tbl`. */
export const rowMarkers = new ModelMarkers<DeferredRows>(DEFERRED_ROWS_NS, 'sw:rows');

/** The deferred rows of an `a:tbl`, if it holds them. */
export function deferredRows(tbl: Element | undefined): DeferredRows | undefined {
  return rowMarkers.modelIn(tbl);
}
