import { IdempotencyKeyRepository, IdempotencyRecord, IdempotencyRepositories, IdempotencyScope } from '@brand/core';
import { ExpressionBuilder, Selectable } from 'kysely';
import { Database } from '../../database';
import { IdempotencyKeysTable } from '../../tables/idempotency.tables';
import { deleteAtMost } from '../bounded-delete';
import { Executor, RepositoryFactories } from '../executor';

const rowToRecord = (r: Selectable<IdempotencyKeysTable>): IdempotencyRecord => ({
  brandId: Number(r.brand_id),
  appId: Number(r.app_id),
  key: r.key,
  fingerprint: r.fingerprint,
  status: r.status,
  claimToken: r.claim_token,
  lockedUntil: r.locked_until,
  createdAt: r.created_at,
  answer:
    r.answer_status === null
      ? null
      : { status: Number(r.answer_status), body: r.answer_body ?? '', location: r.answer_location },
});

const recordToRow = (r: IdempotencyRecord): IdempotencyKeysTable => ({
  brand_id: r.brandId,
  app_id: r.appId,
  key: r.key,
  fingerprint: r.fingerprint,
  status: r.status,
  claim_token: r.claimToken,
  locked_until: r.lockedUntil,
  created_at: r.createdAt,
  answer_status: r.answer?.status ?? null,
  answer_body: r.answer?.body ?? null,
  answer_location: r.answer?.location ?? null,
});

/** The one record of `scope` (brand first, DESIGN §9). */
const ofScope = (scope: IdempotencyScope) => (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
  eb.and([eb('brand_id', '=', scope.brandId), eb('app_id', '=', scope.appId), eb('key', '=', scope.key)]);

export function idempotencyKeyRepository({ db }: Executor): IdempotencyKeyRepository {
  return {
    async claim(record) {
      // ON CONFLICT DO NOTHING: on Postgres a concurrent claim of the same key waits for the
      // other's commit and then inserts nothing; either way exactly one claim inserts.
      const inserted = await db
        .insertInto('idempotency_keys')
        .values(recordToRow(record))
        .onConflict((oc) => oc.columns(['brand_id', 'app_id', 'key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return null;
      const row = await db.selectFrom('idempotency_keys').selectAll().where(ofScope(record)).executeTakeFirst();
      if (!row) throw new Error(`idempotency key ${record.key} was neither inserted nor found`);
      return rowToRecord(row);
    },
    async takeOver(record, expiredBefore) {
      const { brand_id: _b, app_id: _a, key: _k, ...fresh } = recordToRow(record);
      const result = await db
        .updateTable('idempotency_keys')
        .set(fresh)
        .where(ofScope(record))
        .where((eb) =>
          eb.or([
            eb('created_at', '<', expiredBefore),
            eb.and([
              eb('status', '=', 'running'),
              eb('fingerprint', '=', record.fingerprint),
              eb('locked_until', '<=', record.createdAt),
            ]),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async complete(scope, claimToken, answer) {
      const result = await db
        .updateTable('idempotency_keys')
        .set({
          status: 'done',
          claim_token: null,
          answer_status: answer.status,
          answer_body: answer.body,
          answer_location: answer.location,
        })
        .where(ofScope(scope))
        .where('status', '=', 'running')
        .where('claim_token', '=', claimToken)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async release(scope, claimToken) {
      await db
        .deleteFrom('idempotency_keys')
        .where(ofScope(scope))
        .where('status', '=', 'running')
        .where('claim_token', '=', claimToken)
        .execute();
    },
    async deleteCreatedBefore(cutoff, limit) {
      return deleteAtMost(db, 'idempotency_keys', ['brand_id', 'app_id', 'key'], limit, (eb) =>
        eb('created_at', '<', cutoff),
      );
    },
  };
}

/** The idempotency module's repositories, as the unit of work makes them. */
export const idempotencyRepositoryFactories: RepositoryFactories<IdempotencyRepositories> = {
  idempotencyKeys: (executor) => idempotencyKeyRepository(executor),
};
