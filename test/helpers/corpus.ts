/**
 * Where the tests' corpus of real templates is, and how a test that needs it skips when it
 * is absent.
 *
 * The corpus travels by manifest (`test/corpus/manifest.tsv`: each file's source
 * repository, commit, path and sha256), not in the repository. Its folder is the first of:
 *
 * 1. `SLIDEWRIGHT_CORPUS_DIR`;
 * 2. `corpus/` of the shared folder (`SLIDEWRIGHT_SHARED_DIR`, else `../shared` beside the
 *    checkout) when present;
 * 3. the user cache that `npm run corpus:fetch` fills
 *    (`SLIDEWRIGHT_CORPUS_CACHE`, else `$XDG_CACHE_HOME/slidewright/corpus`, else
 *    `~/.cache/slidewright/corpus`) when it holds a file.
 *
 * Without any of them every corpus test skips with {@link corpusMissingReason}; with
 * `SLIDEWRIGHT_TEST_STRICT=1` (CI) they run and fail instead.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The shared folder of the team's machines (referee tools, corpus): `SLIDEWRIGHT_SHARED_DIR`, else `../shared` beside the checkout. */
export const sharedDir = process.env.SLIDEWRIGHT_SHARED_DIR ?? resolve(repoRoot, '..', 'shared');

/** True when missing test inputs and tools must fail tests instead of skipping them (`SLIDEWRIGHT_TEST_STRICT=1`, set by CI). */
export const strictTests = process.env.SLIDEWRIGHT_TEST_STRICT === '1';

/** The folder `npm run corpus:fetch` fills. */
export function corpusCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SLIDEWRIGHT_CORPUS_CACHE) return resolve(env.SLIDEWRIGHT_CORPUS_CACHE);
  const cacheHome = env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache');
  return join(cacheHome, 'slidewright', 'corpus');
}

function holdsAFile(dir: string): boolean {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true }).some((e) => e.isFile());
  } catch {
    return false;
  }
}

/** Where the corpus was found, and by which rule. */
export interface CorpusLocation {
  dir: string;
  source: 'SLIDEWRIGHT_CORPUS_DIR' | 'shared folder' | 'user cache';
}

/** Resolves the corpus folder by the order above; undefined when there is none. */
export function locateCorpus(env: NodeJS.ProcessEnv = process.env): CorpusLocation | undefined {
  if (env.SLIDEWRIGHT_CORPUS_DIR) return { dir: resolve(env.SLIDEWRIGHT_CORPUS_DIR), source: 'SLIDEWRIGHT_CORPUS_DIR' };
  const shared = join(env.SLIDEWRIGHT_SHARED_DIR ?? resolve(repoRoot, '..', 'shared'), 'corpus');
  if (existsSync(shared) && statSync(shared).isDirectory()) return { dir: shared, source: 'shared folder' };
  const cache = corpusCacheDir(env);
  if (holdsAFile(cache)) return { dir: cache, source: 'user cache' };
  return undefined;
}

/** The corpus folder of this run, or undefined. */
export const corpus = locateCorpus();

/** The one line a skipped corpus test gives: what is missing and the command that brings it. */
export const corpusMissingReason = 'corpus not found: run `npm run corpus:fetch` (or set SLIDEWRIGHT_CORPUS_DIR)';

/** Thrown by {@link corpusPath} for a file the corpus does not have. */
export class CorpusFileMissingError extends Error {
  override readonly name = 'CorpusFileMissingError';
}

/** Whether the corpus holds this file (`templates/x.pptx`). */
export function hasCorpusFile(rel: string): boolean {
  return corpus !== undefined && existsSync(join(corpus.dir, rel));
}

/**
 * Absolute path of a corpus file, e.g. `corpusPath('templates/x.pptx')`.
 * @throws CorpusFileMissingError when the corpus or the file is absent
 */
export function corpusPath(rel: string): string {
  if (!corpus) throw new CorpusFileMissingError(`${rel}: ${corpusMissingReason}`);
  const p = join(corpus.dir, rel);
  if (!existsSync(p)) throw new CorpusFileMissingError(`corpus file missing: ${p} (corpus from ${corpus.source}; \`npm run corpus:fetch\` fetches the files of test/corpus/manifest.tsv)`);
  return p;
}

/**
 * File names in a corpus folder (`templates`, `broken`, `refused`, `bench`,
 * `incoming/templates`…) with a presentation extension, sorted; empty when the corpus or
 * the folder is absent. Tests iterate these, never a fixed list, so the corpus can grow.
 */
export function corpusFiles(folder: string): string[] {
  if (!corpus) return [];
  try {
    return readdirSync(join(corpus.dir, folder)).filter((f) => /\.(pptx|potx|pptm|ppsx|ppsm)$/i.test(f)).sort();
  } catch {
    return [];
  }
}

/**
 * The folders that hold files of one kind (`templates`, `broken`, `refused`, `bench`): the
 * kind's own folder and the same folder inside any other top-level folder of the corpus
 * (`incoming/templates`: files that arrived and are tested like the rest), found by listing
 * so new batches join every corpus test without a change here. Sorted; only folders that
 * exist.
 */
export function corpusFoldersOf(kind: string): string[] {
  if (!corpus) return [];
  const folders: string[] = [];
  if (existsSync(join(corpus.dir, kind))) folders.push(kind);
  let tops: string[] = [];
  try {
    tops = readdirSync(corpus.dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== kind)
      .map((e) => e.name)
      .sort();
  } catch {
    return folders;
  }
  for (const top of tops) {
    const nested = join(corpus.dir, top, kind);
    if (existsSync(nested) && statSync(nested).isDirectory()) folders.push(`${top}/${kind}`);
  }
  return folders;
}

/**
 * Every presentation of one kind across {@link corpusFoldersOf}, as corpus-relative paths
 * (`templates/a.pptx`, `incoming/templates/b.potx`), for {@link corpusPath}.
 */
export function corpusFilesOf(kind: string): string[] {
  return corpusFoldersOf(kind).flatMap((folder) => corpusFiles(folder).map((f) => `${folder}/${f}`));
}

/**
 * {@link corpusFilesOf} for a test file that makes one test per file at its top level; like
 * {@link corpusFilesFor}, records one skipped or failed test when there are none.
 */
export function corpusFilesOfFor(t: Test, kind: string): string[] {
  const files = corpusFilesOf(kind);
  if (!files.length) {
    void t.test(`the corpus files of kind ${kind}`, needsCorpus(), async (t) => {
      t.fail(corpus ? `no presentation in ${kind} or any */${kind} of ${corpus.dir}` : corpusMissingReason);
    });
  }
  return files;
}

/**
 * A flat file name for a corpus-relative path, for scratch files and labels
 * (`incoming/templates/x.ppsx` → `incoming__templates__x.pptx`): slashes become `__`, and
 * template, show and macro extensions become `.pptx`, since what is written from it is a
 * presentation.
 */
export function scratchName(rel: string): string {
  return rel.replace(/[\\/]/g, '__').replace(/\.(potx|potm|ppsx|ppsm|pptm)$/i, '.pptx');
}

/**
 * tap options for a test that needs corpus files: `t.test(name, needsCorpus('templates/x.pptx'), fn)`.
 * With no argument the test needs the corpus as a whole. Skips (one line naming the
 * command) when something is absent, unless {@link strictTests}.
 */
export function needsCorpus(...rels: string[]): { skip: string | false } {
  if (strictTests) return { skip: false };
  if (!corpus) return { skip: corpusMissingReason };
  const missing = rels.filter((r) => !hasCorpusFile(r));
  if (missing.length) return { skip: `corpus file${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not in ${corpus.dir}: run \`npm run corpus:fetch\`` };
  return { skip: false };
}

/**
 * The files of a corpus folder, for a test file that makes one test per file at its top
 * level. When there are none it records one test saying so — skipped when the corpus is
 * absent, failed when the corpus is there but the folder is empty or the run is strict —
 * so a missing corpus is never a silent pass.
 */
export function corpusFilesFor(t: Test, folder: string): string[] {
  const files = corpusFiles(folder);
  if (!files.length) {
    void t.test(`the corpus folder ${folder}`, needsCorpus(), async (t) => {
      t.fail(corpus ? `no presentation in ${join(corpus.dir, folder)}` : corpusMissingReason);
    });
  }
  return files;
}

export { repoRoot };
