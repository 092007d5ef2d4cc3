/**
 * The V8 heaps of the threads that serve requests are bounded under 2 GiB (issue 20,
 * memory: REQUEST_THREAD_OLD_GENERATION_MB in core/src/threads/heap-limits.ts), where V8
 * lets a heap grow to at most ~2× what its last full collection kept instead of 4×: every
 * way of starting a service process passes SERVICE_NODE_FLAGS for its main thread, and
 * embedded mode's gateway thread is created with the bound. Read as an operator would
 * check it: the heap bound each thread reports (`v8.getHeapStatistics().heap_size_limit`).
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/corpus.js';
import { startTestService } from '../../helpers/service.js';
import { REQUEST_THREAD_OLD_GENERATION_MB, SERVICE_NODE_FLAGS } from '../../../core/src/threads/heap-limits.js';

/** V8 lets a heap bounded at this many MiB or more grow 4× between full collections (64-bit, no pointer compression). */
const FACTOR_4_FROM_MB = 2048;

t.test('the bound is under the size from which V8 grows a heap 4× between collections', async (t) => {
  t.ok(REQUEST_THREAD_OLD_GENERATION_MB < FACTOR_4_FROM_MB, `${REQUEST_THREAD_OLD_GENERATION_MB} MiB`);
  t.same(SERVICE_NODE_FLAGS, [`--max-old-space-size=${REQUEST_THREAD_OLD_GENERATION_MB}`]);
});

t.test('a node process started with the service flags has its main thread bounded so', async (t) => {
  const r = spawnSync(process.execPath, [...SERVICE_NODE_FLAGS, '-e', 'process.stdout.write(String(require("node:v8").getHeapStatistics().heap_size_limit / 2 ** 20))'], { encoding: 'utf8' });
  t.equal(r.status, 0, r.stderr);
  const mb = Number(r.stdout);
  t.ok(mb >= REQUEST_THREAD_OLD_GENERATION_MB && mb < FACTOR_4_FROM_MB, `main thread heap bound ${mb.toFixed(0)} MiB`);
});

t.test('every start script, the Docker image and docker-compose pass the flags before the script', async (t) => {
  const flags = SERVICE_NODE_FLAGS.join(' ');
  const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const starts = Object.entries(scripts).filter(([, cmd]) => /\bnode\b[^&]*\bdist\/main\/\w+\.js\b/.test(cmd));
  t.ok(starts.length >= 4, `${starts.length} scripts start a service process`);
  for (const [name, cmd] of starts) t.match(cmd, new RegExp(`\\bnode ${flags} dist/main/\\w+\\.js\\b`), `${name} runs node ${flags}`);
  const json = (cmd: string): string => JSON.stringify(['node', ...SERVICE_NODE_FLAGS, cmd]).replace(/,/g, ', ');
  const docker = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
  t.ok(docker.includes(`CMD ${json('dist/main/embedded.js')}`), 'the Dockerfile command');
  const compose = readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8');
  for (const role of ['core', 'gateway', 'worker']) t.ok(compose.includes(`command: ${json(`dist/main/${role}.js`)}`), `docker-compose's ${role}`);
  t.notOk(/\bnode dist\/main\//.test(docker + compose), 'no command without them');
});

t.test('embedded mode creates its gateway thread with the bound', { skip: process.env.SLIDEWRIGHT_TEST_TOPOLOGY === 'distributed' && 'embedded mode only' }, async (t) => {
  const svc = await startTestService();
  t.teardown(() => svc.close());
  const mb = svc.gatewayThread?.heapLimitMb;
  t.ok(mb !== undefined && mb >= REQUEST_THREAD_OLD_GENERATION_MB && mb < FACTOR_4_FROM_MB, `gateway thread heap bound ${mb?.toFixed(0)} MiB`);
  t.equal((await svc.api('/healthz')).status, 200, 'and serves requests');
});
