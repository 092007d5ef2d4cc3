/**
 * Helpers for the client tests (CLI, Python and Go examples): run a child process without
 * blocking the event loop (the service under test runs in this process), find tools, and
 * inspect a downloaded deck.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { spawnOwned, stopProcess } from './processes.js';

/** What a finished child process left behind. */
export interface RunResult {
  /** Exit code; null when killed by a signal. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args` asynchronously (a process group of its own) and collects its output; stops it after `timeoutMs`. */
export function run(
  command: string,
  args: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; input?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawnOwned(undefined, command, args, { env: opts.env ?? process.env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => void stopProcess(child, 1_000), opts.timeoutMs ?? 180_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin!.end(opts.input ?? '');
  });
}

/** The first of `candidates` that runs `args` with exit code 0, or undefined. */
export function firstWorking(candidates: readonly (string | undefined)[], args: readonly string[]): string | undefined {
  for (const c of candidates) {
    if (!c) continue;
    const r = spawnSync(c, args, { stdio: 'ignore', timeout: 30_000 });
    if (r.status === 0) return c;
  }
  return undefined;
}

/** Number of slides of a .pptx (its ppt/slides/slideN.xml parts); throws if it is not a zip. */
export async function pptxSlideCount(file: string): Promise<number> {
  const bytes = readFileSync(file);
  if (bytes.subarray(0, 4).toString('latin1') !== 'PK\u0003\u0004') throw new Error(`${file} is not a zip`);
  const zip = await JSZip.loadAsync(bytes);
  return Object.keys(zip.files).filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n)).length;
}
