import { describeCredentialsContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

// The credentials contract the in-memory adapter passes (passwords, log-in counters, OAuth clients), on every dialect of this run.
for (const dialect of testDialects()) {
  describeCredentialsContract(`Kysely credentials [${dialect}]`, () => openTestStorage(dialect));
}
