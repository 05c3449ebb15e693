import { Kysely, Migration, SqlBool, sql } from 'kysely';

/**
 * Indexes for the housekeeping sweeps, which delete across brands by time, a batch at a time: each
 * batch finds its rows by an index range instead of reading the whole table, so a pass costs what
 * it deletes. Only for the tables that grow with traffic:
 * - request_logs (created_at): the retention; the brand-led indexes of 0013 cannot serve a cut
 *   across brands;
 * - access_tokens (expires_at), and (revoked_at) for revoked tokens only: one token per OAuth
 *   refresh, an hour apart per grant in use;
 * - oauth_refresh_tokens (expires_at) and oauth_grant_access_tokens (expires_at): one row each per
 *   refresh as well.
 * Console sessions, codes, grants and the rate-limit counters stay small once swept (a row per
 * person logged in, per pending consent, per grant, per key active in the last window), and the
 * counters are written on every request: they are read whole instead.
 */
export function housekeepingIndexesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('request_logs_created_at_idx').on('request_logs').column('created_at').execute();
      await db.schema.createIndex('access_tokens_expires_at_idx').on('access_tokens').column('expires_at').execute();
      await db.schema
        .createIndex('access_tokens_revoked_at_idx')
        .on('access_tokens')
        .column('revoked_at')
        .where(sql<SqlBool>`revoked_at is not null`)
        .execute();
      await db.schema
        .createIndex('oauth_refresh_tokens_expires_at_idx')
        .on('oauth_refresh_tokens')
        .column('expires_at')
        .execute();
      await db.schema
        .createIndex('oauth_grant_access_tokens_expires_at_idx')
        .on('oauth_grant_access_tokens')
        .column('expires_at')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('oauth_grant_access_tokens_expires_at_idx').execute();
      await db.schema.dropIndex('oauth_refresh_tokens_expires_at_idx').execute();
      await db.schema.dropIndex('access_tokens_revoked_at_idx').execute();
      await db.schema.dropIndex('access_tokens_expires_at_idx').execute();
      await db.schema.dropIndex('request_logs_created_at_idx').execute();
    },
  };
}
