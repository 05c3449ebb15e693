import { DocumentNumberSequence, IdGenerator, SequenceRepositories } from '@brand/core';
import { sql } from 'kysely';
import { executeText, Executor, RepositoryFactories } from './executor';
import { prepareOnPostgres } from '../prepared-statements';
import { KeptStatement, runKept } from './kept-statements';

/**
 * Ids: Postgres sequences (no lock held, so parallel transactions never wait on each other);
 * SQLite counts in a row, which is safe because SQLite transactions are serialised anyway.
 */
// Drawn several times by every write (an order draws ids of four kinds): written once as SQL
// rather than built and compiled by the query builder on every draw.
const NEXT_SQLITE_IDS =
  'insert into "id_counters" ("kind", "value") values (?, ?) on conflict ("kind") do update set "value" = "id_counters"."value" + excluded."value" returning "value"';
const NEXT_POSTGRES_IDS = 'select nextval($1::regclass) as id from generate_series(1, $2)';
// Named on each connection, parsed and planned once there, like the kept statements.
prepareOnPostgres(NEXT_POSTGRES_IDS);

export function idGenerator(executor: Executor): IdGenerator {
  const { dialect } = executor;
  return {
    async next(kind, count = 1) {
      if (count < 1) return [];
      if (dialect === 'postgres') {
        const { rows } = await executeText<{ id: number | string }>(executor, NEXT_POSTGRES_IDS, [
          `ids_${kind}`,
          count,
        ]);
        return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
      }
      const { rows } = await executeText<{ value: number | string }>(executor, NEXT_SQLITE_IDS, [kind, count]);
      const last = Number(rows[0]!.value);
      return Array.from({ length: count }, (_, i) => last - count + 1 + i);
    },
  };
}

/**
 * Gap-free per-brand numbers: the upsert locks the brand's counter row until the transaction
 * ends, so concurrent transactions queue for it and a rollback returns the number.
 */
// Drawn by every document a write makes: compiled once per dialect, not on every draw.
const NEXT_DOCUMENT_NUMBER: KeptStatement<{ last_value: number | string }> = (db, [brandId, kind]) =>
  db
    .insertInto('document_sequences')
    .values({ brand_id: brandId, kind, last_value: sql.lit(1) })
    .onConflict((oc) =>
      oc.columns(['brand_id', 'kind']).doUpdateSet({ last_value: sql`document_sequences.last_value + 1` }),
    )
    .returning('last_value');

export function documentNumberSequence(executor: Executor): DocumentNumberSequence {
  return {
    async next(brandId, kind) {
      const [row] = await runKept(executor, NEXT_DOCUMENT_NUMBER, [brandId, kind]);
      return Number(row!.last_value);
    },
  };
}

/** The sequences' repositories, as the unit of work makes them. */
export const sequenceRepositoryFactories: RepositoryFactories<SequenceRepositories> = {
  ids: (executor) => idGenerator(executor),
  documentNumbers: (executor) => documentNumberSequence(executor),
};
