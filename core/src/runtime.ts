/**
 * The composition root of core: chooses the adapters for the configuration and wires the
 * domain services. Embedded mode: local-disk blobs, LevelDB state and the in-process
 * queue, all under `SLIDEWRIGHT_DATA_DIR`. Distributed wiring replaces each one that is
 * configured: `REDIS_URL` → Redis state, `S3_ENDPOINT` → S3/MinIO files, `NATS_URL` →
 * JetStream jobs.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { createLogger } from './observability/logger.js';
import type { Config } from './config.js';
import { LocalBlobStore } from './adapters/local-blob-store.js';
import { LevelStateStore } from './adapters/level-state-store.js';
import { InProcessQueue } from './adapters/in-process-queue.js';
import { RedisStateStore } from './adapters/redis-state-store.js';
import { S3BlobStore } from './adapters/s3-blob-store.js';
import { JetStreamQueue } from './adapters/jetstream-queue.js';
import type { StateStore } from './ports/state-store.js';
import type { BlobStore } from './ports/blob-store.js';
import type { JobQueue } from './ports/job-queue.js';
import { UrlSigner } from './services/signing.js';
import { WebhookNotifier } from './services/webhooks.js';
import { CpuPool } from './threads/cpu-pool.js';
import { TemplateService } from './services/template-service.js';
import { AnalysisService } from './services/analysis-service.js';
import { GenerationService, recentTemplateFiles } from './services/generation-service.js';
import { ChartUpdateService } from './services/chart-update.js';
import { PreviewService } from './services/preview-service.js';
import { PdfService } from './services/pdf-service.js';
import { MatchService } from './services/match-service.js';
import { Authenticator, isValidOrgName } from './services/auth.js';
import type { ServiceDeps } from './services/deps.js';

export interface CoreRuntime {
  deps: ServiceDeps;
  auth: Authenticator;
  templates: TemplateService;
  analyses: AnalysisService;
  generations: GenerationService;
  /** `PUT /presentations/{id}/update-charts`. */
  chartUpdates: ChartUpdateService;
  previews: PreviewService;
  /** PDF downloads of decks and templates (issue 22). */
  pdfs: PdfService;
  matching: MatchService;
  /** The dev key generated at start when no keys are configured (embedded mode). */
  devKey: string | undefined;
  close(): Promise<void>;
}

/** Which process the runtime is for: it decides what must be configured. */
export type RuntimeRole = 'embedded' | 'core' | 'worker';

export interface RuntimeOptions {
  /**
   * `embedded` (default): one process; secrets and the dev key may be generated into the
   * data directory. `core` and `worker`: separate processes of a distributed deployment,
   * which must share state, files and jobs, so every adapter must be a distributed one.
   */
  role?: RuntimeRole;
}

/**
 * Builds core for `config`: connects the adapters (waiting up to 30 s for each backend to
 * answer) and wires the domain services.
 * @throws Error when a backend cannot be reached, or when a `core`/`worker` role lacks
 *   distributed wiring, or when a `core` role has no `SLIDEWRIGHT_SIGNING_SECRET`
 */
export async function createCoreRuntime(config: Readonly<Config>, log: Logger = createLogger(config), opts: RuntimeOptions = {}): Promise<CoreRuntime> {
  const role = opts.role ?? 'embedded';
  if (role !== 'embedded') {
    const missing = [
      !config.natsUrl && 'NATS_URL',
      !config.redisUrl && 'REDIS_URL',
      !config.s3Endpoint && 'S3_ENDPOINT',
      role === 'core' && !config.signingSecret && 'SLIDEWRIGHT_SIGNING_SECRET',
    ].filter(Boolean);
    if (missing.length > 0) throw new Error(`the ${role} process of a distributed deployment needs ${missing.join(', ')}`);
  }
  const needsDataDir = !config.redisUrl || !config.s3Endpoint || (role === 'embedded' && (!config.signingSecret || !config.apiKeys));
  if (needsDataDir) await mkdir(config.dataDir, { recursive: true });

  const opened: Array<{ close(): Promise<void> }> = [];
  let state: StateStore;
  let blobs: BlobStore;
  let queue: JobQueue;
  try {
    state = config.redisUrl ? await RedisStateStore.open(config.redisUrl, { log: log.child({ component: 'redis' }) }) : await LevelStateStore.open(join(config.dataDir, 'state'));
    opened.push(state);
    blobs = config.s3Endpoint
      ? await S3BlobStore.open({
          endpoint: config.s3Endpoint,
          accessKey: config.s3AccessKey,
          secretKey: config.s3SecretKey,
          bucket: config.s3Bucket,
          region: config.s3Region,
          log: log.child({ component: 's3' }),
        })
      : await LocalBlobStore.open(join(config.dataDir, 'blobs'), log.child({ component: 'blobs' }));
    opened.push(blobs);
    queue = config.natsUrl
      ? await JetStreamQueue.connect({ servers: config.natsUrl, ackWaitMs: config.jobAckWaitMs, name: `slidewright-${role}`, log: log.child({ component: 'jetstream' }) })
      : new InProcessQueue(state);
  } catch (err) {
    for (const a of opened.reverse()) await a.close().catch(() => undefined);
    throw err;
  }
  // Workers sign nothing a client sees; an ephemeral secret keeps them free of the setting.
  const secret =
    config.signingSecret ?? (role === 'worker' ? randomBytes(24).toString('base64url') : await persistentSecret(join(config.dataDir, 'signing-secret')));
  const signer = new UrlSigner(secret, config.publicUrl, config.urlTtlSeconds);
  // core processes build no decks (workers do): only the others warm their threads
  const warmThreads = config.warmUp && role !== 'core';
  const cpu = new CpuPool(config.workerThreads, config.threadYoungGenerationMb, warmThreads, config.threadNice);
  // the threads warm while the rest starts (opening the templates recent decks used);
  // the runtime is returned once they are warm
  const warming = warmThreads ? warmUpThreads(cpu, { state, blobs }, log) : Promise.resolve();
  const webhooks = new WebhookNotifier({
    secret: config.webhookSecret ?? secret,
    orgDefaults: config.orgWebhooks,
    state,
    allow: config.webhookAllow,
    maxDelayMs: config.webhookMaxDelaySeconds * 1000,
    maxAgeMs: config.webhookMaxAgeSeconds * 1000,
    // LevelDB state belongs to this one process: leases an earlier run left are void
    exclusive: !config.redisUrl,
    log: log.child({ component: 'webhooks' }),
  });
  try {
    await webhooks.checkOrgDefaults();
  } catch (err) {
    await warming;
    await queue.close().catch(() => undefined);
    await cpu.close();
    for (const a of opened.reverse()) await a.close().catch(() => undefined);
    throw err;
  }
  const deps: ServiceDeps = { config, state, blobs, queue, signer, cpu, webhooks, log };

  let keys = config.apiKeys;
  let devKey: string | undefined;
  if (!keys && role !== 'embedded') {
    keys = new Map(); // distributed: only configured keys (and X-Org-Name in dev mode)
  } else if (!keys) {
    devKey = await persistentSecret(join(config.dataDir, 'dev-api-key'), 'sw_dev_');
    keys = new Map([[devKey, 'dev']]);
  }
  for (const org of keys.values()) if (!isValidOrgName(org)) throw new Error(`SLIDEWRIGHT_API_KEYS names an invalid organization "${org}"`);

  await warming;

  const templates = new TemplateService(deps);
  const analyses = new AnalysisService(deps, templates);
  const generations = new GenerationService(deps);
  const previews = new PreviewService(deps, templates);
  const matching = new MatchService(deps);
  analyses.onStarted = (template, bytes) => void previews.prerender(template, bytes);
  webhooks.start();
  // workers create no templates: the embedded and core processes sweep expired upload initiations
  const sweeper = role === 'worker' ? { stop() {}, done: async () => undefined } : startUploadExpirySweep(templates, config.uploadExpirySeconds, log);
  return {
    deps,
    auth: new Authenticator(keys, config.devMode),
    templates,
    analyses,
    generations,
    chartUpdates: new ChartUpdateService(deps, generations),
    previews,
    pdfs: new PdfService(deps, templates, generations),
    matching,
    devKey,
    async close() {
      sweeper.stop();
      await queue.close();
      // no job runs now; the previews pre-rendering beside finished analyses end before the threads and stores close
      await previews.settled();
      await webhooks.close();
      await sweeper.done();
      await cpu.close();
      await blobs.close();
      await state.close();
    },
  };
}

/**
 * Warms the CPU threads ({@link CpuPool.warmUp}); a failure is logged, not thrown: the
 * service works with cold threads, only slower at first.
 */
async function warmUpThreads(cpu: CpuPool, stores: Pick<ServiceDeps, 'state' | 'blobs'>, log: Logger): Promise<void> {
  try {
    const templates = await recentTemplateFiles(stores).catch(() => []);
    const r = await cpu.warmUp(undefined, templates);
    log.info(
      {
        threads: r.threads.length,
        total_ms: Math.round(r.totalMs),
        rounds_ms: r.threads.map((t) => t.roundsMs.map(Math.round)),
        templates_opened: r.threads.map((t) => t.templatesOpened),
        templates_ms: r.threads.map((t) => Math.round(t.templatesMs)),
        render_ms: r.threads.map((t) => Math.round(t.renderMs)),
        analysis_ms: r.threads.map((t) => Math.round(t.analysisMs)),
      },
      'CPU threads warmed up',
    );
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'CPU thread warm-up failed; threads start cold');
  }
}

/**
 * Deletes expired upload initiations ({@link TemplateService.expireUploads}) soon after
 * start and then every half expiry period (at least every second, at most every ten
 * minutes). Reads hide expired ones in between, so the period only bounds how long their
 * records stay stored.
 * @param expirySeconds - `SLIDEWRIGHT_UPLOAD_EXPIRY`, seconds
 */
function startUploadExpirySweep(templates: TemplateService, expirySeconds: number, log: Logger): { stop(): void; done(): Promise<void> } {
  const periodMs = Math.min(600_000, Math.max(1_000, (expirySeconds * 1000) / 2));
  let running: Promise<void> | undefined;
  let stopped = false;
  const sweep = (): void => {
    if (running || stopped) return;
    running = templates
      .expireUploads()
      .then((n) => {
        if (n > 0) log.info({ removed: n }, 'expired upload initiations removed');
      })
      .catch((err: unknown) => log.warn({ err: (err as Error).message }, 'could not remove expired upload initiations; will try again'))
      .finally(() => (running = undefined));
  };
  const first = setTimeout(sweep, Math.min(periodMs, 5_000));
  const timer = setInterval(sweep, periodMs);
  first.unref();
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
    },
    done: async () => {
      await running;
    },
  };
}

/** A random secret kept in `file`, created on first use, so it survives restarts. */
async function persistentSecret(file: string, prefix = ''): Promise<string> {
  try {
    const s = (await readFile(file, 'utf8')).trim();
    if (s) return s;
  } catch {
    /* first start */
  }
  const s = `${prefix}${randomBytes(24).toString('base64url')}`;
  await writeFile(file, `${s}\n`, { mode: 0o600 });
  return s;
}
