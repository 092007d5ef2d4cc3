/**
 * Core's side of embedded mode's in-process channel (core/src/protocol/in-process.ts): each
 * call arriving on the port is answered by the same handler core's gRPC server runs for
 * that method, so validation, authentication, the trusted-gateway secret, status codes and
 * trailers are those of a call over gRPC.
 */
import { Metadata, type ServiceError } from '@grpc/grpc-js';
import type { MessagePort } from 'node:worker_threads';
import { CHANNEL_STATUS, MAX_RPC_MESSAGE_BYTES, postable, type InProcessCall, type InProcessReply } from '../protocol/in-process.js';
import type { CoreRpcMethod } from './server.js';

/** What {@link serveInProcess} returns. */
export interface InProcessServer {
  /** Calls received and not answered yet. */
  pending(): number;
  /** Stops serving: the port is closed; calls still running are answered nowhere. */
  close(): void;
}

/**
 * Serves `methods` on `port` until {@link InProcessServer.close}.
 * A call names a method by its gRPC path; an unknown path is answered UNIMPLEMENTED, a
 * message over {@link MAX_RPC_MESSAGE_BYTES} (either way) RESOURCE_EXHAUSTED, metadata grpc-js
 * would refuse INTERNAL — as grpc-js answers them on the wire.
 */
export function serveInProcess(port: MessagePort, methods: ReadonlyMap<string, CoreRpcMethod>): InProcessServer {
  let open = true;
  let running = 0;
  const answer = (reply: InProcessReply): void => {
    running--;
    if (!open) return;
    if ('message' in reply) {
      const { bytes, transfer } = postable(reply.message);
      port.postMessage({ id: reply.id, message: bytes } satisfies InProcessReply, transfer);
    } else port.postMessage(reply);
  };
  const fail = (id: number, code: number, details: string, metadata: Array<[string, string]> = []): void => answer({ id, status: { code, details, metadata } });
  port.on('message', (call: InProcessCall) => {
    running++;
    const method = methods.get(call.path);
    if (!method) return fail(call.id, CHANNEL_STATUS.unimplemented, `The server does not implement the method ${call.path}`);
    if (call.message.byteLength > MAX_RPC_MESSAGE_BYTES) {
      return fail(call.id, CHANNEL_STATUS.resourceExhausted, `Received message larger than max (${call.message.byteLength} vs. ${MAX_RPC_MESSAGE_BYTES})`);
    }
    let metadata: Metadata;
    try {
      metadata = new Metadata();
      for (const [k, v] of call.metadata) metadata.add(k, v);
    } catch (err) {
      return fail(call.id, CHANNEL_STATUS.internal, `bad request metadata: ${err instanceof Error ? err.message : String(err)}`);
    }
    const bytes = Buffer.from(call.message.buffer, call.message.byteOffset, call.message.byteLength);
    method.handle(method.requestDeserialize(bytes), metadata, (err, value) => {
      if (err) {
        const e = err as Partial<ServiceError>;
        return fail(call.id, e.code ?? CHANNEL_STATUS.internal, e.details ?? e.message ?? 'error', metadataPairs(e.metadata));
      }
      let message: Buffer;
      try {
        message = method.responseSerialize(value);
      } catch (encodeErr) {
        return fail(call.id, CHANNEL_STATUS.internal, `the response cannot be encoded: ${encodeErr instanceof Error ? encodeErr.message : String(encodeErr)}`);
      }
      if (message.byteLength > MAX_RPC_MESSAGE_BYTES) {
        return fail(call.id, CHANNEL_STATUS.resourceExhausted, `Sent message larger than max (${message.byteLength} vs. ${MAX_RPC_MESSAGE_BYTES})`);
      }
      answer({ id: call.id, message });
    });
  });
  return {
    pending: () => running,
    close() {
      open = false;
      port.close();
    },
  };
}

/** Trailers as key/value pairs (binary `-bin` values as base64, as on the wire). */
function metadataPairs(md: Metadata | undefined): Array<[string, string]> {
  if (!md) return [];
  const out: Array<[string, string]> = [];
  for (const [k, values] of Object.entries(md.toJSON())) {
    for (const v of values) out.push([k, typeof v === 'string' ? v : Buffer.from(v).toString('base64')]);
  }
  return out;
}
