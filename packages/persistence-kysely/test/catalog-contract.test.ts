import { describeCatalogContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src';

// The catalog and inventory contract the in-memory adapter passes, on every dialect of this run.
for (const dialect of testDialects()) {
  describeCatalogContract(`Kysely catalog [${dialect}]`, () => openTestStorage(dialect));
}
