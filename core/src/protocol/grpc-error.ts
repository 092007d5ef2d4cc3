/**
 * The gRPC layer's one error type: what a unary handler passes to its callback. grpc-js
 * sends `code` as the status, `details` as the status message and `metadata` as trailers
 * (Slidewright puts the exact HTTP status there for the gateway, see {@link MD}).
 */
import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import type { MD } from './metadata.js';

/**
 * A gRPC status as an error a server answers with.
 * @typeParam Code - the status code, narrowed where a function always answers one code
 */
export class GrpcStatusError<Code extends GrpcStatus = GrpcStatus> extends Error implements ServiceError {
  override readonly name = 'GrpcStatusError';
  /**
   * @param code - the gRPC status code
   * @param details - the status message the client reads
   * @param metadata - trailers sent with the status
   * @param options - `cause`: the error behind the status, for the server's logs
   */
  constructor(
    readonly code: Code,
    readonly details: string,
    readonly metadata: Metadata = new Metadata(),
    options?: ErrorOptions,
  ) {
    super(`${code} ${GrpcStatus[code]}: ${details}`, options);
  }
}
