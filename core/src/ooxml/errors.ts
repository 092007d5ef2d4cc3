/** Every {@link PackageErrorCode}, for checking a code that arrives as a string. */
export const PACKAGE_ERROR_CODES = [
  'empty',
  'not_zip',
  'encrypted',
  'zip_truncated',
  'zip_unsupported',
  'zip_bomb',
  'too_many_parts',
  'bad_entry_name',
  'duplicate_entry',
  'missing_part',
  'not_presentation',
  'macro_enabled',
  'xml_dtd',
  'xml_too_deep',
  'xml_malformed',
  'bad_structure',
  'too_large',
] as const;

/**
 * Why a package could not be read. Each code names one class of bad input, so the upload
 * path can answer with the right HTTP status and the analysis with a precise reason.
 */
export type PackageErrorCode = (typeof PACKAGE_ERROR_CODES)[number];

const KNOWN_PACKAGE_ERROR_CODES: ReadonlySet<string> = new Set(PACKAGE_ERROR_CODES);

/** Whether `code` is one of the {@link PackageErrorCode}s (e.g. a code that crossed a thread as a string). */
export function isPackageErrorCode(code: string): code is PackageErrorCode {
  return KNOWN_PACKAGE_ERROR_CODES.has(code);
}

/**
 * The engine's one error type (package reading, slide building, pictures, charts): `code`
 * names the class of problem in the API's terms (it becomes a job's or a slide error's
 * code), the message says what was wrong for the caller, and `cause`, when given, is the
 * underlying error (for the logs). Subclasses only narrow `code` and give the error a name.
 *
 * Engine errors do not cross worker threads as objects (structured cloning keeps neither
 * the class nor `code`): the CPU task returns them as a `TaskFailure` value and the main
 * thread rebuilds an {@link EngineError} from it (core/src/threads/cpu-task.ts `taskError`).
 */
export class EngineError<Code extends string = string> extends Error {
  override readonly name: string = 'EngineError';
  /**
   * @param code - the class of problem, e.g. `zip_bomb`, `image_invalid`
   * @param message - what was wrong, as the caller reads it
   * @param options - `cause`: the underlying error
   */
  constructor(
    readonly code: Code,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A package (zip container, OPC structure or XML part) that Slidewright refuses to read. */
export class PackageError extends EngineError<PackageErrorCode> {
  override readonly name = 'PackageError';
}
