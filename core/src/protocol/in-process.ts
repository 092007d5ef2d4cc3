/**
 * The in-process channel between embedded mode's REST gateway and core: the same unary
 * gRPC calls (method path, metadata, protobuf-encoded messages, status code, details and
 * trailers) carried over a `worker_threads` MessagePort instead of HTTP/2 on loopback —
 * what gRPC's in-process transports (grpc-java's InProcessChannel, grpc-go's bufconn) do
 * for a client and a server in one process. Core serves it with the very handlers of its
 * gRPC server (core/src/grpc/in-process-server.ts); the gateway calls it through
 * `InProcessInvoker` (gateway/src/invoker.ts). A status GET then costs no HTTP/2 framing,
 * no socket writes and no second event-loop turn per frame on either side.
 */

/** Largest request or response message either side accepts, bytes (as grpc-js's `grpc.max_*_message_length` on core's server and the gateway's client). */
export const MAX_RPC_MESSAGE_BYTES = 64 * 1024 * 1024;

/** gRPC status codes the channel itself answers with (the rest come from core's handlers). */
export const CHANNEL_STATUS = {
  /** The deadline passed before core answered. */
  deadlineExceeded: 4,
  /** A message over {@link MAX_RPC_MESSAGE_BYTES}. */
  resourceExhausted: 8,
  /** No such method on core. */
  unimplemented: 12,
  /** A handler failed outside the status it answers with (e.g. a response that cannot be encoded). */
  internal: 13,
  /** The channel is closed (core is stopping). */
  unavailable: 14,
} as const;

/** gateway → core: one unary call. */
export interface InProcessCall {
  /** Chosen by the caller; the reply carries it back. */
  id: number;
  /** The method's gRPC path, e.g. `/slidewright.v1.PresentationService/GetGenerationStatus`. */
  path: string;
  /** Request metadata as key/value pairs (ASCII values, as on the wire). */
  metadata: Array<[string, string]>;
  /** The request message, protobuf-encoded. */
  message: Uint8Array;
}

/** core → gateway: the answer to call `id`, a response message or a status. */
export type InProcessReply =
  | { id: number; message: Uint8Array }
  | {
      id: number;
      /** Status: a gRPC status code other than OK, its message and its trailers. */
      status: { code: number; details: string; metadata: Array<[string, string]> };
    };

/** Messages from this size on are handed over to the other thread instead of copied, bytes (uploads, previews, deck downloads). */
const TRANSFER_FROM_BYTES = 64 * 1024;

/**
 * A message ready to post: the bytes as a Uint8Array that owns its whole ArrayBuffer, and
 * the list of buffers to hand over. Posting a view copies its whole underlying buffer (an
 * encoder's 8 KiB pool slab for a small message), so a view is first copied to its exact
 * size; a large message that owns its buffer moves without a copy (it must not be used
 * afterwards).
 */
export function postable(bytes: Uint8Array): { bytes: Uint8Array; transfer: ArrayBuffer[] } {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  const own = whole ? bytes : new Uint8Array(bytes);
  return { bytes: own, transfer: own.byteLength >= TRANSFER_FROM_BYTES ? [own.buffer as ArrayBuffer] : [] };
}
