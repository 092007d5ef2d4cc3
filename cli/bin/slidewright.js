#!/usr/bin/env node
// The `slidewright` command (package.json "bin"). Runs the compiled CLI
// (dist/cli/src/main.js, from `npm run build`) when it exists and is at least as new as
// every source file in cli/src; otherwise runs the TypeScript sources through tsx (a
// devDependency, present after `npm install` in a clone).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const compiled = join(root, 'dist', 'cli', 'src', 'main.js');
const sources = join(root, 'cli', 'src');

function newestSource(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    newest = Math.max(newest, s.isDirectory() ? newestSource(p) : name.endsWith('.ts') ? s.mtimeMs : 0);
  }
  return newest;
}

const useCompiled =
  process.env.SLIDEWRIGHT_CLI_FROM_SOURCE !== '1' &&
  existsSync(compiled) &&
  (!existsSync(sources) || statSync(compiled).mtimeMs >= newestSource(sources));

let main;
if (useCompiled) {
  main = await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  main = await import(pathToFileURL(join(sources, 'main.ts')).href);
}
process.exitCode = await main.run(process.argv.slice(2));
