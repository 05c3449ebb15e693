import { DomainError } from '@brand/core';

/**
 * File-system errors (node's `errno` codes) that say the volume cannot store or read files for
 * now, whatever the request: full or over quota, read-only or refusing writes, failing (I/O
 * errors, a stale network mount), or out of file handles. The database's equivalents are
 * classified in the persistence package (`isStorageUnavailable`); these are the blob folder's.
 */
const UNAVAILABLE_VOLUME_CODES = ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO', 'ESTALE', 'EMFILE', 'ENFILE'];

/** Whether a file-system error means the volume cannot serve for now (worth a retry later). */
export function isVolumeUnavailable(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && UNAVAILABLE_VOLUME_CODES.includes(code);
}

/**
 * A volume fault becomes the core's `storage_unavailable`, which the API answers as it answers a
 * database fault (503 with Retry-After) and logs with the file-system error as its cause; any
 * other error passes through unchanged.
 */
export function translateVolumeError(error: unknown): unknown {
  if (!isVolumeUnavailable(error)) return error;
  return new DomainError('storage_unavailable', 'The image store cannot serve this request right now; retry later', {
    cause: error,
  });
}
