/**
 * Records and indexes: templates, analyses, generation jobs, the slide-id index, per
 * organization counters. Values are JSON. Embedded mode uses a durable embedded store;
 * distributed mode Redis (atomic multi-key updates through MULTI or Lua).
 */
export type StateOp = { type: 'put'; key: string; value: unknown } | { type: 'del'; key: string };

export interface StateStore {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
  /** Applies every operation or none. */
  batch(ops: readonly StateOp[]): Promise<void>;
  /** Every entry whose key starts with `prefix`, in key order. */
  scan<T>(prefix: string): Promise<Array<[string, T]>>;
  /**
   * Atomic read-modify-write of one key, serialized against every other update of it:
   * `fn` gets the current value and returns the new one (undefined deletes) and extra
   * operations applied in the same atomic step.
   *
   * A distributed store may run `fn` more than once (optimistic concurrency: it retries
   * when the key changed between read and write), so `fn` should only compute; a decision
   * that writes nothing (same value, no extra operations) is final at once.
   */
  update<T>(key: string, fn: (current: T | undefined) => { value: T | undefined; also?: readonly StateOp[] }): Promise<T | undefined>;
  /**
   * Atomic read-modify-write over several keys: `fn` gets their current values (in `keys`
   * order, undefined when absent) and returns the operations to apply together, plus a
   * result to hand back. No other update interleaves. As with `update`, `fn` may run more
   * than once in a distributed store; returning no operations ends it at once.
   */
  transact<R>(keys: readonly string[], fn: (current: unknown[]) => { ops: readonly StateOp[]; result: R }): Promise<R>;
  close(): Promise<void>;
}
