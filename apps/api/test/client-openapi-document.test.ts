import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import { createApp, openApiDocumentOf } from '../src/app';
import { DEFAULT_CONFIG } from '../src/config';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { silentLogger } from './support/test-app';

/** The document @brand/client's types were generated from (packages/client/openapi.json). */
const CHECKED_IN_DOCUMENT = join(__dirname, '../../../packages/client/openapi.json');

describe('the OpenAPI document of @brand/client', () => {
  it('is the one the API serves (else: pnpm --filter @brand/client generate)', async () => {
    // As the generation script makes it: an app over an empty database, which building the document never reads.
    const storage = await openStorage(':memory:');
    try {
      const app = createApp({
        storage,
        clock: systemClock,
        hasher: nodeSecretHasher,
        logger: silentLogger,
        config: { ...DEFAULT_CONFIG, logLevel: 'silent' },
      });
      const served: unknown = JSON.parse(JSON.stringify(openApiDocumentOf(app)));
      const checkedIn: unknown = JSON.parse(readFileSync(CHECKED_IN_DOCUMENT, 'utf8'));

      expect(served).toEqual(checkedIn);
    } finally {
      await storage.close();
    }
  });

  it("is the same for every app of a process, and one app's copy changed leaves the next app's as it was", async () => {
    // The request DTOs' schemas are made once per process (build-openapi-document.ts) and copied.
    const storage = await openStorage(':memory:');
    try {
      const newApp = () =>
        createApp({
          storage,
          clock: systemClock,
          hasher: nodeSecretHasher,
          logger: silentLogger,
          config: { ...DEFAULT_CONFIG, logLevel: 'silent' },
        });
      const first = openApiDocumentOf(newApp()) as { components: { schemas: Record<string, unknown> } };
      const pristine: unknown = JSON.parse(JSON.stringify(first));
      const [dtoName] = Object.keys(first.components.schemas).filter((name) => name.endsWith('Dto'));
      expect(dtoName).toBeDefined();
      (first.components.schemas[dtoName!] as Record<string, unknown>)['changed'] = true;

      const second = openApiDocumentOf(newApp()) as typeof first;

      expect(JSON.parse(JSON.stringify(second))).toEqual(pristine);
      expect(second.components.schemas[dtoName!]).not.toHaveProperty('changed');
    } finally {
      await storage.close();
    }
  });
});
