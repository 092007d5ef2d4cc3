/**
 * Every real template of the shared corpus uploads and analyzes to `completed` through the
 * REST API; every broken file ends in a clear error (4xx at upload, or `failed` with a
 * reason) and the service stays healthy.
 */
import t from 'tap';
import { corpusFilesOf, corpusPath, needsCorpus } from '../helpers/corpus.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { analyze, uploadTemplate } from '../helpers/flows.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let svc: TestService;
t.before(async () => {
  svc = await startTestService();
});
t.teardown(() => svc.close());

t.test('every corpus template uploads and analyzes to completed', needsCorpus(), async (t) => {
  const files = corpusFilesOf('templates');
  t.ok(files.length >= 30, `corpus has ${files.length} templates`);
  for (const f of files) {
    const up = await uploadTemplate(svc, corpusPath(f));
    t.equal(up.status, 200, `${f} uploads (${JSON.stringify(up.body)})`);
    t.equal(up.body.confirmed, true);
    const st = await analyze(svc, up.templateId);
    t.equal(st.status, 'completed', `${f} analyzes (${JSON.stringify(st.error)})`);
    const tpl = (await (await svc.api(`/api/v1/templates/${up.templateId}`)).json()) as Json;
    t.equal(tpl.status, 'ready', `${f} is ready`);
    const a = (await (await svc.api(`/api/v1/templates/${up.templateId}/analysis`)).json()) as Json;
    const results = a.results as Json;
    t.ok(results.layouts.length > 0, `${f} has layouts`);
    const ids = new Set([...results.slides, ...results.layouts].map((s: Json) => s.slide_id as string));
    t.equal(ids.size, results.slides.length + results.layouts.length, `${f}: every slide and layout has its own id`);
  }
});

t.test('every broken corpus file ends in a clear error and the service stays healthy', needsCorpus('broken/aspose-password-protected.pptx'), async (t) => {
  for (const f of corpusFilesOf('broken')) {
    const up = await uploadTemplate(svc, corpusPath(f));
    if (up.status !== 200) {
      t.ok(up.status >= 400 && up.status < 500, `${f} refused at upload with ${up.status}`);
      const detail = up.body.detail;
      t.ok(typeof detail === 'string' ? detail.length > 10 : Array.isArray(detail) && detail.length > 0, `${f}: the answer says why (${JSON.stringify(detail)})`);
      const tpl = (await (await svc.api(`/api/v1/templates/${up.templateId}`)).json()) as Json;
      t.equal(tpl.status, 'rejected', `${f}: rejected, no file is recorded`);
      continue;
    }
    const st = await analyze(svc, up.templateId);
    t.equal(st.status, 'failed', `${f} fails analysis`);
    t.ok(st.error && typeof st.error.message === 'string' && st.error.message.length > 10, `${f}: the failure has a reason (${JSON.stringify(st.error)})`);
    const tpl = (await (await svc.api(`/api/v1/templates/${up.templateId}`)).json()) as Json;
    t.equal(tpl.status, 'failed');
  }
  const encrypted = await uploadTemplate(svc, corpusPath('broken/aspose-password-protected.pptx'));
  t.match(JSON.stringify(encrypted.body), /password-protected/, 'an encrypted file is named as such');
  t.equal((await svc.api('/healthz', { as: null })).status, 200, 'still healthy');
});
