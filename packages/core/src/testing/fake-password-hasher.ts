import { PasswordHasher } from '../identity/identity.ports';

/**
 * A fast stand-in for the scrypt hasher, for tests (never use outside tests): `fake$<version>$<salt>$<password>`,
 * salted so that two hashes of one password differ. It counts the checks it makes, so a test can
 * see that a log-in for an unknown e-mail costs a check like any other; `version` plays the
 * parameters (a hash of another version `needsRehash`).
 */
export class FakePasswordHasher implements PasswordHasher {
  /** How many times `verify` was called. */
  verifications = 0;
  private salts = 0;

  constructor(readonly version = 1) {}

  async hash(password: string): Promise<string> {
    this.salts += 1;
    return `fake$${this.version}$${this.salts}$${password}`;
  }

  async verify(password: string, stored: string): Promise<boolean> {
    this.verifications += 1;
    const parts = /^fake\$\d+\$\d+\$(.*)$/s.exec(stored);
    return parts !== null && parts[1] === password;
  }

  needsRehash(stored: string): boolean {
    return !stored.startsWith(`fake$${this.version}$`);
  }
}
