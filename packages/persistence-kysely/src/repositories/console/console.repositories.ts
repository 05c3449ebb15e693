import { ConsoleRepositories, ConsoleSession, ConsoleSessionRepository } from '@brand/core';
import { Selectable } from 'kysely';
import { ConsoleSessionsTable } from '../../tables/console.tables';
import { deleteAtMost } from '../bounded-delete';
import { Executor, RepositoryFactories } from '../executor';

const rowToSession = (r: Selectable<ConsoleSessionsTable>): ConsoleSession => ({
  brandId: Number(r.brand_id),
  id: Number(r.id),
  userId: Number(r.user_id),
  secretHash: r.secret_hash,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  expiresAt: r.expires_at,
});

// Every statement names the brand first: the keys lead with brand_id (DESIGN §9).
export function consoleSessionRepository({ db }: Executor): ConsoleSessionRepository {
  return {
    async insert(s) {
      await db
        .insertInto('console_sessions')
        .values({
          brand_id: s.brandId,
          id: s.id,
          user_id: s.userId,
          secret_hash: s.secretHash,
          created_at: s.createdAt,
          last_seen_at: s.lastSeenAt,
          expires_at: s.expiresAt,
        })
        .execute();
    },
    async findByHash(brandId, secretHash) {
      const row = await db
        .selectFrom('console_sessions')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('secret_hash', '=', secretHash)
        .executeTakeFirst();
      return row ? rowToSession(row) : null;
    },
    async touch(brandId, id, at) {
      const result = await db
        .updateTable('console_sessions')
        .set({ last_seen_at: at })
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async delete(brandId, id) {
      const result = await db
        .deleteFrom('console_sessions')
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    deleteEnded: (at, idleSince, limit) =>
      deleteAtMost(db, 'console_sessions', ['brand_id', 'id'], limit, (eb) =>
        eb.or([eb('expires_at', '<=', at), eb('last_seen_at', '<=', idleSince)]),
      ),
  };
}

/** The console module's repositories, as the unit of work makes them. */
export const consoleRepositoryFactories: RepositoryFactories<ConsoleRepositories> = {
  consoleSessions: (executor) => consoleSessionRepository(executor),
};
