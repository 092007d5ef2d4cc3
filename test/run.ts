/**
 * `npm test`: runs tap and leaves nothing of the run behind.
 *
 * 1. When no corpus is found (see test/helpers/corpus.ts), tries `corpus:fetch` once with
 *    a short probe; offline it prints one line and the corpus tests skip.
 * 2. Runs tap with a temporary folder of its own (`TMPDIR`) and a run id
 *    (`SLIDEWRIGHT_TEST_RUN`) in the environment every test process inherits.
 * 3. Afterwards kills any process still carrying the run id (a server or child a test
 *    did not stop) and removes the run's temporary folder. Either finding is reported and
 *    fails the run: every test must close what it starts and remove what it writes.
 *
 * Arguments are passed to tap (`npm test -- test/unit/text/layout.test.ts`).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { corpus, repoRoot } from './helpers/corpus.js';
import { main as fetchCorpusCommand } from './corpus/fetch.js';
import { withServiceProcessEnv } from '../core/src/threads/heap-limits.js';

/** Processes whose environment holds `SLIDEWRIGHT_TEST_RUN=<runId>` (Linux /proc; empty elsewhere). */
function processesOfRun(runId: string): Array<{ pid: number; command: string }> {
  const marker = `SLIDEWRIGHT_TEST_RUN=${runId}`;
  const found: Array<{ pid: number; command: string }> = [];
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return found;
  }
  for (const p of pids) {
    const pid = Number(p);
    if (pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${p}/environ`, 'latin1').split('\0').includes(marker)) continue;
      const cmd = readFileSync(`/proc/${p}/cmdline`, 'latin1').split('\0').filter(Boolean).join(' ');
      found.push({ pid, command: cmd || readlinkSync(`/proc/${p}/exe`) });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** Kills what a run left running; returns what it found. */
async function reapOrphans(runId: string): Promise<Array<{ pid: number; command: string }>> {
  // children that were told to stop may need a moment to exit
  for (let i = 0; i < 20 && processesOfRun(runId).length; i++) await sleep(100);
  const left = processesOfRun(runId);
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return left;
}

async function run(args: string[]): Promise<number> {
  if (!corpus) await fetchCorpusCommand(['--quiet-offline', '--probe-timeout', '5']).catch((e: unknown) => console.log(`corpus:fetch: ${(e as Error).message}`));

  const runId = randomUUID();
  const runTmp = mkdtempSync(join(tmpdir(), 'slidewright-test-run-'));
  // tools that keep caches in $TMPDIR (tsx's transforms, v8-compile-cache-lib's code cache)
  // find them where they always are, so runs share them and they are no litter
  const uid = process.getuid?.() ?? 0;
  const toolCaches = [`tsx-${uid}`, `v8-compile-cache-${uid}`];
  for (const cache of toolCaches) {
    mkdirSync(join(tmpdir(), cache), { recursive: true });
    symlinkSync(join(tmpdir(), cache), join(runTmp, cache));
  }
  // the tests run the service in their own processes: with the environment it starts with
  const env = { ...withServiceProcessEnv(process.env), SLIDEWRIGHT_TEST_RUN: runId, TMPDIR: runTmp };
  const tap = spawn(process.execPath, [join(repoRoot, 'node_modules', 'tap', 'dist', 'esm', 'run.mjs'), ...args], { cwd: repoRoot, env, stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals): void => {
    tap.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const status = await new Promise<number>((resolve) => tap.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))));

  let failed = status !== 0;
  const orphans = await reapOrphans(runId);
  if (orphans.length) {
    failed = true;
    console.log(`\nnpm test: ${orphans.length} process(es) of the tests were still running and have been killed:`);
    for (const o of orphans) console.log(`  ${o.pid}  ${o.command.slice(0, 200)}`);
  }
  let litter: string[] = [];
  try {
    litter = readdirSync(runTmp).filter((e) => !toolCaches.includes(e));
  } catch {
    // removed by someone else
  }
  rmSync(runTmp, { recursive: true, force: true });
  if (litter.length) {
    failed = true;
    console.log(`\nnpm test: the tests left ${litter.length} temporary entr${litter.length === 1 ? 'y' : 'ies'} behind (now removed): ${litter.slice(0, 20).join(', ')}`);
  }
  return failed ? status || 1 : 0;
}

process.exitCode = await run(process.argv.slice(2));
