/**
 * State store on Redis (distributed mode): every record as a JSON string under
 * `<ns>v:<key>`, and one sorted set `<ns>idx` holding every key (all with score 0) so
 * prefix scans walk the index with ZRANGEBYLEX instead of KEYS/SCAN over the keyspace.
 *
 * Every write goes through one Lua script, which Redis runs atomically: it first checks
 * that the keys a read-modify-write read still hold what was read (optimistic concurrency,
 * like WATCH/MULTI but on a shared connection), then applies the operations and keeps the
 * index in step. `update` and `transact` retry when a check fails, so they are serialized
 * against every other update of the same keys across all processes.
 *
 * Persistence is Redis's: run it with `appendonly yes` (AOF) and `appendfsync everysec`
 * (at most one second of writes lost on a power cut) or `always` (none); see README.
 * Standalone Redis (or Sentinel); Redis Cluster is not supported (multi-key scripts).
 */
import { createHash } from 'node:crypto';
import { createClient, ErrorReply } from 'redis';
import type { Logger } from 'pino';
import type { StateOp, StateStore } from '../ports/state-store.js';
import { ServiceError } from '../errors.js';

/** Marks "key absent" in the script's expected values (a JSON text is never empty). */
const ABSENT = '';

const APPLY_SCRIPT = `
local idx = KEYS[1]
local nchecks = tonumber(ARGV[1])
local plen = tonumber(ARGV[2])
for i = 1, nchecks do
  local cur = redis.call('GET', KEYS[1 + i])
  if cur == false then cur = '' end
  if cur ~= ARGV[2 + i] then return 0 end
end
local nops = #KEYS - 1 - nchecks
for j = 1, nops do
  local k = KEYS[1 + nchecks + j]
  local member = string.sub(k, plen + 1)
  if ARGV[2 + nchecks + 2 * j - 1] == 'p' then
    redis.call('SET', k, ARGV[2 + nchecks + 2 * j])
    redis.call('ZADD', idx, 0, member)
  else
    redis.call('DEL', k)
    redis.call('ZREM', idx, member)
  end
end
return 1
`;
const APPLY_SHA = createHash('sha1').update(APPLY_SCRIPT).digest('hex');

export interface RedisStateStoreOptions {
  /** Key namespace, so several deployments can share one Redis database. Default `sw:`. */
  namespace?: string;
  /** Attempts of one optimistic update before giving up (contention). Default 200. */
  maxAttempts?: number;
  log?: Logger;
}

type Client = ReturnType<typeof createClient>;

/**
 * Redis-backed {@link StateStore}. Open with {@link RedisStateStore.open}.
 *
 * When Redis cannot be reached every call rejects at once (no offline queue) with a
 * `ServiceError` of kind `unavailable`, which clients see as 503; the client keeps
 * reconnecting in the background and calls succeed again once Redis is back.
 */
export class RedisStateStore implements StateStore {
  private readonly ns: string;
  private readonly idx: string;
  private readonly maxAttempts: number;

  private constructor(
    private readonly client: Client,
    opts: RedisStateStoreOptions,
  ) {
    this.ns = opts.namespace ?? 'sw:';
    this.idx = `${this.ns}idx`;
    this.maxAttempts = opts.maxAttempts ?? 200;
  }

  /**
   * Connects to `url` (e.g. `redis://127.0.0.1:6379/0`). Waits for the first connection,
   * retrying every second for up to `connectTimeoutMs` (default 30 000 ms).
   * @throws Error when Redis cannot be reached in that time
   */
  static async open(url: string, opts: RedisStateStoreOptions & { connectTimeoutMs?: number } = {}): Promise<RedisStateStore> {
    const log = opts.log;
    const client = createClient({
      url,
      disableOfflineQueue: true,
      pingInterval: 5_000,
      socket: {
        connectTimeout: 5_000,
        // Keep trying forever, at most one second apart: the service recovers by itself.
        reconnectStrategy: (retries: number) => Math.min(1_000, 50 * 2 ** Math.min(retries, 10)),
      },
    });
    let lastError = '';
    client.on('error', (err: Error) => {
      if (err.message !== lastError) log?.warn({ err: err.message }, 'redis connection error');
      lastError = err.message;
    });
    client.on('ready', () => {
      if (lastError) log?.info('redis connection restored');
      lastError = '';
    });
    const deadline = Date.now() + (opts.connectTimeoutMs ?? 30_000);
    const connecting = client.connect();
    for (;;) {
      const result = await Promise.race([connecting.then(() => 'ok' as const), new Promise<'wait'>((r) => setTimeout(() => r('wait'), 250))]);
      if (result === 'ok') break;
      if (Date.now() > deadline) {
        client.destroy();
        throw new Error(`cannot connect to Redis at ${redactUrl(url)}: ${lastError || 'timed out'}`);
      }
    }
    return new RedisStateStore(client as Client, opts);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const raw = await this.call(() => this.client.get(this.vkey(key)));
    return raw === null || raw === undefined ? undefined : (JSON.parse(String(raw)) as T);
  }

  async put(key: string, value: unknown): Promise<void> {
    await this.apply([], [{ type: 'put', key, value }]);
  }

  async del(key: string): Promise<void> {
    await this.apply([], [{ type: 'del', key }]);
  }

  async batch(ops: readonly StateOp[]): Promise<void> {
    if (ops.length > 0) await this.apply([], ops);
  }

  async scan<T>(prefix: string): Promise<Array<[string, T]>> {
    const max = Buffer.concat([Buffer.from(`[${prefix}`), Buffer.from([0xff])]);
    const members = (await this.call(() => this.client.zRangeByLex(this.idx, `[${prefix}`, max))) as string[];
    const out: Array<[string, T]> = [];
    for (let i = 0; i < members.length; i += 500) {
      const chunk = members.slice(i, i + 500);
      const values = await this.call(() => this.client.mGet(chunk.map((k) => this.vkey(k))));
      chunk.forEach((k, j) => {
        const v = values[j];
        if (v !== null && v !== undefined) out.push([k, JSON.parse(String(v)) as T]);
      });
    }
    return out;
  }

  async update<T>(key: string, fn: (current: T | undefined) => { value: T | undefined; also?: readonly StateOp[] }): Promise<T | undefined> {
    return this.optimistic([key], ([raw]) => {
      const current = raw === ABSENT ? undefined : (JSON.parse(raw!) as T);
      const { value, also = [] } = fn(current);
      const unchanged = also.length === 0 && (value === undefined ? raw === ABSENT : JSON.stringify(value) === raw);
      const ops: StateOp[] = unchanged ? [] : [value === undefined ? { type: 'del', key } : { type: 'put', key, value }, ...also];
      return { ops, result: value };
    });
  }

  async transact<R>(keys: readonly string[], fn: (current: unknown[]) => { ops: readonly StateOp[]; result: R }): Promise<R> {
    return this.optimistic(keys, (raws) => fn(raws.map((r) => (r === ABSENT ? undefined : (JSON.parse(r) as unknown)))));
  }

  async close(): Promise<void> {
    try {
      await this.client.close();
    } catch {
      this.client.destroy();
    }
  }

  /**
   * Reads `keys`, lets `fn` decide, and applies its operations only if none of the keys
   * changed meanwhile; otherwise starts over. A decision that writes nothing needs no
   * check: the values came from one atomic read.
   */
  private async optimistic<R>(keys: readonly string[], fn: (raw: string[]) => { ops: readonly StateOp[]; result: R }): Promise<R> {
    for (let attempt = 1; ; attempt++) {
      const raws = keys.length === 0 ? [] : await this.call(() => this.client.mGet(keys.map((k) => this.vkey(k))));
      const current = raws.map((r) => (r === null || r === undefined ? ABSENT : String(r)));
      const { ops, result } = fn(current);
      if (ops.length === 0) return result;
      if (await this.apply(keys.map((k, i) => [k, current[i]!] as [string, string]), ops)) return result;
      if (attempt >= this.maxAttempts) throw new ServiceError('unavailable', `state store contention: ${keys.join(', ')} kept changing`);
      if (attempt > 3) await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, attempt * 2)));
    }
  }

  /** Runs the apply script: checks, then operations. @returns false when a check failed */
  private async apply(checks: ReadonlyArray<[string, string]>, ops: readonly StateOp[]): Promise<boolean> {
    const keys = [this.idx, ...checks.map(([k]) => this.vkey(k)), ...ops.map((op) => this.vkey(op.key))];
    const args = [String(checks.length), String(this.ns.length + 2), ...checks.map(([, v]) => v)];
    for (const op of ops) args.push(op.type === 'put' ? 'p' : 'd', op.type === 'put' ? JSON.stringify(op.value) : '');
    const run = async (): Promise<unknown> => {
      try {
        return await this.client.evalSha(APPLY_SHA, { keys, arguments: args });
      } catch (err) {
        if (err instanceof ErrorReply && err.message.startsWith('NOSCRIPT')) return this.client.eval(APPLY_SCRIPT, { keys, arguments: args });
        throw err;
      }
    };
    return Number(await this.call(run)) === 1;
  }

  private vkey(key: string): string {
    return `${this.ns}v:${key}`;
  }

  /** Runs a Redis call; connection failures become `ServiceError('unavailable')`. */
  private async call<R>(fn: () => Promise<R>): Promise<R> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ErrorReply) throw err;
      throw new ServiceError('unavailable', `the state store (Redis) is unavailable: ${(err as Error).message}`, {}, { cause: err });
    }
  }
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}
