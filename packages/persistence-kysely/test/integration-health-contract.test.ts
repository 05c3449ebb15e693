import { describeIntegrationHealthContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

for (const dialect of testDialects()) {
  // The integration health contract the in-memory adapter passes, on every dialect of this run.
  describeIntegrationHealthContract(`Kysely integration health [${dialect}]`, () => openTestStorage(dialect));
}
