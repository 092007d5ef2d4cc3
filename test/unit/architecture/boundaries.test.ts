/**
 * The layers import only downwards: core (the domain and its gRPC server) knows nothing of
 * the REST gateway, the job workers or the process entry points; the gateway and the
 * workers know core but not each other; only `main/` composes them into processes.
 *
 * The check reads every import of the TypeScript sources (static, `export … from`,
 * `import type` and dynamic `import()`) and lists each one that crosses a boundary.
 */
import t from 'tap';
import { scratchSourceTree, sourcesUnder } from '../../helpers/sources.js';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** One layer: where its sources live and which top-level folders it must not import. */
interface Layer {
  name: string;
  /** Source folder, relative to the repository root. */
  dir: string;
  /** Folders (relative to the root, no trailing slash) the layer must not import from. */
  forbidden: readonly string[];
}

const LAYERS: readonly Layer[] = [
  { name: 'core', dir: 'core/src', forbidden: ['gateway', 'workers', 'main', 'cli'] },
  { name: 'gateway', dir: 'gateway/src', forbidden: ['workers', 'main', 'cli'] },
  { name: 'workers', dir: 'workers/src', forbidden: ['gateway', 'main', 'cli'] },
  // a REST client, published on its own: nothing of the service
  { name: 'cli', dir: 'cli/src', forbidden: ['core', 'gateway', 'workers', 'main'] },
];

/** An import that crosses a boundary: `core/src/x.ts imports ../../gateway/src/app.js`. */
interface Offence {
  file: string;
  specifier: string;
  target: string;
}


/** Every module specifier a source names, as TypeScript's own pre-processor reads them. */
function specifiersOf(source: string): string[] {
  const info = ts.preProcessFile(source, true, true);
  return info.importedFiles.map((f) => f.fileName);
}

/** The imports of `layers` under `root` that reach a forbidden folder. */
function offences(root: string, layers: readonly Layer[]): Offence[] {
  const found: Offence[] = [];
  for (const layer of layers) {
    for (const file of sourcesUnder(join(root, layer.dir))) {
      for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
        if (!specifier.startsWith('.')) continue; // packages and node: builtins
        const target = relative(root, resolve(dirname(file), specifier)).split(sep).join('/');
        const top = target.split('/')[0] ?? '';
        if (layer.forbidden.includes(top)) found.push({ file: relative(root, file).split(sep).join('/'), specifier, target });
      }
    }
  }
  return found;
}

t.test('no layer imports across its boundary', async (t) => {
  const found = offences(repoRoot, LAYERS);
  t.same(
    found.map((o) => `${o.file} imports ${o.specifier} (${o.target})`),
    [],
    'core imports none of gateway/, workers/, main/; the gateway none of workers/, main/; the workers none of gateway/, main/',
  );
});

t.test('every process entry point lives in main/', async (t) => {
  for (const layer of LAYERS.filter((l) => l.name !== 'cli')) {
    const entries = sourcesUnder(join(repoRoot, layer.dir)).filter((f) => /\bisMain\b/.test(readFileSync(f, 'utf8')));
    t.same(entries.map((f) => relative(repoRoot, f)), [], `${layer.dir} starts no process`);
  }
  t.same(readdirSync(join(repoRoot, 'main')).sort(), ['core.ts', 'embedded.ts', 'gateway.ts', 'worker.ts']);
});

t.test('the check finds each kind of crossing import', async (t) => {
  const { root, write } = scratchSourceTree(t, 'boundaries');
  write('core/src/a.ts', "import { x } from '../../gateway/src/app.js';\nimport type { Y } from './b.js';\n");
  write('core/src/deep/b.ts', "export { z } from '../../../main/embedded.js';\nexport type Y = number;\n");
  write('core/src/c.ts', "const m = await import('../../workers/src/consumers.js');\nimport 'node:fs';\n");
  write('gateway/src/g.ts', "import '../../core/src/a.js';\nimport { w } from '../../workers/src/w.js';\n");
  write('workers/src/w.ts', "import type { G } from '../../gateway/src/g.js';\nimport { c } from '../../core/src/c.js';\n");
  write('cli/src/m.ts', "import { q } from './q.js';\n");
  const found = offences(root, LAYERS).map((o) => `${o.file} -> ${o.target}`).sort();
  t.same(found, [
    'core/src/a.ts -> gateway/src/app.js',
    'core/src/c.ts -> workers/src/consumers.js',
    'core/src/deep/b.ts -> main/embedded.js',
    'gateway/src/g.ts -> workers/src/w.js',
    'workers/src/w.ts -> gateway/src/g.js',
  ]);
});
