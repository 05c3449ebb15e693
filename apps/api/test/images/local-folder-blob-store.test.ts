import { promises as fsPromises } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDomainError } from '@brand/core';
import { LocalFolderBlobStore, isBlobKey } from '../../src/infrastructure/local-folder-blob-store';
import { isVolumeUnavailable } from '../../src/infrastructure/volume-errors';
import { greyJpeg, solidPng } from './support/image-bytes';

// The blob store touches no database, so this file does not loop over dialects.
describe('local folder blob store', () => {
  let root: string;
  let store: LocalFolderBlobStore;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'blob-store-test-'));
    store = new LocalFolderBlobStore(join(root, 'blobs'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('stores bytes under their SHA-256 and gives them back with their type', async () => {
    const png = solidPng(3, 3, [1, 2, 3]);
    const key = await store.put(png, 'image/png');
    expect(key).toMatch(/^sha256\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png$/);
    expect(key.split('/')[3]!.startsWith(key.split('/')[1]! + key.split('/')[2]!)).toBe(true);
    const got = await store.get(key);
    expect(got?.contentType).toBe('image/png');
    expect(Buffer.from(got!.bytes).equals(png)).toBe(true);

    const jpegKey = await store.put(greyJpeg(), 'image/jpeg');
    expect(jpegKey).toMatch(/\.jpg$/);
    expect((await store.get(jpegKey))?.contentType).toBe('image/jpeg');
  });

  it('gives the same bytes the same key and writes them once', async () => {
    const png = solidPng(2, 2, [9, 9, 9]);
    const first = await store.put(png, 'image/png');
    const path = join(root, 'blobs', ...first.split('/'));
    const written = (await stat(path)).mtimeMs;
    const second = await store.put(new Uint8Array(png), 'image/png');
    expect(second).toBe(first);
    expect((await stat(path)).mtimeMs).toBe(written);
    expect(await store.put(solidPng(2, 2, [9, 9, 8]), 'image/png')).not.toBe(first);
  });

  it('leaves no temporary files behind, also when many writers store the same bytes at once', async () => {
    const png = solidPng(16, 16, [4, 5, 6]);
    const keys = await Promise.all(Array.from({ length: 20 }, () => store.put(png, 'image/png')));
    expect(new Set(keys).size).toBe(1);
    const folder = join(root, 'blobs', ...keys[0]!.split('/').slice(0, 3));
    expect(await readdir(folder)).toEqual([keys[0]!.split('/')[3]]);
    expect(Buffer.from((await store.get(keys[0]!))!.bytes).equals(png)).toBe(true);
  });

  it('answers null for a key it does not hold', async () => {
    expect(await store.get(`sha256/ab/cd/abcd${'0'.repeat(60)}.png`)).toBeNull();
  });

  it('deletes a blob, and deleting it again is harmless', async () => {
    const key = await store.put(solidPng(1, 1, [0, 0, 0]), 'image/png');
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it.each([
    ['../secret.png'],
    ['sha256/../../secret.png'],
    [`sha256/ab/cd/../../../../etc/passwd`],
    [`/etc/passwd`],
    [`sha256/ab/cd/abcd${'0'.repeat(60)}.png/../../x`],
    [`sha256\\ab\\cd\\abcd${'0'.repeat(60)}.png`],
    [`sha256/ab/cd/ffff${'0'.repeat(60)}.png`], // the fan-out folders do not match the hash
    [`sha256/ab/cd/ABCD${'0'.repeat(60)}.png`],
    [''],
  ])('refuses the key %j: never reads or deletes outside its folder', async (key) => {
    await writeFile(join(root, 'secret.png'), 'secret');
    expect(isBlobKey(key)).toBe(false);
    expect(await store.get(key)).toBeNull();
    await expect(store.delete(key)).rejects.toThrow(/not a key of this blob store/);
    expect((await stat(join(root, 'secret.png'))).isFile()).toBe(true);
  });

  it('files bytes of a type it does not know as application/octet-stream', async () => {
    const key = await store.put(new Uint8Array([1, 2, 3]), 'application/pdf');
    expect(key).toMatch(/\.bin$/);
    expect((await store.get(key))?.contentType).toBe('application/octet-stream');
  });

  describe('a volume that fails', () => {
    /** An error as node's file system raises it. */
    const fsError = (code: string): NodeJS.ErrnoException =>
      Object.assign(new Error(`${code}: the volume refused`), { code, errno: -1, syscall: 'write' });

    /** Every file under the store's folder, however deep. */
    async function filesIn(folder: string): Promise<string[]> {
      const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
    }

    afterEach(() => jest.restoreAllMocks());

    it.each([
      ['ENOSPC', 'a full disk, after part of the bytes reached the temporary file'],
      ['EIO', 'an I/O error, after part of the bytes reached the temporary file'],
    ])('answers %s (%s) as storage_unavailable and leaves no file', async (code) => {
      jest.spyOn(fsPromises, 'writeFile').mockImplementation(async (path, data) => {
        // What a full disk does: the file exists, holding what fitted.
        await fsPromises.appendFile(path, (data as Uint8Array).subarray(0, 10));
        throw fsError(code);
      });
      const failure = await store.put(solidPng(8, 8, [1, 1, 1]), 'image/png').catch((error: unknown) => error);
      expect(isDomainError(failure) && failure.code).toBe('storage_unavailable');
      expect((failure as Error).cause).toMatchObject({ code });
      expect(await filesIn(join(root, 'blobs'))).toEqual([]);
    });

    it('answers a read-only volume (EROFS), refusing even the folders, as storage_unavailable', async () => {
      jest.spyOn(fsPromises, 'mkdir').mockRejectedValue(fsError('EROFS'));
      const failure = await store.put(solidPng(8, 8, [2, 2, 2]), 'image/png').catch((error: unknown) => error);
      expect(isDomainError(failure) && failure.code).toBe('storage_unavailable');
      expect(await filesIn(join(root, 'blobs'))).toEqual([]);
    });

    it('answers a rename the volume refuses as storage_unavailable and removes the written temporary file', async () => {
      jest.spyOn(fsPromises, 'rename').mockRejectedValue(fsError('EIO'));
      const failure = await store.put(solidPng(8, 8, [3, 3, 3]), 'image/png').catch((error: unknown) => error);
      expect(isDomainError(failure) && failure.code).toBe('storage_unavailable');
      expect(await filesIn(join(root, 'blobs'))).toEqual([]);
    });

    it('answers a read the volume fails (EIO) as storage_unavailable, a missing blob still as null', async () => {
      const key = await store.put(solidPng(4, 4, [5, 5, 5]), 'image/png');
      jest.spyOn(fsPromises, 'readFile').mockRejectedValueOnce(fsError('EIO'));
      const failure = await store.get(key).catch((error: unknown) => error);
      expect(isDomainError(failure) && failure.code).toBe('storage_unavailable');
      expect(await store.get(key)).not.toBeNull();
    });

    it('passes other errors through unchanged: they are bugs, not the volume', async () => {
      const bug = fsError('ENAMETOOLONG');
      jest.spyOn(fsPromises, 'writeFile').mockRejectedValue(bug);
      await expect(store.put(solidPng(8, 8, [4, 4, 4]), 'image/png')).rejects.toBe(bug);
    });

    it.each(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EIO', 'ESTALE', 'EMFILE'])(
      'counts %s as the volume unavailable',
      (code) => {
        expect(isVolumeUnavailable(fsError(code))).toBe(true);
      },
    );

    it.each(['ENOENT', 'EEXIST', 'ENAMETOOLONG', undefined])('does not count %s', (code) => {
      expect(isVolumeUnavailable(code === undefined ? new Error('no code') : fsError(code))).toBe(false);
    });
  });
});
