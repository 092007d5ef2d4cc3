/**
 * Upload initiations expire (SLIDEWRIGHT_UPLOAD_EXPIRY), but never from under an upload
 * that is being checked: the sweep that ran while a slow inspection was under way used to
 * delete the record, the upload then stored its file for no template (litter) and answered
 * 404. Here the inspection waits on the test, with a real state store and blob store.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { LevelStateStore } from '../../../core/src/adapters/level-state-store.js';
import { LocalBlobStore } from '../../../core/src/adapters/local-blob-store.js';
import { loadConfig } from '../../../core/src/config.js';
import type { TemplateRecord } from '../../../core/src/domain/records.js';
import { ServiceError } from '../../../core/src/errors.js';
import type { ServiceDeps } from '../../../core/src/services/deps.js';
import { UrlSigner } from '../../../core/src/services/signing.js';
import { TemplateService, UPLOAD_IN_PROGRESS_GRACE_SECONDS, uploadExpired } from '../../../core/src/services/template-service.js';
import type { InspectResult } from '../../../core/src/threads/cpu-task.js';

const EXPIRY_SECONDS = 60;
const caller = { org: 'acme' };
const PPTX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4]);

/** A template service whose upload inspection resolves when the test says. */
async function harness(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'upload-expiry-'));
  const state = await LevelStateStore.open(join(dir, 'state'));
  const blobs = new LocalBlobStore(join(dir, 'blobs'));
  t.teardown(async () => {
    await state.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const inspections: Array<(r: InspectResult) => void> = [];
  const cpu = { inspect: () => new Promise<InspectResult>((resolve) => inspections.push(resolve)) };
  const config = loadConfig({ SLIDEWRIGHT_UPLOAD_EXPIRY: String(EXPIRY_SECONDS), SLIDEWRIGHT_DATA_DIR: dir });
  const deps = { config, state, blobs, cpu, signer: new UrlSigner('secret-0123456789', 'http://localhost', 300), log: pino({ level: 'silent' }) } as unknown as ServiceDeps;
  const service = new TemplateService(deps);
  /** Moves the record's clock back by `seconds`, as if it had been created that long ago. */
  const age = async (id: string, seconds: number): Promise<void> => {
    await state.update<TemplateRecord>(`tpl:acme:${id}`, (cur) => {
      if (!cur) return { value: cur };
      const back = (iso: string | undefined): string | undefined => (iso ? new Date(Date.parse(iso) - seconds * 1000).toISOString() : iso);
      return { value: { ...cur, created_at: back(cur.created_at)!, upload_started_at: back(cur.upload_started_at) } };
    });
  };
  const storedFiles = (): string[] => {
    try {
      return readdirSync(join(dir, 'blobs'), { recursive: true }).map(String).filter((f) => f.endsWith('.pptx'));
    } catch {
      return [];
    }
  };
  const waitForInspection = async (): Promise<(r: InspectResult) => void> => {
    while (!inspections.length) await new Promise((r) => setTimeout(r, 5));
    return inspections.shift()!;
  };
  /** Creates a template and starts uploading to it; the upload waits in its inspection until `release`. */
  const startUpload = async (filename: string) => {
    const { template_id: id } = await service.create(caller, { filename });
    const upload = service.upload(caller, id, bytes, PPTX_MEDIA_TYPE);
    return { id, upload, release: await waitForInspection() };
  };
  return { service, state, age, storedFiles, startUpload };
}

/** The kind of the ServiceError `p` rejects with ('resolved' when it does not). */
async function failureKind(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return e instanceof ServiceError ? e.kind : String(e);
  }
}

const accepted: InspectResult = { ok: true, isTemplate: false, slideCount: 1 };

t.test('an upload being checked survives the sweep and keeps its file', async (t) => {
  const h = await harness(t);
  const { id, upload, release } = await h.startUpload('slow.pptx');
  await h.age(id, EXPIRY_SECONDS + 1);
  t.equal(await h.service.expireUploads(), 0, 'the sweep leaves an initiation whose file is being checked');
  release(accepted);
  const done = await upload;
  t.equal(done.status, 'uploaded');
  const record = await h.state.get<TemplateRecord>(`tpl:acme:${id}`);
  t.equal(record?.status, 'uploaded');
  t.equal(record?.upload_started_at, undefined, 'the upload mark is cleared once the file is stored');
  t.equal(await h.service.expireUploads(), 0, 'an uploaded template never expires');
});

t.test('an initiation that expired before its file arrived answers 404 and stores nothing', async (t) => {
  const h = await harness(t);
  const created = await h.service.create(caller, { filename: 'late.pptx' });
  await h.age(created.template_id, EXPIRY_SECONDS + 1);
  t.equal(await failureKind(h.service.upload(caller, created.template_id, bytes, undefined)), 'not_found');
  t.same(h.storedFiles(), [], 'no file stored');
});

t.test('a record deleted while its upload was checked takes the stored file with it', async (t) => {
  const h = await harness(t);
  const { id, upload, release } = await h.startUpload('raced.pptx');
  await h.state.del(`tpl:acme:${id}`);
  release(accepted);
  t.equal(await failureKind(upload), 'not_found');
  t.same(h.storedFiles(), [], 'the file stored for a vanished record was removed');
});

t.test('a refused upload clears its mark: the initiation expires from its creation again', async (t) => {
  const h = await harness(t);
  const { id, upload, release } = await h.startUpload('refused.pptx');
  release({ ok: false, error: { code: 'not_a_zip', message: 'not a zip archive' } } as unknown as InspectResult);
  await t.rejects(upload);
  const record = await h.state.get<TemplateRecord>(`tpl:acme:${id}`);
  t.equal(record?.status, 'rejected');
  t.equal(record?.upload_started_at, undefined);
  await h.age(id, EXPIRY_SECONDS + 1);
  t.equal(await h.service.expireUploads(), 1, 'swept once its expiry passed');
});

t.test('uploadExpired: creation, upload start plus grace, files and statuses', async (t) => {
  const now = Date.parse('2026-11-27T12:00:00Z');
  const at = (secondsAgo: number): string => new Date(now - secondsAgo * 1000).toISOString();
  const base = { status: 'pending', created_at: at(61) } as TemplateRecord;
  t.ok(uploadExpired(base, 60, now), 'pending past its expiry');
  t.notOk(uploadExpired({ ...base, created_at: at(59) }, 60, now), 'young');
  t.ok(uploadExpired({ ...base, status: 'rejected' }, 60, now), 'rejected without a file');
  t.notOk(uploadExpired({ ...base, status: 'uploaded', blob_key: 'k' }, 60, now), 'has a file');
  t.notOk(uploadExpired({ ...base, upload_started_at: at(61) }, 60, now), 'an upload under way');
  t.ok(uploadExpired({ ...base, upload_started_at: at(UPLOAD_IN_PROGRESS_GRACE_SECONDS + 61) }, 60, now), 'an upload whose process died, after the grace');
});
