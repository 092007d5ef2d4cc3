/**
 * How an engine error crosses from a CPU thread to the main thread, and back into an error.
 * Kept apart from cpu-task.ts so the main thread can use it without loading the engine.
 */
import { EngineError, PackageError, isPackageErrorCode } from '../ooxml/errors.js';

/** A PDF export's failure `no_slides`: what it says. */
export const NO_VISIBLE_SLIDE_MESSAGE = 'the presentation has no visible slide to put on a PDF page';

/**
 * An engine error as it crosses from a CPU thread to the main thread: a plain value, since
 * structured cloning keeps neither an error's class nor its `code`. {@link taskError} makes
 * it an {@link EngineError} again.
 */
export interface TaskFailure {
  ok: false;
  error: { code: string; message: string };
}

/**
 * The engine error a CPU task failed with, rebuilt on the receiving thread: same `code` and
 * message, the failure value as `cause`. A `PackageError` when the code is a package code.
 */
export function taskError(failed: TaskFailure): EngineError {
  const { code, message } = failed.error;
  return isPackageErrorCode(code) ? new PackageError(code, message, { cause: failed.error }) : new EngineError(code, message, { cause: failed.error });
}
