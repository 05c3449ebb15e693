import { describeRepositoryContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src';

// The same contract the in-memory adapter passes, on every dialect of this run.
for (const dialect of testDialects()) {
  describeRepositoryContract(`Kysely repositories [${dialect}]`, () => openTestStorage(dialect));
}
