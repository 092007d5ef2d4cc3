/**
 * Where files live: template uploads, analysis artefacts, generated decks, previews.
 * Embedded mode keeps them on local disk; distributed mode in S3/MinIO.
 */
export interface BlobStore {
  /** Stores `bytes` under `key`, replacing any earlier value atomically (readers never see a partial file). */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes under `key`, or undefined when there are none. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every key starting with `prefix`. */
  deletePrefix(prefix: string): Promise<void>;
  close(): Promise<void>;
}
