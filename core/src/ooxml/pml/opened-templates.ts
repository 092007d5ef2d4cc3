/**
 * The templates a thread has opened, and what it knows of them: one registry per thread
 * (each worker thread loads its own copy of this module) instead of a cache beside every
 * reader.
 *
 * A template is immutable once uploaded (its id names fixed bytes), and nothing that reads
 * an opened package changes it. So the inflated package, its parsed parts, its reading
 * model ({@link PmlModel}) and the facts derived from them (decoded pictures, generation's
 * placeholders and content keys) can serve every later request for the same bytes on this
 * thread — the common case of a service working from a team's few templates.
 *
 * Two kinds of state, both here:
 *
 * - {@link OpenedTemplates.factsOf}: the facts of a package *object*, whoever opened it
 *   (the reading model, decoded pictures). They live exactly as long as the package object:
 *   held weakly by it, they go with it and need no bound of their own.
 * - Templates kept between requests, by content key (the SHA-256 of the file): the package
 *   rendering reads ({@link OpenedTemplates.readPackage}) and what a consumer derives per
 *   template ({@link OpenedTemplates.slot}, e.g. generation's opened template). Bounded by
 *   entries and by the uncompressed bytes of the packages they hold; least recently used go
 *   first, and a template larger than {@link OPENED_TEMPLATE_MAX_BYTES} is used but not kept.
 */
import { createHash } from 'node:crypto';
import { OpcPackage } from '../opc/package.js';
import { PmlModel } from './parts.js';

/** Most templates kept per thread. */
export const OPENED_TEMPLATES_ENTRIES = 8;
/**
 * Most bytes of templates kept per thread, counted uncompressed (every part's bytes of each
 * package an entry holds; the trees parsed from the XML parts come on top, a few times their
 * size).
 */
export const OPENED_TEMPLATES_BYTES = 128 * 1024 * 1024;
/** Largest package kept, uncompressed bytes: a bigger one is opened for each request. */
export const OPENED_TEMPLATE_MAX_BYTES = 64 * 1024 * 1024;

/** A kind of fact derived from an opened package, made on first use by `make`. */
export class FactKind<T> {
  constructor(
    /** For diagnostics. */
    readonly name: string,
    readonly make: (facts: PackageFacts) => T,
  ) {}
}

/** What is known of one opened package object: its reading model and facts derived from it, each made once. */
export class PackageFacts {
  private readonly made = new Map<FactKind<unknown>, unknown>();
  private pml?: PmlModel;

  constructor(readonly pkg: OpcPackage) {}

  /** The package's PresentationML reading model, built on first use. */
  get model(): PmlModel {
    return (this.pml ??= new PmlModel(this.pkg));
  }

  /** The fact of `kind` for this package, made on first use. */
  of<T>(kind: FactKind<T>): T {
    if (this.made.has(kind)) return this.made.get(kind) as T;
    const value = kind.make(this);
    this.made.set(kind, value);
    return value;
  }
}

/** Values one consumer keeps per template, by content key, under the registry's bounds. */
export interface TemplateSlot<T> {
  get(key: string): T | undefined;
  /** Keeps `value`, which holds `bytes` uncompressed bytes of package, unless that is over the per-template bound. */
  set(key: string, value: T, bytes: number): void;
}

interface Entry {
  /** By slot name. */
  readonly values: Map<string, { value: unknown; bytes: number }>;
  bytes: number;
}

/** Slot of the package rendering and PDF export read ({@link OpenedTemplates.readPackage}). */
const READ_PACKAGE = 'package';

/** A thread's opened templates (see the module comment). */
export class OpenedTemplates {
  private readonly facts = new WeakMap<OpcPackage, PackageFacts>();
  /** Most recently used last. */
  private readonly entries = new Map<string, Entry>();
  private total = 0;

  constructor(
    private readonly maxEntries = OPENED_TEMPLATES_ENTRIES,
    private readonly maxBytes = OPENED_TEMPLATES_BYTES,
    private readonly maxEntryBytes = OPENED_TEMPLATE_MAX_BYTES,
  ) {}

  /** The content key of a template's bytes (SHA-256, hex). */
  static keyOf(bytes: Uint8Array): string {
    return createHash('sha256').update(bytes).digest('hex');
  }

  /** The facts of `pkg` (its reading model and derived facts), which live as long as `pkg` does. */
  factsOf(pkg: OpcPackage): PackageFacts {
    let f = this.facts.get(pkg);
    if (!f) {
      f = new PackageFacts(pkg);
      this.facts.set(pkg, f);
    }
    return f;
  }

  /** The reading model of `pkg`, one per package object. */
  modelOf(pkg: OpcPackage): PmlModel {
    return this.factsOf(pkg).model;
  }

  /**
   * The package of `bytes` opened for reading (rendering, PDF export), kept under `key` (the
   * file's content key) so later requests for the same file read the same package, its parsed
   * parts and its facts.
   *
   * @throws what {@link OpcPackage.open} throws (the failure is not kept)
   */
  readPackage(key: string, bytes: Uint8Array): Promise<OpcPackage> {
    const kept = this.slot<Promise<OpcPackage>>(READ_PACKAGE);
    const known = kept.get(key);
    if (known) return known;
    const opening = OpcPackage.open(bytes);
    // held while it opens (counted as nothing yet), so requests meanwhile share it
    kept.set(key, opening, 0);
    opening.then(
      (pkg) => {
        if (this.entries.get(key)?.values.get(READ_PACKAGE)?.value === opening) kept.set(key, opening, pkg.totalBytes());
      },
      () => {
        if (this.entries.get(key)?.values.get(READ_PACKAGE)?.value === opening) this.drop(key, READ_PACKAGE);
      },
    );
    return opening;
  }

  /** Content keys of the templates whose package for reading is kept, least recently used first. */
  readPackageKeys(): string[] {
    return [...this.entries].filter(([, e]) => e.values.has(READ_PACKAGE)).map(([k]) => k);
  }

  /** The values `name` keeps per template (e.g. generation's opened templates). */
  slot<T>(name: string): TemplateSlot<T> {
    return {
      get: (key) => {
        const entry = this.entries.get(key);
        const hit = entry?.values.get(name);
        if (!entry || !hit) return undefined;
        this.entries.delete(key);
        this.entries.set(key, entry);
        return hit.value as T;
      },
      set: (key, value, bytes) => this.keep(key, name, value, bytes),
    };
  }

  /** Forgets every kept template (facts of package objects still in use stay with them). */
  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  private keep(key: string, name: string, value: unknown, bytes: number): void {
    let entry = this.entries.get(key);
    const old = entry?.values.get(name);
    const entryBytes = (entry?.bytes ?? 0) - (old?.bytes ?? 0) + bytes;
    if (entryBytes > this.maxEntryBytes || entryBytes > this.maxBytes) {
      if (old) this.drop(key, name);
      return;
    }
    if (!entry) entry = { values: new Map(), bytes: 0 };
    else this.entries.delete(key);
    entry.values.set(name, { value, bytes });
    this.total += entryBytes - entry.bytes;
    entry.bytes = entryBytes;
    this.entries.set(key, entry);
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.total <= this.maxBytes) break;
      this.entries.delete(k);
      this.total -= e.bytes;
    }
  }

  private drop(key: string, name: string): void {
    const entry = this.entries.get(key);
    const old = entry?.values.get(name);
    if (!entry || !old) return;
    entry.values.delete(name);
    entry.bytes -= old.bytes;
    this.total -= old.bytes;
    if (entry.values.size === 0) this.entries.delete(key);
  }
}

/** This thread's opened templates. */
export const openedTemplates = new OpenedTemplates();
