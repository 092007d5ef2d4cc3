/**
 * One error type per layer, each with `code` and `cause`: the engine's errors are
 * EngineErrors and survive the trip from a CPU thread with their code; gRPC answers are
 * GrpcStatusErrors; the CLI's errors are CliErrors carrying their exit code. The source
 * scan keeps the idioms this replaced (errors patched with Object.assign, plain
 * "shutting down" errors) from coming back.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { EngineError, PackageError, PACKAGE_ERROR_CODES, isPackageErrorCode } from '../../../core/src/ooxml/errors.js';
import { ImageError } from '../../../core/src/generation/slide/images.js';
import { ChartError } from '../../../core/src/generation/charts/chart-data.js';
import { FontFileError } from '../../../core/src/render/font-collection.js';
import { SlideFailure } from '../../../core/src/generation/deck/slide-failure.js';
import run, { type InspectResult, type RenderResult } from '../../../core/src/threads/cpu-task.js';
import { taskError } from '../../../core/src/threads/task-failure.js';
import { GrpcStatusError } from '../../../core/src/protocol/index.js';
import { toInvalidArgument } from '../../../core/src/validation/index.js';
import { CliError } from '../../../cli/src/errors.js';
import { UsageError } from '../../../cli/src/format.js';
import { ApiError } from '../../../cli/src/client.js';
import { run as runCli } from '../../../cli/src/main.js';
import { houseTemplate } from '../../fixtures/house-template.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

t.test('engine errors are EngineErrors with their code, name and cause', async (t) => {
  const cause = new Error('underlying');
  const errors: Array<[EngineError, string, string]> = [
    [new PackageError('zip_bomb', 'too big', { cause }), 'PackageError', 'zip_bomb'],
    [new ImageError('image_invalid', 'not a picture', { cause }), 'ImageError', 'image_invalid'],
    [new ChartError('chart_corrupt', 'unreadable chart', { cause }), 'ChartError', 'chart_corrupt'],
    [new SlideFailure('source_corrupt', 'no layout', { cause }), 'SlideFailure', 'source_corrupt'],
    [new FontFileError('table past the end', { cause }), 'FontFileError', 'font_invalid'],
  ];
  for (const [err, name, code] of errors) {
    t.ok(err instanceof EngineError, `${name} is an EngineError`);
    t.equal(err.name, name);
    t.equal(err.code, code);
    t.equal(err.cause, cause, `${name} keeps its cause`);
  }
  t.ok(PACKAGE_ERROR_CODES.every(isPackageErrorCode));
  t.notOk(isPackageErrorCode('chart_corrupt'));
});

t.test('an engine error crosses from a CPU task as a value and becomes an error again with its code', async (t) => {
  const notZip = (await run({ op: 'inspect', bytes: new TextEncoder().encode('this is not a zip file at all') })) as InspectResult;
  t.equal(notZip.ok, false);
  if (notZip.ok) return;
  t.equal(notZip.error.code, 'not_zip');
  const rebuilt = taskError(notZip);
  t.ok(rebuilt instanceof PackageError, 'a package code comes back as a PackageError');
  t.equal(rebuilt.code, 'not_zip');
  t.equal(rebuilt.message, notZip.error.message);
  t.same(rebuilt.cause, notZip.error, 'the value it crossed as is its cause');

  const missing = (await run({ op: 'render', bytes: await houseTemplate(), cacheKey: 'error-types', slides: [{ part_name: '/ppt/slides/slide999.xml' }], widthPx: 64 })) as RenderResult;
  t.equal(missing.ok, false);
  if (!missing.ok) {
    t.equal(missing.error.code, 'missing_part', 'a render of a part the package lacks fails with missing_part, not internal');
    t.ok(taskError(missing) instanceof PackageError);
  }
  const other = taskError({ ok: false, error: { code: 'chart_corrupt', message: 'x' } });
  t.ok(other instanceof EngineError && !(other instanceof PackageError), 'other codes come back as EngineErrors');
  t.equal(other.code, 'chart_corrupt');
});

t.test('gRPC answers are GrpcStatusErrors', async (t) => {
  const err = toInvalidArgument([{ loc: ['body', 'slides', 0, 'title'], msg: 'String should have at most 10000 characters', type: 'string_too_long', input: 'x' }]);
  t.ok(err instanceof GrpcStatusError);
  t.equal(err.code, GrpcStatus.INVALID_ARGUMENT);
  t.match(err.details, /slides\[0\]\.title: String should have at most 10000 characters/);
  t.match(err.message, /^3 INVALID_ARGUMENT: Invalid request/);
  t.ok(err.metadata.get('grpc-status-details-bin').length === 1, 'the status details travel as a trailer');
  const plain = new GrpcStatusError(GrpcStatus.NOT_FOUND, 'template tpl_x not found', undefined, { cause: new Error('db') });
  t.equal(plain.metadata.getMap()['x-http-status'], undefined);
  t.match(plain.cause, { message: 'db' });
});

t.test('CLI errors are CliErrors whose exit code the CLI exits with', async (t) => {
  t.ok(new UsageError('bad option') instanceof CliError);
  t.equal(new UsageError('bad option').exitCode, 1);
  const api = new ApiError(404, 'template tpl_x not found', 'GET /api/v1/templates/tpl_x');
  t.ok(api instanceof CliError);
  t.equal(api.code, 'api');
  t.equal(api.exitCode, 1);
  const stderr: string[] = [];
  const sink = { write: (s: string) => (stderr.push(s), true) } as unknown as NodeJS.WritableStream;
  const code = await runCli(['generate', join(repoRoot, 'no-such-request-file.json')], { stdout: sink, stderr: sink, env: { SLIDEWRIGHT_API_KEY: 'sw_test' } });
  t.equal(code, 1, 'a usage error exits 1');
  t.match(stderr.join(''), /slidewright: cannot read .*no-such-request-file\.json: ENOENT/);
});

t.test('the replaced error idioms do not come back', async (t) => {
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts')) {
        const text = readFileSync(p, 'utf8');
        text.split('\n').forEach((line, i) => {
          if (/Object\.assign\(\s*new Error\b/.test(line) || /throw new Error\(\s*['"`]shutting down/.test(line)) offenders.push(`${p.slice(repoRoot.length + 1)}:${i + 1}: ${line.trim()}`);
        });
      }
    }
  };
  for (const dir of ['core/src', 'gateway/src', 'workers/src', 'cli/src', 'main']) walk(join(repoRoot, dir));
  t.same(offenders, [], 'errors are built as their layer\'s type, not patched afterwards');
});
