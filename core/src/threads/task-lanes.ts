/**
 * The CPU pool's queue of tasks waiting for a thread, in two lanes: work a client is waiting
 * for (builds, analyses, a preview asked for, a PDF) goes before background work (the
 * previews a template's analysis pre-renders for later), each lane first in, first out. A
 * deck asked for just after an upload then starts at once instead of after every slide of
 * the template's pre-render.
 */
import type { TaskQueue } from 'piscina';
import { Piscina } from 'piscina';

/** Which lane a task waits in. */
export type TaskLane = 'foreground' | 'background';

/** What a task sent to the pool carries (under Piscina's queue-options symbol; not sent to the thread) to wait in the background lane. */
export const BACKGROUND_LANE = { lane: 'background' as TaskLane };

type Task = Parameters<TaskQueue['push']>[0];

function laneOf(task: Task): TaskLane {
  const options = (task as unknown as Record<symbol, { lane?: TaskLane } | null | undefined>)[Piscina.queueOptionsSymbol];
  return options?.lane === 'background' ? 'background' : 'foreground';
}

/** Piscina's `taskQueue`: foreground tasks first, then background ones, each lane in the order sent. */
export class LanedTaskQueue implements TaskQueue {
  private readonly lanes: Record<TaskLane, Task[]> = { foreground: [], background: [] };

  get size(): number {
    return this.lanes.foreground.length + this.lanes.background.length;
  }

  shift(): Task | null {
    return this.lanes.foreground.shift() ?? this.lanes.background.shift() ?? null;
  }

  push(task: Task): void {
    this.lanes[laneOf(task)].push(task);
  }

  /** A task Piscina took but could not place goes back to the front of its lane (with `stricterFIFO`). */
  unshift(task: Task): void {
    this.lanes[laneOf(task)].unshift(task);
  }

  remove(task: Task): void {
    const lane = this.lanes[laneOf(task)];
    const i = lane.indexOf(task);
    if (i >= 0) lane.splice(i, 1);
  }
}
