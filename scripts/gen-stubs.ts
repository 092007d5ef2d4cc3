/**
 * Polyglot client stubs from the protos (`npm run gen:stubs`).
 *
 * - Python (messages, `.pyi` type hints, gRPC service stubs) into `proto/gen/python/`,
 *   from `buf.gen.python.yaml`: buf drives protoc's built-in `python`/`pyi` generators and
 *   `grpc_python_plugin`. The google/api and google/rpc copies are generated too (the
 *   Python stubs import them as `google.api.httpbody_pb2`, ...).
 * - Go (messages, gRPC service stubs) into `proto/gen/go/` (module
 *   `slidewright/proto/gen/go`, package `slidewrightv1`), from `buf.gen.go.yaml`: buf
 *   drives `protoc-gen-go` and `protoc-gen-go-grpc`; google/api and google/rpc map to
 *   `google.golang.org/genproto`.
 *
 * Every tool is local (Debian packages `protobuf-compiler`, `protobuf-compiler-grpc`,
 * `protoc-gen-go`, `protoc-gen-go-grpc`); buf's remote plugins are never used.
 * Output is deterministic (the same tool versions give the same bytes).
 *
 * Options: `--out DIR` writes under DIR instead of the repository (DIR/proto/gen/...);
 * `--lang python|go` generates one language only (repeatable; default both).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BUF = join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'buf.cmd' : 'buf');

/** The stub languages and what each needs. */
export const STUB_LANGUAGES = {
  python: {
    template: 'buf.gen.python.yaml',
    dir: 'python',
    tools: [
      { command: 'protoc', debian: 'protobuf-compiler' },
      { command: 'grpc_python_plugin', debian: 'protobuf-compiler-grpc' },
    ],
    paths: [] as string[],
  },
  go: {
    template: 'buf.gen.go.yaml',
    dir: 'go',
    tools: [
      { command: 'protoc-gen-go', debian: 'protoc-gen-go' },
      { command: 'protoc-gen-go-grpc', debian: 'protoc-gen-go-grpc' },
    ],
    paths: ['proto/slidewright'],
  },
} as const;

/** A stub language name. */
export type StubLanguage = keyof typeof STUB_LANGUAGES;

/** Whether `command` is an executable file on PATH. */
export function onPath(command: string): boolean {
  for (const d of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!d) continue;
    const p = join(d, command);
    try {
      if (existsSync(p) && statSync(p).isFile()) return true;
    } catch {
      // unreadable PATH entry
    }
  }
  return false;
}

/** The Debian packages missing for a language (empty when every tool is on PATH). */
export function missingPackages(lang: StubLanguage): string[] {
  return STUB_LANGUAGES[lang].tools.filter((t) => !onPath(t.command)).map((t) => t.debian);
}

const GO_MOD = `// Generated Go stubs of the Slidewright API (\`npm run gen:stubs\`). Import path:
// slidewright/proto/gen/go/slidewright/v1 (package slidewrightv1); use it with a
// replace directive, as examples/go/go.mod does.
module slidewright/proto/gen/go

go 1.19

require (
	google.golang.org/genproto v0.0.0-20200526211855-cb27e3aa2013
	google.golang.org/grpc v1.33.3
	google.golang.org/protobuf v1.28.1
)
`;

const PY_README = `Generated Python stubs of the Slidewright API (\`npm run gen:stubs\`; do not edit).
Put this folder on PYTHONPATH, then:

    from slidewright.v1 import template_service_pb2, template_service_pb2_grpc

Needs grpcio and protobuf >= 3.20 (Debian: python3-grpcio, python3-protobuf).
The google/api and google/rpc modules are this API's copies of the googleapis files;
google/ is a namespace package and merges with the installed google.protobuf.
`;

function generate(lang: StubLanguage, outRoot: string): number {
  const spec = STUB_LANGUAGES[lang];
  const missing = missingPackages(lang);
  if (missing.length > 0) {
    throw new Error(`gen:stubs ${lang}: missing tools; install the Debian packages: apt-get install ${missing.join(' ')}`);
  }
  const dir = join(outRoot, 'proto', 'gen', spec.dir);
  // Generated trees only; hand-written files beside them (go.mod, README) are rewritten below.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const args = ['generate', '--template', join(ROOT, spec.template), '-o', outRoot];
  for (const p of spec.paths) args.push('--path', p);
  execFileSync(BUF, args, { cwd: ROOT, stdio: 'inherit' });
  if (lang === 'go') writeFileSync(join(dir, 'go.mod'), GO_MOD);
  if (lang === 'python') writeFileSync(join(dir, 'README.txt'), PY_README);
  return countFiles(dir);
}

function countFiles(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    n += statSync(p).isDirectory() ? countFiles(p) : 1;
  }
  return n;
}

function main(): void {
  const args = process.argv.slice(2);
  let outRoot = ROOT;
  const langs: StubLanguage[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = args[i + 1];
    if (a === '--out' && v) {
      outRoot = resolve(v);
      i++;
    } else if (a === '--lang' && (v === 'python' || v === 'go')) {
      langs.push(v);
      i++;
    } else {
      throw new Error(`gen:stubs: unknown argument ${a ?? ''} (use --out DIR, --lang python|go)`);
    }
  }
  for (const lang of langs.length > 0 ? langs : (Object.keys(STUB_LANGUAGES) as StubLanguage[])) {
    const n = generate(lang, outRoot);
    process.stdout.write(`gen:stubs: ${lang}: ${n} files -> ${join(outRoot, 'proto', 'gen', STUB_LANGUAGES[lang].dir)}\n`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }
}
