/**
 * The CLI's one error type. `code` names what went wrong, `exitCode` is what the process
 * exits with; the message is printed after `slidewright: `. `cause` keeps the underlying
 * error (a failed fetch, an unreadable file) for `--verbose`-style debugging.
 */
export class CliError extends Error {
  override readonly name: string = 'CliError';
  /**
   * @param code - `usage` (bad file, missing key, bad option; no API call made), `api` (a
   *   non-2xx answer, or none), `report_gate` (a report's findings at the `--strict` level)
   * @param message - what the user reads
   * @param exitCode - 1 for usage and API errors, 2 for the report gate
   * @param options - `cause`: the underlying error
   */
  constructor(
    readonly code: 'usage' | 'api' | 'report_gate',
    message: string,
    readonly exitCode: 1 | 2,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
