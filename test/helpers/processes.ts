/**
 * Child processes a test starts and always stops: each runs in a process group of its own
 * (so whatever it starts in turn goes with it), is stopped at the end of the test that
 * owns it, and is killed if the test process exits first.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import type { Test } from 'tap';

const running = new Set<ChildProcess>();

process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is gone already
  }
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Stops a process group: SIGTERM, then SIGKILL when it has not exited after `graceMs`.
 * Resolves when the process has exited.
 */
export async function stopProcess(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (exited(child)) {
    killGroup(child, 'SIGKILL'); // what it started may still run
    return;
  }
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  killGroup(child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
  killGroup(child, 'SIGKILL');
}

/**
 * Spawns `command args` in a process group of its own. With `t`, the process is stopped
 * ({@link stopProcess}) when `t` ends; in every case it is killed when this process exits.
 */
export function spawnOwned(t: Test | undefined, command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  t?.teardown(() => stopProcess(child));
  return child;
}
