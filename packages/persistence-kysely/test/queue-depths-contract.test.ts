import { describeQueueDepthsContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

for (const dialect of testDialects()) {
  // The queue depths contract the in-memory adapter passes, on every dialect of this run (one brand per statement).
  describeQueueDepthsContract(`Kysely queue depths [${dialect}]`, () => openTestStorage(dialect));
}
