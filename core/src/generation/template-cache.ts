/**
 * Opened templates kept between builds, per thread, keyed by the SHA-256 of their bytes.
 *
 * A template is immutable once uploaded (its id names fixed bytes), and generation never
 * changes an opened template: slides, masters and the presentation part are copied before
 * they are edited. So the inflated package, its parsed parts and the facts derived from
 * them (placeholders, content keys, reading model) can serve every later deck built from
 * the same bytes on this thread, which is the common case of a service generating many
 * decks from a team's few templates.
 *
 * Bounded by entries and by the templates' file bytes; least recently used go first.
 */
import { createHash } from 'node:crypto';

/** Most templates kept per thread. */
export const TEMPLATE_CACHE_ENTRIES = 8;
/** Most template file bytes kept per thread (parsed trees take a few times more), bytes. */
export const TEMPLATE_CACHE_BYTES = 48 * 1024 * 1024;

/** An LRU of opened templates by content hash. */
export class TemplateCache<T> {
  private readonly entries = new Map<string, { value: T; bytes: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries = TEMPLATE_CACHE_ENTRIES,
    private readonly maxBytes = TEMPLATE_CACHE_BYTES,
  ) {}

  /** The key of a template's bytes. */
  static keyOf(bytes: Uint8Array): string {
    return createHash('sha256').update(bytes).digest('hex');
  }

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    // most recently used last
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  /** Keeps `value` unless its file alone is larger than the byte bound. */
  set(key: string, value: T, fileBytes: number): void {
    if (fileBytes > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, bytes: fileBytes });
    this.total += fileBytes;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.total <= this.maxBytes) break;
      this.entries.delete(k);
      this.total -= e.bytes;
    }
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}
