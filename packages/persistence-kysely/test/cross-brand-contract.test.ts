import { describeCrossBrandReferencesContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

// The composite foreign keys refuse what the in-memory adapter refuses, on every dialect of this run.
for (const dialect of testDialects()) {
  describeCrossBrandReferencesContract(`Kysely cross-brand references [${dialect}]`, () => openTestStorage(dialect));
}
