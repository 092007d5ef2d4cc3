/**
 * Fair queues (issue 18, item 5): one organization's backlog cannot starve another's.
 * Organization A queues 20 decks of 200 slides; organization B then queues a deck of one
 * slide, which must complete within about the time of two of A's decks — not after A's
 * backlog (before: another organization's 1-slide job finished after 99 of 100 queued
 * decks of the first).
 *
 * Times are compared as ratios measured in the same run (never absolute seconds): B's
 * latency (submit to completed) against the latency of A's first deck of the burst, which
 * started at once and ran under the same load. Runs in embedded mode, and in distributed
 * mode with SLIDEWRIGHT_TEST_TOPOLOGY=distributed (test/integration/e2e-distributed.test.ts).
 */
import t from 'tap';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { ORG_B, startTestService, type TestService } from '../helpers/service.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const A_DECKS = 20;
const A_SLIDES = 200;

let svc: TestService;
t.before(async () => {
  svc = await startTestService();
});
t.teardown(() => svc.close());

t.test(`B's 1-slide deck is not queued behind A's ${A_DECKS} decks of ${A_SLIDES} slides`, async (t) => {
  const house = await houseTemplatePath(t);
  const a = await uploadAndAnalyze(svc, house);
  const b = await uploadAndAnalyze(svc, house, ORG_B);
  const layoutOf = (results: Json) => (results.layouts as Json[]).find((l) => l.type === 'obj')!.slide_id as string;
  const aLayout = layoutOf(a.results);
  const aDeck = {
    slides: Array.from({ length: A_SLIDES }, (_, i) => ({
      template_slide_id: aLayout,
      slide_data: { title: `A slide ${i}`, content: { blocks: [{ type: 'text', text: { bullets: ['Revenue grew in every region', 'Churn fell below two percent', 'Hiring on plan'] } }] } },
    })),
  };
  const bDeck = { slides: [{ template_slide_id: layoutOf(b.results), slide_data: { title: 'B needs this now' } }] };
  const submit = async (body: Json, as?: { key: string }): Promise<string> => {
    const r = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: body, as });
    if (r.status !== 202) throw new Error(`generate-deck: ${r.status} ${await r.text()}`);
    return ((await r.json()) as Json).generation_id as string;
  };
  const status = async (id: string, as?: { key: string }): Promise<Json> => (await (await svc.api(`/api/v1/presentations/${id}/status`, { as })).json()) as Json;

  // one of A's decks alone, for reference (and to warm the threads)
  const soloStart = Date.now();
  t.equal((await waitForGeneration(svc, await submit(aDeck))).status, 'completed');
  const solo = Date.now() - soloStart;

  const aIds = await Promise.all(Array.from({ length: A_DECKS }, () => submit(aDeck)));
  const bId = await submit(bDeck, ORG_B);

  // the service's own timestamps (created_at, completed_at; ms) measure both, on one clock
  const ended = (s: Json) => ['completed', 'partial', 'failed'].includes(s.status as string);
  const started = Date.now();
  let bs: Json = {};
  let as: Json[] = [];
  for (;;) {
    bs = await status(bId, ORG_B);
    as = await Promise.all(aIds.map((id) => status(id)));
    if (ended(bs) && as.some(ended)) break;
    if (Date.now() - started > 600_000) throw new Error('the burst did not end in 10 minutes');
    await new Promise((r) => setTimeout(r, 250));
  }
  t.equal(bs.status, 'completed', "B's deck completed");
  const ms = (iso: unknown) => Date.parse(iso as string);
  const bLatency = ms(bs.completed_at) - ms(bs.created_at);
  const aDone = as.filter(ended).sort((x, y) => ms(x.completed_at) - ms(y.completed_at));
  const aFirst = aDone[0]!;
  const aDeckTime = ms(aFirst.completed_at) - ms(aFirst.created_at);
  const aDoneWhileBWaited = aDone.filter((x) => ms(x.completed_at) > ms(bs.created_at) && ms(x.completed_at) <= ms(bs.completed_at)).length;
  const ratio = bLatency / aDeckTime;
  t.comment(
    `A's deck alone ${solo} ms; A's first deck of the burst ${aDeckTime} ms; B's deck ${bLatency} ms from its submit = ${ratio.toFixed(2)} of A's decks ` +
      `(${(bLatency / solo).toFixed(2)} solo decks); ${aDoneWhileBWaited} of A's decks completed while B's waited or ran, ${aDone.length} of ${A_DECKS} by then`,
  );
  t.ok(ratio <= 2, `B completes within about two of A's decks (${ratio.toFixed(2)})`);
  t.ok(aDoneWhileBWaited <= 5, `B did not wait for A's backlog (${aDoneWhileBWaited} of A's decks completed meanwhile; a fair slot is free after at most one per slot)`);
});
