import { describeProductionContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

// The production contract the in-memory adapter passes, on every dialect of this run.
for (const dialect of testDialects()) {
  describeProductionContract(`Kysely production [${dialect}]`, () => openTestStorage(dialect));
}
