/**
 * Answers remembered by string key, for work the engine repeats thousands of times on a
 * few dozen distinct inputs (prefixes of qualified names, relative part targets, resolved
 * text styles). The keys come from uploaded files, so a memo holds at most `limit`
 * answers and starts afresh when full instead of growing without end.
 */
export class BoundedMemo<T> {
  private readonly answers = new Map<string, T>();

  /** @param limit - most answers kept at once */
  constructor(private readonly limit = 4096) {}

  /** The answer remembered for `key`, if any. */
  get(key: string): T | undefined {
    return this.answers.get(key);
  }

  /** Remembers `value` for `key` and returns it. */
  set(key: string, value: T): T {
    if (this.answers.size >= this.limit) this.answers.clear();
    this.answers.set(key, value);
    return value;
  }
}
