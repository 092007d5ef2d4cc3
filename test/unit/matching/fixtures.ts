/** Shared fixtures of the matching tests: corpus templates analyzed in-process, and slide data. */
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { analyzePresentation } from '../../../core/src/analysis/analyze.js';
import type { AnalysisResults } from '../../../core/src/analysis/types.js';
import type { Column, SlideData } from '../../../core/src/domain/content.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

const cache = new Map<string, Promise<AnalysisResults>>();

/** Analyzes a corpus template with default options (cached per file): a name in `templates/`, or a corpus-relative path. */
export function analyzed(file: string): Promise<AnalysisResults> {
  let p = cache.get(file);
  if (!p) {
    p = OpcPackage.open(readFileSync(corpusPath(file.includes('/') ? file : `templates/${file}`))).then((pkg) =>
      analyzePresentation({ pkg, options: {}, idFor: (k, part) => `${file}:${k}:${part}` }),
    );
    cache.set(file, p);
  }
  return p;
}

/** tap options of a test that analyzes these corpus templates with {@link analyzed} (skipped without them). */
export function needsTemplates(...files: string[]): { skip: string | false } {
  return needsCorpus(...files.map((f) => `templates/${f}`));
}

/** A column of `n` bullets. */
export function bullets(n: number, header?: string): Column {
  return {
    ...(header !== undefined ? { header } : {}),
    blocks: [{ type: 'text', text: { bullets: Array.from({ length: n }, (_, i) => `Point ${i + 1}: a short statement`) } }],
  };
}

/** A column holding one table of `rows` rows (the first a header) and `cols` columns. */
export function table(rows: number, cols = 3): Column {
  return {
    blocks: [
      {
        type: 'table',
        table: { table: { rows: Array.from({ length: rows }, (_, r) => ({ cells: Array.from({ length: cols }, (_, c) => ({ value: `r${r}c${c}` })), is_header: r === 0 })) } },
      },
    ],
  };
}

/** A column holding one chart. */
export function chart(): Column {
  return { blocks: [{ type: 'chart', chart: { chart_type: 'bar', categories: ['a', 'b'], series: [{ name: 's', values: [1, 2] }] } }] };
}

/** A column holding one image. */
export function image(): Column {
  return { blocks: [{ type: 'image', image: { asset_id: 'asset_1' } }] };
}

/** Inputs of many shapes, for the property-style loops. */
export const INPUTS: Record<string, SlideData> = {
  empty: {},
  'title only': { title: 'Quarterly review' },
  'title + subtitle': { title: 'Quarterly review', subtitle: 'Q3 2026' },
  'subtitle only': { subtitle: 'Q3 2026' },
  'title + 5 bullets': { title: 'Agenda', content: [bullets(5)] },
  'title + 14 bullets': { title: 'Findings', content: [bullets(14)] },
  'two columns': { title: 'Pros and cons', content: [bullets(3), bullets(4)] },
  'two columns with headers': { title: 'Pros and cons', content: [bullets(3, 'Pros'), bullets(4, 'Cons')] },
  'three columns': { title: 'Options', content: [bullets(2), bullets(2), bullets(2)] },
  'title + 30-row table': { title: 'Numbers', content: [table(30)] },
  'table only': { content: [table(5)] },
  'text and table columns': { title: 'Mix', content: [bullets(3), table(6)] },
  'chart': { title: 'Trend', content: [chart()] },
  'image': { title: 'Photo', content: [image()] },
  'footer, header, footnote': { title: 'T', footer: 'ACME confidential', header: 'Draft', footnote: 'Source: ACME' },
  everything: { title: 'T', subtitle: 'S', footer: 'F', footnote: 'N', content: [bullets(3, 'A'), table(4), chart()] },
};
