/**
 * The REST end-to-end suites, run again against a distributed deployment (NATS JetStream,
 * Redis, an S3 server; separate core, gateway and two worker processes): the same files
 * as test/e2e, with SLIDEWRIGHT_TEST_TOPOLOGY=distributed (see test/helpers/service.ts).
 */
import t from 'tap';
import { join } from 'node:path';
import { repoRoot } from '../helpers/corpus.js';
import { distributedSkipReason } from '../helpers/distributed.js';
import { spawnOwned } from '../helpers/processes.js';

const SUITES = ['walking-skeleton', 'template-management', 'isolation', 'match', 'webhooks', 'webhook-egress', 'litter', 'fair-queues', 'analysis-lifecycle'];

const skip = distributedSkipReason();
if (skip) t.test('distributed end-to-end suites', { skip: `distributed servers unavailable: ${skip}` }, async () => undefined);
else {
  for (const suite of SUITES) {
    t.test(`test/e2e/${suite}.test.ts passes in distributed mode`, async (t) => {
      const out: string[] = [];
      const code = await new Promise<number | null>((resolve) => {
        const child = spawnOwned(t, process.execPath, ['--import', 'tsx', join(repoRoot, 'test', 'e2e', `${suite}.test.ts`)], {
          cwd: repoRoot,
          env: { ...process.env, SLIDEWRIGHT_TEST_TOPOLOGY: 'distributed', TAP: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child.stdout!.on('data', (d: Buffer) => out.push(d.toString()));
        child.stderr!.on('data', (d: Buffer) => out.push(d.toString()));
        child.on('exit', (c) => resolve(c));
      });
      const text = out.join('');
      const failures = text.split('\n').filter((l) => /^\s*not ok /.test(l));
      t.equal(code, 0, failures.length ? `failures:\n${failures.slice(0, 20).join('\n')}` : 'exit 0');
      t.ok(/^\s*ok \d+/m.test(text), 'ran its tests');
    });
  }
}
