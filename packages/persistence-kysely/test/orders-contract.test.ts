import { describeOrdersContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

// The orders-to-cash contract the in-memory adapter passes, on every dialect of this run.
for (const dialect of testDialects()) {
  describeOrdersContract(`Kysely orders [${dialect}]`, () => openTestStorage(dialect));
}
