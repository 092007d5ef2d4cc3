/**
 * Blob store on S3 or MinIO (distributed mode), through the `minio` client. One bucket
 * holds every file; blob keys are object names. S3 makes a PUT visible all at once, so
 * readers never see a partial file, as the port requires.
 *
 * Clients never talk to S3: upload and download URLs are Slidewright's own HMAC-signed
 * URLs on the REST gateway, which streams the bytes through core. So the S3 endpoint can
 * stay on a private network, unreachable by clients, and signed URLs keep working.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { Client } from 'minio';
import type { Logger } from 'pino';
import type { BlobStore } from '../ports/blob-store.js';
import { ServiceError } from '../errors.js';

export interface S3BlobStoreOptions {
  /** Endpoint URL, e.g. `http://minio:9000` or `https://s3.eu-west-1.amazonaws.com`. */
  endpoint: string;
  accessKey: string | undefined;
  secretKey: string | undefined;
  bucket: string;
  /** Region; default `us-east-1`. */
  region?: string;
  log?: Logger;
}

/** Error codes of a network failure (as opposed to an answer from S3). */
const NETWORK_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET']);

export class S3BlobStore implements BlobStore {
  private readonly client: Client;
  private readonly bucket: string;
  private readonly agent: http.Agent;

  private constructor(opts: S3BlobStoreOptions) {
    const url = new URL(opts.endpoint);
    const useSSL = url.protocol === 'https:';
    this.agent = useSSL ? new https.Agent({ keepAlive: true, maxSockets: 64 }) : new http.Agent({ keepAlive: true, maxSockets: 64 });
    this.client = new Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: opts.accessKey ?? '',
      secretKey: opts.secretKey ?? '',
      region: opts.region ?? 'us-east-1',
      pathStyle: true,
      transportAgent: this.agent,
      retryOptions: { disableRetry: true },
    });
    this.bucket = opts.bucket;
  }

  /**
   * Connects and makes sure the bucket exists (creating it when missing), retrying for up
   * to `connectTimeoutMs` (default 30 000 ms) while the endpoint is unreachable.
   * @throws Error when the endpoint stays unreachable or refuses the credentials
   */
  static async open(opts: S3BlobStoreOptions & { connectTimeoutMs?: number }): Promise<S3BlobStore> {
    const store = new S3BlobStore(opts);
    const deadline = Date.now() + (opts.connectTimeoutMs ?? 30_000);
    for (;;) {
      try {
        if (!(await store.client.bucketExists(store.bucket))) {
          try {
            await store.client.makeBucket(store.bucket, opts.region ?? 'us-east-1');
          } catch (err) {
            // Another process created it meanwhile.
            const code = (err as { code?: string }).code;
            if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw err;
          }
        }
        return store;
      } catch (err) {
        if (!isNetworkError(err) || Date.now() > deadline) {
          store.agent.destroy();
          throw new Error(`cannot use S3 bucket "${opts.bucket}" at ${opts.endpoint}: ${(err as Error).message}`);
        }
        opts.log?.warn({ err: (err as Error).message }, 'S3 endpoint not reachable yet; retrying');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    await this.call(() => this.client.putObject(this.bucket, key, body, body.length));
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.call(async () => {
      let stream;
      try {
        stream = await this.client.getObject(this.bucket, key);
      } catch (err) {
        if ((err as { code?: string }).code === 'NoSuchKey' || (err as { code?: string }).code === 'NotFound') return undefined;
        throw err;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return new Uint8Array(Buffer.concat(chunks));
    });
  }

  async delete(key: string): Promise<void> {
    await this.call(async () => {
      try {
        await this.client.removeObject(this.bucket, key);
      } catch (err) {
        if ((err as { code?: string }).code !== 'NoSuchKey') throw err;
      }
    });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await this.call(async () => {
      const names: string[] = [];
      for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) {
        const name = (item as { name?: string }).name;
        if (name) names.push(name);
      }
      for (let i = 0; i < names.length; i += 1000) {
        const batch = names.slice(i, i + 1000);
        try {
          await this.client.removeObjects(this.bucket, batch);
        } catch (err) {
          if (isNetworkError(err)) throw err;
          // Some S3-compatible servers (s3rver) fail multi-object delete: one at a time.
          for (const name of batch) await this.delete(name);
        }
      }
    });
  }

  /** Object names under `prefix` (tests and operators use it to check for strays). */
  async list(prefix: string): Promise<string[]> {
    return this.call(async () => {
      const names: string[] = [];
      for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) {
        const name = (item as { name?: string }).name;
        if (name) names.push(name);
      }
      return names.sort();
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }

  /** Runs an S3 call; an unreachable endpoint becomes `ServiceError('unavailable')` (503). */
  private async call<R>(fn: () => Promise<R>): Promise<R> {
    try {
      return await fn();
    } catch (err) {
      if (isNetworkError(err)) throw new ServiceError('unavailable', `the file store (S3) is unavailable: ${(err as Error).message}`, {}, { cause: err });
      throw err;
    }
  }
}

function isNetworkError(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string }; message?: string };
  return NETWORK_CODES.has(e.code ?? '') || NETWORK_CODES.has(e.cause?.code ?? '') || /socket hang up|ECONNREFUSED|ECONNRESET/.test(e.message ?? '');
}
