/**
 * The data a chart is given (a chart block, or one entry of an update-charts request),
 * its checks, and the chart types Slidewright can build or update (ECMA-376 Part 1,
 * §21.2.2 DrawingML charts).
 */

import { EngineError } from '../../ooxml/errors.js';

/** One data series: a name (legend text, `c:tx`) and one value per category. */
export interface ChartSeriesData {
  name: string;
  /** One per category; a non-finite value is written as a gap (no `c:pt`, an empty cell). */
  values: number[];
}

/** New data for a chart. */
export interface ChartData {
  /** Replaces the chart title (`c:title`) when given; an empty string removes the title. */
  title?: string;
  /** Category labels (`c:cat`; the x values of a scatter chart). At least one. */
  categories: string[];
  /** At least one. */
  series: ChartSeriesData[];
}

/** Why chart data or a chart cannot be used. `code` becomes a slide error's code. */
export class ChartError extends EngineError<'chart_invalid' | 'chart_unsupported' | 'chart_corrupt'> {
  override readonly name = 'ChartError';
}

/** Most categories and series accepted (the request schema's limits). */
export const MAX_CATEGORIES = 1000;
export const MAX_SERIES = 50;

/** A problem with chart data, with the field it concerns (relative: `categories`, `series[1].values`). */
export interface ChartDataProblem {
  field: string;
  message: string;
}

/** Checks chart data: at least one category and series, one value per category each. */
export function checkChartData(data: ChartData): ChartDataProblem[] {
  const out: ChartDataProblem[] = [];
  if (!data.categories || data.categories.length === 0) out.push({ field: 'categories', message: 'a chart needs at least one category' });
  else if (data.categories.length > MAX_CATEGORIES) out.push({ field: 'categories', message: `at most ${MAX_CATEGORIES} categories are accepted` });
  if (!data.series || data.series.length === 0) out.push({ field: 'series', message: 'a chart needs at least one series' });
  else if (data.series.length > MAX_SERIES) out.push({ field: 'series', message: `at most ${MAX_SERIES} series are accepted` });
  const n = data.categories?.length ?? 0;
  (data.series ?? []).forEach((s, i) => {
    const count = s.values?.length ?? 0;
    if (n > 0 && count !== n) out.push({ field: `series[${i}].values`, message: `series "${s.name}" has ${count} values for ${n} categories; give one value per category` });
  });
  return out;
}

/** Throws the first problem of {@link checkChartData} as a {@link ChartError}. */
export function assertChartData(data: ChartData): void {
  const p = checkChartData(data)[0];
  if (p) throw new ChartError('chart_invalid', `${p.field}: ${p.message}`);
}

/** Chart types a chart block may ask for, as {@link NewChartSpec}s. */
export interface NewChartSpec {
  /** The plot element (`c:barChart`, ...). */
  plot: 'barChart' | 'lineChart' | 'pieChart' | 'doughnutChart' | 'areaChart' | 'scatterChart' | 'radarChart';
  barDir?: 'col' | 'bar';
  /** `c:grouping` (§21.2.2.76 bar, §21.2.2.77 line/area). */
  grouping?: 'clustered' | 'stacked' | 'percentStacked' | 'standard';
  markers?: boolean;
}

const TYPES: Readonly<Record<string, NewChartSpec>> = {
  column: { plot: 'barChart', barDir: 'col', grouping: 'clustered' },
  column_stacked: { plot: 'barChart', barDir: 'col', grouping: 'stacked' },
  column_stacked_100: { plot: 'barChart', barDir: 'col', grouping: 'percentStacked' },
  bar: { plot: 'barChart', barDir: 'bar', grouping: 'clustered' },
  bar_stacked: { plot: 'barChart', barDir: 'bar', grouping: 'stacked' },
  bar_stacked_100: { plot: 'barChart', barDir: 'bar', grouping: 'percentStacked' },
  line: { plot: 'lineChart', grouping: 'standard', markers: false },
  line_markers: { plot: 'lineChart', grouping: 'standard', markers: true },
  pie: { plot: 'pieChart' },
  doughnut: { plot: 'doughnutChart' },
  area: { plot: 'areaChart', grouping: 'standard' },
  area_stacked: { plot: 'areaChart', grouping: 'stacked' },
  scatter: { plot: 'scatterChart', markers: true },
  radar: { plot: 'radarChart' },
};

/** Accepted `chart_type` names (lower case; `-` and spaces read as `_`, `stacked_column` as `column_stacked`). */
export const CHART_TYPES: readonly string[] = Object.keys(TYPES);

/** The spec of a `chart_type`, or undefined when it is not one Slidewright builds. */
export function newChartSpec(chartType: string): NewChartSpec | undefined {
  let t = chartType.trim().toLowerCase().replace(/[\s-]+/g, '_');
  const m = /^stacked_(column|bar|area)(_100)?$/.exec(t);
  if (m) t = `${m[1]}_stacked${m[2] ?? ''}`;
  if (t === 'col' || t === 'clustered_column') t = 'column';
  if (t === 'xy' || t === 'xy_scatter') t = 'scatter';
  if (t === 'donut') t = 'doughnut';
  return TYPES[t];
}

/** Characters XML 1.0 does not allow (§2.2), removed from text written into parts. */
const ILLEGAL_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text safe to write into an XML part or a workbook cell. */
export function xmlSafe(text: string): string {
  return text.replace(ILLEGAL_XML, '');
}
