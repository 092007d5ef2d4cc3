/**
 * Fit of a deck's filled text (issue 23, item 3), from the build's own fitting outcomes
 * (`DeckSlideRecord.fits`, build-deck.ts): per filled placeholder or text box, the size the
 * template gave it, the size written and how far the text still overflows.
 *
 * - `text_overflow` (warning): the text runs past its box even at the minimum size
 *   (tables: the rows past their area).
 * - `text_shrunk` (info): the text was written smaller than the template's size to fit.
 *
 * Shapes written at their template size that fit are not listed.
 */
import type { DeckSlideRecord } from '../generation/deck/build-deck.js';
import type { QualityFinding } from './types.js';

/**
 * Findings of the fit check.
 *
 * @param slides - the build's slide records, in deck order
 */
export function checkFit(slides: readonly DeckSlideRecord[]): QualityFinding[] {
  const out: QualityFinding[] = [];
  slides.forEach((slide, index) => {
    for (const f of slide.fits) {
      const details = { role: f.role, template_size_pt: f.template_size_pt, size_pt: f.size_pt, overflow_pt: f.overflow_pt, request_slide_index: slide.slide_index };
      const what = f.role === 'table' ? `table "${f.shape_name}"` : `${f.role} "${f.shape_name}"`;
      if (f.overflow_pt > 0) {
        out.push({ slide_index: index, shape_id: f.shape_id, shape_name: f.shape_name, category: 'fit', code: 'text_overflow', severity: 'warning', message: `${what} runs ${f.overflow_pt} pt past its ${f.role === 'table' ? 'area' : 'box'} at ${f.size_pt} pt (template size ${f.template_size_pt} pt)`, details });
      } else if (f.size_pt < f.template_size_pt) {
        out.push({ slide_index: index, shape_id: f.shape_id, shape_name: f.shape_name, category: 'fit', code: 'text_shrunk', severity: 'info', message: `${what} was written at ${f.size_pt} pt instead of the template's ${f.template_size_pt} pt to fit`, details });
      }
    }
  });
  return out;
}
