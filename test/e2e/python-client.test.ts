/**
 * The Python example client (examples/python) against a running service over gRPC, with
 * the committed stubs in proto/gen/python; and the stubs are what `npm run gen:stubs`
 * produces. Needs python3 with grpcio and protobuf (Debian: python3-grpcio
 * python3-protobuf); the reproducibility checks need the generators (protobuf-compiler,
 * protobuf-compiler-grpc, protoc-gen-go, protoc-gen-go-grpc). Each check skips with the
 * missing package names when its tools are absent.
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { repoRoot } from '../helpers/corpus.js';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { ORG_A, startTestService } from '../helpers/service.js';
import { firstWorking, pptxSlideCount, run } from '../helpers/clients.js';
import { missingPackages, type StubLanguage } from '../../scripts/gen-stubs.js';

const PYTHON_PACKAGES = 'python3-grpcio python3-protobuf';
// Debian's grpcio and protobuf belong to /usr/bin/python3; a python3 earlier on PATH
// (pyenv, a venv) may lack them.
const python = firstWorking([process.env['SLIDEWRIGHT_PYTHON'], '/usr/bin/python3', 'python3'], ['-c', 'import grpc, google.protobuf']);
const noPython = python ? false : `needs python3 with grpcio and protobuf (Debian: apt-get install ${PYTHON_PACKAGES})`;
const example = join(repoRoot, 'examples', 'python', 'slidewright_client.py');

t.test('the Python example uploads over gRPC, analyzes, generates, polls and downloads a deck', { skip: noPython }, async (t) => {
  const svc = await startTestService();
  t.teardown(() => svc.close());
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-py-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const template = await houseTemplatePath(t);

  for (const via of ['grpc', 'signed-url'] as const) {
    const out = join(dir, `deck-${via}.pptx`);
    const r = await run(python!, [example, '--address', svc.grpcAddress, '--template', template, '-o', out, '--upload-via', via, '--poll-interval', '0.2'], {
      env: { ...process.env, SLIDEWRIGHT_API_KEY: ORG_A.key },
    });
    if (r.code !== 0) {
      t.fail(`upload via ${via}: exit ${String(r.code)}\n${r.stderr}`);
      return;
    }
    const summary = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
    t.match(summary, { status: 'completed', slides: 3, template_id: /^tpl_/, generation_id: /^gen_/ }, `summary (${via})`);
    t.equal(await pptxSlideCount(out), 3, `the downloaded .pptx has the 3 requested slides (${via})`);
    t.match(r.stderr, /generation completed/, 'progress is logged on stderr');

    // The same records are visible over REST to the same organization.
    const tpl = (await (await svc.api(`/api/v1/templates/${String(summary['template_id'])}`)).json()) as Record<string, unknown>;
    t.equal(tpl['status'], 'ready');
  }
});

t.test('the Python example reports gRPC errors readably and exits 1', { skip: noPython }, async (t) => {
  const svc = await startTestService();
  t.teardown(() => svc.close());
  const template = await houseTemplatePath(t);
  const r = await run(python!, [example, '--address', svc.grpcAddress, '--template', template, '-o', join(tmpdir(), 'never.pptx')], {
    env: { ...process.env, SLIDEWRIGHT_API_KEY: 'not-a-key' },
  });
  t.equal(r.code, 1);
  t.match(r.stderr, /error: UNAUTHENTICATED/);
});

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

for (const lang of ['python', 'go'] as const satisfies readonly StubLanguage[]) {
  const missing = missingPackages(lang);
  t.test(`gen:stubs is reproducible: the committed ${lang} stubs are what the generators produce`, { skip: missing.length > 0 ? `needs the Debian packages ${missing.join(' ')}` : false }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'slidewright-stubs-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    execFileSync(join(repoRoot, 'node_modules', '.bin', 'tsx'), [join(repoRoot, 'scripts', 'gen-stubs.ts'), '--out', dir, '--lang', lang], { cwd: repoRoot, stdio: 'pipe' });
    const fresh = join(dir, 'proto', 'gen', lang);
    const committed = join(repoRoot, 'proto', 'gen', lang);
    const files = filesUnder(fresh);
    t.same(files, filesUnder(committed), 'same file list (run `npm run gen:stubs` after a .proto change)');
    for (const f of files) t.ok(readFileSync(join(fresh, f)).equals(readFileSync(join(committed, f))), `${f} unchanged`);
  });
}
