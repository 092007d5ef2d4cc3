/**
 * PDF downloads (issue 22): a generated deck or a template as PDF, drawn by the preview
 * renderer onto Skia's PDF backend (no office suite). The drawing is an `export` job on the
 * job queue, so in a distributed deployment a worker renders it, never the process serving
 * the download; embedded mode runs the same job through its in-process queue.
 *
 * A download of a PDF not rendered yet publishes the job (one per file version and option;
 * a repeated publish is the same job) and waits up to `SLIDEWRIGHT_PDF_WAIT_SECONDS` for it:
 * the usual answer is the PDF itself. Past the wait it answers 409 with `Retry-After` (as
 * for a deck that is not ready), and a later download finds the PDF in the blob store,
 * where every PDF is kept beside the previews, keyed by the file's content. A failed export
 * is recorded beside it, so the download answers why instead of waiting again; a failure
 * the file itself causes (no visible slide, a package that cannot be drawn) stays until the
 * file changes, one of the queue giving up (attempts exhausted) is retried by the next
 * download.
 */
import { createHash } from 'node:crypto';
import { ServiceError, type ServiceErrorKind } from '../errors.js';
import { blobKeys } from '../domain/records.js';
import { PermanentJobError, type Job, type JobContext } from '../ports/job-queue.js';
import type { Caller, ServiceDeps } from './deps.js';
import type { GenerationService } from './generation-service.js';
import type { TemplateService } from './template-service.js';

/** Media type of a PDF download. */
export const PDF_MEDIA_TYPE = 'application/pdf';

/** Options of a PDF download. */
export interface PdfOptions {
  /** Declare PDF/A-2b conformance (archival). */
  pdfa?: boolean;
}

/** A file to download. */
export interface DownloadFile {
  bytes: Uint8Array;
  filename: string;
  contentType: string;
}

/** Seconds a client is told to wait (`Retry-After`) when the PDF is still being rendered. */
export const PDF_RETRY_AFTER_SECONDS = 2;

/** Why an export failed, as stored beside the PDF it did not write. */
interface ExportFailure {
  /**
   * `no_slides` (nothing to draw), `not_found`/`conflict` (the file went away or is not
   * ready), `render_failed` (the file cannot be drawn): caused by the file, kept;
   * `internal`: the queue gave up after its attempts, cleared by the next download.
   */
  code: 'no_slides' | 'not_found' | 'conflict' | 'render_failed' | 'internal';
  message: string;
  /** When it was recorded (epoch ms); names the retry's job. */
  at: number;
}

/** Where the PDF of `subject` (a `gen_` or `tpl_` id) with content hash `sha256` is kept. */
export function pdfBlobKey(org: string, subject: string, sha256: string, pdfa: boolean): string {
  const folder = subject.startsWith('gen_') ? `orgs/${org}/generations/${subject}/pdf/` : `${blobKeys.templateFolder(org, subject)}pdf/`;
  return `${folder}${sha256.slice(0, 16)}${pdfa ? '-pdfa' : ''}.pdf`;
}

/** Where the failure of that export is recorded. */
function failureKey(pdfKey: string): string {
  return `${pdfKey}.failed.json`;
}

const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export class PdfService {
  /** Downloads of this process waiting for the same PDF share one wait. */
  private readonly waiting = new Map<string, Promise<Uint8Array>>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly templates: TemplateService,
    private readonly generations: GenerationService,
  ) {}

  /**
   * A generated deck as PDF, one page per visible slide.
   * @throws ServiceError 404; 409 before the generation is `completed` or `partial`, when no
   *   slide is visible, or (with `retryAfterSeconds`) while the PDF is still being rendered
   */
  async generation(caller: Caller, generationId: string, opts: PdfOptions = {}): Promise<DownloadFile> {
    const deck = await this.generations.download(caller, generationId);
    const pdf = await this.exported(caller, generationId, deck.bytes, !!opts.pdfa);
    return { bytes: pdf, filename: pdfName(deck.filename), contentType: PDF_MEDIA_TYPE };
  }

  /**
   * A template's slides as PDF (the file as uploaded, as previews draw it).
   * @throws ServiceError 404; 409 before a file was uploaded, when no slide is visible, or
   *   (with `retryAfterSeconds`) while the PDF is still being rendered
   */
  async template(caller: Caller, templateId: string, opts: PdfOptions = {}): Promise<DownloadFile> {
    const file = await this.templates.download(caller, templateId);
    const pdf = await this.exported(caller, templateId, file.bytes, !!opts.pdfa);
    return { bytes: pdf, filename: pdfName(file.filename), contentType: PDF_MEDIA_TYPE };
  }

  /** The stored PDF of `bytes`, else the export job's, waited for (one wait per key in this process). */
  private async exported(caller: Caller, subject: string, bytes: Uint8Array, pdfa: boolean): Promise<Uint8Array> {
    // Keyed by the file's content, so a file that changes never serves a stale PDF.
    const hash = sha256Hex(bytes);
    const key = pdfBlobKey(caller.org, subject, hash, pdfa);
    const stored = await this.deps.blobs.get(key);
    if (stored) return stored;
    let pending = this.waiting.get(key);
    if (!pending) {
      pending = this.requestAndWait(caller, subject, hash, pdfa, key).finally(() => this.waiting.delete(key));
      this.waiting.set(key, pending);
    }
    return pending;
  }

  private async requestAndWait(caller: Caller, subject: string, hash: string, pdfa: boolean, key: string): Promise<Uint8Array> {
    const { blobs, queue, config } = this.deps;
    let retryOf: number | undefined;
    const earlier = await this.failure(key);
    if (earlier) {
      if (earlier.code !== 'internal') throw failureError(subject, earlier);
      // the queue gave up on an earlier attempt: this download asks again
      await blobs.delete(failureKey(key));
      retryOf = earlier.at;
    }
    const job: Job = {
      // one job per file version and option (JetStream drops a publish repeated within its
      // duplicate window); a retry after a failure is a new job
      id: `exp_${sha256Hex(new TextEncoder().encode(`${caller.org}\n${subject}\n${hash}\n${pdfa}`)).slice(0, 32)}${retryOf === undefined ? '' : `-${retryOf}`}`,
      kind: 'export',
      org: caller.org,
      subject,
      export: { format: 'pdf', pdfa, sha256: hash },
      ...(caller.requestId ? { request_id: caller.requestId } : {}),
    };
    await queue.publish(job);
    const deadline = Date.now() + config.pdfWaitSeconds * 1000;
    for (let delayMs = 25; ; delayMs = Math.min(delayMs * 2, 500)) {
      const pdf = await blobs.get(key);
      if (pdf) return pdf;
      const failed = await this.failure(key);
      if (failed) throw failureError(subject, failed);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new ServiceError('conflict', `the PDF of ${subject} is being rendered; retry in ${PDF_RETRY_AFTER_SECONDS} s`, { retryAfterSeconds: PDF_RETRY_AFTER_SECONDS });
      }
      await new Promise((r) => setTimeout(r, Math.min(delayMs, left)));
    }
  }

  private async failure(key: string): Promise<ExportFailure | undefined> {
    const bytes = await this.deps.blobs.get(failureKey(key));
    if (!bytes) return undefined;
    try {
      return JSON.parse(new TextDecoder().decode(bytes)) as ExportFailure;
    } catch {
      return { code: 'internal', message: 'an unreadable failure record', at: 0 };
    }
  }

  private async recordFailure(key: string, failure: Omit<ExportFailure, 'at'>): Promise<void> {
    await this.deps.blobs.put(failureKey(key), new TextEncoder().encode(JSON.stringify({ ...failure, at: Date.now() })));
  }

  /**
   * The export job (a worker's, or the embedded process's queue consumer): renders the
   * subject's file to PDF on the CPU threads and stores it where the download waits.
   * Idempotent: a PDF already stored is not rendered again.
   * @throws PermanentJobError for a job without its export options; Error (retried) when
   *   the stores fail or the process shuts down
   */
  async run(job: Job, ctx: JobContext): Promise<void> {
    const spec = job.export;
    if (!spec || spec.format !== 'pdf') throw new PermanentJobError('an export job without its format');
    const { blobs, cpu, log } = this.deps;
    const expectedKey = pdfBlobKey(job.org, job.subject, spec.sha256, spec.pdfa);
    if (await blobs.get(expectedKey)) return;
    const caller: Caller = { org: job.org, ...(job.request_id ? { requestId: job.request_id } : {}) };
    let bytes: Uint8Array;
    try {
      bytes = (job.subject.startsWith('gen_') ? await this.generations.download(caller, job.subject) : await this.templates.download(caller, job.subject)).bytes;
    } catch (err) {
      if (err instanceof ServiceError && (err.kind === 'not_found' || err.kind === 'conflict')) {
        await this.recordFailure(expectedKey, { code: err.kind, message: err.message });
        return;
      }
      throw err;
    }
    // The file the download saw, unless it changed since: then its own key (the waiting
    // download answers 409 and its retry finds this one).
    const hash = sha256Hex(bytes);
    const key = hash === spec.sha256 ? expectedKey : pdfBlobKey(job.org, job.subject, hash, spec.pdfa);
    const r = await cpu.pdf(bytes, hash, spec.pdfa);
    ctx.signal.throwIfAborted(); // shutting down: the queue keeps the job for the next start
    if (!r.ok) {
      const code = r.error.code === 'no_slides' ? 'no_slides' : 'render_failed';
      if (code === 'render_failed') log.warn({ err: r.error.message, code: r.error.code, subject: job.subject }, 'PDF export failed');
      await this.recordFailure(key, { code, message: r.error.message });
      return;
    }
    await blobs.put(key, r.pdf);
  }

  /** The queue gave up on an export job: the waiting download is told, the next one retries. */
  async fail(job: Job, error: Error): Promise<void> {
    if (!job.export) return;
    await this.recordFailure(pdfBlobKey(job.org, job.subject, job.export.sha256, job.export.pdfa), { code: 'internal', message: error.message });
  }
}

/** The download's error for a recorded export failure. */
function failureError(subject: string, f: ExportFailure): ServiceError {
  const code: ServiceErrorKind = f.code === 'no_slides' || f.code === 'conflict' ? 'conflict' : f.code === 'not_found' ? 'not_found' : 'internal';
  if (f.code === 'no_slides') return new ServiceError(code, `${f.message} (every slide is hidden, or there is none)`);
  return new ServiceError(code, `${subject} cannot be rendered to PDF: ${f.message}`);
}

/** The download name with its extension replaced by `.pdf` (`deck.pptx` → `deck.pdf`). */
export function pdfName(filename: string): string {
  const stem = filename.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  return `${stem || 'presentation'}.pdf`;
}
