/**
 * Validation failures over gRPC: INVALID_ARGUMENT with a `grpc-status-details-bin` trailer
 * holding `google.rpc.Status { code: 3, details: [google.rpc.BadRequest,
 * slidewright.v1.ValidationErrorDetail] }`. BadRequest is for any gRPC client; the
 * Slidewright detail keeps loc, type, input and ctx so the REST gateway can rebuild the
 * exact 422 body.
 */
import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import { GrpcStatusError } from '../protocol/grpc-error.js';
import { BadRequest } from '../../../proto/gen/ts/google/rpc/error_details.js';
import { Status } from '../../../proto/gen/ts/google/rpc/status.js';
import { ValidationErrorDetail } from '../../../proto/gen/ts/slidewright/v1/errors.js';
import type { RouteSpec } from '../../../proto/gen/routes.js';
import { boundedEcho, type Violation } from './errors.js';

const DETAILS_KEY = 'grpc-status-details-bin';
const TYPE_PREFIX = 'type.googleapis.com/';
const BAD_REQUEST_TYPE = `${TYPE_PREFIX}google.rpc.BadRequest`;
const VALIDATION_DETAIL_TYPE = `${TYPE_PREFIX}slidewright.v1.ValidationErrorDetail`;
/** Inputs whose JSON is longer than this are not carried (metadata size limits). */
const MAX_INPUT_JSON = 2048;
/** At most this many violations are carried. */
const MAX_VIOLATIONS = 100;
const REST_PREFIXES: ReadonlySet<string> = new Set(['body', 'query', 'path']);

/**
 * Renders a loc as a field path: `['body', 'slides', 0, 'options', 'x']` →
 * `slides[0].options.x` (a leading `body`/`query`/`path` is dropped).
 */
export function fieldPath(loc: readonly (string | number)[]): string {
  const parts = loc.length > 0 && typeof loc[0] === 'string' && REST_PREFIXES.has(loc[0]) ? loc.slice(1) : loc;
  let out = '';
  for (const p of parts) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? p : `.${p}`;
  }
  return out;
}

/** Parses a field path back to a loc: `slides[0].options.x` → `['slides', 0, 'options', 'x']`. */
export function parseFieldPath(path: string): (string | number)[] {
  const loc: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  for (let m = re.exec(path); m; m = re.exec(path)) {
    if (m[2] !== undefined) loc.push(Number(m[2]));
    else if (m[1] !== undefined) loc.push(m[1]);
  }
  return loc;
}

/** A grpc-js ServiceError with code 3 (INVALID_ARGUMENT), details and metadata set. */
export type InvalidArgumentError = GrpcStatusError<GrpcStatus.INVALID_ARGUMENT>;

/** A JSON-safe copy of an input, or null when it cannot be carried. */
function safeJson(v: unknown): unknown {
  if (v === undefined) return null;
  try {
    const s = JSON.stringify(boundedEcho(v));
    if (s === undefined || s.length > MAX_INPUT_JSON) return null;
    return JSON.parse(s) as unknown;
  } catch {
    return null;
  }
}

/**
 * Builds the gRPC error for validation failures: code 3 (INVALID_ARGUMENT), a readable
 * `details` string, and `grpc-status-details-bin` metadata with google.rpc.Status whose
 * details are google.rpc.BadRequest (field `slides[0].options.table_min_font_size`,
 * description = msg, reason = Pydantic type) and slidewright.v1.ValidationErrorDetail
 * (loc, msg, type, input, ctx). Pass it to a grpc-js unary callback.
 * @param violations the failures (from {@link validateMessage} or validateBody)
 */
export function toInvalidArgument(violations: readonly Violation[]): InvalidArgumentError {
  const vs = violations.slice(0, MAX_VIOLATIONS);
  const first = vs
    .slice(0, 3)
    .map((v) => `${fieldPath(v.loc) || '(request)'}: ${v.msg}`)
    .join('; ');
  const details = `Invalid request${vs.length > 0 ? `: ${first}` : ''}${vs.length > 3 ? ` (and ${vs.length - 3} more)` : ''}`;
  const badRequest = BadRequest.encode({
    field_violations: vs.map((v) => ({ field: fieldPath(v.loc), description: v.msg, reason: v.type, localized_message: undefined })),
  }).finish();
  const detail = ValidationErrorDetail.encode({
    violations: vs.map((v) => ({
      loc: [...v.loc],
      msg: v.msg,
      type: v.type,
      input: safeJson(v.input),
      ctx: v.ctx === undefined ? undefined : (safeJson(v.ctx) as Record<string, unknown> | null) ?? undefined,
    })),
  }).finish();
  const statusBytes = Status.encode({
    code: GrpcStatus.INVALID_ARGUMENT,
    message: details,
    details: [
      { type_url: BAD_REQUEST_TYPE, value: Buffer.from(badRequest) },
      { type_url: VALIDATION_DETAIL_TYPE, value: Buffer.from(detail) },
    ],
  }).finish();
  const metadata = new Metadata();
  metadata.set(DETAILS_KEY, Buffer.from(statusBytes));
  return new GrpcStatusError(GrpcStatus.INVALID_ARGUMENT, details, metadata);
}

function isMetadata(m: unknown): m is Metadata {
  return m instanceof Metadata || (m !== null && typeof m === 'object' && typeof (m as { get?: unknown }).get === 'function');
}

function restPrefix(route: RouteSpec, first: string | number | undefined): string {
  if (typeof first === 'string' && route.pathParams.includes(first)) return 'path';
  if (typeof first === 'string' && route.queryParams.includes(first)) return 'query';
  return 'body';
}

/**
 * The inverse of {@link toInvalidArgument}, for the gateway: the violations carried by an
 * INVALID_ARGUMENT error (from the Slidewright detail, else from google.rpc.BadRequest).
 * @param err an error from a gRPC call (or an in-process call that threw the same object)
 * @param route when given, locs are prefixed as in REST: `path` for path parameters,
 *   `query` for query parameters, `body` for the rest (locs that already start with one
 *   of these are kept)
 * @returns the violations, or `undefined` when the error is not a validation failure
 */
export function violationsFromServiceError(err: unknown, route?: RouteSpec): Violation[] | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const e = err as { code?: unknown; metadata?: unknown };
  if (e.code !== GrpcStatus.INVALID_ARGUMENT || !isMetadata(e.metadata)) return undefined;
  const raw = e.metadata.get(DETAILS_KEY)[0];
  if (raw === undefined || typeof raw === 'string') return undefined;
  let st: Status;
  try {
    st = Status.decode(raw);
  } catch {
    return undefined;
  }
  let out: Violation[] | undefined;
  const ours = st.details.find((d) => d.type_url === VALIDATION_DETAIL_TYPE);
  if (ours) {
    out = ValidationErrorDetail.decode(ours.value).violations.map((v) => {
      const loc = (v.loc ?? []).filter((x): x is string | number => typeof x === 'string' || typeof x === 'number');
      const violation: Violation = { loc, msg: v.msg, type: v.type, input: v.input ?? null };
      if (v.ctx !== undefined) violation.ctx = v.ctx;
      return violation;
    });
  } else {
    const br = st.details.find((d) => d.type_url === BAD_REQUEST_TYPE);
    if (!br) return undefined;
    out = BadRequest.decode(br.value).field_violations.map((f) => ({
      loc: parseFieldPath(f.field),
      msg: f.description,
      type: f.reason || 'value_error',
      input: null,
    }));
  }
  if (!route) return out;
  return out.map((v) =>
    typeof v.loc[0] === 'string' && REST_PREFIXES.has(v.loc[0]) ? v : { ...v, loc: [restPrefix(route, v.loc[0]), ...v.loc] },
  );
}
