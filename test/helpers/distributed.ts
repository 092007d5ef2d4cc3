/**
 * Distributed mode for tests and the benchmark: our own NATS (JetStream), Redis and S3
 * (s3rver) servers on free loopback ports with temporary directories — never the shared
 * instances on 4222/6379 — and Slidewright's core, gateway and worker processes spawned
 * with `node --import tsx`, each of which can be killed, stopped and restarted.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { UrlSigner } from '../../core/src/services/signing.js';
import { repoRoot } from './corpus.js';
import { spawnOwned } from './processes.js';
import { ORG_A, ORG_B, type TestService } from './service.js';

/** A server binary: the variable's path, else the first on PATH or in the sbin folders Debian uses. */
function findBinary(variable: string, name: string): string {
  const given = process.env[variable];
  if (given) return given;
  const dirs = [...(process.env['PATH'] ?? '').split(':'), '/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin'].filter(Boolean);
  return dirs.map((d) => join(d, name)).find((p) => existsSync(p)) ?? name;
}

export const NATS_SERVER = findBinary('NATS_SERVER_BIN', 'nats-server');
export const REDIS_SERVER = findBinary('REDIS_SERVER_BIN', 'redis-server');
export const SIGNING_SECRET = 'distributed-test-signing-secret-0123456789';

/** Why distributed tests cannot run here (a server binary is missing), or undefined. */
export function distributedSkipReason(): string | undefined {
  const missing = [NATS_SERVER, REDIS_SERVER].filter((bin) => spawnSync(bin, ['--version'], { stdio: 'ignore' }).error !== undefined);
  return missing.length ? `distributed-mode tests skipped: ${missing.join(' and ')} not found (install the Debian packages nats-server and redis-server, or set NATS_SERVER_BIN / REDIS_SERVER_BIN)` : undefined;
}

/** A free TCP port on 127.0.0.1 (free when asked; taken right after by the caller). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A child process whose output is kept, with readiness by a line it prints. */
export class Proc {
  readonly lines: string[] = [];
  private waiters: Array<{ re: RegExp; resolve: (line: string) => void }> = [];
  private exitPromise: Promise<number | null>;
  exited = false;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    const onData = (chunk: Buffer): void => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        this.lines.push(line);
        if (process.env['SW_TEST_VERBOSE']) process.stderr.write(`[${name}] ${line}\n`);
        this.waiters = this.waiters.filter((w) => {
          if (!w.re.test(line)) return true;
          w.resolve(line);
          return false;
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    this.exitPromise = new Promise((resolve) =>
      child.once('exit', (code) => {
        this.exited = true;
        resolve(code);
      }),
    );
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Resolves with the first line (printed so far or later) matching `re`. @throws Error on exit or after `timeoutMs` */
  waitForLine(re: RegExp, timeoutMs = 60_000): Promise<string> {
    const seen = this.lines.find((l) => re.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: no line matching ${re} within ${timeoutMs} ms; output:\n${this.lines.slice(-30).join('\n')}`)), timeoutMs);
      const waiter = {
        re,
        resolve: (l: string) => {
          clearTimeout(timer);
          resolve(l);
        },
      };
      this.waiters.push(waiter);
      void this.exitPromise.then((code) => {
        if (!this.waiters.includes(waiter)) return;
        clearTimeout(timer);
        reject(new Error(`${this.name} exited (${code}) before printing ${re}; output:\n${this.lines.slice(-30).join('\n')}`));
      });
    });
  }

  /** Sends `signal` and waits for the exit (SIGKILL after `graceMs`). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<void> {
    if (this.exited) return;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exitPromise;
    clearTimeout(timer);
  }
}

/** A server (NATS or Redis) on a fixed port and directory that can be stopped and started again. */
export class ServerHandle {
  proc: Proc | undefined;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly command: string,
    private readonly args: string[],
    private readonly ready: RegExp,
  ) {}

  /** Starts the server; resolves once it accepts connections. */
  async start(): Promise<void> {
    const child = spawnOwned(undefined, this.command, this.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = new Proc(this.name, child);
    await this.proc.waitForLine(this.ready, 30_000);
  }

  /** Stops the server (SIGTERM: Redis writes its AOF, NATS flushes JetStream). */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await this.proc?.stop(signal);
    this.proc = undefined;
  }
}

export interface Backends {
  dir: string;
  nats: ServerHandle;
  redis: ServerHandle;
  natsUrl: string;
  redisUrl: string;
  s3Endpoint: string;
  s3Port: number;
  /** Stops the S3 server (to simulate its loss) / starts it again on the same port. */
  stopS3(): Promise<void>;
  startS3(): Promise<void>;
  /** The wiring variables every Slidewright process gets. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts NATS with JetStream, Redis with AOF and s3rver, each on a free port with its own temporary directory. */
export async function startBackends(): Promise<Backends> {
  const dir = mkdtempSync(join(tmpdir(), 'sw-dist-'));
  const natsPort = await freePort();
  const redisPort = await freePort();
  const s3Port = await freePort();
  const nats = new ServerHandle('nats', natsPort, NATS_SERVER, ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', join(dir, 'nats')], /Server is ready/);
  const redis = new ServerHandle(
    'redis',
    redisPort,
    REDIS_SERVER,
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--daemonize', 'no', '--protected-mode', 'no'],
    /Ready to accept connections/,
  );
  await Promise.all([nats.start(), redis.start()]);
  let s3: S3rver | undefined;
  const startS3 = async (): Promise<void> => {
    s3 = new S3rver({ port: s3Port, address: '127.0.0.1', silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: 'slidewright', configs: [] }] });
    await s3.run();
  };
  const stopS3 = async (): Promise<void> => {
    await s3?.close();
    s3 = undefined;
  };
  await startS3();
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  const s3Endpoint = `http://127.0.0.1:${s3Port}`;
  return {
    dir,
    nats,
    redis,
    natsUrl,
    redisUrl,
    s3Endpoint,
    s3Port,
    stopS3,
    startS3,
    env: { NATS_URL: natsUrl, REDIS_URL: redisUrl, S3_ENDPOINT: s3Endpoint, S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER', S3_BUCKET: 'slidewright' },
    async close() {
      await stopS3().catch(() => undefined);
      await Promise.all([nats.stop(), redis.stop()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type Role = 'core' | 'gateway' | 'worker';

const ENTRY: Record<Role, string> = {
  core: 'main/core.ts',
  gateway: 'main/gateway.ts',
  worker: 'main/worker.ts',
};
const READY: Record<Role, RegExp> = {
  core: /Slidewright core \(gRPC\) listening/,
  gateway: /Slidewright gateway listening/,
  worker: /Slidewright worker \d+ consuming jobs/,
};

/** What a test run gives every process it starts: its temporary folder and run id (see test/run.ts). */
function inherited(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['TMPDIR', 'SLIDEWRIGHT_TEST_RUN']) if (process.env[k]) out[k] = process.env[k]!;
  return out;
}

/** Spawns one Slidewright process with `env` added to the shared settings; resolves once it is ready. */
export async function spawnRole(role: Role, env: Record<string, string>, name: string = role): Promise<Proc> {
  const child = spawnOwned(undefined, process.execPath, ['--import', 'tsx', ENTRY[role]], {
    cwd: repoRoot,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', NODE_ENV: 'test', ...inherited(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = new Proc(name, child);
  await proc.waitForLine(READY[role], 90_000);
  return proc;
}

export interface ClusterOptions {
  cores?: number;
  gateways?: number;
  workers?: number;
  /** Extra settings for every process. */
  env?: Record<string, string>;
}

/**
 * A running distributed deployment. `api()` goes through gateway 0 (as `TestService` does),
 * so the REST flows of test/helpers/flows.ts run against it unchanged.
 */
export interface Cluster {
  backends: Backends;
  url: string;
  gatewayUrls: string[];
  grpcAddresses: string[];
  cores: Proc[];
  gateways: Proc[];
  workers: Proc[];
  env: Record<string, string>;
  signer: UrlSigner;
  /** The same surface as the embedded test service, for the shared REST flows. */
  service: TestService;
  api(path: string, init?: RequestInit & { json?: unknown; as?: { key: string } | null; gateway?: number }): Promise<Response>;
  addWorker(env?: Record<string, string>): Promise<Proc>;
  /** Stops core `i` (SIGTERM, or SIGKILL) and starts it again on the same port. */
  restartCore(i: number, signal?: NodeJS.Signals): Promise<void>;
  restartGateway(i: number, signal?: NodeJS.Signals): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts core(s), gateway(s) (gateway i talks to core i mod cores) and workers against
 * `backends`. Logs at `info` so tests can read which worker ran which job.
 */
export async function startCluster(backends: Backends, opts: ClusterOptions = {}): Promise<Cluster> {
  const nCores = opts.cores ?? 1;
  const nGateways = opts.gateways ?? 1;
  const grpcPorts = await Promise.all(Array.from({ length: nCores }, freePort));
  const httpPorts = await Promise.all(Array.from({ length: nGateways }, freePort));
  const gatewayUrls = httpPorts.map((p) => `http://127.0.0.1:${p}`);
  const env: Record<string, string> = {
    ...backends.env,
    SLIDEWRIGHT_API_KEYS: `${ORG_A.key}:${ORG_A.org},${ORG_B.key}:${ORG_B.org}`,
    SLIDEWRIGHT_DEV_MODE: '0',
    SLIDEWRIGHT_SIGNING_SECRET: SIGNING_SECRET,
    SLIDEWRIGHT_PUBLIC_URL: gatewayUrls[0]!,
    SLIDEWRIGHT_DATA_DIR: join(backends.dir, 'unused-data'),
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json', // the tests read the log lines as JSON
    SLIDEWRIGHT_WARMUP: '0', // threads from the TypeScript sources: warming them costs seconds a start
    // tap runs two test files at once: lowered CPU threads would yield to the other file's
    // work (LibreOffice, builds), not to this service's requests (test/helpers/service.ts)
    SLIDEWRIGHT_THREAD_NICE: '0',
    ...opts.env,
  };
  const coreEnv = (i: number): Record<string, string> => ({ ...env, GRPC_PORT: String(grpcPorts[i]), SLIDEWRIGHT_GRPC_HOST: '127.0.0.1' });
  const gatewayEnv = (i: number): Record<string, string> => ({
    ...env,
    PORT: String(httpPorts[i]),
    SLIDEWRIGHT_HTTP_HOST: '127.0.0.1',
    CORE_GRPC_ADDR: `127.0.0.1:${grpcPorts[i % nCores]}`,
  });
  const cores = await Promise.all(Array.from({ length: nCores }, (_, i) => spawnRole('core', coreEnv(i), `core${i}`)));
  const gateways = await Promise.all(Array.from({ length: nGateways }, (_, i) => spawnRole('gateway', gatewayEnv(i), `gateway${i}`)));
  const workers: Proc[] = [];
  const addWorker = async (extra: Record<string, string> = {}): Promise<Proc> => {
    const w = await spawnRole('worker', { ...env, ...extra }, `worker${workers.length}`);
    workers.push(w);
    return w;
  };
  await Promise.all(Array.from({ length: opts.workers ?? 1 }, () => addWorker()));
  const signer = new UrlSigner(SIGNING_SECRET, gatewayUrls[0]!, 3600);

  const api: Cluster['api'] = (path, init = {}) => {
    const headers = new Headers(init.headers);
    const as = init.as === undefined ? ORG_A : init.as;
    if (as) headers.set('x-api-key', as.key);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    const base = gatewayUrls[init.gateway ?? 0]!;
    return fetch(path.startsWith('http') ? path : `${base}${path}`, { ...init, headers, body });
  };

  const cluster: Cluster = {
    backends,
    url: gatewayUrls[0]!,
    gatewayUrls,
    grpcAddresses: grpcPorts.map((p) => `127.0.0.1:${p}`),
    cores,
    gateways,
    workers,
    env,
    signer,
    api,
    service: undefined as unknown as TestService,
    addWorker,
    async restartCore(i, signal = 'SIGTERM') {
      await cores[i]!.stop(signal);
      cores[i] = await spawnRole('core', coreEnv(i), `core${i}`);
    },
    async restartGateway(i, signal = 'SIGTERM') {
      await gateways[i]!.stop(signal);
      gateways[i] = await spawnRole('gateway', gatewayEnv(i), `gateway${i}`);
    },
    async close() {
      await Promise.all([...gateways, ...workers].map((p) => p.stop()));
      await Promise.all(cores.map((p) => p.stop()));
    },
  };
  // The REST flows only use `url` and `api`; `core.deps.signer` serves tests that sign URLs themselves.
  cluster.service = {
    url: cluster.url,
    grpcAddress: cluster.grpcAddresses[0]!,
    dataDir: backends.dir,
    core: { deps: { signer } },
    api: (path: string, init?: RequestInit & { json?: unknown; as?: { key: string } | null }) => api(path, init),
    close: () => cluster.close(),
  } as unknown as TestService;
  return cluster;
}

/** Parsed pino lines of a process that carry `msg`. */
export function logEntries(proc: Proc, msg: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const line of proc.lines) {
    if (!line.startsWith('{')) continue;
    try {
      const e = JSON.parse(line) as Record<string, unknown>;
      if (e['msg'] === msg) out.push(e);
    } catch {
      /* not a log line */
    }
  }
  return out;
}
