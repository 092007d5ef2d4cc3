/**
 * How the gateway reaches core: a gRPC client for any RPC of the route table, using the
 * generated service definitions' serializers. In embedded mode it dials core on loopback.
 */
import * as grpc from '@grpc/grpc-js';
import type { RouteSpec } from '../../proto/gen/routes.js';
import { SERVICE_DEFINITIONS, type ServiceName } from '../../core/src/grpc/messages.js';
import { MD } from '../../core/src/protocol/index.js';

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
      'grpc.max_receive_message_length': 64 * 1024 * 1024,
      'grpc.max_send_message_length': 64 * 1024 * 1024,
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
