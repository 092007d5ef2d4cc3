/**
 * The Go example client (examples/go) against a running service over gRPC, built with
 * the committed stubs in proto/gen/go. Offline build: GOPATH mode over the Go sources
 * Debian ships in /usr/share/gocode (golang-go, golang-google-grpc-dev,
 * golang-google-protobuf-dev, golang-google-genproto-dev); skips, naming them, when they
 * are absent.
 */
import t from 'tap';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/corpus.js';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { ORG_A, startTestService } from '../helpers/service.js';
import { firstWorking, pptxSlideCount, run } from '../helpers/clients.js';

const GOCODE = '/usr/share/gocode';
const GO_PACKAGES = 'golang-go golang-google-grpc-dev golang-google-protobuf-dev golang-google-genproto-dev golang-github-golang-protobuf-1-5-dev';
const go = firstWorking(['go', '/usr/lib/go/bin/go'], ['version']);
// github.com/golang/protobuf must be 1.4+ (registry.go; 1.3 cannot marshal the APIv2 stubs).
const haveSources = [
  'google.golang.org/grpc',
  'google.golang.org/protobuf',
  'google.golang.org/genproto/googleapis/api/httpbody',
  'github.com/golang/protobuf/proto/registry.go',
].every((p) => existsSync(join(GOCODE, 'src', p)));
const skip = go && haveSources ? false : `needs Go and the Go gRPC/protobuf sources (Debian: apt-get install ${GO_PACKAGES})`;

t.test('the Go example uploads, analyzes, generates, polls and downloads a deck', { skip }, async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'slidewright-go-'));
  t.teardown(() => rmSync(work, { recursive: true, force: true }));
  // GOPATH mode: our two trees linked under their import paths, Debian's sources after them.
  const src = join(work, 'gopath', 'src', 'slidewright');
  mkdirSync(join(src, 'proto', 'gen'), { recursive: true });
  mkdirSync(join(src, 'examples'), { recursive: true });
  symlinkSync(join(repoRoot, 'proto', 'gen', 'go'), join(src, 'proto', 'gen', 'go'));
  symlinkSync(join(repoRoot, 'examples', 'go'), join(src, 'examples', 'go'));
  const env = {
    ...process.env,
    GO111MODULE: 'off',
    GOPATH: `${join(work, 'gopath')}:${GOCODE}`,
    // Go's build cache outlives the run (kept with the user's caches, not in the run's temp folder)
    GOCACHE: process.env['GOCACHE'] ?? join(homedir(), '.cache', 'slidewright', 'go-build'),
    GOFLAGS: '',
  };
  const exe = join(work, 'slidewright-example');
  const build = await run(go!, ['build', '-o', exe, 'slidewright/examples/go'], { env, cwd: work, timeoutMs: 500_000 });
  t.equal(build.code, 0, `go build\n${build.stderr}`);
  if (build.code !== 0) return;

  const svc = await startTestService();
  t.teardown(() => svc.close());
  const template = await houseTemplatePath(t);
  for (const via of ['grpc', 'signed-url']) {
    const out = join(work, `deck-${via}.pptx`);
    const r = await run(exe, ['-address', svc.grpcAddress, '-template', template, '-o', out, '-upload-via', via, '-poll-interval', '200ms'], {
      env: { ...process.env, SLIDEWRIGHT_API_KEY: ORG_A.key },
    });
    t.equal(r.code, 0, `upload via ${via}\n${r.stderr}`);
    if (r.code !== 0) continue;
    t.match(JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as object, { status: 'completed', slides: 2, generation_id: /^gen_/ });
    t.equal(await pptxSlideCount(out), 2, `the downloaded .pptx has the 2 requested slides (${via})`);
  }

  const denied = await run(exe, ['-address', svc.grpcAddress, '-template', template, '-api-key', 'nope'], { cwd: work });
  t.equal(denied.code, 1);
  t.match(denied.stderr, /error: Unauthenticated/);
});
