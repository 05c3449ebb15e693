import { SecretHasher } from '../identity/identity.ports';

/** A reversible, predictable hasher for tests that need no cryptography (never use outside tests). */
export class FakeSecretHasher implements SecretHasher {
  private counter = 0;

  hash(secret: string): string {
    return `hashed:${secret}`;
  }

  randomSecret(): string {
    this.counter += 1;
    return `secret-${this.counter}-${Math.random().toString(36).slice(2)}`;
  }

  /** Valid base64 of 32 bytes (43 base64 characters and one `=`), told apart by a counter. */
  randomKey(): string {
    this.counter += 1;
    return `${this.counter.toString(36).padStart(8, '0')}${'A'.repeat(35)}=`;
  }
}
