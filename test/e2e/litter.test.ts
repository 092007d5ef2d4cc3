/**
 * No litter (issue 18, item 6): the temporary files and empty folders a killed process
 * left in the blob store are removed at the next start; a 429 leaves nothing in the file
 * store; upload initiations that never got a file expire (SLIDEWRIGHT_UPLOAD_EXPIRY) and
 * disappear from lists, reads and uploads, then from the state store.
 *
 * The file-level checks read the embedded data directory, so they run in embedded mode;
 * the expiry runs in both topologies.
 */
import t from 'tap';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { startTestService, waitFor } from '../helpers/service.js';
import { PPTX_MEDIA_TYPE, uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { readFileSync } from 'node:fs';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const distributed = process.env.SLIDEWRIGHT_TEST_TOPOLOGY === 'distributed';
const embeddedOnly = distributed ? { skip: 'reads the embedded data directory' } : {};

/** Every file and folder under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      out.push(relative(dir, p) + (e.isDirectory() ? '/' : ''));
      if (e.isDirectory()) walk(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}

t.test('orphan temporary files and empty folders of a killed run are removed at start; stored files stay', embeddedOnly, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-litter-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const first = await startTestService({}, dir);
  const { templateId } = await uploadAndAnalyze(first, await houseTemplatePath(t));
  await first.close();
  const blobs = join(dir, 'blobs');
  const before = tree(blobs);
  // what a kill -9 in the middle of writes leaves: the temporary file of an analysis
  // result and of a deck, and the folder of a request whose file was never renamed in
  const analyses = join(blobs, 'orgs', 'acme', 'templates', templateId, 'analyses');
  writeFileSync(join(analyses, 'ana_01JORPHAN000000000000000000.json.0123456789ab.tmp'), '{"partial":');
  mkdirSync(join(blobs, 'orgs', 'acme', 'generations', 'gen_01JORPHAN000000000000000000'), { recursive: true });
  writeFileSync(join(blobs, 'orgs', 'acme', 'generations', 'gen_01JORPHAN000000000000000000', 'deck.pptx.a1b2c3d4e5f6.tmp'), 'PK');
  mkdirSync(join(blobs, 'orgs', 'acme', 'generations', 'gen_01JEMPTY0000000000000000000'), { recursive: true });
  t.not(tree(blobs).length, before.length, 'litter planted');
  const second = await startTestService({}, dir);
  t.teardown(() => second.close());
  t.same(tree(blobs), before, 'the blob store is as the first run left it cleanly: no .tmp file, no empty folder');
  const tpl = (await (await second.api(`/api/v1/templates/${templateId}`)).json()) as Json;
  t.equal(tpl.status, 'ready', 'the stored template and its analysis are intact');
  t.equal((await second.api(`/api/v1/templates/${templateId}/download`)).status, 200);
});

t.test('a 429 writes nothing to the file store (refused at once, or after a race)', embeddedOnly, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-429-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const svc = await startTestService({ SLIDEWRIGHT_MAX_PENDING_PER_ORG: '1' }, dir);
  t.teardown(() => svc.close());
  const { results } = await uploadAndAnalyze(svc, await houseTemplatePath(t));
  const layout = (results.layouts as Json[]).find((l) => l.type === 'obj')!.slide_id as string;
  const slides = Array.from({ length: 300 }, (_, i) => ({ template_slide_id: layout, slide_data: { title: `Slide ${i}`, content: { blocks: [{ type: 'text', text: { bullets: ['a', 'b'] } }] } } }));
  const generations = join(dir, 'blobs', 'orgs', 'acme', 'generations');
  // ten at once: they race past the first look, one wins the atomic check
  const answers = await Promise.all(Array.from({ length: 10 }, () => svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides } })));
  const accepted = await Promise.all(answers.filter((r) => r.status === 202).map(async (r) => ((await r.json()) as Json).generation_id as string));
  t.equal(accepted.length, 1, 'one accepted');
  t.equal(answers.filter((r) => r.status === 429).length, 9, 'nine refused');
  t.same(readdirSync(generations), accepted, 'only the accepted generation has a folder');
  // one more while the first is pending: refused before anything is written
  const late = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: slides.slice(0, 1) } });
  if ((await svc.api(`/api/v1/presentations/${accepted[0]}/status`).then((r) => r.json() as Promise<Json>)).status !== 'completed') {
    t.equal(late.status, 429);
  }
  const st = await waitForGeneration(svc, accepted[0]!);
  t.equal(st.status, 'completed');
  const expected = late.status === 202 ? [...accepted, ((await late.json()) as Json).generation_id as string].sort() : accepted;
  if (late.status === 202) await waitForGeneration(svc, expected.find((id) => id !== accepted[0])!);
  t.same(readdirSync(generations).sort(), expected, 'still only accepted generations have folders');
});

/** Seconds an upload initiation lives here: long enough for the young-state checks on a loaded machine. */
const EXPIRY_SECONDS = 6;

t.test('upload initiations expire: gone from lists, reads and uploads, then from the store; uploaded templates stay', async (t) => {
  const svc = await startTestService({ SLIDEWRIGHT_UPLOAD_EXPIRY: String(EXPIRY_SECONDS) });
  t.teardown(() => svc.close());
  const bytes = readFileSync(await houseTemplatePath(t));
  const create = async (filename: string): Promise<Json> => (await (await svc.api('/api/v1/templates', { method: 'POST', json: { filename } })).json()) as Json;
  const ids = async (query = ''): Promise<string[]> => (((await (await svc.api(`/api/v1/templates${query}`)).json()) as Json).templates as Json[]).map((x) => x.template_id as string);
  // the uploaded template first: it also warms the threads that check uploads
  const kept = await create('kept.pptx');
  t.equal((await fetch(kept.upload_url as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: bytes })).status, 200);
  const pending = await create('never-sent.pptx');
  const refused = await create('refused.pptx');
  const created = Date.now();
  t.equal((await fetch(refused.upload_url as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: 'not a zip' })).status, 415);
  t.ok((await ids()).includes(pending.template_id as string), 'listed while young');
  t.ok((await ids('?status=rejected')).includes(refused.template_id as string));
  t.ok(Date.now() - created < EXPIRY_SECONDS * 1000, 'checked while young (else this run was too slow to tell)');
  await new Promise((r) => setTimeout(r, Math.max(0, created + EXPIRY_SECONDS * 1000 + 300 - Date.now())));
  t.same(await ids(), [kept.template_id], 'the pending one left the list; the uploaded one stays');
  t.same(await ids('?status=rejected'), [], 'the rejected one (no file) too');
  t.equal((await svc.api(`/api/v1/templates/${pending.template_id}`)).status, 404, 'GET answers 404');
  t.equal((await fetch(pending.upload_url as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: bytes })).status, 404, 'its upload URL no longer takes a file');
  t.equal((await svc.api(`/api/v1/templates/${kept.template_id}`)).status, 200);
  if (!distributed) {
    const state = svc.core.deps.state;
    await waitFor(async () => ((await state.get(`tpl:acme:${pending.template_id}`)) === undefined && (await state.get(`tpl:acme:${refused.template_id}`)) === undefined ? true : undefined), 15_000);
    t.pass('the sweep deleted both records');
    t.ok(await state.get(`tpl:acme:${kept.template_id}`), 'the uploaded template is kept');
  }
});
