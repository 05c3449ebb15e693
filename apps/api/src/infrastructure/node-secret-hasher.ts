import { createHash, randomBytes } from 'node:crypto';
import { SecretHasher } from '@brand/core';

/**
 * SHA-256 of access tokens and app keys. Both are 256-bit random strings, so a fast hash is
 * enough (nothing to brute-force) and keeps token verification cheap on every request.
 */
export const nodeSecretHasher: SecretHasher = {
  hash: (secret) => createHash('sha256').update(secret, 'utf8').digest('hex'),
  randomSecret: () => randomBytes(32).toString('base64url'),
};
