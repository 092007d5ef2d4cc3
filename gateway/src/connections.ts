/**
 * Bounds on the REST server's client connections: how long a connection may take to send a
 * request, how long a kept-alive connection waits for the next one, and how many one
 * process holds open at once.
 *
 * Without them a connection that never sends anything, or stops halfway through its
 * headers, holds a file descriptor for as long as the client likes; enough of them and the
 * process cannot accept anything, `/healthz` included. Here:
 *
 * - Node's own timers answer 408 to a request whose headers (`headersTimeoutSeconds`) or
 *   whole body (`requestTimeoutSeconds`) are late, and close a kept-alive connection
 *   `keepAliveTimeoutSeconds` after its last response.
 * - A connection that has sent nothing at all is closed `headersTimeoutSeconds` after it
 *   opened by a timer of its own. Node 20 would expire it too, but only on its periodic
 *   check, and not at all once `server.close()` has begun (the check stops then, so one
 *   silent client would hold a shutdown open indefinitely).
 * - At `maxConnections` open connections a new one first makes room: the connection that
 *   has been silent longest is closed (it has no request to lose, and a flood of silent
 *   connections so displaces its own kind rather than clients between requests), else the
 *   idle kept-alive ones (`closeIdleConnections`: their clients reconnect). Only when every open
 *   connection is busy with a request is the new one refused: a plain
 *   `503 Service Unavailable` with `Retry-After: 1`, written before Node's HTTP parser sees
 *   the socket, so the refusal costs no request handling.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { HTTP_CONNECTION_DEFAULTS } from '../../core/src/config.js';

/** Connection bounds of one REST server (one process). */
export interface ConnectionLimits {
  /** Client connections held open at once; past it, room is made or the newcomer gets 503. */
  maxConnections: number;
  /**
   * Seconds from a connection's opening (or from the first byte of a later request on a
   * kept-alive connection) until its request headers must be complete: then 408 and close.
   * A connection that sent nothing by then is closed too (by its own timer, without an
   * answer, or by Node's periodic check, with a 408, whichever comes first).
   */
  headersTimeoutSeconds: number;
  /** Seconds a request may take to arrive whole (headers and body): then 408 and close. Not less than `headersTimeoutSeconds`. */
  requestTimeoutSeconds: number;
  /** Seconds a kept-alive connection waits for its next request after a response before it is closed (Node adds a 1 s margin). */
  keepAliveTimeoutSeconds: number;
}

/** Timeouts used when none are configured, seconds (the configuration's defaults). The cap comes from {@link defaultMaxConnections}. */
export const CONNECTION_DEFAULTS: Readonly<Omit<ConnectionLimits, 'maxConnections'>> = HTTP_CONNECTION_DEFAULTS;

/** Fewest connections a cap may allow: below it a handful of health checks would be refused. */
export const MIN_MAX_CONNECTIONS = 16;
/** Default cap when the descriptor limit is high or unknown: connections past it mostly mean a flood. */
export const DEFAULT_MAX_CONNECTIONS_CEILING = 8192;
/** Share of the open-files limit the default cap allows to client connections; the rest is for files, gRPC channels, logs and refusals in flight. */
const FD_SHARE = 0.75;

/**
 * The soft "Max open files" limit of this process (`ulimit -n`), read from
 * `/proc/self/limits`; `Infinity` when unlimited, undefined when it cannot be read (not
 * Linux, or an unexpected format).
 * @param limitsText the text of a `/proc/<pid>/limits` file (default: this process's own)
 */
export function openFilesSoftLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return undefined;
    }
  }
  const match = /^Max open files\s+(\S+)\s+(\S+)/m.exec(text);
  if (!match) return undefined;
  const soft = match[1]!;
  if (soft === 'unlimited') return Infinity;
  return /^\d+$/.test(soft) ? Number(soft) : undefined;
}

/**
 * The default cap on open client connections: 75 % of the soft open-files limit, at least
 * {@link MIN_MAX_CONNECTIONS} and at most {@link DEFAULT_MAX_CONNECTIONS_CEILING}; the
 * ceiling when the limit cannot be read.
 * @param softLimit open-files soft limit, descriptors (default: read from `/proc/self/limits`)
 */
export function defaultMaxConnections(softLimit: number | undefined = openFilesSoftLimit()): number {
  if (softLimit === undefined || !Number.isFinite(softLimit)) return DEFAULT_MAX_CONNECTIONS_CEILING;
  return Math.min(DEFAULT_MAX_CONNECTIONS_CEILING, Math.max(MIN_MAX_CONNECTIONS, Math.floor(softLimit * FD_SHARE)));
}

/** What a guarded server has done with its connections since it was created. */
export interface ConnectionStats {
  /** Connections open now and handed to the HTTP server. */
  open: number;
  /** Connections answered 503 at the cap. */
  refused: number;
  /** Connections closed having sent nothing: silent past the headers timeout, or closed to make room at the cap. */
  closedSilent: number;
}

/** An HTTP server with its connections bounded by {@link createGuardedServer}. */
export interface GuardedServer {
  readonly server: Server;
  /** Counts so far (for tests and `/metrics`). */
  stats(): ConnectionStats;
  /**
   * Closes every connection that has sent nothing yet (none carries a request), e.g. before
   * `server.close()`, which would otherwise wait for them. Returns how many it closed.
   */
  closeSilentConnections(): number;
}

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;
type ConnectionListener = (socket: Socket) => void;

const REFUSAL_BODY = '{"detail":"too many open connections; retry shortly"}';
/** The whole answer to a connection refused at the cap; written raw, before any HTTP parsing. */
const REFUSAL =
  'HTTP/1.1 503 Service Unavailable\r\n' +
  'Retry-After: 1\r\n' +
  'Connection: close\r\n' +
  'Content-Type: application/json\r\n' +
  `Content-Length: ${Buffer.byteLength(REFUSAL_BODY)}\r\n` +
  '\r\n' +
  REFUSAL_BODY;
/** Longest a refused connection is kept for its client to read the 503 and close, ms. */
const REFUSAL_LINGER_MS = 2000;

/**
 * How often Node looks for requests past their headers or request timeout, ms: a quarter
 * of the headers timeout (so a late request is answered at most 25 % after its deadline),
 * between 250 ms and 5 s (Node's default of 30 s would let a 20 s timeout run to 50 s).
 */
function checkingIntervalMs(headersTimeoutMs: number): number {
  return Math.min(5000, Math.max(250, Math.floor(headersTimeoutMs / 4)));
}

function checkLimits(limits: ConnectionLimits): void {
  const { maxConnections, headersTimeoutSeconds, requestTimeoutSeconds, keepAliveTimeoutSeconds } = limits;
  if (!Number.isInteger(maxConnections) || maxConnections < 1) throw new RangeError(`maxConnections must be a positive integer (got ${maxConnections})`);
  for (const [name, v] of Object.entries({ headersTimeoutSeconds, requestTimeoutSeconds, keepAliveTimeoutSeconds })) {
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`${name} must be a positive number of seconds (got ${v})`);
  }
  // Node refuses this too, with a message naming its own option
  if (headersTimeoutSeconds > requestTimeoutSeconds) {
    throw new RangeError(`headersTimeoutSeconds (${headersTimeoutSeconds}) must not exceed requestTimeoutSeconds (${requestTimeoutSeconds})`);
  }
}

/**
 * An `http.Server` for `handler` whose connections are bounded by `limits` (see the module
 * comment). Node's own `'connection'` listeners are taken over: each new socket passes the
 * cap first and reaches them only when admitted.
 * @throws RangeError when a limit is not a positive number, or the headers timeout exceeds the request timeout
 */
export function createGuardedServer(handler: RequestHandler, limits: ConnectionLimits): GuardedServer {
  checkLimits(limits);
  const headersTimeoutMs = Math.round(limits.headersTimeoutSeconds * 1000);
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: Math.round(limits.requestTimeoutSeconds * 1000),
      connectionsCheckingInterval: checkingIntervalMs(headersTimeoutMs),
    },
    handler,
  );
  // Node announces this to clients (`Keep-Alive: timeout=N`) and closes the connection 1 s
  // later, a margin for a request already on its way when the announced time runs out
  server.keepAliveTimeout = Math.round(limits.keepAliveTimeoutSeconds * 1000);

  /** Admitted sockets not yet closed (destroyed ones leave at once, not at their 'close'). */
  const open = new Set<Socket>();
  /** Admitted sockets that had sent nothing when last looked at, oldest first. */
  const silent = new Set<Socket>();
  let refused = 0;
  let closedSilent = 0;

  const nodeListeners = server.listeners('connection') as ConnectionListener[];
  server.removeAllListeners('connection');

  const closeSilently = (socket: Socket): void => {
    open.delete(socket);
    silent.delete(socket);
    closedSilent++;
    socket.destroy();
  };

  /** Closes the admitted socket that has been silent longest; false when every one has spoken. */
  const evictOldestSilent = (): boolean => {
    for (const socket of silent) {
      silent.delete(socket);
      if (socket.destroyed || socket.bytesRead > 0) continue; // it spoke since: no longer a candidate
      closeSilently(socket);
      return true;
    }
    return false;
  };

  /** Makes room for one more connection; false when every open one is busy with a request. */
  const makeRoom = (): boolean => {
    if (evictOldestSilent()) return true;
    // kept-alive connections between requests: their clients open a new one when needed
    server.closeIdleConnections();
    for (const socket of open) if (socket.destroyed) open.delete(socket);
    return open.size < limits.maxConnections;
  };

  const refuse = (socket: Socket): void => {
    refused++;
    socket.on('error', () => undefined); // a client gone before reading its refusal
    // what the client sent is read and dropped: closing with unread bytes would send a
    // reset, and a reset can discard the 503 before the client reads it
    socket.resume();
    socket.end(REFUSAL);
    const linger = setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
  };

  server.on('connection', (socket: Socket) => {
    if (open.size >= limits.maxConnections && !makeRoom()) {
      refuse(socket);
      return;
    }
    open.add(socket);
    silent.add(socket);
    // Node's headers timeout would also expire a silent socket, but only at its periodic
    // check and not after server.close() began; this one is exact and always runs
    const silenceTimer = setTimeout(() => {
      silent.delete(socket);
      if (!socket.destroyed && socket.bytesRead === 0) closeSilently(socket);
    }, headersTimeoutMs);
    silenceTimer.unref();
    socket.once('close', () => {
      clearTimeout(silenceTimer);
      open.delete(socket);
      silent.delete(socket);
    });
    for (const listener of nodeListeners) listener.call(server, socket);
  });

  return {
    server,
    stats: () => ({ open: open.size, refused, closedSilent }),
    closeSilentConnections() {
      let closed = 0;
      for (const socket of [...silent]) {
        silent.delete(socket);
        if (socket.destroyed || socket.bytesRead > 0) continue;
        closeSilently(socket);
        closed++;
      }
      return closed;
    },
  };
}
