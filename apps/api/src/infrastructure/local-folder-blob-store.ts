import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { BlobStore, FetchedImage } from '@brand/core';
import { imageTypeOf, imageTypeOfExtension } from './image-types';
import { translateVolumeError } from './volume-errors';

/** `sha256/ab/cd/abcd…(64 hex).ext`: the only shape of key this store hands out or accepts. */
const KEY = /^sha256\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})\.([a-z0-9]{1,5})$/;
const UNKNOWN = { extension: 'bin', contentType: 'application/octet-stream' };

/** Whether `key` has the shape of a key of this store (anything else can never name a blob). */
export function isBlobKey(key: string): boolean {
  const match = KEY.exec(key);
  return match !== null && match[3]!.startsWith(match[1]! + match[2]!);
}

/**
 * Blobs as files under one folder, content-addressed: the key is the SHA-256 of the bytes (two
 * levels of fan-out keep folders small) plus an extension for the content type, which is all
 * the type that is kept. Storing the same bytes twice writes once and yields the same key.
 * Writes go to a temporary file beside the target and are renamed into place, so a reader never
 * sees half a file and concurrent writers of the same bytes cannot corrupt it. Keys are checked
 * against their one shape before they touch the file system, so no key escapes the folder.
 * A full, read-only or failing volume is a storage fault like the database's (`storage_unavailable`,
 * answered 503), and a write it refused leaves no file behind.
 */
export class LocalFolderBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async put(bytes: Uint8Array, contentType: string): Promise<string> {
    const hex = createHash('sha256').update(bytes).digest('hex');
    const extension = imageTypeOf(contentType)?.extension ?? UNKNOWN.extension;
    const key = `sha256/${hex.slice(0, 2)}/${hex.slice(2, 4)}/${hex}.${extension}`;
    const path = this.pathOf(key);
    if (await exists(path)) return key;
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.mkdir(dirname(path), { recursive: true });
      await fs.writeFile(temporary, bytes, { flag: 'wx' });
      await fs.rename(temporary, path);
    } catch (error) {
      // A full disk can leave part of the bytes in the temporary file; removing it needs no room.
      // Should the volume refuse even that, the error that caused it is still the one to report.
      await fs.rm(temporary, { force: true }).catch(() => undefined);
      throw translateVolumeError(error);
    }
    return key;
  }

  async get(key: string): Promise<FetchedImage | null> {
    if (!isBlobKey(key)) return null;
    try {
      const bytes = await fs.readFile(this.pathOf(key));
      const extension = key.slice(key.lastIndexOf('.') + 1);
      return {
        bytes: new Uint8Array(bytes),
        contentType: imageTypeOfExtension(extension)?.contentType ?? UNKNOWN.contentType,
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw translateVolumeError(error);
    }
  }

  async delete(key: string): Promise<void> {
    if (!isBlobKey(key)) throw new Error(`not a key of this blob store: ${JSON.stringify(key)}`);
    await fs.rm(this.pathOf(key), { force: true }).catch((error: unknown) => {
      throw translateVolumeError(error);
    });
  }

  private pathOf(key: string): string {
    if (!isBlobKey(key)) throw new Error(`not a key of this blob store: ${JSON.stringify(key)}`);
    const path = resolve(join(this.root, ...key.split('/')));
    // Belt and braces: the key's shape already rules out `..` and absolute paths.
    if (!path.startsWith(this.root + sep)) throw new Error(`blob key ${JSON.stringify(key)} leaves the blob folder`);
    return path;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await fs.access(path);
    return true;
  } catch {
    return false;
  }
}
