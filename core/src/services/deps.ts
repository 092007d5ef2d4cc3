import type { Logger } from 'pino';
import type { BlobStore } from '../ports/blob-store.js';
import type { StateStore } from '../ports/state-store.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { Config } from '../config.js';
import type { UrlSigner } from './signing.js';
import type { CpuPool } from '../threads/cpu-pool.js';
import type { WebhookNotifier } from './webhooks.js';

/** What the domain services need; one composition root chooses the adapters. */
export interface ServiceDeps {
  config: Readonly<Config>;
  state: StateStore;
  blobs: BlobStore;
  queue: JobQueue;
  signer: UrlSigner;
  cpu: CpuPool;
  webhooks: WebhookNotifier;
  log: Logger;
}

/** The caller of an operation: its organization and, for logs, the request id. */
export interface Caller {
  org: string;
  requestId?: string;
}
