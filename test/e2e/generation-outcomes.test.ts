/**
 * Generation outcomes over REST (issue 4, items 2 and 8): a table-only slide paginates and
 * `total_pages_generated` counts the pages; warnings are structured (`slide_index`,
 * `template_slide_id`, `code`, `message`). (Unknown slide ids are refused up front with
 * 404; per-slide failures during the build — `partial`, `failed` — are covered at the
 * engine level in test/unit/generation/build-deck.test.ts.)
 */
import t from 'tap';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { startTestService } from '../helpers/service.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const svc = await startTestService();
t.teardown(() => svc.close());

const { results } = await uploadAndAnalyze(svc, await houseTemplatePath(t));
const layouts = results.layouts as Json[];
const content = layouts.find((l) => l.type === 'obj')!.slide_id as string;

const rows = [{ is_header: true, cells: [{ value: 'Region' }, { value: 'Q1' }] }, ...Array.from({ length: 45 }, (_, i) => ({ cells: [{ value: `Region ${i + 1}` }, { value: String(i) }] }))];
const many = Array.from({ length: 60 }, (_, i) => `Bullet ${i + 1}: revenue grew strongly across every region this quarter`);

async function generate(json: unknown): Promise<Json> {
  const r = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json });
  if (r.status !== 202) throw new Error(`generate-deck: ${r.status} ${await r.text()}`);
  const job = (await r.json()) as Json;
  return waitForGeneration(svc, job.generation_id as string);
}

t.test('pagination counts pages; warnings are structured and name the slide', async (t) => {
  const st = await generate({
    slides: [
      { template_slide_id: content, slide_data: { title: 'Regions', content: { blocks: [{ type: 'table', table: { table: { rows } } }] } } },
      { template_slide_id: content, slide_data: { title: 'Too much', content: { blocks: [{ type: 'text', text: { bullets: many } }] } }, options: { textbox_min_font_size: 12 } },
    ],
    options: { footer_text: 'Footer', show_slide_numbers: true },
  });
  t.equal(st.status, 'completed', JSON.stringify(st.errors));
  t.equal(st.total_slides_requested, 2);
  t.ok(st.total_pages_generated >= 3, `${st.total_pages_generated} pages (the table paginated)`);
  const overflow = (st.warnings as Json[]).find((w) => w.code === 'text_overflow');
  t.match(overflow, { slide_index: 1, template_slide_id: content, code: 'text_overflow', message: /at 12 pt/ }, 'a structured warning for the slide that still overflows');
  const dl = await fetch(st.download_url as string);
  t.equal(dl.status, 200);
  const pkg = await OpcPackage.open(new Uint8Array(await dl.arrayBuffer()));
  t.equal(pkg.partsOfType('application/vnd.openxmlformats-officedocument.presentationml.slide+xml').length, st.total_pages_generated, 'the file has every page');
});
