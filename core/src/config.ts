/**
 * Configuration, read once from the environment, validated against a schema and frozen.
 * Names are those of DESIGN.md's "Running it" table; unset distributed wiring means the
 * embedded adapters.
 */
import envSchema from 'env-schema';
import { resolve } from 'node:path';
import { CPU_THREAD_NICE, THREAD_YOUNG_GENERATION_MB } from './threads/heap-limits.js';
import { parseAllowList } from './services/egress.js';

/**
 * Timeouts of the REST server's connections when none are configured, seconds (headers,
 * whole request, keep-alive). The connection cap's default depends on the process's
 * open-files limit and is computed where the server is made (gateway/src/connections.ts).
 */
export const HTTP_CONNECTION_DEFAULTS = Object.freeze({
  headersTimeoutSeconds: 20,
  requestTimeoutSeconds: 300,
  keepAliveTimeoutSeconds: 5,
});

export interface Config {
  /** REST port. */
  port: number;
  /** gRPC port of core. */
  grpcPort: number;
  /** Address gRPC binds to: loopback in embedded mode. */
  grpcHost: string;
  /** Address the gateway process's REST server binds to (`SLIDEWRIGHT_HTTP_HOST`; default all interfaces). */
  httpHost: string;
  /** Client connections the REST server holds open at once (`SLIDEWRIGHT_HTTP_MAX_CONNECTIONS`); undefined: the server's default, 75 % of the open-files limit, 16–8192. */
  httpMaxConnections: number | undefined;
  /** Seconds a client has from connecting to finish sending its request headers (`SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT`). */
  httpHeadersTimeoutSeconds: number;
  /** Seconds a client has to send a whole request, body included (`SLIDEWRIGHT_HTTP_REQUEST_TIMEOUT`). */
  httpRequestTimeoutSeconds: number;
  /** Seconds a kept-alive connection waits for the next request (`SLIDEWRIGHT_HTTP_KEEP_ALIVE_TIMEOUT`). */
  httpKeepAliveTimeoutSeconds: number;
  /** Embedded mode's data directory (absolute). */
  dataDir: string;
  /** `key:org,key2:org2`, parsed; undefined when unset. */
  apiKeys: Map<string, string> | undefined;
  /** Accept `X-Org-Name` in place of a key. */
  devMode: boolean;
  /** External base URL used in `status_url` and signed URLs, without a trailing slash. */
  publicUrl: string;
  /** True when `SLIDEWRIGHT_PUBLIC_URL` was set (else it follows the listening port). */
  publicUrlExplicit: boolean;
  /** Pending or processing generations per organization before 429. */
  maxPendingPerOrg: number;
  /** Smallest text size the quality report's accessibility check accepts, pt (`SLIDEWRIGHT_REPORT_MIN_TEXT_PT`). */
  reportMinTextPt: number;
  /** HMAC secret for signed URLs; undefined = generate once and keep in the data directory. */
  signingSecret: string | undefined;
  /** Signed URL lifetime, seconds. */
  urlTtlSeconds: number;
  /** HMAC key of webhook signatures; undefined = the signing secret. */
  webhookSecret: string | undefined;
  /** Organization → default webhook URL. */
  orgWebhooks: Map<string, string>;
  /** `SLIDEWRIGHT_WEBHOOK_ALLOW`: CIDR ranges, addresses and host names webhooks may reach besides public addresses. */
  webhookAllow: string[];
  /** Longest delay between two attempts of a webhook delivery, seconds. */
  webhookMaxDelaySeconds: number;
  /** A webhook delivery still failing this long after the job ended is given up, seconds. */
  webhookMaxAgeSeconds: number;
  /** An upload initiation (a template with no file yet: `pending` or `rejected`) expires this long after its creation, seconds. */
  uploadExpirySeconds: number;
  /** Largest accepted template upload, bytes. */
  maxUploadBytes: number;
  /** Worker threads for CPU-heavy work (zip, XML, rendering). */
  workerThreads: number;
  /** Young generation (V8 new space: two semi-spaces and new large objects) of each worker thread, MiB. */
  threadYoungGenerationMb: number;
  /**
   * How much lower the CPU threads' scheduling priority is than the threads serving requests
   * (a `nice(2)` increment, 0–19): while decks build on every core, the event loops that
   * answer REST and gRPC still get a core when a request arrives; builds slow down only
   * while requests compete with them. 0: the same priority.
   */
  threadNice: number;
  /**
   * Warm the worker threads at start (a synthetic deck build on each, threads/warm-up.ts),
   * and the REST path with one internal request, before the service reports ready; the
   * threads are then kept alive while idle. Off: threads start cold on first use.
   */
  warmUp: boolean;
  /**
   * Embedded mode: the REST gateway runs on a thread of its own, so the gRPC hop between
   * it and core spans two cores instead of sharing one event loop. Off: one thread runs both.
   */
  gatewayThread: boolean;
  /**
   * Embedded mode: how the REST gateway calls core. `in-process` (the default): the same
   * gRPC calls over a MessagePort (core/src/protocol/in-process.ts), served by the handlers
   * of core's gRPC server; `grpc`: through core's gRPC server on loopback, as a separate
   * gateway process does. Core's gRPC server listens either way, for other callers.
   */
  gatewayChannel: 'in-process' | 'grpc';
  /** Jobs of each kind one process runs at once. */
  jobConcurrency: number;
  /** NATS server(s) with JetStream, e.g. `nats://nats:4222` (comma-separated for a cluster); undefined = in-process queue. */
  natsUrl: string | undefined;
  /** Redis URL, e.g. `redis://redis:6379/0`; undefined = embedded LevelDB state. */
  redisUrl: string | undefined;
  /** S3/MinIO endpoint URL, e.g. `http://minio:9000`; undefined = files on local disk. */
  s3Endpoint: string | undefined;
  /** S3 access key (MinIO root user). */
  s3AccessKey: string | undefined;
  /** S3 secret key (MinIO root password). */
  s3SecretKey: string | undefined;
  /** Bucket holding every file; created at start when missing. */
  s3Bucket: string;
  /** S3 region name. */
  s3Region: string;
  /** Milliseconds a worker may go without acknowledging or heartbeating a job before JetStream redelivers it. */
  jobAckWaitMs: number;
  /** Deliveries of a job before it is marked failed. */
  jobMaxDeliver: number;
  /**
   * Seconds a PDF download waits for the export job (run by a worker) before answering 409
   * with `Retry-After`; a PDF rendered before then is the download's answer.
   */
  pdfWaitSeconds: number;
  /** `host:port` of core's gRPC server, for the gateway process. */
  coreGrpcAddr: string | undefined;
  /** Port of the `/metrics` server of core and worker processes; undefined = none. */
  metricsPort: number | undefined;
  logLevel: string;
  /** `LOG_FORMAT`: `pretty` (pino-pretty), `json` (one JSON object a line), or `auto` = pretty when stdout is a terminal. */
  logFormat: 'auto' | 'pretty' | 'json';
  /** True when no distributed wiring is configured. */
  embedded: boolean;
}

interface RawEnv {
  PORT: number;
  GRPC_PORT: number;
  SLIDEWRIGHT_GRPC_HOST?: string;
  SLIDEWRIGHT_HTTP_HOST?: string;
  SLIDEWRIGHT_HTTP_MAX_CONNECTIONS?: number;
  SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT: number;
  SLIDEWRIGHT_HTTP_REQUEST_TIMEOUT: number;
  SLIDEWRIGHT_HTTP_KEEP_ALIVE_TIMEOUT: number;
  SLIDEWRIGHT_DATA_DIR: string;
  SLIDEWRIGHT_API_KEYS?: string;
  SLIDEWRIGHT_DEV_MODE?: string;
  SLIDEWRIGHT_PUBLIC_URL?: string;
  SLIDEWRIGHT_MAX_PENDING_PER_ORG: number;
  SLIDEWRIGHT_REPORT_MIN_TEXT_PT: number;
  SLIDEWRIGHT_SIGNING_SECRET?: string;
  SLIDEWRIGHT_URL_TTL: number;
  SLIDEWRIGHT_WEBHOOK_SECRET?: string;
  SLIDEWRIGHT_ORG_WEBHOOKS?: string;
  SLIDEWRIGHT_WEBHOOK_ALLOW?: string;
  SLIDEWRIGHT_WEBHOOK_MAX_DELAY: number;
  SLIDEWRIGHT_WEBHOOK_MAX_AGE: number;
  SLIDEWRIGHT_UPLOAD_EXPIRY: number;
  SLIDEWRIGHT_MAX_UPLOAD_BYTES: number;
  SLIDEWRIGHT_WORKER_THREADS?: number;
  SLIDEWRIGHT_THREAD_YOUNG_GENERATION_MB: number;
  SLIDEWRIGHT_THREAD_NICE: number;
  SLIDEWRIGHT_WARMUP?: string;
  SLIDEWRIGHT_GATEWAY_THREAD?: string;
  SLIDEWRIGHT_GATEWAY_CHANNEL: 'in-process' | 'grpc';
  SLIDEWRIGHT_JOB_CONCURRENCY: number;
  NATS_URL?: string;
  REDIS_URL?: string;
  S3_ENDPOINT?: string;
  S3_ACCESS_KEY?: string;
  S3_SECRET_KEY?: string;
  S3_BUCKET: string;
  S3_REGION: string;
  SLIDEWRIGHT_JOB_ACK_WAIT_MS: number;
  SLIDEWRIGHT_JOB_MAX_DELIVER: number;
  SLIDEWRIGHT_PDF_WAIT_SECONDS: number;
  CORE_GRPC_ADDR?: string;
  SLIDEWRIGHT_METRICS_PORT?: number;
  LOG_LEVEL: string;
  LOG_FORMAT: 'auto' | 'pretty' | 'json';
}

const schema = {
  type: 'object',
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
    GRPC_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 50051 },
    SLIDEWRIGHT_GRPC_HOST: { type: 'string' },
    SLIDEWRIGHT_HTTP_HOST: { type: 'string' },
    SLIDEWRIGHT_HTTP_MAX_CONNECTIONS: { type: 'integer', minimum: 16, maximum: 1000000 },
    SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT: { type: 'integer', minimum: 1, maximum: 3600, default: HTTP_CONNECTION_DEFAULTS.headersTimeoutSeconds },
    SLIDEWRIGHT_HTTP_REQUEST_TIMEOUT: { type: 'integer', minimum: 1, maximum: 86400, default: HTTP_CONNECTION_DEFAULTS.requestTimeoutSeconds },
    SLIDEWRIGHT_HTTP_KEEP_ALIVE_TIMEOUT: { type: 'integer', minimum: 1, maximum: 3600, default: HTTP_CONNECTION_DEFAULTS.keepAliveTimeoutSeconds },
    SLIDEWRIGHT_DATA_DIR: { type: 'string', default: './data' },
    SLIDEWRIGHT_API_KEYS: { type: 'string', pattern: '^\\s*([^:,\\s]+:[^:,\\s]+\\s*)(,\\s*[^:,\\s]+:[^:,\\s]+\\s*)*$' },
    SLIDEWRIGHT_DEV_MODE: { type: 'string', enum: ['0', '1', 'true', 'false'] },
    SLIDEWRIGHT_PUBLIC_URL: { type: 'string' },
    SLIDEWRIGHT_MAX_PENDING_PER_ORG: { type: 'integer', minimum: 1, default: 100 },
    SLIDEWRIGHT_REPORT_MIN_TEXT_PT: { type: 'number', minimum: 1, maximum: 400, default: 10 },
    SLIDEWRIGHT_SIGNING_SECRET: { type: 'string', minLength: 16 },
    SLIDEWRIGHT_URL_TTL: { type: 'integer', minimum: 1, default: 3600 },
    SLIDEWRIGHT_WEBHOOK_SECRET: { type: 'string', minLength: 16 },
    SLIDEWRIGHT_ORG_WEBHOOKS: { type: 'string', pattern: '^\\s*[^=,\\s]+=https?://[^,\\s]+(\\s*,\\s*[^=,\\s]+=https?://[^,\\s]+)*\\s*$' },
    SLIDEWRIGHT_WEBHOOK_ALLOW: { type: 'string' },
    SLIDEWRIGHT_WEBHOOK_MAX_DELAY: { type: 'integer', minimum: 1, maximum: 86400, default: 600 },
    SLIDEWRIGHT_WEBHOOK_MAX_AGE: { type: 'integer', minimum: 1, default: 86400 },
    SLIDEWRIGHT_UPLOAD_EXPIRY: { type: 'integer', minimum: 1, default: 86400 },
    SLIDEWRIGHT_MAX_UPLOAD_BYTES: { type: 'integer', minimum: 1, default: 10485760 },
    SLIDEWRIGHT_WORKER_THREADS: { type: 'integer', minimum: 1, maximum: 64 },
    SLIDEWRIGHT_THREAD_YOUNG_GENERATION_MB: { type: 'integer', minimum: 3, maximum: 768, default: THREAD_YOUNG_GENERATION_MB },
    SLIDEWRIGHT_THREAD_NICE: { type: 'integer', minimum: 0, maximum: 19, default: CPU_THREAD_NICE },
    SLIDEWRIGHT_WARMUP: { type: 'string', enum: ['0', '1', 'true', 'false'] },
    SLIDEWRIGHT_GATEWAY_THREAD: { type: 'string', enum: ['0', '1', 'true', 'false'] },
    SLIDEWRIGHT_GATEWAY_CHANNEL: { type: 'string', enum: ['in-process', 'grpc'], default: 'in-process' },
    SLIDEWRIGHT_JOB_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 64, default: 2 },
    NATS_URL: { type: 'string' },
    REDIS_URL: { type: 'string' },
    S3_ENDPOINT: { type: 'string', pattern: '^https?://' },
    S3_ACCESS_KEY: { type: 'string' },
    S3_SECRET_KEY: { type: 'string' },
    S3_BUCKET: { type: 'string', pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$', default: 'slidewright' },
    S3_REGION: { type: 'string', default: 'us-east-1' },
    SLIDEWRIGHT_JOB_ACK_WAIT_MS: { type: 'integer', minimum: 1000, maximum: 3600000, default: 30000 },
    SLIDEWRIGHT_JOB_MAX_DELIVER: { type: 'integer', minimum: 1, maximum: 100, default: 5 },
    SLIDEWRIGHT_PDF_WAIT_SECONDS: { type: 'number', minimum: 0, maximum: 110, default: 30 },
    CORE_GRPC_ADDR: { type: 'string' },
    SLIDEWRIGHT_METRICS_PORT: { type: 'integer', minimum: 0, maximum: 65535 },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    LOG_FORMAT: { type: 'string', enum: ['auto', 'pretty', 'json'], default: 'auto' },
  },
} as const;

/**
 * Reads the configuration from `env` (default: `process.env`).
 * @throws Error naming the variable when a value is malformed
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const raw = envSchema<RawEnv>({ schema, data: { ...env }, env: false, dotenv: false });
  // Node refuses a headers timeout longer than the request timeout; say so in our names
  if (raw.SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT > raw.SLIDEWRIGHT_HTTP_REQUEST_TIMEOUT) {
    throw new Error(
      `SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT (${raw.SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT} s) must not exceed SLIDEWRIGHT_HTTP_REQUEST_TIMEOUT (${raw.SLIDEWRIGHT_HTTP_REQUEST_TIMEOUT} s)`,
    );
  }
  const embedded = !raw.NATS_URL && !raw.REDIS_URL && !raw.S3_ENDPOINT;
  const devMode = raw.SLIDEWRIGHT_DEV_MODE === undefined ? embedded : raw.SLIDEWRIGHT_DEV_MODE === '1' || raw.SLIDEWRIGHT_DEV_MODE === 'true';
  const apiKeys = raw.SLIDEWRIGHT_API_KEYS
    ? new Map(
        raw.SLIDEWRIGHT_API_KEYS.split(',').map((pair) => {
          const [key, org] = pair.trim().split(':') as [string, string];
          return [key, org];
        }),
      )
    : undefined;
  return Object.freeze({
    port: raw.PORT,
    grpcPort: raw.GRPC_PORT,
    grpcHost: raw.SLIDEWRIGHT_GRPC_HOST ?? (embedded ? '127.0.0.1' : '0.0.0.0'),
    httpHost: raw.SLIDEWRIGHT_HTTP_HOST ?? (embedded && !raw.CORE_GRPC_ADDR ? '127.0.0.1' : '0.0.0.0'),
    httpMaxConnections: raw.SLIDEWRIGHT_HTTP_MAX_CONNECTIONS,
    httpHeadersTimeoutSeconds: raw.SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT,
    httpRequestTimeoutSeconds: raw.SLIDEWRIGHT_HTTP_REQUEST_TIMEOUT,
    httpKeepAliveTimeoutSeconds: raw.SLIDEWRIGHT_HTTP_KEEP_ALIVE_TIMEOUT,
    dataDir: resolve(raw.SLIDEWRIGHT_DATA_DIR),
    apiKeys,
    devMode,
    publicUrl: (raw.SLIDEWRIGHT_PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ''),
    publicUrlExplicit: raw.SLIDEWRIGHT_PUBLIC_URL !== undefined,
    maxPendingPerOrg: raw.SLIDEWRIGHT_MAX_PENDING_PER_ORG,
    reportMinTextPt: raw.SLIDEWRIGHT_REPORT_MIN_TEXT_PT,
    signingSecret: raw.SLIDEWRIGHT_SIGNING_SECRET,
    urlTtlSeconds: raw.SLIDEWRIGHT_URL_TTL,
    webhookSecret: raw.SLIDEWRIGHT_WEBHOOK_SECRET,
    orgWebhooks: new Map(
      (raw.SLIDEWRIGHT_ORG_WEBHOOKS ?? '')
        .split(',')
        .map((pair) => pair.trim())
        .filter(Boolean)
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as [string, string]),
    ),
    webhookAllow: parseAllowList(raw.SLIDEWRIGHT_WEBHOOK_ALLOW),
    webhookMaxDelaySeconds: raw.SLIDEWRIGHT_WEBHOOK_MAX_DELAY,
    webhookMaxAgeSeconds: raw.SLIDEWRIGHT_WEBHOOK_MAX_AGE,
    uploadExpirySeconds: raw.SLIDEWRIGHT_UPLOAD_EXPIRY,
    maxUploadBytes: raw.SLIDEWRIGHT_MAX_UPLOAD_BYTES,
    workerThreads: raw.SLIDEWRIGHT_WORKER_THREADS ?? 2,
    threadYoungGenerationMb: raw.SLIDEWRIGHT_THREAD_YOUNG_GENERATION_MB,
    threadNice: raw.SLIDEWRIGHT_THREAD_NICE,
    warmUp: raw.SLIDEWRIGHT_WARMUP === undefined || raw.SLIDEWRIGHT_WARMUP === '1' || raw.SLIDEWRIGHT_WARMUP === 'true',
    gatewayThread: raw.SLIDEWRIGHT_GATEWAY_THREAD === undefined || raw.SLIDEWRIGHT_GATEWAY_THREAD === '1' || raw.SLIDEWRIGHT_GATEWAY_THREAD === 'true',
    gatewayChannel: raw.SLIDEWRIGHT_GATEWAY_CHANNEL,
    jobConcurrency: raw.SLIDEWRIGHT_JOB_CONCURRENCY,
    natsUrl: raw.NATS_URL,
    redisUrl: raw.REDIS_URL,
    s3Endpoint: raw.S3_ENDPOINT,
    s3AccessKey: raw.S3_ACCESS_KEY,
    s3SecretKey: raw.S3_SECRET_KEY,
    s3Bucket: raw.S3_BUCKET,
    s3Region: raw.S3_REGION,
    jobAckWaitMs: raw.SLIDEWRIGHT_JOB_ACK_WAIT_MS,
    jobMaxDeliver: raw.SLIDEWRIGHT_JOB_MAX_DELIVER,
    pdfWaitSeconds: raw.SLIDEWRIGHT_PDF_WAIT_SECONDS,
    coreGrpcAddr: raw.CORE_GRPC_ADDR,
    metricsPort: raw.SLIDEWRIGHT_METRICS_PORT,
    logLevel: raw.LOG_LEVEL,
    logFormat: raw.LOG_FORMAT,
    embedded,
  });
}
