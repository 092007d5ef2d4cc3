/**
 * `slidewright`: the command-line client of the Slidewright REST API.
 *
 * ```
 * slidewright templates upload FILE [--analyze]   upload a template (signed URL), optionally analyze it
 * slidewright templates list                      the organization's templates
 * slidewright templates show ID                   one template, its layouts (by master) and slides
 * slidewright templates delete ID [--permanent]   soft delete (or for good); restore undoes a soft delete
 * slidewright templates restore ID                bring back a soft-deleted template
 * slidewright preview ID N -o slide.png           slide N (1-based) of a template (tpl_) or generated deck (gen_) as PNG
 * slidewright match FILE.json                     rank layouts or slides for some slide data
 * slidewright generate DECK.yaml -o out.pptx      generate a deck, wait with a progress bar, download
 *                     [--pdf [--pdfa]]            … and its PDF beside it (out.pdf)
 * slidewright export ID [-o x.pdf] [--pdfa]       a generated deck (gen_) or template (tpl_) as PDF
 * slidewright status ID                           a generation's (gen_) or analysis's (tpl_) status
 * slidewright report ID [--strict|--fail-on SEV]  a generated deck's quality report (package, fit, accessibility, brand)
 * ```
 *
 * Connection: `SLIDEWRIGHT_URL` (default `http://127.0.0.1:8080`) and `SLIDEWRIGHT_API_KEY`;
 * `--url` and `--api-key` override them. Exit codes: 0 success, 1 API or usage error, 2
 * `report --strict` on a report with errors (`--fail-on warning`: with warnings or errors).
 *
 * Slide numbers are 1-based wherever the CLI prints or takes them; the API's 0-based
 * `slide_index` of generation warnings and errors is printed as `slide N+1`.
 */
import { existsSync, writeFileSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import cliProgress from 'cli-progress';
import { ApiClient, ApiError, type Json } from './client.js';
import { CliError } from './errors.js';
import { describeAnalysis, describeIssues, readDocument, size, table, UsageError } from './format.js';

const PPTX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const POTX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.template';
const DEFAULT_URL = 'http://127.0.0.1:8080';
const FINAL_GENERATION: ReadonlySet<string> = new Set(['completed', 'partial', 'failed']);
const FINAL_ANALYSIS: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);


/** Where the CLI writes: injectable for tests, the process streams by default. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

interface GlobalOptions {
  url?: string;
  apiKey?: string;
  json?: boolean;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a positive integer is expected');
  return n;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('a positive number is expected');
  return n;
}

/**
 * The REST path of a slide preview: a template's slide (`tpl_` id) or a generated deck's
 * (`gen_` id). `slideNumber` is 1-based, as in the API's preview routes.
 * @throws UsageError for any other kind of id
 */
export function previewPath(id: string, slideNumber: number): string {
  const idPart = encodeURIComponent(id);
  if (id.startsWith('tpl_')) return `/api/v1/templates/${idPart}/slides/${slideNumber}/preview`;
  if (id.startsWith('gen_')) return `/api/v1/presentations/${idPart}/slides/${slideNumber}/preview`;
  throw new UsageError(`preview takes a template id (tpl_...) or a generation id (gen_...), not ${id}`);
}

/**
 * The version in Slidewright's package.json, found upward from this module (cli/src in a
 * clone, dist/cli/src compiled or installed), so `--version` follows the package; `unknown`
 * when there is none.
 */
function packageVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
        if (pkg.name === 'slidewright' && typeof pkg.version === 'string') return pkg.version;
      } catch {
        // not readable JSON: keep looking upward
      }
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** How long a PDF download keeps retrying while the server says the PDF is being rendered, ms. */
const PDF_RENDER_WAIT_MS = 10 * 60_000;

/**
 * A PDF download: the server renders a PDF on first request (a worker's job) and answers 409
 * with `Retry-After` when it is not done within its wait; this retries as told until it is.
 * A 409 without `Retry-After` (the deck is not ready, no visible slide) is final.
 */
async function pdfDownload(api: ApiClient, path: string, opts: { auth?: boolean } = {}): Promise<{ data: Uint8Array; headers: Headers }> {
  const deadline = Date.now() + PDF_RENDER_WAIT_MS;
  for (;;) {
    try {
      return await api.bytes('GET', path, opts);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 409 || err.retryAfterSeconds === undefined || Date.now() > deadline) throw err;
      await sleep(err.retryAfterSeconds * 1000);
    }
  }
}
const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const pct = (v: unknown): string => `${Math.round(Number(v ?? 0) * 100)}%`;

/**
 * A poll loop with a progress display: a cli-progress bar on a terminal, one line per
 * change otherwise (logs, CI).
 */
class Progress {
  private bar: cliProgress.SingleBar | undefined;
  private last = '';

  constructor(
    private readonly io: CliIo,
    private readonly label: string,
    enabled: boolean,
  ) {
    if (enabled && io.stderr.isTTY) {
      this.bar = new cliProgress.SingleBar(
        { format: `${label} |{bar}| {percentage}% | {state}`, stream: io.stderr, hideCursor: true, clearOnComplete: false },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(100, 0, { state: 'submitted' });
    }
  }

  /** Shows a progress value (0 to 1) and state. */
  update(progress: unknown, state: string): void {
    const value = Math.max(0, Math.min(100, Math.round(Number(progress ?? 0) * 100)));
    if (this.bar) {
      this.bar.update(value, { state });
      return;
    }
    const line = `${this.label}: ${state} ${value}%`;
    if (line !== this.last) this.io.stderr.write(`${line}\n`);
    this.last = line;
  }

  /** Ends the display. */
  stop(): void {
    this.bar?.stop();
    this.bar = undefined;
  }
}

/**
 * Builds the command tree. Actions write to `io` and throw a {@link CliError} on failure (an
 * API error, a {@link UsageError}, the report gate); {@link run} exits with its `exitCode`.
 */
export function buildProgram(io: CliIo): Command {
  const program = new Command('slidewright');
  const out = (text: string): void => {
    io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  };
  const info = (text: string): void => {
    io.stderr.write(`${text}\n`);
  };
  const printJson = (v: unknown): void => out(JSON.stringify(v, null, 2));

  program
    .description('Command-line client of the Slidewright REST API (templates, matching, deck generation).')
    .version(packageVersion())
    .addOption(new Option('--url <url>', 'service base URL (env SLIDEWRIGHT_URL, default http://127.0.0.1:8080)'))
    .addOption(new Option('--api-key <key>', 'API key, sent as X-API-Key (env SLIDEWRIGHT_API_KEY)'))
    .option('--json', 'print the API responses as JSON instead of text')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .exitOverride();

  const globals = (cmd: Command): GlobalOptions => cmd.optsWithGlobals<GlobalOptions>();
  const client = (cmd: Command): ApiClient => {
    const g = globals(cmd);
    const url = g.url ?? io.env['SLIDEWRIGHT_URL'] ?? DEFAULT_URL;
    const key = g.apiKey ?? io.env['SLIDEWRIGHT_API_KEY'];
    if (!key) throw new UsageError('no API key: set SLIDEWRIGHT_API_KEY or pass --api-key');
    if (!/^https?:\/\//.test(url)) throw new UsageError(`the service URL must start with http:// or https://: ${url}`);
    return new ApiClient(url, key);
  };

  /** Polls an analysis until it ends; returns the final status record. */
  async function waitForAnalysis(api: ApiClient, templateId: string, intervalMs: number, quiet: boolean): Promise<Json> {
    const progress = new Progress(io, `Analyzing ${templateId}`, !quiet);
    try {
      for (;;) {
        const st = await api.json('GET', `/api/v1/templates/${encodeURIComponent(templateId)}/analysis/status`);
        const step = str(st['current_step']);
        progress.update(st['progress'], step && step !== st['status'] ? `${str(st['status'])} (${step})` : str(st['status']));
        if (FINAL_ANALYSIS.has(str(st['status']))) return st;
        await sleep(intervalMs);
      }
    } finally {
      progress.stop();
    }
  }

  // ---- templates -----------------------------------------------------------------------
  const templates = program.command('templates').description('upload, list, inspect, delete and restore templates');

  templates
    .command('upload')
    .description('upload a .pptx/.potx template through a signed upload URL')
    .argument('<file>', 'the template file')
    .option('--analyze', 'analyze it after the upload and wait for the result')
    .option('--category <category>', 'metadata: category')
    .option('--tag <tag...>', 'metadata: tags')
    .option('--description <text>', 'metadata: description')
    .option('--direct', 'upload with the API key (PUT /templates/{id}/upload) instead of the signed URL')
    .addOption(new Option('--interval <seconds>', 'seconds between analysis status polls').default(1).argParser(positiveNumber))
    .action(async (file: string, opts: { analyze?: boolean; category?: string; tag?: string[]; description?: string; direct?: boolean; interval: number }, cmd: Command) => {
      const api = client(cmd);
      let bytes: Buffer;
      try {
        if (!statSync(file).isFile()) throw new Error('not a file');
        bytes = readFileSync(file);
      } catch (e) {
        throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      const metadata: Json = {};
      if (opts.category) metadata['category'] = opts.category;
      if (opts.tag) metadata['tags'] = opts.tag;
      if (opts.description) metadata['description'] = opts.description;
      const created = await api.json('POST', '/api/v1/templates', { json: { filename: basename(file), file_size: bytes.length, metadata } });
      const templateId = str(created['template_id']);
      const contentType = extname(file).toLowerCase() === '.potx' ? POTX_MEDIA_TYPE : PPTX_MEDIA_TYPE;
      const upload = opts.direct
        ? await api.json('PUT', `/api/v1/templates/${encodeURIComponent(templateId)}/upload`, { body: bytes, headers: { 'content-type': contentType } })
        : await api.json('PUT', str(created['upload_url']), { body: bytes, headers: { 'content-type': contentType }, auth: false });
      if (upload['confirmed'] !== true) throw new UsageError(`upload of ${file} refused: ${str(upload['error']) || JSON.stringify(upload)}`);
      info(`uploaded ${basename(file)} (${size(upload['file_size'])}) as ${templateId}`);
      let analysis: Json | undefined;
      if (opts.analyze) {
        await api.json('POST', `/api/v1/templates/${encodeURIComponent(templateId)}/analysis`, { json: {} });
        const st = await waitForAnalysis(api, templateId, opts.interval * 1000, globals(cmd).json === true);
        if (st['status'] !== 'completed') {
          const err = st['error'] as Json | undefined;
          throw new UsageError(`analysis of ${templateId} ${str(st['status'])}: ${str(err?.['message'] ?? st['message'])}`);
        }
        analysis = await api.json('GET', `/api/v1/templates/${encodeURIComponent(templateId)}/analysis`);
      }
      if (globals(cmd).json) {
        printJson({ ...created, upload, ...(analysis ? { analysis } : {}) });
        return;
      }
      out(`template_id: ${templateId}\nstatus: ${analysis ? 'ready' : str(upload['status'])}\nsha256: ${str(upload['file_hash'])}`);
      if (analysis) out(`\n${describeAnalysis((analysis['results'] ?? {}) as Json)}`);
    });

  templates
    .command('list')
    .description("list the organization's templates, newest first")
    .addOption(new Option('--page <n>', 'page number').argParser(positiveInt))
    .addOption(new Option('--limit <n>', 'page size, 1 to 100').argParser(positiveInt))
    .option('--category <category>', 'only this category')
    .option('--tag <tag>', 'only this tag')
    .option('--status <status>', 'only this status')
    .option('-q, --query <text>', 'search file names and descriptions')
    .option('--include-deleted', 'include soft-deleted templates')
    .action(async (opts: { page?: number; limit?: number; category?: string; tag?: string; status?: string; query?: string; includeDeleted?: boolean }, cmd: Command) => {
      const api = client(cmd);
      const res = await api.json('GET', '/api/v1/templates', {
        query: { page: opts.page, limit: opts.limit, category: opts.category, tag: opts.tag, status: opts.status, q: opts.query, include_deleted: opts.includeDeleted },
      });
      if (globals(cmd).json) return printJson(res);
      const list = (res['templates'] ?? []) as Json[];
      const pg = (res['pagination'] ?? {}) as Json;
      if (list.length === 0) return out('no templates');
      out(
        table(
          ['template_id', 'status', 'size', 'category', 'created_at', 'filename'],
          list.map((t) => [t['template_id'], t['status'], size(t['file_size']), (t['metadata'] as Json | undefined)?.['category'], t['created_at'], t['filename']]),
        ),
      );
      out(`page ${str(pg['page'])} of ${str(pg['pages'])}, ${str(pg['total'])} template(s)`);
    });

  templates
    .command('show')
    .description('show a template with its analysis: layout ids (grouped by slide master) and slide ids for decks')
    .argument('<id>', 'template id (tpl_...)')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const api = client(cmd);
      const tpl = await api.json('GET', `/api/v1/templates/${encodeURIComponent(id)}`);
      const summary = tpl['analysis'] as Json | null | undefined;
      let analysis: Json | undefined;
      if (summary?.['status'] === 'completed') analysis = await api.json('GET', `/api/v1/templates/${encodeURIComponent(id)}/analysis`);
      if (globals(cmd).json) return printJson(analysis ? { ...tpl, analysis_results: analysis['results'] } : tpl);
      const md = (tpl['metadata'] ?? {}) as Json;
      out(
        table(
          ['field', 'value'],
          [
            ['template_id', tpl['template_id']],
            ['filename', tpl['filename']],
            ['status', tpl['status']],
            ['size', size(tpl['file_size'])],
            ['organization', tpl['org_name']],
            ['category', md['category']],
            ['tags', ((md['tags'] ?? []) as string[]).join(', ')],
            ['description', md['description']],
            ['created_at', tpl['created_at']],
            ['updated_at', tpl['updated_at']],
            ['sha256', tpl['file_hash']],
            ['analysis', summary ? `${str(summary['status'])} (${str(summary['slide_count'])} slides, ${str(summary['layout_count'])} layouts)` : 'none'],
            ...(tpl['error'] ? [['error', tpl['error']]] : []),
          ],
        ).replace(/^field\s+value\n/, ''),
      );
      if (analysis) out(`\n${describeAnalysis((analysis['results'] ?? {}) as Json)}`);
      else if (!summary) out('\nnot analyzed yet: slidewright templates upload --analyze, or POST /api/v1/templates/{id}/analysis');
    });

  templates
    .command('delete')
    .description('delete a template: soft by default (restore brings it back), --permanent for good')
    .argument('<id>', 'template id (tpl_...)')
    .option('--permanent', 'delete the file, records and slide ids for good (cannot be undone)')
    .action(async (id: string, opts: { permanent?: boolean }, cmd: Command) => {
      const api = client(cmd);
      const path = `/api/v1/templates/${encodeURIComponent(id)}`;
      if (opts.permanent) {
        // A permanent delete answers 204 with no body: nothing of the template is left to show.
        await api.json('DELETE', path, { query: { permanent: true } });
        if (globals(cmd).json) return printJson({ template_id: id, permanent: true });
        return out(`deleted ${id} permanently`);
      }
      const tpl = await api.json('DELETE', path);
      if (globals(cmd).json) return printJson(tpl);
      out(`deleted ${id} (status ${str(tpl['status'])}); undo with: slidewright templates restore ${id}`);
    });

  templates
    .command('restore')
    .description('restore a soft-deleted template to its state before the delete')
    .argument('<id>', 'template id (tpl_...)')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const api = client(cmd);
      const tpl = await api.json('POST', `/api/v1/templates/${encodeURIComponent(id)}/restore`);
      if (globals(cmd).json) return printJson(tpl);
      out(`restored ${id} (status ${str(tpl['status'])})`);
    });

  // ---- preview -------------------------------------------------------------------------
  program
    .command('preview')
    .description("render slide N of a template (tpl_ id) or of a generated deck (gen_ id, once completed or partial) as PNG")
    .argument('<id>', 'template id (tpl_...) or generation id (gen_...)')
    .argument('<n>', '1-based slide number', positiveInt)
    .requiredOption('-o, --output <file>', 'where to write the PNG')
    .addOption(new Option('--width <px>', 'image width in pixels (default 1280)').argParser(positiveInt))
    .action(async (id: string, n: number, opts: { output: string; width?: number }, cmd: Command) => {
      const path = previewPath(id, n);
      const api = client(cmd);
      const { data, headers } = await api.bytes('GET', path, { query: { width: opts.width } });
      writeFileSync(opts.output, data);
      const dims = { width_px: headers.get('x-slide-width-px'), height_px: headers.get('x-slide-height-px'), width_emu: headers.get('x-slide-width-emu'), height_emu: headers.get('x-slide-height-emu') };
      if (globals(cmd).json) return printJson({ output: opts.output, bytes: data.length, ...dims });
      out(`wrote ${opts.output} (${size(data.length)}${dims.width_px ? `, ${dims.width_px}×${str(dims.height_px)} px` : ''})`);
    });

  // ---- match ---------------------------------------------------------------------------
  program
    .command('match')
    .description('rank the analyzed layouts or slides for some slide data')
    .argument('<file>', 'JSON or YAML: a match request {slide_data, match_against, top_k} or just the slide data')
    .addOption(new Option('--against <what>', 'match against slides or layouts').choices(['slides', 'layouts']))
    .addOption(new Option('--top-k <n>', 'number of matches, 1 to 20').argParser(positiveInt))
    .action(async (file: string, opts: { against?: string; topK?: number }, cmd: Command) => {
      const doc = readDocument(file);
      const body: Json = 'slide_data' in doc ? { ...doc } : { slide_data: doc };
      if (opts.against) body['match_against'] = opts.against;
      if (opts.topK !== undefined) body['top_k'] = opts.topK;
      const api = client(cmd);
      const res = await api.json('POST', '/api/v1/templates/match', { json: body });
      if (globals(cmd).json) return printJson(res);
      const matches = (res['matches'] ?? []) as Json[];
      if (matches.length === 0) return out(`no match among ${str(res['total_slides_searched'])} candidates`);
      out(
        table(
          ['#', 'score', 'exact', 'slide_id', 'layout', 'template_id'],
          matches.map((m, i) => [i + 1, Number(m['score'] ?? 0).toFixed(3), m['is_exact_match'] ? 'yes' : 'no', m['slide_id'], m['layout_name'], m['template_id']]),
        ),
      );
      out(`searched ${str(res['total_slides_searched'])} in ${str(res['total_templates_searched'])} template(s)`);
    });

  // ---- generate ------------------------------------------------------------------------
  program
    .command('generate')
    .description('generate a deck from a JSON or YAML deck request, wait for it (progress bar) and download it')
    .argument('<deck>', 'DECK.json or DECK.yaml: {slides: [{template_slide_id, slide_data, options?}], options?}')
    .option('-o, --output <file>', 'where to write the .pptx (default: the deck file name with .pptx)')
    .option('--pdf', 'also write the deck as PDF, beside the .pptx (same name, .pdf)')
    .option('--pdfa', 'with --pdf: a PDF/A-2b (archival) file')
    .addOption(new Option('--interval <seconds>', 'seconds between status polls').default(2).argParser(positiveNumber))
    .addOption(new Option('--timeout <seconds>', 'give up waiting after this long').default(900).argParser(positiveNumber))
    .action(async (deckFile: string, opts: { output?: string; pdf?: boolean; pdfa?: boolean; interval: number; timeout: number }, cmd: Command) => {
      const deck = readDocument(deckFile);
      const output = opts.output ?? `${basename(deckFile, extname(deckFile))}.pptx`;
      const api = client(cmd);
      const quiet = globals(cmd).json === true;
      const job = await api.json('POST', '/api/v1/presentations/generate-deck', { json: deck });
      const id = str(job['generation_id']);
      info(`generation ${id} submitted`);
      const statusPath = `/api/v1/presentations/${encodeURIComponent(id)}/status`;
      const progress = new Progress(io, `Generating ${id}`, !quiet);
      const deadline = Date.now() + opts.timeout * 1000;
      let st: Json;
      try {
        for (;;) {
          st = await api.json('GET', statusPath);
          progress.update(st['progress'], str(st['status']));
          if (FINAL_GENERATION.has(str(st['status']))) break;
          if (Date.now() > deadline) throw new UsageError(`generation ${id} still ${str(st['status'])} after ${opts.timeout} s; check it later with: slidewright status ${id}`);
          await sleep(opts.interval * 1000);
        }
      } finally {
        progress.stop();
      }
      const problems = describeIssues(st);
      if (st['status'] === 'failed') {
        throw new UsageError([`generation ${id} failed: ${str(st['message'])}`, ...problems.map((p) => `  ${p}`)].join('\n'));
      }
      const url = st['download_url'] ? str(st['download_url']) : undefined;
      const { data } = url ? await api.bytes('GET', url, { auth: false }) : await api.bytes('GET', `/api/v1/presentations/${encodeURIComponent(id)}/download`);
      writeFileSync(output, data);
      let pdfOutput: string | undefined;
      let pdfBytes = 0;
      if (opts.pdf || opts.pdfa) {
        pdfOutput = join(dirname(output), `${basename(output, extname(output))}.pdf`);
        const query = `format=pdf${opts.pdfa ? '&pdfa=true' : ''}`;
        const pdf = url ? await pdfDownload(api, `${url}&${query}`, { auth: false }) : await pdfDownload(api, `/api/v1/presentations/${encodeURIComponent(id)}/download?${query}`);
        writeFileSync(pdfOutput, pdf.data);
        pdfBytes = pdf.data.length;
      }
      for (const p of problems) info(p);
      if (quiet) return printJson({ ...st, output, bytes: data.length, ...(pdfOutput ? { pdf_output: pdfOutput, pdf_bytes: pdfBytes } : {}) });
      out(`wrote ${output} (${str(st['total_pages_generated'])} slides, ${size(data.length)}; ${str(st['status'])})`);
      if (pdfOutput) out(`wrote ${pdfOutput} (${size(pdfBytes)})`);
    });

  // ---- export --------------------------------------------------------------------------
  program
    .command('export')
    .description('download a generated deck (gen_ id) or a template (tpl_ id) as PDF (or as .pptx with -o x.pptx / --format pptx)')
    .argument('<id>', 'gen_... or tpl_...')
    .option('-o, --output <file>', 'where to write it (default: <id>.pdf); a .pptx name asks for the .pptx')
    .addOption(new Option('--format <format>', 'pdf or pptx (default: from the output name, else pdf)').choices(['pdf', 'pptx']))
    .option('--pdfa', 'a PDF/A-2b (archival) file')
    .action(async (id: string, opts: { output?: string; format?: 'pdf' | 'pptx'; pdfa?: boolean }, cmd: Command) => {
      const api = client(cmd);
      const format = opts.format ?? (opts.output && extname(opts.output).toLowerCase() === '.pptx' ? 'pptx' : 'pdf');
      const output = opts.output ?? `${id}.${format}`;
      const base = id.startsWith('tpl_') ? `/api/v1/templates/${encodeURIComponent(id)}/download` : `/api/v1/presentations/${encodeURIComponent(id)}/download`;
      const path = `${base}?format=${format}${opts.pdfa && format === 'pdf' ? '&pdfa=true' : ''}`;
      const { data } = format === 'pdf' ? await pdfDownload(api, path) : await api.bytes('GET', path);
      writeFileSync(output, data);
      if (globals(cmd).json) return printJson({ id, format, output, bytes: data.length });
      out(`wrote ${output} (${size(data.length)})`);
    });

  // ---- status --------------------------------------------------------------------------
  program
    .command('status')
    .description("show a generation's status (gen_ id), or a template's analysis status (tpl_ id)")
    .argument('<id>', 'gen_... or tpl_...')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const api = client(cmd);
      if (id.startsWith('tpl_')) {
        const st = await api.json('GET', `/api/v1/templates/${encodeURIComponent(id)}/analysis/status`);
        if (globals(cmd).json) return printJson(st);
        out(
          table(
            ['field', 'value'],
            [
              ['analysis_id', st['analysis_id']],
              ['status', st['status']],
              ['progress', pct(st['progress'])],
              ['step', st['current_step']],
              ['message', st['message']],
              ['started_at', st['started_at']],
            ],
          ).replace(/^field\s+value\n/, ''),
        );
        return;
      }
      const st = await api.json('GET', `/api/v1/presentations/${encodeURIComponent(id)}/status`);
      if (globals(cmd).json) return printJson(st);
      out(
        table(
          ['field', 'value'],
          [
            ['generation_id', st['generation_id']],
            ['status', st['status']],
            ['progress', pct(st['progress'])],
            ['message', st['message']],
            ['slides requested', st['total_slides_requested']],
            ['slides generated', st['total_pages_generated']],
            ['created_at', st['created_at']],
            ['completed_at', st['completed_at']],
            ...(st['download_url'] ? [['download_url', st['download_url']]] : []),
          ],
        ).replace(/^field\s+value\n/, ''),
      );
      for (const line of describeIssues(st)) out(line);
    });

  // ---- report --------------------------------------------------------------------------
  program
    .command('report')
    .description("show a generated deck's quality report: PowerPoint safety, fit, accessibility, brand")
    .argument('<id>', 'gen_...')
    .option('--strict', 'exit with status 2 when the report has errors (same as --fail-on error)')
    .addOption(new Option('--fail-on <severity>', 'exit with status 2 when the report has findings this severe or more').choices(['error', 'warning', 'info']))
    .addOption(new Option('--min-severity <severity>', 'list only findings this severe or more').choices(['error', 'warning', 'info']).default('info'))
    .action(async (id: string, opts: { strict?: boolean; failOn?: 'error' | 'warning' | 'info'; minSeverity: 'error' | 'warning' | 'info' }, cmd: Command) => {
      const api = client(cmd);
      const report = await api.json('GET', `/api/v1/presentations/${encodeURIComponent(id)}/report`);
      const summary = (report['summary'] ?? {}) as Json;
      const errors = Number(summary['errors'] ?? 0);
      if (globals(cmd).json) printJson(report);
      else {
        const rank: Record<string, number> = { error: 0, warning: 1, info: 2 };
        const limit = rank[opts.minSeverity] ?? 2;
        const findings = (Array.isArray(report['findings']) ? report['findings'] : []) as Json[];
        const shown = findings.filter((f) => (rank[str(f['severity'])] ?? 2) <= limit);
        out(`${id}: ${errors} errors, ${str(summary['warnings'] ?? 0)} warnings, ${str(summary['info'] ?? 0)} info (checks: ${(Array.isArray(report['checks']) ? report['checks'] : []).join(', ')})`);
        if (shown.length) {
          out(
            table(
              ['slide', 'severity', 'category', 'code', 'shape', 'message'],
              // slides are printed 1-based, as everywhere in the CLI
              shown.map((f) => [Number(f['slide_index']) >= 0 ? Number(f['slide_index']) + 1 : 'deck', f['severity'], f['category'], f['code'], f['shape_name'] ? `${str(f['shape_name'])} (#${str(f['shape_id'])})` : '', f['message']]),
            ),
          );
        }
      }
      const failOn = opts.failOn ?? (opts.strict ? 'error' : undefined);
      if (failOn) {
        const counts: Array<[string, number]> = [['error', errors], ['warning', Number(summary['warnings'] ?? 0)], ['info', Number(summary['info'] ?? 0)]];
        const upTo = counts.slice(0, ['error', 'warning', 'info'].indexOf(failOn) + 1).filter(([, n]) => n > 0);
        if (upTo.length) throw new CliError('report_gate', `${id}: the quality report has ${upTo.map(([sev, n]) => `${n} ${sev === 'info' ? 'info' : `${sev}${n === 1 ? '' : 's'}`}`).join(', ')}`, 2);
      }
    });

  // Subcommands share the parent's output, error handling and help-after-error.
  for (const c of [templates, ...templates.commands, ...program.commands]) {
    c.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) }).exitOverride().showHelpAfterError('(run with --help for usage)');
  }
  return program;
}

/**
 * Runs the CLI on `argv` (without the node and script entries) and returns the exit code:
 * 0 on success (and for --help/--version), 1 for an API error, a usage error, or a
 * command-line mistake.
 */
export async function run(argv: readonly string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Commander has already printed its message (or the help).
      return e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? 0 : 1;
    }
    if (e instanceof CliError) {
      io.stderr.write(`slidewright: ${e.message}\n`);
      return e.exitCode;
    }
    io.stderr.write(`slidewright: unexpected error: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await run(process.argv.slice(2));
}
