/**
 * How the gateway reaches core: a gRPC client for any RPC of the route table, using the
 * generated service definitions' serializers (a separate gateway process, or embedded mode
 * with `SLIDEWRIGHT_GATEWAY_CHANNEL=grpc`, which dials core on loopback), or the same calls
 * over embedded mode's in-process channel (core/src/protocol/in-process.ts).
 */
import * as grpc from '@grpc/grpc-js';
import type { MessagePort } from 'node:worker_threads';
import type { RouteSpec } from '../../proto/gen/routes.js';
import { SERVICE_DEFINITIONS, type ServiceName } from '../../core/src/grpc/messages.js';
import { MD } from '../../core/src/protocol/index.js';
import { CHANNEL_STATUS, MAX_RPC_MESSAGE_BYTES, postable, type InProcessCall, type InProcessReply } from '../../core/src/protocol/in-process.js';

/** Calls one RPC with a request message and metadata; rejects with a grpc-js ServiceError. */
export interface RpcInvoker {
  call(route: RouteSpec, request: unknown, metadata: Readonly<Record<string, string>>, deadlineSeconds?: number): Promise<unknown>;
  close(): void;
}

export class GrpcInvoker implements RpcInvoker {
  private readonly client: grpc.Client;
  private readonly trustedSecret: string | undefined;

  /**
   * @param address - `host:port` of core's gRPC server
   * @param trustedSecret - the secret core of the same process shares with its gateway
   *   (embedded mode): sent with every call, so core skips validating what this gateway
   *   validated already; unset in distributed mode
   */
  constructor(address: string, trustedSecret?: string) {
    this.trustedSecret = trustedSecret;
    this.client = new grpc.Client(address, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': MAX_RPC_MESSAGE_BYTES,
      'grpc.max_send_message_length': MAX_RPC_MESSAGE_BYTES,
    });
  }

  call(route: RouteSpec, request: unknown, metadata: Readonly<Record<string, string>>, deadlineSeconds = 120): Promise<unknown> {
    const definition = SERVICE_DEFINITIONS[route.service as ServiceName] as grpc.ServiceDefinition | undefined;
    const method = definition?.[route.grpcMethod];
    if (!method) return Promise.reject(new Error(`no gRPC method for ${route.id}`));
    const md = new grpc.Metadata();
    for (const [k, v] of Object.entries(metadata)) md.set(k, v);
    if (this.trustedSecret !== undefined) md.set(MD.trustedGateway, this.trustedSecret);
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        md,
        { deadline: Date.now() + deadlineSeconds * 1000 },
        (err, value) => (err ? reject(err) : resolve(value)),
      );
    });
  }

  close(): void {
    this.client.close();
  }
}

/**
 * The status a call over the in-process channel ends with, shaped as grpc-js's ServiceError
 * (`code`, `details`, `metadata` with the trailers), so the gateway maps it to HTTP exactly
 * as a status that came over gRPC.
 */
export class ChannelStatusError extends Error implements grpc.ServiceError {
  override readonly name = 'ChannelStatusError';
  constructor(
    readonly code: grpc.status,
    readonly details: string,
    readonly metadata: grpc.Metadata = new grpc.Metadata(),
  ) {
    super(`${code} ${grpc.status[code] ?? 'UNKNOWN'}: ${details}`);
  }
}

/**
 * Calls core over embedded mode's in-process channel (core/src/protocol/in-process.ts): the
 * request is encoded with the method's serializer and posted on `port`; core answers with
 * the handler of its gRPC server. Deadlines, the message size limit and a closed channel
 * give the status codes grpc-js gives (DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, UNAVAILABLE).
 */
export class InProcessInvoker implements RpcInvoker {
  private readonly waiting = new Map<number, { resolve(value: InProcessReply): void; timer: NodeJS.Timeout }>();
  private nextId = 0;
  private closed = false;

  /**
   * @param port - the gateway's end of the channel; core serves the other end
   * @param trustedSecret - as for {@link GrpcInvoker}: sent with every call
   */
  constructor(
    private readonly port: MessagePort,
    private readonly trustedSecret?: string,
  ) {
    port.on('message', (reply: InProcessReply) => {
      const w = this.waiting.get(reply.id);
      if (!w) return; // its deadline passed
      this.waiting.delete(reply.id);
      clearTimeout(w.timer);
      w.resolve(reply);
    });
    port.on('close', () => this.fail(CHANNEL_STATUS.unavailable, 'the in-process channel to core is closed'));
  }

  async call(route: RouteSpec, request: unknown, metadata: Readonly<Record<string, string>>, deadlineSeconds = 120): Promise<unknown> {
    const definition = SERVICE_DEFINITIONS[route.service as ServiceName] as grpc.ServiceDefinition | undefined;
    const method = definition?.[route.grpcMethod];
    if (!method) throw new Error(`no gRPC method for ${route.id}`);
    if (this.closed) throw new ChannelStatusError(CHANNEL_STATUS.unavailable, 'the in-process channel to core is closed');
    const message = method.requestSerialize(request);
    if (message.byteLength > MAX_RPC_MESSAGE_BYTES) {
      throw new ChannelStatusError(CHANNEL_STATUS.resourceExhausted, `Sent message larger than max (${message.byteLength} vs. ${MAX_RPC_MESSAGE_BYTES})`);
    }
    const pairs: Array<[string, string]> = Object.entries(metadata);
    if (this.trustedSecret !== undefined) pairs.push([MD.trustedGateway, this.trustedSecret]);
    const id = this.nextId++;
    const reply = await new Promise<InProcessReply>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve({ id, status: { code: CHANNEL_STATUS.deadlineExceeded, details: 'Deadline exceeded', metadata: [] } });
      }, deadlineSeconds * 1000);
      this.waiting.set(id, { resolve, timer });
      const { bytes, transfer } = postable(message);
      this.port.postMessage({ id, path: method.path, metadata: pairs, message: bytes } satisfies InProcessCall, transfer);
    });
    if ('status' in reply) throw new ChannelStatusError(reply.status.code, reply.status.details, trailersOf(reply.status.metadata));
    return method.responseDeserialize(Buffer.from(reply.message.buffer, reply.message.byteOffset, reply.message.byteLength));
  }

  close(): void {
    if (this.closed) return;
    this.fail(CHANNEL_STATUS.unavailable, 'the in-process channel to core is closed');
    this.port.close();
  }

  /** Ends every waiting call with `code` and refuses later ones. */
  private fail(code: number, details: string): void {
    this.closed = true;
    for (const [id, w] of this.waiting) {
      clearTimeout(w.timer);
      w.resolve({ id, status: { code, details, metadata: [] } });
    }
    this.waiting.clear();
  }
}

/** Trailers from the channel's key/value pairs (`-bin` values arrive base64-encoded). */
function trailersOf(pairs: ReadonlyArray<[string, string]>): grpc.Metadata {
  const md = new grpc.Metadata();
  for (const [k, v] of pairs) {
    if (k.endsWith('-bin')) md.add(k, Buffer.from(v, 'base64'));
    else md.add(k, v);
  }
  return md;
}
