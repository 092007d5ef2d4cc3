/**
 * The reference deck of the generate benches: 100 slides from two corpus templates, text
 * slides and tables alternating (bench/generate.bench.ts, bench/service.bench.ts).
 */
import type { WorkloadSlide } from './service-path.js';

/** Slides of the reference deck. */
export const SLIDES = 100;
/** The text slides' template (its slide 1), in the corpus's bench folder. */
export const TEXT = 'pp_test_slides.pptx';
/** The tables' template (its slides 1 and 3), in the corpus's bench folder. */
export const TABLES = 'SlideWithTables.pptx';

/** The i-th slide of the workload: 0, 2, 4, ... text; 1, 5, 9, ... tables slide 1; 3, 7, ... tables slide 3. */
export function workload(): WorkloadSlide[] {
  const out: WorkloadSlide[] = [];
  for (let i = 0; i < SLIDES; i++) {
    const title = `Slide ${i + 1}: quarterly results for region ${(i % 7) + 1}`;
    const bullets = Array.from({ length: 5 }, (_, b) => `Point ${b + 1} of slide ${i + 1}: revenue, margin and pipeline`);
    const cells = Array.from({ length: 4 }, (_, r) => Array.from({ length: 4 }, (_, c) => (r === 0 ? `Col ${c + 1}` : `${i + 1}.${r}.${c}`)));
    out.push({ kind: i % 2 === 0 ? 'text' : 'table', tableSlide: i % 4 === 1 ? 1 : 3, title, bullets, cells });
  }
  return out;
}
