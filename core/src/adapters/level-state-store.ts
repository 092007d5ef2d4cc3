import { ClassicLevel } from 'classic-level';
import type { StateOp, StateStore } from '../ports/state-store.js';

/**
 * Durable embedded state store on LevelDB (classic-level): every write is journaled before
 * it resolves, so a restart loses nothing. Read-modify-write updates are serialized in
 * process (embedded mode has one process), and multi-key changes go in one atomic batch.
 */
export class LevelStateStore implements StateStore {
  private readonly db: ClassicLevel<string, string>;
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(db: ClassicLevel<string, string>) {
    this.db = db;
  }

  /** Opens (creating if needed) the store in folder `dir`. */
  static async open(dir: string): Promise<LevelStateStore> {
    const db = new ClassicLevel<string, string>(dir, { valueEncoding: 'utf8', keyEncoding: 'utf8' });
    await db.open();
    return new LevelStateStore(db);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const v = await this.db.get(key);
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }

  put(key: string, value: unknown): Promise<void> {
    return this.serial(() => this.db.put(key, JSON.stringify(value), { sync: true }));
  }

  del(key: string): Promise<void> {
    return this.serial(() => this.db.del(key, { sync: true }));
  }

  batch(ops: readonly StateOp[]): Promise<void> {
    return this.serial(() => this.writeBatch(ops));
  }

  async scan<T>(prefix: string): Promise<Array<[string, T]>> {
    const out: Array<[string, T]> = [];
    for await (const [k, v] of this.db.iterator({ gte: prefix, lt: `${prefix}\uffff` })) out.push([k, JSON.parse(v) as T]);
    return out;
  }

  update<T>(key: string, fn: (current: T | undefined) => { value: T | undefined; also?: readonly StateOp[] }): Promise<T | undefined> {
    return this.serial(async () => {
      const current = await this.get<T>(key);
      const { value, also = [] } = fn(current);
      const ops: StateOp[] = [value === undefined ? { type: 'del', key } : { type: 'put', key, value }, ...also];
      await this.writeBatch(ops);
      return value;
    });
  }

  transact<R>(keys: readonly string[], fn: (current: unknown[]) => { ops: readonly StateOp[]; result: R }): Promise<R> {
    return this.serial(async () => {
      const current = await Promise.all(keys.map((k) => this.get<unknown>(k)));
      const { ops, result } = fn(current);
      if (ops.length > 0) await this.writeBatch(ops);
      return result;
    });
  }

  async close(): Promise<void> {
    await this.tail.catch(() => undefined);
    await this.db.close();
  }

  private async writeBatch(ops: readonly StateOp[]): Promise<void> {
    const b = this.db.batch();
    for (const op of ops) {
      if (op.type === 'put') b.put(op.key, JSON.stringify(op.value));
      else b.del(op.key);
    }
    await b.write({ sync: true });
  }

  /** Runs writes one after another so read-modify-write sequences never interleave. */
  private serial<R>(fn: () => Promise<R>): Promise<R> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
