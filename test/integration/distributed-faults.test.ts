/**
 * Distributed mode under faults, with core, gateway and two workers as separate processes
 * over our own NATS JetStream, Redis and s3rver:
 * - a worker SIGKILLed mid-job: the job completes on the other worker, with one output;
 * - core and gateway killed and restarted: no job or record lost;
 * - NATS down when a job is submitted: a clear 503 and nothing left half-written;
 * - Redis down: 503, and the service recovers by itself when Redis returns.
 */
import t from 'tap';
import { corpusPath, needsCorpus } from '../helpers/corpus.js';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { waitFor } from '../helpers/service.js';
import { distributedSkipReason, logEntries, startBackends, startCluster, type Backends, type Cluster, type Proc } from '../helpers/distributed.js';
import { RedisStateStore } from '../../core/src/adapters/redis-state-store.js';
import { S3BlobStore } from '../../core/src/adapters/s3-blob-store.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// the reference workload of the benchmark: two real templates
const skip = distributedSkipReason() || needsCorpus('bench/pp_test_slides.pptx', 'bench/SlideWithTables.pptx').skip;
if (skip) {
  t.plan(0, skip);
} else {
  let backends: Backends;
  let cluster: Cluster;
  let state: RedisStateStore;
  let files: S3BlobStore;
  let bullets: string;
  let tables: string[];
  let simpleLayout: string;
  let templateId: string;

  t.before(async () => {
    backends = await startBackends();
    cluster = await startCluster(backends, { workers: 2, env: { SLIDEWRIGHT_JOB_ACK_WAIT_MS: '3000', SLIDEWRIGHT_JOB_CONCURRENCY: '1' } });
    const a = await uploadAndAnalyze(cluster.service, corpusPath('bench/pp_test_slides.pptx'));
    const b = await uploadAndAnalyze(cluster.service, corpusPath('bench/SlideWithTables.pptx'));
    const c = await uploadAndAnalyze(cluster.service, await houseTemplatePath(t));
    bullets = (a.results.slides as Json[])[0]!.slide_id as string;
    tables = [(b.results.slides as Json[])[0]!.slide_id as string, (b.results.slides as Json[])[2]!.slide_id as string];
    simpleLayout = ((c.results.layouts as Json[]).find((l) => l.type === 'title') as Json).slide_id as string;
    templateId = c.templateId;
    // Our own clients on the same Redis and bucket, to look for orphans and duplicates.
    state = await RedisStateStore.open(backends.redisUrl);
    files = await S3BlobStore.open({ endpoint: backends.s3Endpoint, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'slidewright' });
  });
  t.teardown(async () => {
    await state?.close();
    await files?.close();
    await cluster?.close();
    await backends?.close();
  });

  /** A deck of `n` slides alternating bullets and tables (the benchmark's reference workload). */
  const heavyDeck = (n: number, label: string): Json => ({
    slides: Array.from({ length: n }, (_, i) =>
      i % 2 === 0
        ? { template_slide_id: bullets, slide_data: { title: `${label} ${i}`, content: { blocks: [{ type: 'text', text: { bullets: ['one', 'two', 'three', 'four', 'five'] } }] } } }
        : {
            template_slide_id: tables[(i >> 1) % 2]!,
            slide_data: { title: `${label} table ${i}`, content: { blocks: [{ type: 'table', table: { table: { rows: [0, 1, 2, 3].map((r) => ({ cells: [0, 1, 2, 3].map((k) => ({ value: `${r}.${k}` })), is_header: r === 0 })) } } }] } },
          },
    ),
  });

  const submit = async (body: Json): Promise<{ status: number; body: Json }> => {
    const r = await cluster.api('/api/v1/presentations/generate-deck', { method: 'POST', json: body });
    return { status: r.status, body: (await r.json()) as Json };
  };

  /** Deliveries the JetStream adapter logged (one per delivery; the job runner logs its own line too). */
  const deliveries = (w: Proc, id: string) => logEntries(w, 'job started').filter((e) => e['component'] === 'jetstream' && e['job_id'] === id);
  const startedOn = (id: string): Proc | undefined => cluster.workers.find((w) => !w.exited && deliveries(w, id).length > 0);

  t.test('a worker SIGKILLed mid-job: the job completes on another worker, with exactly one output', async (t) => {
    let victim: Proc | undefined;
    let id = '';
    for (let tries = 0; tries < 3 && !victim; tries++) {
      const res = await submit(heavyDeck(500, `Kill ${tries}`));
      t.equal(res.status, 202);
      id = res.body.generation_id as string;
      const w = await waitFor(async () => startedOn(id), 30_000, 10);
      await new Promise((r) => setTimeout(r, 200));
      if (logEntries(w, 'generation finished').some((e) => e['generation_id'] === id)) {
        await waitForGeneration(cluster.service, id);
        continue; // finished before we could kill it: try again
      }
      await w.stop('SIGKILL');
      victim = w;
    }
    if (!victim) return t.fail('every job finished before the worker could be killed');
    t.notOk(logEntries(victim, 'generation finished').some((e) => e['generation_id'] === id), 'the killed worker had not finished');

    const st = await waitForGeneration(cluster.service, id);
    t.equal(st.status, 'completed', JSON.stringify(st.errors));
    t.equal(st.total_pages_generated, 500);
    const survivor = cluster.workers.find((w) => w !== victim && !w.exited)!;
    t.same(deliveries(survivor, id).map((e) => e['attempt']), [2], 'redelivered once, to the surviving worker');
    t.same(deliveries(victim, id).map((e) => e['attempt']), [1], 'the killed worker had the first delivery');
    // one deck and its quality report, written once although two workers took the job
    t.same(await files.list(`orgs/acme/generations/${id}/`), [`orgs/acme/generations/${id}/deck.pptx`, `orgs/acme/generations/${id}/report.json`, `orgs/acme/generations/${id}/request.json`], 'one output file (and its report)');
    t.notOk(((await state.get<string[]>('pending:acme')) ?? []).includes(id), 'no longer pending');
    const dl = await fetch(st.download_url as string);
    t.equal(dl.status, 200);
    t.ok((await dl.arrayBuffer()).byteLength > 10_000);
    await cluster.addWorker(); // back to two workers
  });

  t.test('core and gateway killed and restarted: no job or record lost', async (t) => {
    const beforeTemplates = (await (await cluster.api('/api/v1/templates?limit=100')).json()) as Json;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await submit(heavyDeck(60, `Restart ${i}`));
      t.equal(res.status, 202);
      ids.push(res.body.generation_id as string);
    }
    await Promise.all([cluster.restartCore(0, 'SIGKILL'), cluster.restartGateway(0, 'SIGKILL')]);
    for (const id of ids) {
      const st = await waitForGeneration(cluster.service, id);
      t.equal(st.status, 'completed', `${id} completed across the restart`);
      t.equal(st.total_pages_generated, 60);
    }
    const afterTemplates = (await (await cluster.api('/api/v1/templates?limit=100')).json()) as Json;
    t.same(
      (afterTemplates.templates as Json[]).map((x) => [x.template_id, x.status]),
      (beforeTemplates.templates as Json[]).map((x) => [x.template_id, x.status]),
      'every template record is still there, unchanged',
    );
    t.same((await state.get<string[]>('pending:acme')) ?? [], [], 'pending set drained');
    const again = await submit({ slides: [{ template_slide_id: simpleLayout, slide_data: { title: 'After restart' } }] });
    t.equal(again.status, 202, 'slide ids from before the restart still generate');
    t.equal((await waitForGeneration(cluster.service, again.body.generation_id as string)).status, 'completed');
  });

  t.test('NATS down when a job is submitted: a clear 503 and no orphan record; works again when NATS returns', async (t) => {
    const gensBefore = (await state.scan('gen:acme:')).map(([k]) => k);
    const pendingBefore = (await state.get<string[]>('pending:acme')) ?? [];
    const filesBefore = await files.list('orgs/acme/generations/');
    const tplBefore = (await state.get<Json>(`tpl:acme:${templateId}`))!;
    await backends.nats.stop();
    t.teardown(async () => {
      if (!backends.nats.proc) await backends.nats.start();
    });
    await new Promise((r) => setTimeout(r, 500));

    const res = await submit({ slides: [{ template_slide_id: simpleLayout, slide_data: { title: 'No queue' } }] });
    t.equal(res.status, 503, 'generation refused with 503');
    t.match(res.body.detail, /job queue is unavailable/);
    const ana = await cluster.api(`/api/v1/templates/${templateId}/analysis`, { method: 'POST', json: {} });
    t.equal(ana.status, 503, 'analysis refused with 503');

    t.same((await state.scan('gen:acme:')).map(([k]) => k), gensBefore, 'no generation record left behind');
    t.same((await state.get<string[]>('pending:acme')) ?? [], pendingBefore, 'pending set unchanged');
    t.same(await files.list('orgs/acme/generations/'), filesBefore, 'no stored request left behind');
    const tplAfter = (await state.get<Json>(`tpl:acme:${templateId}`))!;
    t.equal(tplAfter.status, tplBefore.status, 'template status restored');
    t.equal(tplAfter.latest_analysis_id, tplBefore.latest_analysis_id, 'no dangling analysis');
    t.equal((await state.scan(`ana:acme:${templateId}:`)).length, 1, 'no analysis record left behind');

    await backends.nats.start();
    const ok = await waitFor(async () => {
      const r = await submit({ slides: [{ template_slide_id: simpleLayout, slide_data: { title: 'Queue back' } }] });
      return r.status === 202 ? r : undefined;
    }, 30_000, 250);
    t.equal((await waitForGeneration(cluster.service, ok.body.generation_id as string)).status, 'completed', 'workers consume again');
  });

  t.test('Redis down: 503, and recovery when it returns', async (t) => {
    await backends.redis.stop();
    t.teardown(async () => {
      if (!backends.redis.proc) await backends.redis.start();
    });
    const get = await cluster.api(`/api/v1/templates/${templateId}`);
    t.equal(get.status, 503, 'reads answer 503');
    t.match(((await get.json()) as Json).detail, /state store/);
    const gen = await submit({ slides: [{ template_slide_id: simpleLayout, slide_data: { title: 'No state' } }] });
    t.equal(gen.status, 503, 'writes answer 503');
    t.equal((await cluster.api('/healthz', { as: null })).status, 200, 'the gateway itself stays up');

    await backends.redis.start();
    const back = await waitFor(async () => {
      const r = await cluster.api(`/api/v1/templates/${templateId}`);
      return r.status === 200 ? ((await r.json()) as Json) : undefined;
    }, 30_000, 250);
    t.equal(back.status, 'ready', 'records survived (AOF) and core reconnected by itself');
    const res = await submit({ slides: [{ template_slide_id: simpleLayout, slide_data: { title: 'State back' } }] });
    t.equal(res.status, 202);
    t.equal((await waitForGeneration(cluster.service, res.body.generation_id as string)).status, 'completed', 'workers reconnected too');
  });
}
