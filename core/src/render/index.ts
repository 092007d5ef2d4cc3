/**
 * Slide previews rendered in process (issue 5): {@link renderSlide} for slide and slide
 * layout parts. Text is read by PresentationML's text-style resolver
 * (ooxml/pml/text-style.ts); rendering only draws the input it gives.
 */
export { MAX_WIDTH_PX, renderSlide } from './render-slide.js';
export type { RenderedSlide, RenderSlideOptions } from './render-slide.js';
export { MAX_IMAGE_PIXELS, readImageHeader } from './images.js';
export type { ImageHeader } from './images.js';
export { ensureFonts, drawFamily } from './fonts.js';
export { evaluateGeometry, presetGeometry, readCustomGeometry } from './geometry.js';
