import { describeOAuthContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

// The OAuth grants contract the in-memory adapter passes, on every dialect of this run.
for (const dialect of testDialects()) {
  describeOAuthContract(`Kysely OAuth [${dialect}]`, () => openTestStorage(dialect));
}
