/**
 * gRPC metadata keys of Slidewright's own protocol between the REST gateway (or any gRPC
 * client) and core. Both sides import them from here, so neither depends on the other's
 * implementation.
 */
export const MD = {
  /** Request: the API key (REST header `X-API-Key`). */
  apiKey: 'x-api-key',
  /** Request: the organization named in dev mode (REST header `X-Org-Name`). */
  orgName: 'x-org-name',
  /** Request: the id that ties the request's log lines and jobs together. */
  requestId: 'x-request-id',
  /** Request: `expires` of a signed URL (Unix seconds). */
  signatureExpires: 'x-signature-expires',
  /** Request: `org` of a signed URL. */
  signatureOrg: 'x-signature-org',
  /** Request: `signature` of a signed URL (HMAC, hex). */
  signature: 'x-signature',
  /** Trailer: the exact HTTP status core chose for the answer. */
  httpStatus: 'x-http-status',
  /** Trailer: seconds to wait before retrying (REST header `Retry-After`). */
  retryAfter: 'retry-after',
  /**
   * On UploadTemplateContent: the body was refused for its size before it reached core
   * (the gateway does not forward a body over the limit), so the request carries no
   * bytes; the value is the size sent in bytes, or empty when unknown. Core records the
   * refusal (the template becomes `rejected`) and answers 413.
   */
  uploadRefusedBytes: 'x-upload-refused-bytes',
  /**
   * Request: the secret core shares with the REST gateway of its own process (embedded
   * mode), created at start and never sent outside the loopback hop. A call carrying it
   * comes from a gateway that has validated the request with the same rules already, so
   * core does not validate it a second time. Any other value (or none) is an ordinary call.
   */
  trustedGateway: 'x-slidewright-gateway-secret',
} as const;

/** One of the metadata keys above. */
export type MetadataKey = (typeof MD)[keyof typeof MD];
