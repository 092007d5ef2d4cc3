/**
 * The one place processes create their pino logger.
 *
 * Two output formats:
 * - `json`: one JSON object a line on stdout, pino's own format (what log shippers and the
 *   tests read);
 * - `pretty`: pino-pretty's human-readable lines (time, level, `[component]`, message, the
 *   other fields on the same line), coloured when the terminal supports it.
 *
 * `LOG_FORMAT=auto` (the default) picks `pretty` when file descriptor 1 is a terminal and
 * `json` otherwise. The check is on the descriptor (`isatty(1)`), not on `process.stdout`,
 * so it answers the same in the main thread and in worker threads (whose `process.stdout`
 * is a pipe to the main thread); a child process checks its own stdout.
 *
 * Pretty output runs pino-pretty as a pino transport: formatting happens on a thread of
 * its own (pino's thread-stream) and pino-pretty is loaded only there, so the JSON path
 * loads nothing more than before and the main thread does no formatting. pino flushes
 * the transport when the process exits.
 */
import { isatty } from 'node:tty';
import { pino, type Bindings, type Logger, type LoggerOptions } from 'pino';
import type { Config } from '../config.js';

/** The two formats a logger writes. */
export type LogFormat = 'pretty' | 'json';

/**
 * pino-pretty's options for `pretty` (serializable: they travel to the transport's thread).
 * The component (gateway, core, worker) leads the message; pid and hostname, the same on
 * every line of one process, are left out.
 */
export const PRETTY_OPTIONS = Object.freeze({
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,component',
  messageFormat: '{if component}[{component}] {end}{msg}',
  singleLine: true,
});

/**
 * The format a `LOG_FORMAT` setting means for this process.
 * @param setting `auto`, `pretty` or `json`
 * @param stdoutIsTerminal whether stdout is a terminal (default: `isatty(1)`)
 * @returns `pretty` or `json`; `auto` is `pretty` exactly when stdout is a terminal
 */
export function resolveLogFormat(setting: Config['logFormat'], stdoutIsTerminal: boolean = isatty(1)): LogFormat {
  if (setting !== 'auto') return setting;
  return stdoutIsTerminal ? 'pretty' : 'json';
}

/**
 * A process's root logger at `config.logLevel`, in the format of `config.logFormat`.
 * @param config the level (`LOG_LEVEL`) and format (`LOG_FORMAT`)
 * @param bindings fields every line carries, e.g. `{ component: 'gateway' }`
 * @param stdoutIsTerminal whether stdout is a terminal (default: `isatty(1)`)
 * @throws Error from pino when the level is not one of its levels (the config schema
 *   admits only pino's levels)
 */
export function createLogger(config: Readonly<Pick<Config, 'logLevel' | 'logFormat'>>, bindings?: Bindings, stdoutIsTerminal?: boolean): Logger {
  const options: LoggerOptions = { level: config.logLevel };
  if (resolveLogFormat(config.logFormat, stdoutIsTerminal) === 'pretty') {
    options.transport = { target: 'pino-pretty', options: { ...PRETTY_OPTIONS } };
  }
  const log = pino(options);
  return bindings ? log.child(bindings) : log;
}
