/** The TypeScript sources of a folder, recursively (declaration files left out), for tests that read imports. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

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
