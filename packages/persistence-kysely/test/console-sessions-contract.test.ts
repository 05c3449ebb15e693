import { describeConsoleSessionsContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

// The console sessions contract the in-memory adapter passes, on every dialect of this run.
for (const dialect of testDialects()) {
  describeConsoleSessionsContract(`Kysely console sessions [${dialect}]`, () => openTestStorage(dialect));
}
