import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { BlobStore } from '../ports/blob-store.js';

/** Names of the temporary files `put` writes before renaming them into place. */
const TEMP_FILE = /\.[0-9a-f]{12}\.tmp$/;

/**
 * Blob store on local disk (embedded mode). Keys are relative paths under `root`; writes go
 * to a temporary file first and are renamed into place, so a crash never leaves half a file.
 * No litter either: {@link LocalBlobStore.open} removes the temporary files and empty
 * folders a killed process left, and `delete` removes the folders it empties.
 */
export class LocalBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /**
   * The store under `root`, after removing what an earlier run left behind (temporary files
   * of writes a kill interrupted, empty folders). Only for a folder this process alone
   * writes to (embedded mode: the state store's lock keeps a second process out).
   */
  static async open(root: string, log?: Logger): Promise<LocalBlobStore> {
    const store = new LocalBlobStore(root);
    const removed = await store.removeLitter();
    if (removed.tempFiles > 0 || removed.emptyFolders > 0) log?.info(removed, 'removed files and folders an interrupted run left in the blob store');
    return store;
  }

  private pathOf(key: string): string {
    const p = resolve(this.root, key);
    if (!p.startsWith(this.root + sep)) throw new Error(`blob key escapes the store: ${key}`);
    return p;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const p = this.pathOf(key);
    const tmp = `${p}.${randomBytes(6).toString('hex')}.tmp`;
    for (let tries = 1; ; tries++) {
      await mkdir(dirname(p), { recursive: true });
      try {
        await writeFile(tmp, bytes);
        break;
      } catch (err) {
        // a concurrent delete removed the folder it had emptied between our mkdir and write
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || tries >= 3) throw err;
      }
    }
    try {
      await rename(tmp, p);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.pathOf(key)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const p = this.pathOf(key);
    await rm(p, { force: true });
    await this.pruneEmptyParents(p);
  }

  async deletePrefix(prefix: string): Promise<void> {
    // Keys are path-like; a prefix ending in '/' is a folder.
    const p = prefix.endsWith('/') ? this.pathOf(prefix.slice(0, -1)) : this.pathOf(prefix);
    await rm(p, { recursive: true, force: true });
    await this.pruneEmptyParents(p);
  }

  async close(): Promise<void> {}

  /**
   * Removes temporary files (of writes a kill interrupted) and empty folders under the
   * root; the root itself stays.
   * @returns how many of each were removed
   */
  async removeLitter(): Promise<{ tempFiles: number; emptyFolders: number }> {
    const counts = { tempFiles: 0, emptyFolders: 0 };
    const walk = async (dir: string): Promise<boolean> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
        throw err;
      }
      let left = entries.length;
      for (const e of entries) {
        const p = join(dir, e.name);
        if (e.isDirectory()) {
          if (await walk(p)) {
            await rmdir(p).catch(() => undefined);
            counts.emptyFolders++;
            left--;
          }
        } else if (TEMP_FILE.test(e.name)) {
          await rm(p, { force: true });
          counts.tempFiles++;
          left--;
        }
      }
      return left === 0;
    };
    await walk(this.root);
    return counts;
  }

  /** Removes the folders above `p` that are now empty, up to (not including) the root. */
  private async pruneEmptyParents(p: string): Promise<void> {
    for (let dir = dirname(p); dir.startsWith(this.root + sep); dir = dirname(dir)) {
      try {
        await rmdir(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        return; // not empty: the folders above are not empty either
      }
    }
  }
}
