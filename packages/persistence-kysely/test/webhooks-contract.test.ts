import { describeWebhooksContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

// The webhook endpoints contract the in-memory adapter passes, on every dialect of this run.
for (const dialect of testDialects()) {
  describeWebhooksContract(`Kysely webhooks [${dialect}]`, () => openTestStorage(dialect));
}
