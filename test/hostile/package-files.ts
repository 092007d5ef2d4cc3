/**
 * What the hostile tests that change real templates share: a package's files read out to be
 * changed (and written back with `writeZip`), and the one outcome they refuse — a task
 * failure the engine did not expect.
 */
import { readZipEntries } from '../../core/src/ooxml/opc/zip-reader.js';
import { inflateEntry } from '../../core/src/ooxml/opc/zip-codec.js';

/** The files of a package, inflated, in their order (folder entries left out). */
export function packageFiles(bytes: Uint8Array): Array<{ name: string; bytes: Uint8Array }> {
  return readZipEntries(bytes, { maxEntries: 10_000 })
    .filter((e) => !e.isDirectory)
    .map((e) => ({ name: e.name, bytes: inflateEntry(e.name, e.method, e.data, 256 * 1024 * 1024) }));
}

/**
 * The message of a CPU task's failure coded `internal` (an exception the engine did not
 * expect: a user would see a 500 or a job failed with no reason); undefined for a success or
 * a refusal with the engine's own code.
 */
export function unexpectedFailure(result: unknown): string | undefined {
  const r = result as { ok: boolean; error?: { code: string; message: string } };
  return !r.ok && r.error?.code === 'internal' ? r.error.message : undefined;
}
