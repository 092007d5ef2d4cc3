/**
 * The corpus fetcher: downloads every file of `test/corpus/manifest.tsv` from its source
 * repository at its pinned commit and keeps it only when its sha256 matches.
 *
 * Files are data for the tests, never run: each is streamed into a temporary file beside
 * its destination, capped at its manifest size, hashed, and renamed into place only when
 * size and hash agree. A file already present with the right hash is not downloaded again.
 *
 * As a command (`npm run corpus:fetch`):
 *
 * ```
 * tsx test/corpus/fetch.ts [--dir DIR] [--mirror URL] [--probe-timeout SECONDS] [--timeout SECONDS] [--quiet-offline]
 * ```
 *
 * `--dir` defaults to the user cache (see `corpusCacheDir`), `--mirror` to
 * `SLIDEWRIGHT_CORPUS_MIRROR` or `https://raw.githubusercontent.com` (URLs are
 * `<mirror>/<owner>/<repo>/<commit>/<path>`). Exit status: 0 when every file is present,
 * 1 when some could not be fetched, 2 on a usage error. With `--quiet-offline` an
 * unreachable mirror prints one line and exits 0 (how `npm test` tries it).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { corpusCacheDir, repoRoot } from '../helpers/corpus.js';

/** One row of the manifest. */
export interface CorpusEntry {
  /** Corpus-relative path, e.g. `templates/x.pptx`. */
  file: string;
  /** Lower-case hex SHA-256 of the file's bytes. */
  sha256: string;
  /** Size in bytes. */
  bytes: number;
  /** `owner/name` of the GitHub repository the file comes from. */
  sourceRepo: string;
  /** Full 40-digit commit the file is read at. */
  commit: string;
  /** Path of the file inside that repository. */
  sourcePath: string;
  /** The source repository's licence. */
  license: string;
}

/** The manifest kept in the repository. */
export const manifestPath = join(repoRoot, 'test', 'corpus', 'manifest.tsv');

const HEADER = ['file', 'sha256', 'bytes', 'source_repo', 'commit', 'source_path', 'license'];

/**
 * Reads a manifest: `#` comment lines, a header row, then one tab-separated row per file.
 * @throws Error naming the line when a row is malformed or its path leaves the corpus folder
 */
export function readManifest(path = manifestPath): CorpusEntry[] {
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  const header = lines.shift()?.split('\t');
  if (!header || HEADER.some((h, i) => header[i] !== h)) throw new Error(`${path}: header must be ${HEADER.join('\\t')}`);
  return lines.map((line, i) => {
    const [file, sha256, bytes, sourceRepo, commit, sourcePath, license] = line.split('\t');
    const where = `${path}: row ${i + 1}`;
    if (!file || !sha256 || !bytes || !sourceRepo || !commit || !sourcePath || license === undefined) throw new Error(`${where}: expected ${HEADER.length} columns`);
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`${where}: sha256 is not 64 hex digits`);
    if (!/^[0-9a-f]{40}$/.test(commit)) throw new Error(`${where}: commit is not 40 hex digits`);
    if (!/^\d+$/.test(bytes)) throw new Error(`${where}: bytes is not a number`);
    if (!/^[\w.-]+\/[\w.-]+$/.test(sourceRepo)) throw new Error(`${where}: source_repo is not owner/name`);
    if (file.startsWith('/') || file.split('/').some((s) => s === '..' || s === '')) throw new Error(`${where}: file must be a relative path inside the corpus`);
    return { file, sha256, bytes: Number(bytes), sourceRepo, commit, sourcePath, license };
  });
}

/** The download URL of an entry under a mirror root (GitHub raw layout). */
export function sourceUrl(entry: CorpusEntry, mirror: string): string {
  const path = entry.sourcePath.split('/').map(encodeURIComponent).join('/');
  return `${mirror.replace(/\/+$/, '')}/${entry.sourceRepo}/${entry.commit}/${path}`;
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Whether `path` holds exactly the entry's bytes. */
export async function isIntact(path: string, entry: CorpusEntry): Promise<boolean> {
  if (!existsSync(path) || statSync(path).size !== entry.bytes) return false;
  return (await sha256Of(path)) === entry.sha256;
}

/** What happened to one file. */
export type FetchOutcome = { file: string; result: 'present' | 'fetched' } | { file: string; result: 'failed'; reason: string };

/** Options of {@link fetchCorpus}. */
export interface FetchOptions {
  /** Folder the corpus goes into. */
  dir: string;
  /** Root URL of a GitHub-raw-shaped mirror. */
  mirror: string;
  /** Per-file limit, milliseconds (connection and body). */
  timeoutMs?: number;
  /** Files downloaded at once. */
  concurrency?: number;
  /** Called after each file. */
  onOutcome?: (outcome: FetchOutcome) => void;
}

/** Thrown for a network failure (no answer at all), as opposed to an answer that is wrong. */
export class MirrorUnreachableError extends Error {
  override readonly name = 'MirrorUnreachableError';
}

async function download(entry: CorpusEntry, dest: string, mirror: string, timeoutMs: number): Promise<void> {
  const url = sourceUrl(entry, mirror);
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new MirrorUnreachableError(`${url}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new Error(`${url}: HTTP ${res.status}`);
  }
  mkdirSync(dirname(dest), { recursive: true });
  const tmp = `${dest}.part-${randomUUID()}`;
  const hash = createHash('sha256');
  let size = 0;
  const out = await open(tmp, 'w');
  try {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      // never hold more than the manifest says: a wrong or hostile answer stops here
      if (size > entry.bytes) {
        await reader.cancel();
        throw new Error(`${url}: more than the expected ${entry.bytes} bytes`);
      }
      hash.update(value);
      await out.write(value);
    }
    await out.close();
    if (size !== entry.bytes) throw new Error(`${url}: ${size} bytes, expected ${entry.bytes} (incomplete download)`);
    const got = hash.digest('hex');
    if (got !== entry.sha256) throw new Error(`${url}: sha256 ${got} does not match the manifest's ${entry.sha256}`);
    renameSync(tmp, dest);
  } catch (e) {
    await out.close().catch(() => undefined);
    rmSync(tmp, { force: true });
    if ((e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError') throw new Error(`${url}: no complete answer within ${timeoutMs} ms`);
    throw e;
  }
}

/** Destination of an entry in `dir`, refusing any path that would leave it. */
function destinationOf(dir: string, entry: CorpusEntry): string {
  const root = resolve(dir);
  const dest = resolve(root, entry.file);
  if (!dest.startsWith(root + sep)) throw new Error(`${entry.file}: leaves the corpus folder`);
  return dest;
}

/**
 * Brings every entry into `dir`: files already intact are kept, the others downloaded and
 * checked. Never throws for one file's failure; each outcome says what happened.
 */
export async function fetchCorpus(entries: readonly CorpusEntry[], opts: FetchOptions): Promise<FetchOutcome[]> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const queue = [...entries];
  const outcomes: FetchOutcome[] = [];
  const worker = async (): Promise<void> => {
    for (let entry = queue.shift(); entry; entry = queue.shift()) {
      let outcome: FetchOutcome;
      try {
        const dest = destinationOf(opts.dir, entry);
        if (await isIntact(dest, entry)) outcome = { file: entry.file, result: 'present' };
        else {
          await download(entry, dest, opts.mirror, timeoutMs);
          outcome = { file: entry.file, result: 'fetched' };
        }
      } catch (e) {
        outcome = { file: entry.file, result: 'failed', reason: (e as Error).message };
      }
      outcomes.push(outcome);
      opts.onOutcome?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, worker));
  return outcomes.sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * Asks the mirror for one file's first byte, to tell quickly whether fetching can work here.
 * @throws MirrorUnreachableError when there is no answer within `timeoutMs`
 */
export async function probeMirror(entry: CorpusEntry, mirror: string, timeoutMs: number): Promise<void> {
  const url = sourceUrl(entry, mirror);
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { range: 'bytes=0-0' } });
    await res.body?.cancel();
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new MirrorUnreachableError(`${url}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
}

/** Runs the command; returns its exit status. */
export async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        dir: { type: 'string' },
        mirror: { type: 'string' },
        manifest: { type: 'string' },
        timeout: { type: 'string', default: '120' },
        'probe-timeout': { type: 'string', default: '10' },
        'quiet-offline': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (e) {
    console.error(`corpus:fetch: ${(e as Error).message}`);
    return 2;
  }
  if (values.help) {
    console.log('usage: npm run corpus:fetch -- [--dir DIR] [--mirror URL] [--timeout SECONDS] [--probe-timeout SECONDS] [--quiet-offline]');
    return 0;
  }
  const dir = resolve(values.dir ?? corpusCacheDir());
  const mirror = values.mirror ?? process.env.SLIDEWRIGHT_CORPUS_MIRROR ?? 'https://raw.githubusercontent.com';
  const entries = readManifest(values.manifest ?? manifestPath);
  const first = entries[0];
  if (!first) return 0;
  try {
    await probeMirror(first, mirror, Number(values['probe-timeout']) * 1000);
  } catch (e) {
    if (!(e instanceof MirrorUnreachableError)) throw e;
    const line = `corpus:fetch: ${mirror} is not reachable (${e.message}); corpus tests will skip. Run \`npm run corpus:fetch\` online, or set SLIDEWRIGHT_CORPUS_DIR to a copy.`;
    if (values['quiet-offline']) {
      console.log(line);
      return 0;
    }
    console.error(line);
    return 1;
  }
  console.log(`corpus:fetch: ${entries.length} files into ${dir} from ${mirror}`);
  const outcomes = await fetchCorpus(entries, {
    dir,
    mirror,
    timeoutMs: Number(values.timeout) * 1000,
    onOutcome: (o) => {
      if (o.result === 'failed') console.error(`  failed  ${o.file}: ${o.reason}`);
    },
  });
  const count = (r: FetchOutcome['result']): number => outcomes.filter((o) => o.result === r).length;
  console.log(`corpus:fetch: ${count('fetched')} fetched, ${count('present')} already present, ${count('failed')} failed`);
  return count('failed') ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      console.error(`corpus:fetch: ${(e as Error).message}`);
      process.exitCode = 2;
    },
  );
}
