/**
 * Slidewright over REST from TypeScript (Node 20+, no dependencies): upload a template
 * through its signed URL, analyze it, generate a deck, poll until it is done and download
 * the .pptx through the signed download URL.
 *
 * ```sh
 * SLIDEWRIGHT_URL=http://127.0.0.1:8080 SLIDEWRIGHT_API_KEY=... \
 *   npx tsx examples/typescript/slidewright-client.ts brand.pptx deck.pptx
 * ```
 *
 * Progress goes to stderr; the last line on stdout is a JSON summary.
 * (For gRPC from TypeScript, use the ts-proto clients in proto/gen/ts as
 * test/e2e/grpc-and-restart.test.ts does.)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

/** A failed API call, with the API's `detail` (422: each `loc: msg`). */
export class SlidewrightError extends Error {}

/** A minimal REST client: base URL + API key. */
export class Slidewright {
  /**
   * @param baseUrl - e.g. `http://127.0.0.1:8080`.
   * @param apiKey - sent as `X-API-Key`.
   */
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  /** Calls the API (or a signed URL, without the key) and returns the parsed JSON. */
  async call(method: string, path: string, body?: unknown, raw?: { bytes: Uint8Array; type: string }): Promise<Json> {
    const signed = path.startsWith('http');
    const headers: Record<string, string> = signed ? {} : { 'x-api-key': this.apiKey };
    let payload: Uint8Array | string | undefined;
    if (raw) {
      headers['content-type'] = raw.type;
      payload = raw.bytes;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(signed ? path : `${this.baseUrl}/api/v1${path}`, { method, headers, body: payload });
    const text = await res.text();
    const json = (text ? JSON.parse(text) : {}) as Json;
    if (!res.ok) {
      const d = json['detail'];
      const detail = Array.isArray(d) ? d.map((e: Json) => `\n  ${(e['loc'] as unknown[]).join('.')}: ${String(e['msg'])}`).join('') : ` ${String(d ?? text)}`;
      throw new SlidewrightError(`${method} ${path}: ${res.status}${detail}`);
    }
    return json;
  }

  /** Polls `path` every `intervalMs` until `done(record)`; returns the last record. */
  async poll(path: string, done: (r: Json) => boolean, intervalMs: number): Promise<Json> {
    for (;;) {
      const r = await this.call('GET', path);
      process.stderr.write(`${path}: ${String(r['status'])} ${Math.round(Number(r['progress'] ?? 0) * 100)}%\n`);
      if (done(r)) return r;
      await new Promise((ok) => setTimeout(ok, intervalMs));
    }
  }
}

/** Runs the whole flow; returns the JSON summary. */
export async function main(templateFile: string, output: string, intervalMs = 2000): Promise<Json> {
  const api = new Slidewright(process.env['SLIDEWRIGHT_URL'] ?? 'http://127.0.0.1:8080', process.env['SLIDEWRIGHT_API_KEY'] ?? '');
  const bytes = readFileSync(templateFile);

  // 1. Upload: a pending template and its signed URL, then PUT the bytes there.
  const created = await api.call('POST', '/templates', { filename: basename(templateFile), file_size: bytes.length, metadata: { category: 'examples', tags: ['typescript'] } });
  const upload = await api.call('PUT', String(created['upload_url']), undefined, { bytes, type: PPTX });
  if (upload['confirmed'] !== true) throw new SlidewrightError(`upload refused: ${String(upload['error'])}`);
  const id = String(created['template_id']);

  // 2. Analyze and wait.
  await api.call('POST', `/templates/${id}/analysis`, {});
  const analysis = await api.poll(`/templates/${id}/analysis/status`, (r) => ['completed', 'failed', 'cancelled'].includes(String(r['status'])), Math.min(intervalMs, 500));
  if (analysis['status'] !== 'completed') throw new SlidewrightError(`analysis ${String(analysis['status'])}`);
  const layouts = ((await api.call('GET', `/templates/${id}/analysis`))['results'] as Json)['layouts'] as Json[];
  const layout = (type: string): string => String((layouts.find((l) => l['type'] === type) ?? layouts[0])?.['slide_id']);

  // 3. Generate, poll every 2 s, download by the signed URL.
  const job = await api.call('POST', '/presentations/generate-deck', {
    slides: [
      { template_slide_id: layout('title'), slide_data: { title: 'Q3 Review', subtitle: 'From the TypeScript example' } },
      { template_slide_id: layout('obj'), slide_data: { title: 'Highlights', content: { blocks: [{ type: 'text', text: { bullets: ['Revenue +12%', 'Churn < 2%'] } }] } } },
    ],
    options: { footer_text: 'Confidential', show_slide_numbers: true },
  });
  const st = await api.poll(`/presentations/${String(job['generation_id'])}/status`, (r) => ['completed', 'partial', 'failed'].includes(String(r['status'])), intervalMs);
  if (st['status'] === 'failed') throw new SlidewrightError(`generation failed: ${String(st['message'])}`);
  const res = await fetch(String(st['download_url']));
  if (!res.ok) throw new SlidewrightError(`download: ${res.status}`);
  const deck = new Uint8Array(await res.arrayBuffer());
  writeFileSync(output, deck);
  return { template_id: id, generation_id: job['generation_id'], status: st['status'], slides: st['total_pages_generated'], bytes: deck.length, output: resolve(output) };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const [template, output = 'deck.pptx'] = process.argv.slice(2);
  if (!template) {
    process.stderr.write('usage: slidewright-client.ts TEMPLATE.pptx [OUT.pptx]   (env SLIDEWRIGHT_URL, SLIDEWRIGHT_API_KEY)\n');
    process.exit(1);
  }
  main(template, output, Number(process.env['POLL_INTERVAL_MS'] ?? 2000)).then(
    (summary) => process.stdout.write(`${JSON.stringify(summary)}\n`),
    (e: Error) => {
      process.stderr.write(`error: ${e.message}\n`);
      process.exit(1);
    },
  );
}
