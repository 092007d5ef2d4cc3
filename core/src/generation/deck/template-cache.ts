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
 * Bounded by entries and by the templates' uncompressed bytes; least recently used go first.
 */
import { createHash } from 'node:crypto';

/** Most templates kept per thread. */
export const TEMPLATE_CACHE_ENTRIES = 8;
/**
 * Most bytes of templates kept per thread, counted uncompressed (every part's bytes; the
 * trees parsed from the XML parts a build used come on top, a few times their size).
 */
export const TEMPLATE_CACHE_BYTES = 128 * 1024 * 1024;
/** Largest template kept, uncompressed bytes: a bigger one is opened for each build. */
export const TEMPLATE_CACHE_MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/** An LRU of opened templates by content hash. */
export class TemplateCache<T> {
  private readonly entries = new Map<string, { value: T; bytes: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries = TEMPLATE_CACHE_ENTRIES,
    private readonly maxBytes = TEMPLATE_CACHE_BYTES,
    private readonly maxEntryBytes = TEMPLATE_CACHE_MAX_ENTRY_BYTES,
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

  /**
   * Keeps `value` (a template of `size` uncompressed bytes) unless it is larger than the
   * per-entry bound; older entries go until the bounds hold.
   */
  set(key: string, value: T, size: number): void {
    if (size > this.maxEntryBytes || size > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, bytes: size });
    this.total += size;
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
