/**
 * The records Slidewright keeps in its state store, and the keys it keeps them under.
 * Every key starts with the organization, so one organization can never address
 * another's records.
 */

/** `rejected`: the upload was refused (reason in `error`) and the template has no file. */
export type TemplateStatus = 'pending' | 'uploaded' | 'analyzing' | 'ready' | 'failed' | 'rejected' | 'deleted';
export type AnalysisStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
export type GenerationStatus = 'pending' | 'processing' | 'completed' | 'partial' | 'failed';

export interface TemplateMetadata {
  category?: string;
  tags?: string[];
  description?: string;
  version?: string;
}

export interface TemplateRecord {
  template_id: string;
  org_name: string;
  filename: string;
  /** Bytes: declared at initiation, actual after upload. */
  file_size: number;
  status: TemplateStatus;
  /** State before a soft delete, restored by restore. */
  status_before_delete?: TemplateStatus;
  metadata: TemplateMetadata;
  created_at: string;
  updated_at: string;
  /** sha256 hex of the uploaded bytes. */
  file_hash: string;
  file_hash_algorithm: 'sha256';
  content_type: string;
  /** Blob key of the uploaded file; set only once the file is stored. */
  blob_key?: string;
  latest_analysis_id?: string;
  /** The last analysis that completed; its slide ids are the live ones. */
  completed_analysis_id?: string;
  /** Reason of the last failed upload or analysis. */
  error?: string;
  /**
   * ISO 8601 time the last upload of a file began (the bytes arrived and are being
   * inspected and stored); the upload expiry counts from it, so an initiation whose file
   * is arriving is not swept while it is checked. Cleared when the upload is refused.
   */
  upload_started_at?: string;
}

export interface AnalysisStep {
  name: string;
  status: 'pending' | 'running' | 'completed' | 'failed' | 'skipped';
  started_at?: string;
  completed_at?: string;
}

export interface AnalysisSummary {
  slide_count: number;
  slide_ids: string[];
  layout_count: number;
  layout_ids: string[];
}

export interface AnalysisRecord {
  analysis_id: string;
  template_id: string;
  org_name: string;
  status: AnalysisStatus;
  options: Record<string, boolean>;
  name?: string;
  description?: string;
  priority?: string;
  created_at: string;
  started_at: string;
  completed_at?: string;
  /** 0–1. */
  progress: number;
  current_step: string;
  message: string;
  steps: AnalysisStep[];
  error?: { code: string; message: string };
  /** Blob key of the results JSON. */
  results_key?: string;
  /** Notified when the analysis ends. */
  webhook_url?: string;
  summary?: AnalysisSummary;
}

/** Where a template slide id points: a slide or slide layout part of an analyzed template. */
export interface SlideIndexEntry {
  slide_id: string;
  org_name: string;
  template_id: string;
  analysis_id: string;
  kind: 'slide' | 'layout';
  part_name: string;
}

export interface GenerationErrorEntry {
  slide_index: number;
  template_slide_id: string;
  code: string;
  message: string;
}

export interface GenerationRecord {
  generation_id: string;
  org_name: string;
  kind: 'deck' | 'slide' | 'update_charts';
  status: GenerationStatus;
  message: string;
  /** 0–1. */
  progress: number;
  total_slides_requested: number;
  total_pages_generated: number;
  created_at: string;
  updated_at: string;
  completed_at?: string;
  errors: GenerationErrorEntry[];
  /**
   * Structured (`slide_index`, `template_slide_id`, `code`, `message`; same shape as an
   * error entry); records written before warnings were structured hold plain strings.
   */
  warnings: Array<GenerationErrorEntry | string>;
  /** Blob key of the stored request. */
  request_key: string;
  /** Blob key of the generated deck, once written. */
  output_key?: string;
  /** Blob key of the deck's quality report (JSON, core/src/quality), once written. */
  report_key?: string;
  /** Counts of the report's findings by severity; the status record carries them. */
  report_summary?: { errors: number; warnings: number; info: number };
  request_id?: string;
  /** Notified when the generation ends. */
  webhook_url?: string;
}

/** State-store keys. */
export const keys = {
  template: (org: string, id: string) => `tpl:${org}:${id}`,
  templatePrefix: (org: string) => `tpl:${org}:`,
  analysis: (org: string, templateId: string, id: string) => `ana:${org}:${templateId}:${id}`,
  analysisPrefix: (org: string, templateId: string) => `ana:${org}:${templateId}:`,
  slide: (org: string, slideId: string) => `sld:${org}:${slideId}`,
  slidePrefix: (org: string) => `sld:${org}:`,
  generation: (org: string, id: string) => `gen:${org}:${id}`,
  pending: (org: string) => `pending:${org}`,
  /** The templates the latest decks were built from ({@link RecentTemplate}, newest first): the threads' warm-up opens them. */
  recentTemplates: () => 'warm:recent-templates',
} as const;

/** A template a recent deck was built from; CPU threads open these at start (threads/warm-up.ts). */
export interface RecentTemplate {
  org: string;
  template_id: string;
  blob_key: string;
}

/** Blob keys. */
export const blobKeys = {
  templateFile: (org: string, templateId: string) => `orgs/${org}/templates/${templateId}/source.pptx`,
  templateFolder: (org: string, templateId: string) => `orgs/${org}/templates/${templateId}/`,
  analysisResults: (org: string, templateId: string, analysisId: string) => `orgs/${org}/templates/${templateId}/analyses/${analysisId}.json`,
  generationRequest: (org: string, id: string) => `orgs/${org}/generations/${id}/request.json`,
  generationOutput: (org: string, id: string) => `orgs/${org}/generations/${id}/deck.pptx`,
  generationReport: (org: string, id: string) => `orgs/${org}/generations/${id}/report.json`,
} as const;
