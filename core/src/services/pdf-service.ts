/**
 * PDF downloads (issue 22): a generated deck or a template as PDF, drawn by the preview
 * renderer onto Skia's PDF backend in a worker thread (no office suite). A PDF is rendered
 * once per file version and option and kept in the blob store beside the previews, so a
 * repeated download is a file read; renders of the same file running at once in this
 * process share one. The same 404/409 rules as the .pptx download apply (they are checked
 * by the download itself).
 */
import { createHash } from 'node:crypto';
import { ServiceError } from '../errors.js';
import { blobKeys } from '../domain/records.js';
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

export class PdfService {
  private readonly inFlight = new Map<string, Promise<Uint8Array>>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly templates: TemplateService,
    private readonly generations: GenerationService,
  ) {}

  /**
   * A generated deck as PDF, one page per visible slide.
   * @throws ServiceError 404, 409 before the generation is `completed` or `partial` (or
   *   when no slide is visible)
   */
  async generation(caller: Caller, generationId: string, opts: PdfOptions = {}): Promise<DownloadFile> {
    const deck = await this.generations.download(caller, generationId);
    const pdf = await this.cachedOrRendered(`orgs/${caller.org}/generations/${generationId}/pdf/`, deck.bytes, opts);
    return { bytes: pdf, filename: pdfName(deck.filename), contentType: PDF_MEDIA_TYPE };
  }

  /**
   * A template's slides as PDF (the file as uploaded, as previews draw it).
   * @throws ServiceError 404, 409 before a file was uploaded or when no slide is visible
   */
  async template(caller: Caller, templateId: string, opts: PdfOptions = {}): Promise<DownloadFile> {
    const file = await this.templates.download(caller, templateId);
    const pdf = await this.cachedOrRendered(`${blobKeys.templateFolder(caller.org, templateId)}pdf/`, file.bytes, opts);
    return { bytes: pdf, filename: pdfName(file.filename), contentType: PDF_MEDIA_TYPE };
  }

  /** The cached PDF of `bytes` under `folder`, else rendered (once at a time per key) and stored. */
  private async cachedOrRendered(folder: string, bytes: Uint8Array, opts: PdfOptions): Promise<Uint8Array> {
    // Keyed by the file's content, so a file that changes never serves a stale PDF.
    const hash = createHash('sha256').update(bytes).digest('hex');
    const key = `${folder}${hash.slice(0, 16)}${opts.pdfa ? '-pdfa' : ''}.pdf`;
    const cached = await this.deps.blobs.get(key);
    if (cached) return cached;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.render(key, bytes, hash, !!opts.pdfa).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async render(key: string, bytes: Uint8Array, hash: string, pdfa: boolean): Promise<Uint8Array> {
    const r = await this.deps.cpu.pdf(bytes, hash, pdfa);
    if (!r.ok) {
      if (r.error.code === 'no_slides') throw new ServiceError('conflict', `${r.error.message} (every slide is hidden, or there is none)`);
      this.deps.log.warn({ err: r.error.message, code: r.error.code }, 'PDF export failed');
      throw new ServiceError('internal', `the presentation cannot be rendered to PDF: ${r.error.message}`);
    }
    await this.deps.blobs.put(key, r.pdf);
    return r.pdf;
  }
}

/** The download name with its extension replaced by `.pdf` (`deck.pptx` → `deck.pdf`). */
export function pdfName(filename: string): string {
  const stem = filename.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  return `${stem || 'presentation'}.pdf`;
}
