/**
 * Part names and relationship targets (ECMA-376 Part 2, §9.1 and §9.3).
 *
 * Part names are kept in their absolute form (`/ppt/slides/slide1.xml`). Relationship
 * targets are URIs relative to the source part's folder, resolved per RFC 3986, with
 * `..` above the package root dropped.
 */
import { BoundedMemo } from '../../bounded-memo.js';

/** Folder of a part name, with a trailing slash: `/ppt/slides/slide1.xml` → `/ppt/slides/`. */
export function partFolder(partName: string): string {
  return partName.slice(0, partName.lastIndexOf('/') + 1);
}

/** The relationships part that holds `partName`'s relationships (`/` for the package). */
export function relsPartName(partName: string): string {
  if (partName === '/') return '/_rels/.rels';
  const folder = partFolder(partName);
  return `${folder}_rels/${partName.slice(folder.length)}.rels`;
}

/** The source part a relationships part belongs to, or undefined when `name` is not one. */
export function sourceOfRelsPart(name: string): string | undefined {
  const m = /^(.*\/)_rels\/([^/]*)\.rels$/.exec(name);
  if (!m) return undefined;
  return m[2] === '' ? '/' : `${m[1]}${m[2]}`;
}

/**
 * Resolves an internal relationship target against its source part.
 *
 * @param sourcePartName - absolute part name of the source (`/` for package relationships)
 * @param target - the `Target` attribute, percent-encoded, relative or absolute
 * @returns the absolute part name
 */
export function resolveTarget(sourcePartName: string, target: string): string {
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    /* keep the raw text: a malformed escape is simply not found later */
  }
  // A fragment-only target (`#_ftn1`) points into the source part itself (RFC 3986 §5.2).
  if (decoded.startsWith('#')) return sourcePartName;
  const hash = decoded.indexOf('#');
  if (hash !== -1) decoded = decoded.slice(0, hash);
  const base = decoded.startsWith('/') ? [] : partFolder(sourcePartName === '/' ? '/' : sourcePartName).split('/').filter(Boolean);
  for (const seg of decoded.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') base.pop();
    else base.push(seg);
  }
  return `/${base.join('/')}`;
}

/** Relative target from `sourcePartName`'s folder to `targetPartName`, as Office writes it (`../slideLayouts/slideLayout1.xml`). */
export function relativeTarget(sourcePartName: string, targetPartName: string): string {
  // the answer depends on the source's folder only: every slide shares one per target
  const folder = partFolder(sourcePartName);
  const key = `${folder}\n${targetPartName}`;
  return relativeTargets.get(key) ?? relativeTargets.set(key, computeRelativeTarget(folder, targetPartName));
}

/** Targets computed so far by {@link relativeTarget}, by source folder and target: a deck writes the same few hundreds of times. */
const relativeTargets = new BoundedMemo<string>();

function computeRelativeTarget(folder: string, targetPartName: string): string {
  const from = folder.split('/').filter(Boolean);
  const to = targetPartName.split('/').filter(Boolean);
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const ups = from.length - common;
  const rel = [...Array<string>(ups).fill('..'), ...to.slice(common)].join('/');
  return encodeURI(rel);
}

/** Lower-cased extension of a part name without the dot (`png`), or ''. */
export function extensionOf(partName: string): string {
  const base = partName.slice(partName.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot === -1 ? '' : base.slice(dot + 1).toLowerCase();
}

/**
 * The numbering pattern of part names like `example`: same folder, stem without its
 * trailing digits, `%d` for the number, same extension (`/ppt/media/image3.png` →
 * `/ppt/media/image%d.png`).
 */
export function numberedPattern(example: string): string {
  const folder = partFolder(example);
  const base = example.slice(folder.length);
  const ext = extensionOf(example);
  const stem = (ext ? base.slice(0, base.length - ext.length - 1) : base).replace(/\d+$/, '');
  return `${folder}${stem}%d${ext ? `.${ext}` : ''}`;
}

/**
 * Allocates new part names in one package (part names compare case-insensitively,
 * ECMA-376 Part 2, §9.1.1.2): a name is taken when it was allocated here or when `inUse`
 * says the package holds it. Numbered names resume per pattern where the last one was
 * found, so allocating n names of a kind stays O(n).
 */
export class PartNameAllocator {
  /** Lower-cased names allocated. */
  private readonly allocated = new Set<string>();
  /** Where each numbering pattern resumes. */
  private readonly counters = new Map<string, number>();

  /** @param inUse - whether the package already holds a part of that name (none by default) */
  constructor(private readonly inUse: (partName: string) => boolean = () => false) {}

  private taken(name: string): boolean {
    return this.allocated.has(name.toLowerCase()) || this.inUse(name);
  }

  /**
   * A new part name like `example`: `example` itself when it is free (unless `numbered`),
   * else the first free name of its {@link numberedPattern} (`/ppt/media/image7.png`).
   */
  allocate(example: string, numbered = false): string {
    const name = !numbered && !this.taken(example) ? example : this.nextOf(numberedPattern(example));
    this.allocated.add(name.toLowerCase());
    return name;
  }

  /** The first free name of `pattern` (one `%d`, numbered from 1), allocated. */
  nextOf(pattern: string): string {
    for (let i = this.counters.get(pattern) ?? 1; ; i++) {
      const candidate = pattern.replace('%d', String(i));
      if (!this.taken(candidate)) {
        this.counters.set(pattern, i + 1);
        this.allocated.add(candidate.toLowerCase());
        return candidate;
      }
    }
  }

  /** Marks `name` as taken (a part the package will hold). */
  reserve(name: string): void {
    this.allocated.add(name.toLowerCase());
  }

  /** Gives `name` back (the part it was allocated for was not written after all). */
  release(name: string): void {
    this.allocated.delete(name.toLowerCase());
  }
}
