/**
 * `slidewright report` (issue 23, item 1): prints a generated deck's quality report with
 * 1-based slide numbers; `--json` prints it as the API gives it; `--strict` exits 2 only
 * on errors, `--fail-on warning` on warnings too; an unknown id is an API error (exit 1).
 */
import t from 'tap';
import { join } from 'node:path';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { repoRoot } from '../helpers/corpus.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { ORG_A, startTestService } from '../helpers/service.js';
import { run, type RunResult } from '../helpers/clients.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BIN = join(repoRoot, 'cli', 'bin', 'slidewright.js');
const svc = await startTestService();
t.teardown(() => svc.close());

function cli(args: string[]): Promise<RunResult> {
  return run(process.execPath, [BIN, ...args], { env: { ...process.env, SLIDEWRIGHT_URL: svc.url, SLIDEWRIGHT_API_KEY: ORG_A.key } });
}

const { results } = await uploadAndAnalyze(svc, await houseTemplatePath(t));
const content = (results.layouts as Json[]).find((l) => l.type === 'obj')!.slide_id as string;
const r = await svc.api('/api/v1/presentations/generate-deck', {
  method: 'POST',
  json: { slides: [{ template_slide_id: content, slide_data: { title: 'Pale title', content: { blocks: [{ type: 'text', text: { bullets: ['One'] } }] }, slide_format: { title: { color: 'D0D0D0' } } } }] },
});
const id = ((await r.json()) as Json).generation_id as string;
await waitForGeneration(svc, id);

t.test('report prints the summary and each finding with its slide number', async (t) => {
  const res = await cli(['report', id]);
  t.equal(res.code, 0, res.stderr);
  t.match(res.stdout, new RegExp(`^${id}: 0 errors, [1-9]\\d* warnings, \\d+ info \\(checks: package, fit, accessibility, brand\\)`));
  t.match(res.stdout, /^1\s+warning\s+accessibility\s+low_contrast\s+Title \d+ \(#\d+\)\s+text of/m, 'the low-contrast title on slide 1');
  const only = await cli(['report', id, '--min-severity', 'warning']);
  t.notMatch(only.stdout, /\binfo\s+(accessibility|brand|fit)\b/, '--min-severity hides info findings');
});

t.test('--json, --strict and --fail-on', async (t) => {
  const json = await cli(['--json', 'report', id]);
  t.equal(json.code, 0);
  const report = JSON.parse(json.stdout) as Json;
  t.same(report.checks, ['package', 'fit', 'accessibility', 'brand']);
  t.equal((await cli(['report', id, '--strict'])).code, 0, 'no errors: --strict passes');
  const failing = await cli(['report', id, '--fail-on', 'warning']);
  t.equal(failing.code, 2, 'warnings fail --fail-on warning with status 2');
  t.match(failing.stderr, /the quality report has [1-9]\d* warnings?/);
  const unknown = await cli(['report', 'gen_01J0000000000000000000000']);
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /not found/i);
});
