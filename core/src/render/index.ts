/**
 * Slide previews rendered in process (issue 5): {@link renderSlide} for slide and slide
 * layout parts, plus the pieces text fitting reuses ({@link readTextBody},
 * {@link shapeTextSources}: a PresentationML text body with its inherited properties
 * resolved into the layout engine's input).
 */
export { MAX_WIDTH_PX, renderSlide } from './render-slide.js';
export type { RenderedSlide, RenderSlideOptions } from './render-slide.js';
export { MAX_IMAGE_PIXELS, readImageHeader } from './images.js';
export type { ImageHeader } from './images.js';
export { readTextBody, shapeTextSources } from './text-body.js';
export type { ReadTextOptions, TextStyleSources } from './text-body.js';
export { ensureFonts, drawFamily } from './fonts.js';
export { evaluateGeometry, presetGeometry, readCustomGeometry } from './geometry.js';
