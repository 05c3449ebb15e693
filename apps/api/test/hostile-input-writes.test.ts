// @slow: among the longest files of the suite; started first (tooling/config/jest-sequencer.js).
import fc from 'fast-check';
import { hostileBody, pathSegmentExamples } from './support/hostile-input';
import { SEED, WRITE_METHODS, describeHostileInput, pathSegments } from './support/hostile-input-harness';
import { fillPath } from './support/openapi-operations';

/** Generated hostile bodies and path ids against every write route of the OpenAPI document (see the harness). */
describeHostileInput(
  'hostile input to every write route of the OpenAPI document',
  ({ world, exchange, checkEvery }) => {
    it('answers hostile bodies and path ids on write routes with a 2xx or a 4xx error envelope in bounded time, and writes nothing when it refuses', async () => {
      // Deletions last, so the routes before them still find the seeded rows.
      const writes = world.operations
        .filter((o) => WRITE_METHODS.has(o.method))
        .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
      await checkEvery(
        writes,
        (operation) => {
          const body = hostileBody(world.document, world.pool, operation.body?.schema ?? null);
          const property = fc.asyncProperty(pathSegments(world, operation), body, async (filled, generated) => {
            await exchange(operation, fillPath(operation.path, filled), generated, true);
          });
          const examples = pathSegmentExamples(operation.pathParameters, world.foreignIds).map(
            (filled, i): [Record<string, string>, unknown] => [
              filled,
              fc.sample(body, { seed: SEED + i, numRuns: 1 })[0],
            ],
          );
          return { property, examples };
        },
        { readOnly: false },
      );
    }, 600_000);
  },
);
