import { describeReturnsContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

// The returns contract the in-memory adapter passes, on every dialect of this run.
for (const dialect of testDialects()) {
  describeReturnsContract(`Kysely returns [${dialect}]`, () => openTestStorage(dialect));
}
