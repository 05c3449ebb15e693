import { Dialect } from '../src';
import { onCitusTestCluster } from '../src/testing';

/**
 * `describe`, or `describe.skip` for Postgres on a Citus cluster (`pnpm test:citus`): for the
 * tests that build a database of an earlier release and migrate it. Such a schema cannot be
 * distributed (its keys lack brand_id), and a deployment migrates on one Postgres before it
 * moves onto Citus (docs/scale-out.md).
 */
export function describeUnlessOnCitus(dialect: Dialect): jest.Describe {
  return dialect === 'postgres' && onCitusTestCluster() ? describe.skip : describe;
}
