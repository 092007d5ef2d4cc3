/**
 * PDF downloads in a distributed deployment (issue 22): the PDF is drawn by a worker
 * process through an `export` job, never by the core process serving the download. With no
 * worker running, the download waits its bound (1 s here) and answers 409 with
 * `Retry-After`; once a worker runs, the client's retry gets the PDF, the worker's log
 * shows the export job, the core's shows none, and the next download is served from the
 * blob store without another job.
 */
import t from 'tap';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { distributedSkipReason, logEntries, startBackends, startCluster, type Backends, type Cluster } from '../helpers/distributed.js';
import { havePoppler, pageTexts, pdfInfo } from '../helpers/pdf-tools.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const skip = distributedSkipReason();
if (skip) {
  t.plan(0, skip);
} else {
  let backends: Backends;
  let cluster: Cluster;
  t.before(async () => {
    backends = await startBackends();
    cluster = await startCluster(backends, { cores: 1, gateways: 1, workers: 1, env: { SLIDEWRIGHT_PDF_WAIT_SECONDS: '1' } });
  });
  t.teardown(async () => {
    await cluster?.close();
    await backends?.close();
  });

  const exportJobs = (lines: Array<Record<string, unknown>>): Array<Record<string, unknown>> => lines.filter((e) => e['kind'] === 'export');

  t.test('a deck downloaded as PDF is rendered by a worker: 409 with Retry-After while none runs, then the PDF', async (t) => {
    const svc = cluster.service;
    const { results } = await uploadAndAnalyze(svc, await houseTemplatePath(t));
    const title = (results.layouts as Json[]).find((l) => l.type === 'title')!;
    const slides = [{ template_slide_id: title.slide_id, slide_data: { title: 'Rendered by a worker', subtitle: 'not by the core process' } }];
    const started = (await (await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides } })).json()) as Json;
    const id = started.generation_id as string;
    t.equal((await waitForGeneration(svc, id)).status, 'completed');

    // No worker: the core process publishes the export job and does not draw the PDF itself.
    await Promise.all(cluster.workers.map((w) => w.stop()));
    const waiting = await svc.api(`/api/v1/presentations/${id}/download?format=pdf`);
    t.equal(waiting.status, 409, 'not ready while no worker renders it');
    t.equal(waiting.headers.get('retry-after'), '2', 'with Retry-After');
    t.match(((await waiting.json()) as Json).detail, /being rendered/);

    // A worker starts and takes the waiting job; the client retries as told.
    const worker = await cluster.addWorker();
    let res: Response | undefined;
    for (let i = 0; i < 60; i++) {
      const answer = await svc.api(`/api/v1/presentations/${id}/download?format=pdf`);
      res = answer;
      if (answer.status !== 409) break;
      await new Promise((r) => setTimeout(r, Number(answer.headers.get('retry-after') ?? 1) * 1000));
    }
    t.equal(res!.status, 200, 'the PDF once the worker rendered it');
    t.equal(res!.headers.get('content-type'), 'application/pdf');
    const pdf = new Uint8Array(await res!.arrayBuffer());
    t.equal(new TextDecoder().decode(pdf.subarray(0, 5)), '%PDF-');
    if (havePoppler()) {
      t.equal(pdfInfo(pdf).Pages, '1');
      t.match(pageTexts(pdf)[0], /Rendered by a worker/);
    }

    const done = exportJobs(logEntries(worker, 'job done'));
    t.equal(done.length, 1, 'the worker ran the export job, once');
    t.match(done[0]!['job_id'], /^exp_/);
    t.equal(exportJobs(logEntries(cluster.cores[0]!, 'job started')).length, 0, 'the core process ran no job');

    // Rendered once: the next download is the stored file, with no new job.
    const again = await svc.api(`/api/v1/presentations/${id}/download?format=pdf`);
    t.equal(again.status, 200);
    t.same(new Uint8Array(await again.arrayBuffer()), pdf, 'the same PDF, from the blob store');
    // (the queue and the job runner each log 'job started'; 'job done' is the runner's alone)
    await new Promise((r) => setTimeout(r, 1000));
    t.equal(exportJobs(logEntries(worker, 'job done')).length, done.length, 'no export job for a stored PDF');
  });

  t.test('a template downloads as PDF/A, rendered by a worker within the download wait', async (t) => {
    const svc = cluster.service;
    const { templateId, results } = await uploadAndAnalyze(svc, await houseTemplatePath(t));
    // the worker is running: the download's wait is enough unless the machine is very busy
    let res: Response | undefined;
    for (let i = 0; i < 60; i++) {
      res = await svc.api(`/api/v1/templates/${templateId}/download?format=pdf&pdfa=true`);
      if (res.status !== 409) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    t.equal(res!.status, 200);
    const pdf = new Uint8Array(await res!.arrayBuffer());
    t.match(Buffer.from(pdf).toString('latin1'), /<pdfaid:part>2<\/pdfaid:part>/, 'PDF/A-2b requested and declared');
    if (havePoppler()) t.equal(Number(pdfInfo(pdf).Pages), (results.slides as Json[]).length, 'one page per slide');
    const workerJobs = cluster.workers.flatMap((w) => exportJobs(logEntries(w, 'job done')));
    t.ok(workerJobs.some((e) => typeof e['job_id'] === 'string' && e['job_id'].startsWith('exp_')), 'rendered by an export job on a worker');
  });
}
