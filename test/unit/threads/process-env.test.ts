/**
 * The environment the service's processes start with (SERVICE_PROCESS_ENV in
 * core/src/threads/heap-limits.ts: two glibc arenas, so freed native memory is not kept in
 * one arena per thread): every way of starting the service sets it, a value the operator
 * set wins, and the tests run the service with it as users do.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/corpus.js';
import { SERVICE_PROCESS_ENV, withServiceProcessEnv } from '../../../core/src/threads/heap-limits.js';

const vars = Object.entries(SERVICE_PROCESS_ENV);

t.test('every start script of package.json sets the service environment, the operator’s value first', async (t) => {
  const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const starts = Object.entries(scripts).filter(([, cmd]) => /\bnode (?:--\S+ )*dist\/main\/\w+\.js\b/.test(cmd));
  t.ok(starts.length >= 4, `${starts.length} scripts start a service process (${starts.map(([n]) => n).join(', ')})`);
  for (const [name, cmd] of starts) {
    const assignments = cmd.slice(cmd.lastIndexOf('&&') + 2, cmd.indexOf(' node '));
    for (const [k, v] of vars) t.ok(assignments.includes(`${k}=\${${k}:-${v}}`), `${name} sets ${k} (default ${v}) for the node process`);
  }
});

t.test('the Dockerfile sets it for the image (docker-compose runs that image)', async (t) => {
  const docker = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
  for (const [k, v] of vars) t.match(docker, new RegExp(`^ENV ${k}=${v}$`, 'm'), `ENV ${k}=${v}`);
});

t.test('withServiceProcessEnv adds what is missing and keeps what is set', async (t) => {
  const [k, v] = vars[0]!;
  t.equal(withServiceProcessEnv({ PATH: '/bin' })[k], v, 'added');
  t.equal(withServiceProcessEnv({ [k]: '8' })[k], '8', 'the operator’s value wins');
  t.equal(withServiceProcessEnv({ PATH: '/bin' }).PATH, '/bin', 'the rest kept');
});

t.test('npm test runs the tests (and the services they start) with it', { skip: process.env.SLIDEWRIGHT_TEST_RUN ? false : 'run through npm test (test/run.ts) to check its environment' }, async (t) => {
  for (const [k] of vars) t.ok(process.env[k], `${k}=${process.env[k] ?? ''} in the test process`);
});
