// @ts-check
/**
 * Removes compiled files from `dist/` whose TypeScript source is gone (`npm run build` runs
 * it before `tsc -b`).
 *
 * The build is incremental (`tsc -b tsconfig.build.json`, state in `dist/.tsbuildinfo`), so
 * `dist/` is no longer emptied before each build, and tsc never deletes the output of a
 * source that was deleted or renamed. Such a leftover would still be importable from
 * `dist/`, hiding a missing module until the next clean build. With `rootDir: "."` and
 * `outDir: "dist"`, `dist/<path>.js` comes from `<path>.ts` (or `.tsx`); this script
 * deletes every `.js`, `.mjs`, `.cjs`, `.d.ts`, `.json` output and source map whose source
 * no longer exists, then the folders left empty. Anything else (the build info) stays.
 *
 * Usage: `node scripts/prune-dist.mjs [--verbose]` (plain Node: no build, no tsx needed).
 */
import { existsSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(repoRoot, 'dist');
const verbose = process.argv.includes('--verbose');

/** Output suffix → the source suffixes it can be compiled from, most specific first. */
const SOURCES = /** @type {const} */ ([
  ['.d.ts', ['.ts', '.tsx']],
  ['.d.mts', ['.mts']],
  ['.d.cts', ['.cts']],
  ['.js', ['.ts', '.tsx', '.js', '.jsx']],
  ['.mjs', ['.mts', '.mjs']],
  ['.cjs', ['.cts', '.cjs']],
  ['.json', ['.json']],
]);

/**
 * Candidate source paths of one output file, relative to the repository root; undefined
 * for a file tsc does not emit from a source (kept).
 * @param {string} rel output path relative to `dist/`, e.g. `core/src/errors.js.map`
 * @returns {string[] | undefined}
 */
function sourcesOf(rel) {
  const emitted = rel.endsWith('.map') ? rel.slice(0, -'.map'.length) : rel;
  for (const [suffix, from] of SOURCES) {
    if (emitted.endsWith(suffix)) return from.map((ext) => emitted.slice(0, -suffix.length) + ext);
  }
  return undefined;
}

/**
 * Deletes stale outputs under `dir`, then `dir` itself when it ends up empty (never `dist/`).
 * @param {string} dir absolute folder inside `dist/`
 * @returns {number} files deleted
 */
function prune(dir) {
  let removed = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      removed += prune(path);
      continue;
    }
    const sources = sourcesOf(relative(outDir, path));
    if (!sources || sources.some((s) => existsSync(join(repoRoot, s)))) continue;
    unlinkSync(path);
    removed++;
    if (verbose) process.stdout.write(`prune-dist: removed ${relative(repoRoot, path)}\n`);
  }
  if (dir !== outDir && readdirSync(dir).length === 0) rmdirSync(dir);
  return removed;
}

if (existsSync(outDir)) {
  const removed = prune(outDir);
  if (removed > 0) process.stdout.write(`prune-dist: removed ${removed} file(s) whose source is gone\n`);
}
