#!/usr/bin/env node
// The `slidewright` command (package.json "bin"). Plain JavaScript, so it runs wherever the
// package is installed.
//
// Installed package (`npm pack`, then `npm install -g slidewright-….tgz`): only the compiled
// CLI is there (dist/cli/src/*.js, built by the "prepack" script), and it is what runs; tsx
// is never loaded.
//
// A clone: the compiled CLI runs when it is at least as new as every source in cli/src;
// otherwise the sources run through tsx (a devDependency). SLIDEWRIGHT_CLI_FROM_SOURCE=1
// forces the sources. Without tsx (`npm install --omit=dev`), a stale compiled CLI runs with
// a warning rather than not at all.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const compiled = join(root, 'dist', 'cli', 'src', 'main.js');
const sourceDir = join(root, 'cli', 'src');
const sourceMain = join(sourceDir, 'main.ts');

/** Newest modification time (ms) of the .ts files under `dir`. */
function newestSource(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    newest = Math.max(newest, s.isDirectory() ? newestSource(p) : name.endsWith('.ts') ? s.mtimeMs : 0);
  }
  return newest;
}

function fail(message) {
  process.stderr.write(`slidewright: ${message}\n`);
  process.exit(1);
}

/** Loads tsx's ESM hooks; false when tsx is not installed (an installed package, --omit=dev). */
async function registerTsx() {
  try {
    const { register } = await import('tsx/esm/api');
    register();
    return true;
  } catch (e) {
    if (e && (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND')) return false;
    throw e;
  }
}

const forceSource = process.env.SLIDEWRIGHT_CLI_FROM_SOURCE === '1';
const haveSources = existsSync(sourceMain);
const haveCompiled = existsSync(compiled);

let entry = compiled;
if (forceSource && !haveSources) {
  fail(`SLIDEWRIGHT_CLI_FROM_SOURCE=1, but there are no sources at ${sourceDir} (an installed package has only the compiled CLI)`);
}
if (haveSources && (forceSource || !haveCompiled || statSync(compiled).mtimeMs < newestSource(sourceDir))) {
  if (await registerTsx()) {
    entry = sourceMain;
  } else if (haveCompiled && !forceSource) {
    process.stderr.write('slidewright: cli/src is newer than dist/cli and tsx is not installed; running the older compiled CLI (npm run build updates it)\n');
  } else {
    fail(`tsx is not installed, so the sources in ${sourceDir} cannot run${haveCompiled ? '' : ', and there is no compiled CLI'}: run npm install (for tsx) or npm run build`);
  }
} else if (!haveCompiled) {
  fail(`the compiled CLI is missing (${compiled}); this package was packed without building it`);
}

const main = await import(pathToFileURL(entry).href);
process.exitCode = await main.run(process.argv.slice(2));
