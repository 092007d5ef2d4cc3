/** Paths into the shared corpus of real templates (`../shared/corpus` beside the checkout). */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The shared folder: `SLIDEWRIGHT_SHARED_DIR`, else `../shared` beside the repository. */
export const sharedDir = process.env.SLIDEWRIGHT_SHARED_DIR ?? resolve(repoRoot, '..', 'shared');

/** Absolute path of a corpus file, e.g. `corpusPath('templates/x.pptx')`. */
export function corpusPath(rel: string): string {
  const p = join(sharedDir, 'corpus', rel);
  if (!existsSync(p)) throw new Error(`corpus file missing: ${p}`);
  return p;
}

/** File names in a corpus folder (`templates`, `broken`, `refused`, `bench`) with a presentation extension. */
export function corpusFiles(folder: string): string[] {
  return readdirSync(join(sharedDir, 'corpus', folder)).filter((f) => /\.(pptx|potx|pptm)$/.test(f)).sort();
}

export { repoRoot };
