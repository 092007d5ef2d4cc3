/**
 * Templates: upload initiation, the upload itself (checked before anything is stored),
 * reading, listing and downloading. A template record points at a file only once the file
 * is stored, so a failed upload never leaves a record pointing at nothing.
 *
 * A refused upload (too large, not a PowerPoint package, macro-enabled, broken or hostile
 * zip) turns a template that has no file yet into `rejected`, with the reason in `error`;
 * rejected templates are left out of lists unless `status=rejected` is asked for, and a
 * later good upload to the same template makes it `uploaded`. A template that already has
 * a file keeps it, and its status, when a replacement is refused.
 */
import { createHash } from 'node:crypto';
import { ServiceError, notFound } from '../errors.js';
import { newId, nowIso } from '../domain/ids.js';
import { blobKeys, keys, type AnalysisRecord, type SlideIndexEntry, type TemplateMetadata, type TemplateRecord } from '../domain/records.js';
import type { AnalysisResults } from '../analysis/types.js';
import type { Caller, ServiceDeps } from './deps.js';
import { templateDownloadPath, uploadPath } from '../protocol/index.js';

/** Extensions accepted for templates. */
export const ALLOWED_EXTENSIONS = ['.pptx', '.potx'] as const;
const MACRO_EXTENSIONS = ['.pptm', '.potm', '.ppsm'];

/** Media types accepted on the direct-upload body. */
export const ACCEPTED_UPLOAD_MEDIA_TYPES = [
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.openxmlformats-officedocument.presentationml.template',
  'application/octet-stream',
  'application/zip',
] as const;

const CONTENT_TYPE_PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const CONTENT_TYPE_POTX = 'application/vnd.openxmlformats-officedocument.presentationml.template';

export interface CreateTemplateInput {
  filename: string;
  org_name?: string;
  /** Declared size, bytes (checked against the limit before any upload). */
  file_size?: number;
  metadata?: TemplateMetadata;
}

export interface ListTemplatesQuery {
  page?: number;
  limit?: number;
  category?: string;
  tag?: string;
  status?: string;
  q?: string;
  include_deleted?: boolean;
}

/** Template as the API returns it (Template response plus, for get, the analysis summary). */
export interface TemplateView {
  template_id: string;
  org_name: string;
  filename: string;
  file_size: number;
  status: string;
  metadata: Required<Pick<TemplateMetadata, 'tags'>> & TemplateMetadata;
  created_at: string;
  updated_at: string;
  download_url: string;
  download_url_expires_in: number;
  file_hash: string;
  file_hash_algorithm: string;
  content_type: string;
  /** Why the upload was refused (`rejected`) or the analysis failed (`failed`). */
  error?: string;
  analysis?: Record<string, unknown> | null;
}

export class TemplateService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Creates a `pending` template and a signed upload URL.
   * @throws ServiceError 415 for macro-enabled or other extensions, 413 when the declared size is over the limit
   */
  async create(caller: Caller, input: CreateTemplateInput) {
    const { config, state, signer } = this.deps;
    checkOrgName(caller, input.org_name);
    const ext = extensionOf(input.filename);
    if (MACRO_EXTENSIONS.includes(ext)) {
      throw new ServiceError('unsupported_media_type', `macro-enabled files (${ext}) are refused: templates must never carry code into generated decks`);
    }
    if (!(ALLOWED_EXTENSIONS as readonly string[]).includes(ext)) {
      throw new ServiceError('unsupported_media_type', `"${input.filename}" is not a PowerPoint template: allowed extensions are ${ALLOWED_EXTENSIONS.join(', ')}`);
    }
    if (input.file_size !== undefined && input.file_size > config.maxUploadBytes) {
      throw new ServiceError('payload_too_large', `file_size ${input.file_size} bytes is over the limit of ${config.maxUploadBytes} bytes`);
    }
    const now = nowIso();
    const record: TemplateRecord = {
      template_id: newId('tpl'),
      org_name: caller.org,
      filename: input.filename,
      file_size: input.file_size ?? 0,
      status: 'pending',
      metadata: { tags: [], ...(input.metadata ?? {}) },
      created_at: now,
      updated_at: now,
      file_hash: '',
      file_hash_algorithm: 'sha256',
      content_type: ext === '.potx' ? CONTENT_TYPE_POTX : CONTENT_TYPE_PPTX,
    };
    await state.put(keys.template(caller.org, record.template_id), record);
    return {
      template_id: record.template_id,
      upload_url: signer.sign('PUT', uploadPath(record.template_id), caller.org),
      expires_in: signer.ttlSeconds,
      status: record.status,
      upload_method: 'signed_url',
      max_file_size: config.maxUploadBytes,
      allowed_extensions: [...ALLOWED_EXTENSIONS],
    };
  }

  /**
   * Receives the file bytes (direct PUT or signed URL). The bytes are checked (size, zip
   * limits, OOXML structure, macros) in a worker thread before anything is stored. A
   * refusal (413, 415, 422) marks a template without a file `rejected`, with the reason in
   * `error` (see the module comment), before it is thrown. A first upload must be as long
   * as the `file_size` declared at initiation, when one was (422 at `body.file_size`).
   * @param oversized set when the body was refused for its size before it got here (the
   *   REST gateway does not forward a body over the limit): `bytes` is then empty and
   *   `oversized.bytes` the size the client sent, when known
   * @throws ServiceError 404, 409 (template already has a file being analyzed or deleted), 413, 415, 422
   */
  async upload(caller: Caller, templateId: string, bytes: Uint8Array, mediaType: string | undefined, oversized?: { bytes: number | undefined }) {
    const { config, state, blobs, cpu } = this.deps;
    const key = keys.template(caller.org, templateId);
    const record = await state.get<TemplateRecord>(key);
    if (!record || this.expired(record)) throw notFound(`template ${templateId}`);
    if (record.status === 'deleted') throw new ServiceError('conflict', `template ${templateId} is deleted`);
    if (record.status === 'analyzing' || record.status === 'ready') {
      throw new ServiceError('conflict', `template ${templateId} already has an analyzed file; create a new template to upload another file`);
    }
    // The upload's start, recorded before the (possibly long) inspection: the expiry sweep
    // counts from it, so it cannot delete the record while its file is on its way in and
    // leave the stored file behind with no template.
    const started = await state.update<TemplateRecord>(key, (cur) => {
      if (!cur || this.expired(cur)) return { value: cur };
      return { value: { ...cur, upload_started_at: nowIso() } };
    });
    if (!started || this.expired(started)) throw notFound(`template ${templateId}`);
    const limit = config.maxUploadBytes;
    const refusal = oversized ? tooLarge(oversized.bytes !== undefined && oversized.bytes > limit ? oversized.bytes : undefined, limit) : uploadRefusal(bytes.length, mediaType, limit);
    if (refusal) throw await this.rejected(key, refusal);
    const mismatch = record.blob_key ? undefined : declaredSizeMismatch(started.file_size, bytes.length);
    if (mismatch) throw await this.rejected(key, mismatch);
    const inspected = await cpu.inspect(bytes);
    if (!inspected.ok) throw await this.rejected(key, uploadError(inspected.error.code, inspected.error.message));

    const fileHash = createHash('sha256').update(bytes).digest('hex');
    const blobKey = blobKeys.templateFile(caller.org, templateId);
    await blobs.put(blobKey, bytes);
    const updated = await state.update<TemplateRecord>(key, (cur) => {
      if (!cur || cur.status === 'deleted') return { value: cur };
      return {
        value: {
          ...cur,
          status: 'uploaded',
          file_size: bytes.length,
          file_hash: fileHash,
          blob_key: blobKey,
          content_type: inspected.isTemplate ? CONTENT_TYPE_POTX : CONTENT_TYPE_PPTX,
          updated_at: nowIso(),
          error: undefined,
          upload_started_at: undefined,
        },
      };
    });
    if (!updated || updated.blob_key !== blobKey) {
      // the record went (expired, or soft-deleted) while the file was checked: the stored
      // file belongs to nothing, so it goes too
      await blobs.delete(blobKey).catch(() => undefined);
      if (updated?.status === 'deleted') throw new ServiceError('conflict', `template ${templateId} is deleted`);
      throw notFound(`template ${templateId}`);
    }
    return { confirmed: true, template_id: templateId, status: updated.status, file_size: bytes.length, file_hash: fileHash, error: '' };
  }

  /**
   * Records a refused upload: a template that has no file yet becomes `rejected` with the
   * refusal's message in `error`; one with a stored file, or deleted, is left as it is.
   * @returns `refusal`, for the caller to throw
   */
  private async rejected(key: string, refusal: ServiceError): Promise<ServiceError> {
    await this.deps.state.update<TemplateRecord>(key, (cur) => {
      if (!cur || cur.blob_key || cur.status === 'deleted') return { value: cur };
      return { value: { ...cur, status: 'rejected', error: refusal.message, updated_at: nowIso(), upload_started_at: undefined } };
    });
    return refusal;
  }

  /** The template with its analysis summary. @throws ServiceError 404 */
  async get(caller: Caller, templateId: string): Promise<TemplateView> {
    const record = await this.requireRecord(caller, templateId);
    const view = this.view(record);
    view.analysis = await this.analysisSummary(record);
    return view;
  }

  /** Record lookup scoped to the caller's organization. @throws ServiceError 404 */
  async requireRecord(caller: Caller, templateId: string): Promise<TemplateRecord> {
    const record = await this.deps.state.get<TemplateRecord>(keys.template(caller.org, templateId));
    if (!record || this.expired(record)) throw notFound(`template ${templateId}`);
    return record;
  }

  /** True when `r` is an upload initiation past `SLIDEWRIGHT_UPLOAD_EXPIRY` (see {@link uploadExpired}). */
  private expired(r: TemplateRecord): boolean {
    return uploadExpired(r, this.deps.config.uploadExpirySeconds);
  }

  /**
   * Deletes the upload initiations that expired (templates that never got a file,
   * `pending` or `rejected`, created more than `SLIDEWRIGHT_UPLOAD_EXPIRY` seconds ago), in
   * every organization. Reads hide them already; this removes their records. Safe to run
   * in several processes at once.
   * @returns how many were deleted
   */
  async expireUploads(): Promise<number> {
    const { state } = this.deps;
    let removed = 0;
    for (const [key, record] of await state.scan<TemplateRecord>('tpl:')) {
      if (!this.expired(record)) continue;
      let gone = false;
      await state.update<TemplateRecord>(key, (cur) => {
        gone = cur !== undefined && this.expired(cur);
        return { value: gone ? undefined : cur };
      });
      if (gone) removed++;
    }
    return removed;
  }

  /** Template response fields for a record, with a fresh signed download URL. */
  view(record: TemplateRecord): TemplateView {
    const { signer } = this.deps;
    return {
      template_id: record.template_id,
      org_name: record.org_name,
      filename: record.filename,
      file_size: record.file_size,
      status: record.status,
      metadata: { ...record.metadata, tags: record.metadata.tags ?? [] },
      created_at: record.created_at,
      updated_at: record.updated_at,
      download_url: record.blob_key ? signer.sign('GET', templateDownloadPath(record.template_id), record.org_name) : '',
      download_url_expires_in: record.blob_key ? signer.ttlSeconds : 0,
      file_hash: record.file_hash,
      file_hash_algorithm: record.file_hash_algorithm,
      content_type: record.content_type,
      ...(record.error ? { error: record.error } : {}),
    };
  }

  /** The exact uploaded bytes. @throws ServiceError 404, 409 when nothing was uploaded yet */
  async download(caller: Caller, templateId: string): Promise<{ bytes: Uint8Array; filename: string; contentType: string }> {
    const record = await this.requireRecord(caller, templateId);
    if (!record.blob_key) throw new ServiceError('conflict', `template ${templateId} has no uploaded file yet`);
    const bytes = await this.deps.blobs.get(record.blob_key);
    if (!bytes) throw new ServiceError('internal', `the file of template ${templateId} is missing from storage`);
    return { bytes, filename: record.filename, contentType: record.content_type };
  }

  /**
   * The organization's templates, newest first, filtered and paginated.
   * Soft-deleted templates are left out unless `include_deleted`, templates whose upload
   * was refused (`rejected`) unless `status` is `rejected`; the aggregations count what
   * the list can show.
   */
  async list(caller: Caller, q: ListTemplatesQuery) {
    const page = q.page ?? 1;
    const limit = q.limit ?? 20;
    const all = (await this.deps.state.scan<TemplateRecord>(keys.templatePrefix(caller.org))).map(([, t]) => t).filter((t) => !this.expired(t));
    const visible = all.filter((t) => (q.include_deleted || t.status !== 'deleted') && (q.status === 'rejected' || t.status !== 'rejected'));
    const needle = q.q?.toLowerCase();
    const matching = visible.filter(
      (t) =>
        (!q.category || t.metadata.category === q.category) &&
        (!q.tag || (t.metadata.tags ?? []).includes(q.tag)) &&
        (!q.status || t.status === q.status) &&
        (!needle || t.filename.toLowerCase().includes(needle) || (t.metadata.description ?? '').toLowerCase().includes(needle)),
    );
    matching.sort((a, b) => (a.created_at === b.created_at ? b.template_id.localeCompare(a.template_id) : b.created_at.localeCompare(a.created_at)));
    const count = (pick: (t: TemplateRecord) => string[]) => {
      const out: Record<string, number> = {};
      for (const t of visible) for (const k of pick(t)) out[k] = (out[k] ?? 0) + 1;
      return out;
    };
    const filters: Record<string, unknown> = {};
    for (const k of ['category', 'tag', 'status', 'q'] as const) if (q[k]) filters[k] = q[k];
    if (q.include_deleted) filters['include_deleted'] = true;
    return {
      templates: matching.slice((page - 1) * limit, page * limit).map((t) => this.view(t)),
      pagination: { page, limit, total: matching.length, pages: Math.ceil(matching.length / limit) },
      filters,
      aggregations: {
        by_category: count((t) => (t.metadata.category ? [t.metadata.category] : [])),
        by_tag: count((t) => t.metadata.tags ?? []),
        by_status: count((t) => [t.status]),
      },
    };
  }

  /** Replaces the given metadata fields; `updated_at` changes. @throws ServiceError 404 */
  async patch(caller: Caller, templateId: string, metadata: TemplateMetadata): Promise<TemplateView> {
    const updated = await this.deps.state.update<TemplateRecord>(keys.template(caller.org, templateId), (cur) => {
      if (!cur) return { value: undefined };
      const next: TemplateMetadata = { ...cur.metadata };
      for (const k of ['category', 'tags', 'description', 'version'] as const) {
        if (metadata[k] !== undefined) (next as Record<string, unknown>)[k] = metadata[k];
      }
      return { value: { ...cur, metadata: next, updated_at: nowIso() } };
    });
    if (!updated) throw notFound(`template ${templateId}`);
    return this.view(updated);
  }

  /**
   * Soft delete (the record stays, `deleted`, hidden from lists) or, with `permanent`,
   * removal of the record, its files and its slide ids.
   * @returns the soft-deleted template, or undefined after a permanent delete
   * @throws ServiceError 404
   */
  async delete(caller: Caller, templateId: string, permanent: boolean): Promise<TemplateView | undefined> {
    const { state, blobs } = this.deps;
    const key = keys.template(caller.org, templateId);
    const record = await this.requireRecord(caller, templateId);
    if (permanent) {
      const slideKeys = (await state.scan<SlideIndexEntry>(keys.slidePrefix(caller.org))).filter(([, e]) => e.template_id === templateId).map(([k]) => k);
      const analysisKeys = (await state.scan<AnalysisRecord>(keys.analysisPrefix(caller.org, templateId))).map(([k]) => k);
      await state.batch([key, ...slideKeys, ...analysisKeys].map((k) => ({ type: 'del' as const, key: k })));
      await blobs.deletePrefix(blobKeys.templateFolder(caller.org, templateId));
      return undefined;
    }
    const updated = await state.update<TemplateRecord>(key, (cur) => {
      if (!cur) return { value: undefined };
      if (cur.status === 'deleted') return { value: cur };
      return { value: { ...cur, status: 'deleted', status_before_delete: cur.status, updated_at: nowIso() } };
    });
    return this.view(updated ?? record);
  }

  /** Restores a soft-deleted template to its state before the delete. @throws ServiceError 404, 409 when not deleted */
  async restore(caller: Caller, templateId: string): Promise<TemplateView> {
    let notDeleted = false;
    const updated = await this.deps.state.update<TemplateRecord>(keys.template(caller.org, templateId), (cur) => {
      if (!cur) return { value: undefined };
      if (cur.status !== 'deleted') {
        notDeleted = true;
        return { value: cur };
      }
      return { value: { ...cur, status: cur.status_before_delete ?? 'uploaded', status_before_delete: undefined, updated_at: nowIso() } };
    });
    if (!updated) throw notFound(`template ${templateId}`);
    if (notDeleted) throw new ServiceError('conflict', `template ${templateId} is not deleted`);
    return this.view(updated);
  }

  /**
   * One slide of the template's live analysis (1-based), with the slide size.
   * @throws ServiceError 404 (template, analysis or slide number), 409 before an analysis completed
   */
  async slide(caller: Caller, templateId: string, slideNumber: number) {
    const record = await this.requireRecord(caller, templateId);
    if (!record.completed_analysis_id) throw new ServiceError('conflict', `template ${templateId} has no completed analysis yet`);
    const resultsKey = blobKeys.analysisResults(caller.org, templateId, record.completed_analysis_id);
    const bytes = await this.deps.blobs.get(resultsKey);
    if (!bytes) throw notFound(`analysis results of template ${templateId}`);
    const results = JSON.parse(new TextDecoder().decode(bytes)) as AnalysisResults;
    const slide = results.slides.find((s) => s.slide_number === slideNumber);
    if (!slide) throw notFound(`slide ${slideNumber} of template ${templateId} (it has ${results.slides.length} slides)`);
    return { ...slide, dimension: { width_emu: results.presentation.slide_width_emu, height_emu: results.presentation.slide_height_emu } };
  }

  private async analysisSummary(record: TemplateRecord): Promise<Record<string, unknown> | null> {
    const id = record.latest_analysis_id;
    if (!id) return null;
    const a = await this.deps.state.get<AnalysisRecord>(keys.analysis(record.org_name, record.template_id, id));
    if (!a) return null;
    return {
      status: a.status,
      options: a.options,
      analysis_id: a.analysis_id,
      org_name: a.org_name,
      started_at: a.started_at,
      completed_at: a.completed_at ?? null,
      slide_count: a.summary?.slide_count ?? 0,
      slide_ids: a.summary?.slide_ids ?? [],
      layout_count: a.summary?.layout_count ?? 0,
      layout_ids: a.summary?.layout_ids ?? [],
    };
  }
}

/**
 * Seconds added to the expiry of an initiation whose upload began and never ended (its
 * process stopped while checking the file): longer than any upload check takes.
 */
export const UPLOAD_IN_PROGRESS_GRACE_SECONDS = 600;

/**
 * True when `r` is an upload initiation that never got a file (`pending`, or `rejected`
 * after refused uploads) created at least `expirySeconds` ago; while an upload is being
 * checked and stored ({@link TemplateRecord.upload_started_at}), only
 * {@link UPLOAD_IN_PROGRESS_GRACE_SECONDS} after that upload began: it is left out of lists,
 * answers 404, and is deleted by {@link TemplateService.expireUploads}.
 */
export function uploadExpired(r: TemplateRecord, expirySeconds: number, now: number = Date.now()): boolean {
  // an upload being checked is not swept from under it; one whose process died is, later
  const since = r.upload_started_at ? Date.parse(r.upload_started_at) + UPLOAD_IN_PROGRESS_GRACE_SECONDS * 1000 : Date.parse(r.created_at);
  return (r.status === 'pending' || r.status === 'rejected') && !r.blob_key && since + expirySeconds * 1000 <= now;
}

/** An organization named in a body must be the caller's. @throws ServiceError 403 */
export function checkOrgName(caller: Caller, orgName: string | undefined | null): void {
  if (orgName !== undefined && orgName !== null && orgName !== '' && orgName !== caller.org) {
    throw new ServiceError('forbidden', `org_name "${orgName}" does not match the API key's organization`);
  }
}

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot === -1 ? '' : filename.slice(dot).toLowerCase();
}

/**
 * Why an upload is refused before its bytes are inspected: over the size limit (413), a
 * macro-enabled or otherwise unaccepted media type (415); undefined when it may go on.
 * @param size bytes received
 * @param mediaType the body's `Content-Type`, parameters allowed
 * @param limit largest accepted upload, bytes
 */
function uploadRefusal(size: number, mediaType: string | undefined, limit: number): ServiceError | undefined {
  if (size > limit) return tooLarge(size, limit);
  const media = (mediaType ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
  if (media.includes('macroenabled')) {
    return new ServiceError('unsupported_media_type', 'macro-enabled presentations are refused: templates must never carry code into generated decks');
  }
  if (!(ACCEPTED_UPLOAD_MEDIA_TYPES as readonly string[]).includes(media)) {
    return new ServiceError('unsupported_media_type', `media type ${media} is not accepted; send the .pptx bytes as ${CONTENT_TYPE_PPTX} or application/octet-stream`);
  }
  return undefined;
}

/**
 * The 422 of a first upload whose length is not the `file_size` declared when the upload
 * was initiated (a truncated or wrong file); undefined when they agree or no size was
 * declared (0). A replacement of a stored file is not held to the first declaration.
 * @param declared the template record's `file_size` before any file was stored
 * @param received bytes received
 */
function declaredSizeMismatch(declared: number, received: number): ServiceError | undefined {
  if (!(declared > 0) || declared === received) return undefined;
  const msg = `the upload is ${received} bytes, but file_size ${declared} was declared when the upload was initiated`;
  return new ServiceError('invalid_argument', msg, {
    violations: [{ loc: ['body', 'file_size'], msg, type: 'file_size_mismatch', input: received, ctx: { declared, received } }],
  });
}

/** The 413 of an upload over `limit` bytes; `size` undefined when the sender did not say it. */
function tooLarge(size: number | undefined, limit: number): ServiceError {
  return new ServiceError('payload_too_large', size === undefined ? `upload is over the limit of ${limit} bytes` : `upload is ${size} bytes; the limit is ${limit} bytes`);
}

/** Maps a package check failure to the status a client should see. */
function uploadError(code: string, message: string): ServiceError {
  switch (code) {
    case 'not_zip':
    case 'empty':
    case 'not_presentation':
      return new ServiceError('unsupported_media_type', `not a PowerPoint file: ${message}`);
    case 'macro_enabled':
      return new ServiceError('unsupported_media_type', message);
    default:
      return new ServiceError('invalid_argument', `the file cannot be used as a template: ${message}`, {
        violations: [{ loc: ['body'], msg: message, type: `package_${code}`, input: null }],
      });
  }
}
