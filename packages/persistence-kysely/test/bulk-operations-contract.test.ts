import { describeBulkOperationsContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

// The bulk operations contract the in-memory adapter passes, on every dialect of this run.
for (const dialect of testDialects()) {
  describeBulkOperationsContract(`Kysely bulk operations [${dialect}]`, () => openTestStorage(dialect));
}
