// @slow: among the longest files of the suite; started first (tooling/config/jest-sequencer.js).
import fc from 'fast-check';
import { ListVocabulary, hostileListQuery, listVocabulary, pathSegmentExamples } from './support/hostile-input';
import { SEED, describeHostileInput, pathSegments } from './support/hostile-input-harness';
import { fillPath } from './support/openapi-operations';

/** Generated hostile list queries against every list route of the OpenAPI document (see the harness). */
describeHostileInput('hostile input to every list route of the OpenAPI document', ({ world, exchange, checkEvery }) => {
  it('answers hostile list queries with a 2xx or a 4xx error envelope in bounded time, and never writes', async () => {
    const lists = world.operations.filter((o) => o.method === 'get' && o.list);
    await checkEvery(
      lists,
      (operation) => {
        const vocabulary: ListVocabulary = listVocabulary(
          operation.list!,
          operation.query,
          world.cursors.get(operation.path) ?? [],
        );
        const query = hostileListQuery(vocabulary, world.pool);
        const property = fc.asyncProperty(pathSegments(world, operation), query, async (filled, generated) => {
          await exchange(operation, `${fillPath(operation.path, filled)}?${generated}`, undefined, false);
        });
        const examples = pathSegmentExamples(operation.pathParameters, world.foreignIds).map(
          (filled, i): [Record<string, string>, string] => [
            filled,
            fc.sample(query, { seed: SEED + i, numRuns: 1 })[0]!,
          ],
        );
        return { property, examples };
      },
      { readOnly: true },
    );
  }, 300_000);
});
