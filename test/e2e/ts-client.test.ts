/**
 * The TypeScript example client (examples/typescript) against a running service over
 * REST, run as a user would: `npx tsx examples/typescript/slidewright-client.ts`.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/corpus.js';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { ORG_A, startTestService } from '../helpers/service.js';
import { pptxSlideCount, run } from '../helpers/clients.js';

t.test('the TypeScript example uploads (signed URL), analyzes, generates, polls and downloads over REST', async (t) => {
  const svc = await startTestService();
  t.teardown(() => svc.close());
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-ts-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'deck.pptx');
  const template = await houseTemplatePath(t);
  const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
  const env = { ...process.env, SLIDEWRIGHT_URL: svc.url, SLIDEWRIGHT_API_KEY: ORG_A.key, POLL_INTERVAL_MS: '200' };
  const r = await run(tsx, [join(repoRoot, 'examples', 'typescript', 'slidewright-client.ts'), template, out], { env });
  t.equal(r.code, 0, r.stderr);
  t.match(JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as object, { status: 'completed', slides: 2, template_id: /^tpl_/ });
  t.equal(await pptxSlideCount(out), 2);

  const denied = await run(tsx, [join(repoRoot, 'examples', 'typescript', 'slidewright-client.ts'), template, out], {
    env: { ...env, SLIDEWRIGHT_API_KEY: 'nope' },
  });
  t.equal(denied.code, 1);
  t.match(denied.stderr, /error: POST \/templates: 401/);
});
