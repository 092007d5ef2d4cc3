/** The TypeScript sources of a folder, recursively (declaration files left out), for tests that read imports; and made-up trees for those tests' self-tests. */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Every `.ts`/`.tsx`/`.mts`/`.cts` file under `dir` except `.d.ts`, as paths joined onto `dir`. */
export function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourcesUnder(path));
    else if (/\.(m|c)?tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/**
 * A made-up source tree for a check's self-test: a temporary folder (removed when `t` ends)
 * and `write(path, text)`, which writes a file at `path` under it, making its folders.
 */
export function scratchSourceTree(t: { teardown(fn: () => void): void }, prefix: string): { root: string; write(path: string, text: string): void } {
  const root = mkdtempSync(join(tmpdir(), `${prefix}-`));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  return {
    root,
    write(path, text) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    },
  };
}
