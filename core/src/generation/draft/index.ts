/**
 * The draft's one public surface (issue 19, item 2): code outside `generation/draft/`
 * imports this module only, never the draft's modules one by one (a test in
 * `test/unit/architecture` holds to it).
 *
 * - {@link SlideDraft}: the slide being written (tree, stand-ins, models, reading for
 *   fitting, serialization) and {@link GeneratedSlidePart}, its reading-model view.
 * - The paragraph and row models slide writing keeps instead of nodes: their types here,
 *   every operation on them (keep, drop, expand into nodes, read) a static method of
 *   {@link SlideDraft}; the markers that place them in the tree never leave this folder.
 * - Tree copies and the lean serializer for parts that are not slide drafts (the
 *   presentation part, copied template parts, chart parts): `clone.ts`, `serialize.ts`.
 */
export { SlideDraft, GeneratedSlidePart, type DeferredCell, type DeferredParagraphs, type DeferredRows } from './slide-draft.js';
export { cloneInto, cloneDocument, cloneRootWithStubs } from './clone.js';
export { serializeDocument, escapeAttr, escapeText, type SerializedBytes, type RepeatedText } from './serialize.js';
