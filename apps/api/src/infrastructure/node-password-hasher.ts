import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { PasswordHasher } from '@brand/core';

/** scrypt's cost parameters: N (CPU and memory cost, a power of two), r (block size), p (parallelism). */
export interface ScryptParameters {
  N: number;
  r: number;
  p: number;
}

/**
 * N = 2^15, r = 8, p = 3: one of the equivalent minimum settings the OWASP Password Storage Cheat
 * Sheet lists (beside 2^17/8/1 and 2^16/8/2), the one that needs the least memory: 128 · N · r =
 * 32 MiB per hash, so that a burst of log-ins on a small server (the libuv pool runs four at once)
 * does not run it out of memory, with p = 3 buying back the work the smaller N gives up. About a
 * quarter to half a second of one core per hash on the test machines: slow for a guesser, fine
 * for a person logging in. Raising them later needs no migration: every hash names its own
 * parameters, and a log-in with an older hash stores a new one (`needsRehash`).
 */
export const SCRYPT_PARAMETERS: Readonly<ScryptParameters> = { N: 2 ** 15, r: 8, p: 3 };

/** 16 random bytes of salt per password (NIST SP 800-132 asks for at least 128 bits). */
const SALT_BYTES = 16;
/** 32 bytes of derived key: as long as a SHA-256, more than any guess could exhaust. */
const KEY_BYTES = 32;
/** Parameters accepted when reading a stored hash, so a corrupted row cannot ask for gigabytes. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

const STORED = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

interface ParsedHash extends ScryptParameters {
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): ParsedHash | null {
  const parts = STORED.exec(stored);
  if (!parts) return null;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const isPowerOfTwo = N > 1 && (N & (N - 1)) === 0;
  if (!isPowerOfTwo || N > MAX_N || r < 1 || r > MAX_R || p < 1 || p > MAX_P) return null;
  const key = Buffer.from(parts[5]!, 'base64url');
  if (key.length === 0) return null;
  return { N, r, p, salt: Buffer.from(parts[4]!, 'base64url'), key };
}

function derive(password: string, salt: Buffer, keyLength: number, { N, r, p }: ScryptParameters): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    // maxmem above scrypt's 128 · N · r (Node refuses at its default of exactly 32 MiB).
    scrypt(password, salt, keyLength, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * Passwords hashed with scrypt (memory-hard, in Node's crypto, no native add-on to build) into
 * `scrypt$N$r$p$salt$hash` (salt and hash base64url): every hash says how it was made, so
 * parameters can be raised while older hashes keep verifying. Runs on the libuv thread pool,
 * never blocking the event loop; compares with `timingSafeEqual`.
 */
export function createScryptPasswordHasher(parameters: ScryptParameters = SCRYPT_PARAMETERS): PasswordHasher {
  const current = `scrypt$${parameters.N}$${parameters.r}$${parameters.p}$`;
  return {
    async hash(password) {
      const salt = randomBytes(SALT_BYTES);
      const key = await derive(password, salt, KEY_BYTES, parameters);
      return `${current}${salt.toString('base64url')}$${key.toString('base64url')}`;
    },
    async verify(password, stored) {
      const parsed = parse(stored);
      if (!parsed) return false;
      const key = await derive(password, parsed.salt, parsed.key.length, parsed);
      return timingSafeEqual(key, parsed.key);
    },
    needsRehash(stored) {
      const parsed = parse(stored);
      return !parsed || !stored.startsWith(current) || parsed.key.length !== KEY_BYTES;
    },
  };
}

/** The production password hasher, with `SCRYPT_PARAMETERS`. */
export const nodePasswordHasher: PasswordHasher = createScryptPasswordHasher();
