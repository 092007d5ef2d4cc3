/**
 * Fit of a deck's filled text (issue 23, item 3), from the build's own fitting outcomes
 * (`DeckSlideRecord.fits`, build-deck.ts): one finding per filled placeholder, text box
 * and table the build fitted, with the size the template gave it, the size written and how
 * far the text still overflows.
 *
 * - `text_fits` (info): written at the template's size, and it fits.
 * - `text_shrunk` (info): written smaller than the template's size, and then it fits.
 * - `text_overflow` (warning): the text runs past its box even at the minimum size
 *   (tables: the rows past their area). Footer-area text (footer, header, date, slide
 *   number) at most {@link FOOTER_SLACK_PT} over is `info`, as the build does not warn about
 *   it either: templates draw those lines a point or two taller than their boxes.
 *
 * A deck whose text all fits therefore has no `fit` warning.
 */
import type { DeckSlideRecord, PlaceholderFitRecord } from '../generation/deck/build-deck.js';
import { FOOTER_SLACK_PT } from '../generation/slide/finish-slide.js';
import type { QualityFinding, Severity } from './types.js';

/**
 * Findings of the fit check: one per fitted shape, in deck order.
 *
 * @param slides - the build's slide records, in deck order
 */
export function checkFit(slides: readonly DeckSlideRecord[]): QualityFinding[] {
  const out: QualityFinding[] = [];
  slides.forEach((slide, index) => {
    for (const f of slide.fits) {
      const { code, severity, message } = judge(f);
      out.push({
        slide_index: index,
        shape_id: f.shape_id,
        shape_name: f.shape_name,
        category: 'fit',
        code,
        severity,
        message,
        details: { role: f.role, template_size_pt: f.template_size_pt, size_pt: f.size_pt, overflow_pt: f.overflow_pt, request_slide_index: slide.slide_index },
      });
    }
  });
  return out;
}

function judge(f: PlaceholderFitRecord): { code: string; severity: Severity; message: string } {
  const table = f.role === 'table';
  const what = table ? `table "${f.shape_name}"` : `${f.role} "${f.shape_name}"`;
  if (f.overflow_pt > 0) {
    const footerArea = f.role === 'footer' || f.role === 'header';
    return {
      code: 'text_overflow',
      severity: footerArea && f.overflow_pt <= FOOTER_SLACK_PT ? 'info' : 'warning',
      message: `${what} runs ${f.overflow_pt} pt past its ${table ? 'area' : 'box'} at ${f.size_pt} pt (template size ${f.template_size_pt} pt)`,
    };
  }
  if (f.size_pt < f.template_size_pt) {
    return { code: 'text_shrunk', severity: 'info', message: `${what} was written at ${f.size_pt} pt instead of the template's ${f.template_size_pt} pt to fit` };
  }
  return { code: 'text_fits', severity: 'info', message: `${what} fits at the template's ${f.template_size_pt} pt` };
}
