import { hash, randomBytes } from 'node:crypto';
import { SecretHasher } from '@brand/core';

/**
 * SHA-256 of access tokens and app keys. Both are 256-bit random strings, so a fast hash is
 * enough (nothing to brute-force) and keeps token verification cheap on every request. The
 * one-shot `hash` skips the Hash object a `createHash` chain builds (two hashes per request).
 */
export const nodeSecretHasher: SecretHasher = {
  hash: (secret) => hash('sha256', secret, 'hex'),
  randomSecret: () => randomBytes(32).toString('base64url'),
  randomKey: () => randomBytes(32).toString('base64'),
};
