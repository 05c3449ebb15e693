import { describeEventsContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

// The outbox and feed contract the in-memory adapter passes, on every dialect of this run.
for (const dialect of testDialects()) {
  describeEventsContract(`Kysely events [${dialect}]`, () => openTestStorage(dialect));
}
