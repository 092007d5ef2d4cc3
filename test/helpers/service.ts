/**
 * Starts a real Slidewright in embedded mode for a test: its own data directory and free
 * ports, keys for two organizations, stopped by the test's teardown.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../core/src/config.js';
import { startEmbedded, type EmbeddedService } from '../../main/embedded.js';

export const ORG_A = { key: 'key-acme-0123456789', org: 'acme' };
export const ORG_B = { key: 'key-globex-0123456789', org: 'globex' };

export interface TestService extends EmbeddedService {
  dataDir: string;
  /** fetch against the service with organization A's key unless `headers` say otherwise. */
  api(path: string, init?: RequestInit & { json?: unknown; as?: { key: string } | null }): Promise<Response>;
}

/**
 * With `SLIDEWRIGHT_TEST_TOPOLOGY=distributed` the same suites run against a distributed
 * deployment instead: NATS, Redis and an S3 server of their own, and separate core,
 * gateway and worker processes (test/helpers/distributed.ts).
 */
export async function startTestService(env: Record<string, string> = {}, dataDir?: string): Promise<TestService> {
  if (process.env.SLIDEWRIGHT_TEST_TOPOLOGY === 'distributed' && !dataDir) {
    const { startBackends, startCluster } = await import('./distributed.js');
    const backends = await startBackends();
    const cluster = await startCluster(backends, { workers: 2, env });
    return {
      ...cluster.service,
      async close() {
        await cluster.close();
        await backends.close();
      },
    };
  }
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'slidewright-test-'));
  const config = loadConfig({
    PORT: '0',
    GRPC_PORT: '0',
    SLIDEWRIGHT_DATA_DIR: dir,
    SLIDEWRIGHT_API_KEYS: `${ORG_A.key}:${ORG_A.org},${ORG_B.key}:${ORG_B.org}`,
    SLIDEWRIGHT_DEV_MODE: '0',
    LOG_LEVEL: 'error',
    // threads run the TypeScript sources through tsx here: warming both at every start
    // would cost seconds each; the tests of the warm-up turn it on
    SLIDEWRIGHT_WARMUP: '0',
    // tap runs two test files at once: CPU threads at a lowered priority (the default) would
    // yield to the other file's work (LibreOffice, builds) rather than to this service's
    // requests, and slow every build of the suite; thread-priority.test.ts tests the lowering
    SLIDEWRIGHT_THREAD_NICE: '0',
    ...env,
  });
  const service = await startEmbedded(config);
  const base = service.url;
  return {
    ...service,
    dataDir: dir,
    api(path, init = {}) {
      const headers = new Headers(init.headers);
      const as = init.as === undefined ? ORG_A : init.as;
      if (as) headers.set('x-api-key', as.key);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(init.json);
      }
      return fetch(path.startsWith('http') ? path : `${base}${path}`, { ...init, headers, body });
    },
    async close() {
      await service.close();
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `fn` every `intervalMs` until it returns a value, or throws after `timeoutMs`. */
export async function waitFor<T>(fn: () => Promise<T | undefined>, timeoutMs = 120_000, intervalMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
