/**
 * The composition root of core: chooses the adapters for the configuration and wires the
 * domain services. Embedded mode: local-disk blobs, LevelDB state and the in-process
 * queue, all under `SLIDEWRIGHT_DATA_DIR`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';
import type { Config } from './config.js';
import { LocalBlobStore } from './adapters/local-blob-store.js';
import { LevelStateStore } from './adapters/level-state-store.js';
import { InProcessQueue } from './adapters/in-process-queue.js';
import { UrlSigner } from './services/signing.js';
import { CpuPool } from './threads/cpu-pool.js';
import { TemplateService } from './services/template-service.js';
import { AnalysisService } from './services/analysis-service.js';
import { GenerationService } from './services/generation-service.js';
import { Authenticator, isValidOrgName } from './services/auth.js';
import type { ServiceDeps } from './services/deps.js';

export interface CoreRuntime {
  deps: ServiceDeps;
  auth: Authenticator;
  templates: TemplateService;
  analyses: AnalysisService;
  generations: GenerationService;
  /** The dev key generated at start when no keys are configured (embedded mode). */
  devKey: string | undefined;
  close(): Promise<void>;
}

/**
 * Builds core for `config`.
 * @throws Error when distributed wiring is configured (its adapters are not part of this build)
 */
export async function createCoreRuntime(config: Readonly<Config>, log: Logger = pino({ level: config.logLevel })): Promise<CoreRuntime> {
  if (!config.embedded) throw new Error('distributed adapters (NATS_URL, REDIS_URL, S3_ENDPOINT) are not available in this build; unset them for embedded mode');
  await mkdir(config.dataDir, { recursive: true });
  const state = await LevelStateStore.open(join(config.dataDir, 'state'));
  const blobs = new LocalBlobStore(join(config.dataDir, 'blobs'));
  const queue = new InProcessQueue(state);
  const secret = config.signingSecret ?? (await persistentSecret(join(config.dataDir, 'signing-secret')));
  const signer = new UrlSigner(secret, config.publicUrl, config.urlTtlSeconds);
  const cpu = new CpuPool(config.workerThreads);
  const deps: ServiceDeps = { config, state, blobs, queue, signer, cpu, log };

  let keys = config.apiKeys;
  let devKey: string | undefined;
  if (!keys) {
    devKey = await persistentSecret(join(config.dataDir, 'dev-api-key'), 'sw_dev_');
    keys = new Map([[devKey, 'dev']]);
  }
  for (const org of keys.values()) if (!isValidOrgName(org)) throw new Error(`SLIDEWRIGHT_API_KEYS names an invalid organization "${org}"`);

  const templates = new TemplateService(deps);
  const analyses = new AnalysisService(deps, templates);
  const generations = new GenerationService(deps);
  return {
    deps,
    auth: new Authenticator(keys, config.devMode),
    templates,
    analyses,
    generations,
    devKey,
    async close() {
      await queue.close();
      await cpu.close();
      await blobs.close();
      await state.close();
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
