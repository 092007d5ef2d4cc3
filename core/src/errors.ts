/**
 * Errors the domain raises, each naming how a caller should see it. The gRPC layer maps
 * them to status codes (with the exact HTTP status in trailing metadata for the gateway);
 * every non-422 REST error body is `{"detail": "<message>"}`.
 */
import type { Violation } from './domain/violation.js';

export type ServiceErrorKind =
  | 'unauthenticated' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'payload_too_large' // 413
  | 'unsupported_media_type' // 415
  | 'invalid_argument' // 422
  | 'too_many_requests' // 429
  | 'unavailable' // 503
  | 'internal'; // 500

export const HTTP_STATUS: Readonly<Record<ServiceErrorKind, number>> = {
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_argument: 422,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
};

/**
 * The services' one error type. `kind` is its code (the HTTP status it maps to); the
 * message is what the caller reads (`detail`); `cause`, when given, is the underlying
 * error, for the logs only.
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
    readonly extra: { violations?: Violation[]; retryAfterSeconds?: number } = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export const notFound = (what: string): ServiceError => new ServiceError('not_found', `${what} not found`);
