/**
 * Hostile uploads (../shared/badinputs/make-bad-inputs.py): every one gets a clear answer
 * — a 4xx at upload or a `failed` analysis with a reason — within 30 s, without the
 * service's memory running away, and the service stays healthy.
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedDir } from '../helpers/corpus.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { analyze, uploadTemplate, PPTX_MEDIA_TYPE } from '../helpers/flows.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Samples that are structurally valid or repairable and may be accepted (the catalog says "accept or reject"). */
const MAY_BE_ACCEPTED = new Set(['ok-minimal.pptx', 'duplicate-shape-ids.pptx', 'image-huge-dimensions.pptx']);

let svc: TestService;
let dir: string;
t.before(async () => {
  svc = await startTestService();
  dir = t.testdir();
  execFileSync('python3', [join(sharedDir, 'badinputs', 'make-bad-inputs.py'), dir], { stdio: 'ignore' });
});
t.teardown(() => svc.close());

t.test('every hostile sample gets a clear answer in bounded time and memory', async (t) => {
  const catalog = readFileSync(join(dir, 'CATALOG.tsv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'));
  t.ok(catalog.length >= 36, `${catalog.length} samples`);
  let peakRss = process.memoryUsage().rss;
  for (const [file, cls] of catalog as Array<[string, string, string]>) {
    const started = Date.now();
    const bytes = readFileSync(join(dir, file));
    const init = await svc.api('/api/v1/templates', { method: 'POST', json: { filename: file, file_size: bytes.length } });
    if (init.status !== 201) {
      t.ok([413, 415].includes(init.status), `${file}: refused at initiation with ${init.status}`);
      t.type(((await init.json()) as Json).detail, 'string');
      continue;
    }
    const created = (await init.json()) as Json;
    const put = await fetch(created.upload_url as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: bytes });
    const body = (await put.json()) as Json;
    let outcome: string;
    if (put.status !== 200) {
      t.ok(put.status >= 400 && put.status < 500, `${file} (${cls}): 4xx at upload (${put.status})`);
      t.ok(JSON.stringify(body.detail).length > 20, `${file}: the answer says why`);
      outcome = `upload ${put.status}`;
    } else {
      const st = await analyze(svc, created.template_id as string);
      outcome = `analysis ${st.status}`;
      if (MAY_BE_ACCEPTED.has(file)) t.ok(['completed', 'failed'].includes(st.status as string), `${file}: ${st.status}`);
      else {
        t.equal(st.status, 'failed', `${file} (${cls}) fails analysis`);
        t.ok((st.error?.message as string | undefined)?.length, `${file}: with a reason (${st.error?.message})`);
      }
    }
    const seconds = (Date.now() - started) / 1000;
    t.ok(seconds < 30, `${file}: answered in ${seconds.toFixed(1)} s (${outcome})`);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  t.ok(peakRss < 1.5 * 1024 ** 3, `service RSS stayed under 1.5 GiB (peak ${(peakRss / 1024 ** 2).toFixed(0)} MiB)`);
  t.equal((await svc.api('/healthz', { as: null })).status, 200, 'still healthy');
  const ok = await uploadTemplate(svc, join(dir, 'ok-minimal.pptx'));
  t.equal(ok.status, 200, 'and still accepts a good file');
});

t.test('the contents of /etc/passwd never appear in any answer', async (t) => {
  const up = await uploadTemplate(svc, join(dir, 'xxe-etc-passwd-slide.pptx'));
  const st = await analyze(svc, up.templateId);
  const everything = JSON.stringify(st) + (await (await svc.api(`/api/v1/templates/${up.templateId}/analysis`)).text());
  t.notMatch(everything, /root:x:0:0/);
});
