/**
 * A small REST client for the CLI: the API key header, JSON bodies, and the API's error
 * bodies (`{"detail": "..."}`, or for 422 `{"detail": [{loc, msg, type, ...}]}`) turned
 * into {@link ApiError}s with a readable message.
 */
import { CliError } from './errors.js';

/** Any JSON object the API sends. */
export type Json = Record<string, unknown>;

/** One entry of a 422 body (FastAPI/Pydantic vocabulary). */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type?: string;
}

/** A non-2xx answer of the API (or no answer at all: status 0). */
export class ApiError extends CliError {
  override readonly name = 'ApiError';
  /**
   * @param status - HTTP status; 0 when the server could not be reached.
   * @param detail - the body's `detail` (a string, or the 422 issue list).
   * @param what - the request, e.g. `GET /api/v1/templates`.
   * @param retryAfterSeconds - the answer's `Retry-After`, when it has one (429, 503, a PDF still being rendered: 409).
   * @param options - `cause`: the fetch error when there was no answer
   */
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
    readonly what: string,
    readonly retryAfterSeconds?: number,
    options?: ErrorOptions,
  ) {
    super('api', formatApiError(status, detail, what), 1, options);
  }
}

/**
 * Formats an API error: 422 lists each `loc: msg` (a location in a deck's `slides` array,
 * 0-based in the API, also names the slide 1-based: `body.slides.2.title (slide 3): ...`);
 * 501 says the feature is not there yet.
 */
export function formatApiError(status: number, detail: string | ValidationIssue[], what: string): string {
  if (status === 0) return `cannot reach the API (${what}): ${String(detail)}`;
  if (Array.isArray(detail)) {
    const lines = detail.map((d) => `  ${(d.loc ?? []).join('.')}${slideOfLocation(d.loc ?? [])}: ${d.msg}`);
    return `invalid request (${status}, ${what}):\n${lines.join('\n')}`;
  }
  if (status === 501) return `not available on this server yet (501, ${what}): ${detail}`;
  return `${status} ${statusText(status)} (${what}): ${detail}`;
}

/** ` (slide 3)` for a location inside `slides[2]` of a request body; '' otherwise. */
function slideOfLocation(loc: readonly (string | number)[]): string {
  const at = loc.indexOf('slides');
  const index = at >= 0 ? loc[at + 1] : undefined;
  return typeof index === 'number' && Number.isInteger(index) && index >= 0 ? ` (slide ${index + 1})` : '';
}

function statusText(status: number): string {
  const texts: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    409: 'Conflict',
    413: 'Payload Too Large',
    415: 'Unsupported Media Type',
    422: 'Unprocessable Entity',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    501: 'Not Implemented',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
  };
  return texts[status] ?? 'Error';
}

/** Options of one request. */
export interface RequestOptions {
  /** A JSON body. */
  json?: unknown;
  /** A raw body (upload). */
  body?: Uint8Array;
  /** Extra headers. */
  headers?: Record<string, string>;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Send the API key (default true; signed URLs need none). */
  auth?: boolean;
  /** Milliseconds before the request is abandoned (default 120 s). */
  timeoutMs?: number;
}

/** The REST API at a base URL, called with one API key. */
export class ApiClient {
  /**
   * @param baseUrl - the service's base URL, e.g. `http://127.0.0.1:8080` (a trailing
   *   `/api/v1` is accepted too).
   * @param apiKey - sent as `X-API-Key`.
   */
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  }

  /** The absolute URL of an API path (`/api/v1/...`) or of an absolute URL as is. */
  url(path: string, query?: RequestOptions['query']): string {
    const u = new URL(/^https?:\/\//.test(path) ? path : `${this.baseUrl}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  /** Sends a request; a non-2xx answer throws an {@link ApiError}. */
  async request(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
    const url = this.url(path, opts.query);
    const what = `${method} ${new URL(url).pathname}`;
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    if (opts.auth !== false) headers['x-api-key'] = this.apiKey;
    let body: RequestInit['body'];
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.body) {
      body = opts.body;
    }
    let res: Response;
    try {
      res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(opts.timeoutMs ?? 120_000) });
    } catch (e) {
      const err = e as Error & { cause?: { code?: string; message?: string } };
      throw new ApiError(0, err.cause?.code ?? err.cause?.message ?? err.message, `${method} ${url}`, undefined, { cause: e });
    }
    if (!res.ok) {
      let detail = await errorDetail(res);
      const retry = res.headers.get('retry-after');
      if (retry && typeof detail === 'string') detail = `${detail} (retry after ${retry} s)`;
      const seconds = retry !== null && /^\d+$/.test(retry) ? Number(retry) : undefined;
      throw new ApiError(res.status, detail, what, seconds);
    }
    return res;
  }

  /** A request whose answer is JSON (or nothing, for 204: an empty object). */
  async json<T = Json>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const res = await this.request(method, path, opts);
    if (res.status === 204) return {} as T;
    return (await res.json()) as T;
  }

  /** A request whose answer is bytes; returns them with the response headers. */
  async bytes(method: string, path: string, opts: RequestOptions = {}): Promise<{ data: Uint8Array; headers: Headers }> {
    const res = await this.request(method, path, { ...opts, headers: { accept: '*/*', ...opts.headers } });
    return { data: new Uint8Array(await res.arrayBuffer()), headers: res.headers };
  }
}

async function errorDetail(res: Response): Promise<string | ValidationIssue[]> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { detail?: unknown };
    if (Array.isArray(body.detail)) return body.detail as ValidationIssue[];
    if (typeof body.detail === 'string') return body.detail;
    if (body.detail !== undefined) return JSON.stringify(body.detail);
  } catch {
    // not JSON
  }
  return text.trim() || res.statusText || 'no detail';
}
