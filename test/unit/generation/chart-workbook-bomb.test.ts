/**
 * A chart's embedded workbook goes through the project's bounded zip reader before ExcelJS
 * (JSZip, no limits) reads it. Found by the hostile sample `zip-bomb-nested.pptx`: its
 * chart's workbook, 1 MB stored in the template, is a zip whose one sheet inflates to
 * 1 GiB; updating that chart's data took 7 s and 1.2 GiB of resident memory before the
 * workbook was given up and replaced.
 */
import t from 'tap';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { writeChartWorkbook, readChartWorkbook } from '../../../core/src/generation/charts/workbook.js';
import type { ChartLayout } from '../../../core/src/generation/charts/chart-xml.js';
import type { ChartData } from '../../../core/src/generation/charts/chart-data.js';
import { hostileSample } from '../../hostile/samples.js';
import { encryptedOfficeFile } from '../../hostile/compound-file.js';

const layout: ChartLayout = {
  sheet: 'Sheet1',
  numericCategories: false,
  categories: { sheet: 'Sheet1', row1: 2, col1: 1, row2: 4, col2: 1 },
  series: [{ name: { sheet: 'Sheet1', row1: 1, col1: 2, row2: 1, col2: 2 }, values: { sheet: 'Sheet1', row1: 2, col1: 2, row2: 4, col2: 2 } }],
};
const data: ChartData = { categories: ['North', 'South', 'West'], series: [{ name: 'Sales', values: [3, 5, 2] }] };

t.test('a workbook that is a zip bomb is replaced without being inflated', async (t) => {
  const pkg = await OpcPackage.open(hostileSample('zip-bomb-nested.pptx').build());
  const bomb = pkg.getBytes('/ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx');
  let peak = process.memoryUsage().rss;
  const start = peak;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const cpu = process.cpuUsage();
  const r = await writeChartWorkbook(bomb, layout, data, []);
  const used = process.cpuUsage(cpu);
  clearInterval(timer);
  t.equal(r.replaced, true, 'replaced by a new workbook');
  t.ok((used.user + used.system) / 1e6 < 3, `in ${((used.user + used.system) / 1e6).toFixed(1)} s of CPU`);
  t.ok(peak - start < 300 * 1024 ** 2, `resident memory grew by ${((peak - start) / 1024 ** 2).toFixed(0)} MiB at most`);
  const back = await readChartWorkbook(r.bytes, 'Sheet1', 3, 1);
  t.same(back.categories, ['North', 'South', 'West'], 'the new workbook holds the data');
});

t.test('a real workbook still passes the check and is kept; an OLE file is replaced', async (t) => {
  const made = await writeChartWorkbook(undefined, layout, data, []);
  const again = await writeChartWorkbook(made.bytes, layout, { ...data, series: [{ name: 'Sales', values: [7, 8, 9] }] }, []);
  t.equal(again.replaced, false, 'a workbook ExcelJS wrote is read, not replaced');
  t.same((await readChartWorkbook(again.bytes, 'Sheet1', 3, 1)).values, [[7, 8, 9]]);
  t.equal((await writeChartWorkbook(encryptedOfficeFile(), layout, data, [])).replaced, true, 'a password-protected workbook is replaced');
});
