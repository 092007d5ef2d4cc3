/**
 * `npm pack` makes a package whose `slidewright` runs without the clone and without tsx:
 * packs a copy of the CLI's part of the repository (package.json, README, tsconfig.json,
 * scripts/prune-dist.mjs, cli/), so the "prepack" build writes into the copy and never into
 * the shared dist/;
 * checks the tarball's file list; unpacks it in a temporary folder whose node_modules holds
 * only the package's "dependencies" (links to this clone's installed copies, never tsx);
 * and runs its launcher against a stand-in API.
 */
import t from 'tap';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, type RunResult } from '../../helpers/clients.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** One entry of `npm pack --json`'s file list. */
interface PackedFile {
  path: string;
  mode: number;
}

interface PackResult {
  filename: string;
  files: PackedFile[];
  size: number;
}

/** The environment of a user's shell: no test runner hooks, no from-source switch. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env['NODE_OPTIONS'];
  if (!('SLIDEWRIGHT_CLI_FROM_SOURCE' in extra)) delete env['SLIDEWRIGHT_CLI_FROM_SOURCE'];
  return env;
}

t.test('npm pack: compiled CLI and launcher only; the unpacked package runs without tsx', async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'slidewright-pack-'));
  t.teardown(() => rmSync(work, { recursive: true, force: true }));

  // A clone with just what packing the CLI reads; node_modules is this clone's (tsc, types).
  const clone = join(work, 'clone');
  mkdirSync(clone);
  for (const f of ['package.json', 'README.md', 'tsconfig.json', 'scripts/prune-dist.mjs']) cpSync(join(repoRoot, f), join(clone, f));
  cpSync(join(repoRoot, 'cli'), join(clone, 'cli'), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(clone, 'node_modules'), 'dir');
  // The output of a CLI module since deleted or renamed: prepack must not ship it.
  mkdirSync(join(clone, 'dist', 'cli', 'src'), { recursive: true });
  writeFileSync(join(clone, 'dist', 'cli', 'src', 'removed-module.js'), 'export {};\n');

  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: clone, env: userEnv(), timeoutMs: 120_000 });
  t.equal(packed.code, 0, `npm pack exits 0\n${packed.stderr}`);
  const [pack] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as PackResult[];
  if (!pack) throw new Error(`npm pack printed no result: ${packed.stdout}`);
  const paths = pack.files.map((f) => f.path).sort();

  // The file list: the launcher, every CLI module compiled, nothing else of the repository.
  const cliModules = readdirSync(join(repoRoot, 'cli', 'src')).filter((f) => f.endsWith('.ts')).map((f) => `dist/cli/src/${f.replace(/\.ts$/, '.js')}`);
  t.ok(cliModules.includes('dist/cli/src/main.js'), 'the CLI has a main module');
  t.same(paths.filter((p) => p.startsWith('dist/')).sort(), cliModules.sort(), 'every cli/src module compiled, no other compiled file (a stale one pruned)');
  t.ok(paths.includes('cli/bin/slidewright.js'), 'the launcher');
  t.ok((pack.files.find((f) => f.path === 'cli/bin/slidewright.js')?.mode ?? 0) & 0o100, 'the launcher is executable');
  const outsideCli = paths.filter((p) => !p.startsWith('dist/cli/src/') && p !== 'cli/bin/slidewright.js');
  t.same(
    outsideCli.filter((p) => !/^(package\.json|README\.md|LICEN[CS]E(\.\w+)?)$/i.test(p)),
    [],
    'besides them only package.json, README and a licence',
  );
  t.notOk(
    paths.some((p) => /^(test|bench|data|core|gateway|workers|proto|scripts|examples|node_modules)\//.test(p) || p.endsWith('.ts') || p.endsWith('.map')),
    'no tests, benches, data, service code, TypeScript sources or source maps',
  );

  // Unpack the tarball as npm would install it; dependencies only, linked from this clone.
  const unpacked = join(work, 'installed');
  mkdirSync(unpacked);
  const untar = await run('tar', ['-xzf', join(work, pack.filename), '-C', unpacked]);
  t.equal(untar.code, 0, untar.stderr);
  const pkg = join(unpacked, 'package');
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string>; dependencies: Record<string, string> };
  t.same(manifest.bin, { slidewright: 'cli/bin/slidewright.js' });
  for (const dep of Object.keys(manifest.dependencies)) {
    const installed = join(repoRoot, 'node_modules', dep);
    if (!existsSync(installed)) continue;
    mkdirSync(dirname(join(pkg, 'node_modules', dep)), { recursive: true });
    symlinkSync(installed, join(pkg, 'node_modules', dep), 'dir');
  }
  const tsxReachable: string[] = [];
  for (let dir = join(pkg, 'cli', 'bin'); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', 'tsx'))) tsxReachable.push(dir);
    if (dirname(dir) === dir) break;
  }
  t.same(tsxReachable, [], 'tsx cannot be resolved from the unpacked package');

  const api = createServer((req, res) => {
    const ok = req.method === 'GET' && req.url === '/api/v1/templates' && req.headers['x-api-key'] === 'key-1';
    res.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ok ? { templates: [{ template_id: 'tpl_P', status: 'ready', file_size: 1000, created_at: '2025-01-01T00:00:00Z', filename: 'brand.pptx' }], pagination: { page: 1, pages: 1, total: 1 } } : { detail: 'unexpected request' }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => api.close(() => resolve())));
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

  const launcher = join(pkg, 'cli', 'bin', 'slidewright.js');
  const slidewright = (args: string[], extra: Record<string, string> = {}): Promise<RunResult> =>
    run(process.execPath, [launcher, ...args], { cwd: work, env: userEnv({ SLIDEWRIGHT_URL: apiUrl, SLIDEWRIGHT_API_KEY: 'key-1', ...extra }), timeoutMs: 60_000 });

  const version = await slidewright(['--version']);
  t.equal(version.code, 0, version.stderr);
  t.equal(version.stdout.trim(), manifest.version, '--version is the package version');
  const list = await slidewright(['templates', 'list']);
  t.equal(list.code, 0, list.stderr);
  t.match(list.stdout, /^tpl_P\s+ready\s+1\.0 kB\s+2025-01-01T00:00:00Z\s+brand\.pptx$/m, 'a command runs end to end with the compiled modules');
  t.equal(list.stderr, '', 'no warning: the compiled CLI is the only one there');

  const fromSource = await slidewright(['--version'], { SLIDEWRIGHT_CLI_FROM_SOURCE: '1' });
  t.equal(fromSource.code, 1);
  t.match(fromSource.stderr, /^slidewright: SLIDEWRIGHT_CLI_FROM_SOURCE=1, but there are no sources at .+\n$/, 'forcing sources that are absent says so in one line');

  // Sources newer than the compiled CLI and no tsx (a clone installed with --omit=dev).
  cpSync(join(repoRoot, 'cli', 'src'), join(pkg, 'cli', 'src'), { recursive: true });
  const future = new Date(Date.now() + 60_000);
  for (const f of readdirSync(join(pkg, 'cli', 'src'))) utimesSync(join(pkg, 'cli', 'src', f), future, future);
  const stale = await slidewright(['templates', 'list']);
  t.equal(stale.code, 0, stale.stderr);
  t.match(stale.stderr, /cli\/src is newer than dist\/cli and tsx is not installed; running the older compiled CLI/);
  t.match(stale.stdout, /tpl_P/);

  unlinkSync(join(pkg, 'dist', 'cli', 'src', 'main.js'));
  const neither = await slidewright(['--version']);
  t.equal(neither.code, 1);
  t.match(neither.stderr, /^slidewright: tsx is not installed, so the sources in .+ cannot run, and there is no compiled CLI: run npm install \(for tsx\) or npm run build\n$/);
  rmSync(join(pkg, 'cli', 'src'), { recursive: true });
  const missing = await slidewright(['--version']);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /^slidewright: the compiled CLI is missing \(.+main\.js\); this package was packed without building it\n$/);

  t.comment(`tarball ${pack.filename}: ${pack.size} bytes, ${pack.files.length} files`);
});
