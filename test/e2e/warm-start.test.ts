/**
 * A warm start (issue 20): with SLIDEWRIGHT_WARMUP on, the service reports ready only
 * once its CPU threads have built synthetic decks and opened the templates recent decks
 * used, and its REST path has carried one internal request; decks are then made as
 * before, and the internal requests leave no trace (no record, no metric).
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { recentTemplateFiles } from '../../core/src/services/generation-service.js';
import { warmUpThread } from '../../core/src/threads/warm-up.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function deck(svc: TestService, slideIds: string[]): Promise<Json> {
  const r = await svc.api('/api/v1/presentations/generate-deck', {
    method: 'POST',
    json: { slides: slideIds.map((id, i) => ({ template_slide_id: id, slide_data: { title: `Slide ${i + 1}`, content: { blocks: [{ type: 'text', text: { bullets: ['a', 'b'] } }] } } })) },
  });
  t.equal(r.status, 202);
  return waitForGeneration(svc, ((await r.json()) as Json).generation_id as string);
}

t.test('a warm start opens the templates recent decks used and answers as before', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-warm-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const housePath = await houseTemplatePath(t);

  // a cold service makes one deck: its template becomes a recent one
  const cold = await startTestService({}, dir);
  const house = await uploadAndAnalyze(cold, housePath);
  const ids = (house.results.slides as Json[]).map((s) => s.slide_id as string);
  t.equal((await deck(cold, ids)).status, 'completed');
  let recent: Array<[string, Uint8Array]> = [];
  for (let i = 0; i < 50 && recent.length === 0; i++) {
    recent = await recentTemplateFiles(cold.core.deps);
    if (recent.length === 0) await new Promise((r) => setTimeout(r, 20));
  }
  t.equal(recent.length, 1, 'the template is recorded as recently used');
  t.same(Buffer.from(recent[0]![1]), readFileSync(housePath), 'with its file');
  await cold.close();

  const opened = await warmUpThread(1, recent);
  t.equal(opened.templatesOpened, 1, 'a thread warm-up opens it');

  // a warm start on the same data: ready when startEmbedded resolves
  const warm = await startTestService({ SLIDEWRIGHT_WARMUP: '1' }, dir);
  t.teardown(() => warm.close());
  t.equal((await fetch(`${warm.url}/healthz`)).status, 200, 'ready once started');
  t.ok((warm.gatewayThread?.validatorsTaken ?? 0) >= 50, 'the gateway thread took the request validators core compiled');
  const before = warm.core.deps.cpu.templateTraffic();
  const done = await deck(warm, ids);
  t.equal(done.status, 'completed');
  t.equal(done.total_pages_generated, ids.length);
  const traffic = warm.core.deps.cpu.templateTraffic();
  t.equal(traffic.templatesWithBytes - before.templatesWithBytes, 0, 'the deck sent no template bytes: the warm-up opened the template in every thread');
  t.equal(traffic.templatesByKey - before.templatesByKey, 1, 'it named the template by its content key');
  t.equal(traffic.misses, 0);
  const metrics = await (await fetch(`${warm.url}/metrics`)).text();
  t.notMatch(metrics, /route="\/api\/v1\/presentations\/generate-deck",status="401"/, 'the internal warm-up requests are not counted');
  t.match(metrics, /route="\/api\/v1\/presentations\/generate-deck",status="202"/);
});
