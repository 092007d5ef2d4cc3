/**
 * Log output: JSON lines exactly as pino writes them unless stdout is a terminal (then
 * pino-pretty), `LOG_FORMAT` forcing either; the same in a worker thread.
 */
import t from 'tap';
import { execFileSync, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { loadConfig } from '../../../core/src/config.js';
import { PRETTY_OPTIONS, resolveLogFormat } from '../../../core/src/observability/logger.js';
import { repoRoot } from '../../helpers/corpus.js';

const loggerUrl = pathToFileURL(join(repoRoot, 'core/src/observability/logger.ts')).href;
const configUrl = pathToFileURL(join(repoRoot, 'core/src/config.ts')).href;

/** Logs one line from the main thread (`thread` false) or from a worker thread, as `gateway`. */
function childScript(thread: boolean): string {
  const logOne = `const { createLogger } = await import(${JSON.stringify(loggerUrl)});
    const { loadConfig } = await import(${JSON.stringify(configUrl)});
    createLogger(loadConfig(), { component: 'gateway' }).info({ template_id: 't1' }, 'hello from the ${thread ? 'thread' : 'main thread'}');`;
  if (!thread) return logOne;
  const inThread = `(async () => { const { register } = await import('tsx/esm/api'); register(); ${logOne} })();`;
  return `const { Worker } = await import('node:worker_threads');
    await new Promise((resolve, reject) => new Worker(${JSON.stringify(inThread)}, { eval: true }).on('exit', resolve).on('error', reject));`;
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, '');

/** Runs a child script with stdout on a pipe; its stdout. */
function runPiped(script: string, env: NodeJS.ProcessEnv): string {
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, env, encoding: 'utf8', timeout: 60_000 });
}

const baseEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  delete env.LOG_FORMAT;
  return env;
};

t.test('LOG_FORMAT: auto (default) follows the terminal; pretty and json force', async (t) => {
  t.equal(resolveLogFormat('auto', true), 'pretty');
  t.equal(resolveLogFormat('auto', false), 'json');
  t.equal(resolveLogFormat('pretty', false), 'pretty');
  t.equal(resolveLogFormat('json', true), 'json');
  t.equal(loadConfig({}).logFormat, 'auto');
  t.equal(loadConfig({ LOG_FORMAT: 'json' }).logFormat, 'json');
  t.throws(() => loadConfig({ LOG_FORMAT: 'yaml' }), /LOG_FORMAT/);
});

t.test('stdout on a pipe: one JSON object a line with the fields pino always wrote', async (t) => {
  const out = runPiped(childScript(false), baseEnv()).trim().split('\n');
  t.equal(out.length, 1, 'one line');
  const line = JSON.parse(out[0]!) as Record<string, unknown>;
  t.same(Object.keys(line), ['level', 'time', 'pid', 'hostname', 'component', 'template_id', 'msg']);
  t.match(line, { level: 30, component: 'gateway', template_id: 't1', msg: 'hello from the main thread' });
});

t.test('LOG_FORMAT=pretty on a pipe: pino-pretty lines, component first, fields on the same line', async (t) => {
  for (const thread of [false, true]) {
    const out = stripAnsi(runPiped(childScript(thread), { ...baseEnv(), LOG_FORMAT: 'pretty' })).trim().split('\n');
    t.equal(out.length, 1, 'one line');
    t.match(out[0], new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: \\[gateway\\] hello from the ${thread ? 'thread' : 'main thread'} \\{"template_id":"t1"\\}$`), thread ? 'from a worker thread' : 'from the main thread');
    t.notMatch(out[0], /"level"|hostname|"pid"/);
  }
  t.equal(PRETTY_OPTIONS.singleLine, true);
});

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

t.test('stdout on a terminal: pretty by default, in the main thread and in a worker thread; LOG_FORMAT=json keeps JSON', { skip: hasScript ? false : 'util-linux `script` (pseudo-terminal) not installed' }, async (t) => {
  const underTerminal = (thread: boolean, env: NodeJS.ProcessEnv): string => {
    const command = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', childScript(thread)].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    // script(1) runs the command on a pseudo-terminal and copies what it prints
    return stripAnsi(execFileSync('script', ['-qec', command, '/dev/null'], { cwd: repoRoot, env, encoding: 'utf8', timeout: 60_000 })).replace(/\r/g, '').trim();
  };
  t.match(underTerminal(false, baseEnv()), /^\[[\d:.]+\] INFO: \[gateway\] hello from the main thread \{"template_id":"t1"\}$/);
  t.match(underTerminal(true, baseEnv()), /^\[[\d:.]+\] INFO: \[gateway\] hello from the thread \{"template_id":"t1"\}$/);
  t.match(JSON.parse(underTerminal(false, { ...baseEnv(), LOG_FORMAT: 'json' })) as unknown, { component: 'gateway', msg: 'hello from the main thread' });
});
