/**
 * Reading a draft's text for fitting: text bodies of the slide being generated may hold
 * their paragraphs as a model (`deferred-paragraphs.ts`); these readers give the same
 * layout input the renderer reads from the nodes the model stands for
 * (`ooxml/pml/text-style.ts` {@link readTextBody}, {@link appendParagraphModel}), so the
 * renderer itself never meets a draft's markers.
 */
import type { Document, Element } from '../../ooxml/xml.js';
import { appendParagraphModel, readTextBody, type TextStyleSources } from '../../ooxml/pml/text-style.js';
import type { TextBodyInput } from '../../text/layout.js';
import { deferredParagraphs, type DeferredParagraphs } from './deferred-paragraphs.js';

/** A text body of a draft (`p:txBody` / `a:txBody`), paragraphs kept as a model or as nodes, as layout input. */
export function readDraftTextBody(txBody: Element | undefined, src: TextStyleSources): TextBodyInput {
  const model = deferredParagraphs(txBody);
  if (!model) return readTextBody(txBody, src);
  const body = readTextBody(undefined, src);
  appendParagraphModel(body, model, txBody!.ownerDocument, src);
  return body;
}

/**
 * Deferred paragraphs that stand in a text body of `bodyDoc` without being in the tree yet
 * (a table cell kept as a model, see `deferred-rows.ts`), as layout input.
 */
export function readDeferredTextBody(model: DeferredParagraphs, bodyDoc: Document | null, src: TextStyleSources): TextBodyInput {
  const body = readTextBody(undefined, src);
  appendParagraphModel(body, model, bodyDoc, src);
  return body;
}
