/**
 * The user's flows through the REST API, as a client would drive them: upload a template
 * (signed URL), analyze it, generate a deck and wait for it.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { waitFor, type TestService } from './service.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const PPTX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

/**
 * POST /templates then PUT the bytes to the signed upload URL; returns the upload response.
 * @param filename - the name given at initiation; the file's own name (`.pptm` as `.pptx`) unless set
 */
export async function uploadTemplate(svc: TestService, file: string, as?: { key: string }, filename?: string): Promise<{ templateId: string; status: number; body: Json }> {
  const bytes = readFileSync(file);
  const init = await svc.api('/api/v1/templates', { method: 'POST', json: { filename: filename ?? basename(file).replace(/\.(pptm|ppsx|ppsm)$/i, '.pptx'), file_size: bytes.length, metadata: { category: 'test', tags: ['corpus'] } }, as });
  if (init.status !== 201) throw new Error(`create template: ${init.status} ${await init.text()}`);
  const created = (await init.json()) as Json;
  const put = await fetch(created.upload_url as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: bytes });
  return { templateId: created.template_id as string, status: put.status, body: (await put.json()) as Json };
}

/** Starts analysis and waits for it to end; returns the final status record. */
export async function analyze(svc: TestService, templateId: string, as?: { key: string }, options: Json = {}): Promise<Json> {
  const start = await svc.api(`/api/v1/templates/${templateId}/analysis`, { method: 'POST', json: { options }, as });
  if (start.status !== 202) throw new Error(`start analysis: ${start.status} ${await start.text()}`);
  return waitFor(async () => {
    const r = (await (await svc.api(`/api/v1/templates/${templateId}/analysis/status`, { as })).json()) as Json;
    return r.status === 'completed' || r.status === 'failed' || r.status === 'cancelled' ? r : undefined;
  });
}

/** Upload + analyze + read the analysis results. */
export async function uploadAndAnalyze(svc: TestService, file: string, as?: { key: string }): Promise<{ templateId: string; results: Json }> {
  const up = await uploadTemplate(svc, file, as);
  if (up.status !== 200) throw new Error(`upload ${file}: ${up.status} ${JSON.stringify(up.body)}`);
  const st = await analyze(svc, up.templateId, as);
  if (st.status !== 'completed') throw new Error(`analysis of ${file}: ${JSON.stringify(st)}`);
  const a = (await (await svc.api(`/api/v1/templates/${up.templateId}/analysis`, { as })).json()) as Json;
  return { templateId: up.templateId, results: a.results as Json };
}

/** Waits for a generation to end; returns its status record. */
export async function waitForGeneration(svc: TestService, generationId: string, as?: { key: string }): Promise<Json> {
  return waitFor(async () => {
    const r = (await (await svc.api(`/api/v1/presentations/${generationId}/status`, { as })).json()) as Json;
    return ['completed', 'partial', 'failed'].includes(r.status as string) ? r : undefined;
  });
}
