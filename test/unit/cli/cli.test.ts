/** The CLI's pieces without a service: error formatting, request files, tables, usage errors. */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { formatApiError } from '../../../cli/src/client.js';
import { readDocument, size, table, UsageError } from '../../../cli/src/format.js';
import { run } from '../../../cli/src/main.js';

function fakeIo(env: NodeJS.ProcessEnv = {}): { io: Parameters<typeof run>[1]; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let o = '';
  let e = '';
  stdout.on('data', (d: Buffer) => (o += d.toString()));
  stderr.on('data', (d: Buffer) => (e += d.toString()));
  return { io: { stdout, stderr, env }, out: () => o, err: () => e };
}

t.test('API errors: 422 lists each loc: msg, 501 says not available yet, others carry status and detail', async (t) => {
  t.equal(
    formatApiError(422, [{ loc: ['body', 'slides', 0, 'template_slide_id'], msg: 'Field required' }, { loc: ['body', 'bogus'], msg: 'Extra inputs are not permitted' }], 'POST /api/v1/presentations/generate-deck'),
    'invalid request (422, POST /api/v1/presentations/generate-deck):\n  body.slides.0.template_slide_id: Field required\n  body.bogus: Extra inputs are not permitted',
  );
  t.equal(formatApiError(501, 'template matching is not implemented yet', 'POST /api/v1/templates/match'), 'not available on this server yet (501, POST /api/v1/templates/match): template matching is not implemented yet');
  t.equal(formatApiError(404, 'template not found', 'GET /api/v1/templates/tpl_x'), '404 Not Found (GET /api/v1/templates/tpl_x): template not found');
  t.match(formatApiError(0, 'ECONNREFUSED', 'GET http://x/api/v1/templates'), /^cannot reach the API/);
});

t.test('request files: JSON by extension, YAML otherwise, objects only, readable errors', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-cli-unit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'a.json'), '{"slides": [{"template_slide_id": "lay_1", "slide_data": {}}]}');
  writeFileSync(join(dir, 'a.yaml'), 'slides:\n  - template_slide_id: lay_1\n    slide_data: {title: "1"}\n');
  writeFileSync(join(dir, 'list.yaml'), '- 1\n- 2\n');
  writeFileSync(join(dir, 'bad.json'), '{"slides": ');
  t.same(readDocument(join(dir, 'a.json')), { slides: [{ template_slide_id: 'lay_1', slide_data: {} }] });
  t.same(readDocument(join(dir, 'a.yaml')), { slides: [{ template_slide_id: 'lay_1', slide_data: { title: '1' } }] });
  t.throws(() => readDocument(join(dir, 'list.yaml')), new UsageError(`${join(dir, 'list.yaml')}: the top level must be an object`));
  t.throws(() => readDocument(join(dir, 'bad.json')), /bad\.json is not valid JSON/);
  t.throws(() => readDocument(join(dir, 'missing.yaml')), /cannot read .*missing\.yaml: ENOENT/);
});

t.test('tables and sizes', async (t) => {
  t.equal(table(['id', 'name'], [['tpl_1', 'a'], ['tpl_22', null]]), 'id      name\ntpl_1   a\ntpl_22');
  t.equal(size(49063), '49.1 kB');
  t.equal(size(12), '12 B');
  t.equal(size(2_500_000), '2.5 MB');
});

t.test('run: exit codes for help, usage mistakes and a missing key', async (t) => {
  const help = fakeIo();
  t.equal(await run(['--help'], help.io), 0);
  t.match(help.out(), /Usage: slidewright/);
  const unknown = fakeIo();
  t.equal(await run(['frobnicate'], unknown.io), 1);
  t.match(unknown.err(), /unknown command 'frobnicate'/);
  const badNumber = fakeIo({ SLIDEWRIGHT_API_KEY: 'k' });
  t.equal(await run(['preview', 'tpl_x', 'zero', '-o', 'x.png'], badNumber.io), 1);
  t.match(badNumber.err(), /a positive integer is expected/);
  const noKey = fakeIo();
  t.equal(await run(['templates', 'list'], noKey.io), 1);
  t.equal(noKey.err(), 'slidewright: no API key: set SLIDEWRIGHT_API_KEY or pass --api-key\n');
  const badUrl = fakeIo({ SLIDEWRIGHT_API_KEY: 'k', SLIDEWRIGHT_URL: 'localhost:8080' });
  t.equal(await run(['status', 'gen_x'], badUrl.io), 1);
  t.match(badUrl.err(), /must start with http/);
});
