import { Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/** Kinds added by OAuth grants whose ids come from Postgres sequences `ids_<kind>`. */
export const OAUTH_ID_KINDS = ['oauth_grants', 'oauth_authorization_codes', 'oauth_refresh_tokens'] as const;

/**
 * OAuth 2.0 grants (DESIGN §11): the grants (one consent of a user to an app), the authorization
 * codes and refresh tokens (stored as hashes, looked up by (brand_id, hash)), and the links from a
 * grant to the access tokens issued in it. The access tokens themselves stay rows of
 * `access_tokens`, which needs no change: revoking a grant finds them through the links.
 *
 * Every key leads with brand_id (DESIGN §9), the hash lookups' unique keys too. Grants and codes
 * refer to their app by (brand_id, app_id) (the key 0010 gave `api_apps`) and go with it; codes,
 * refresh tokens and links refer to their grant by (brand_id, grant_id). Users have no key with
 * brand_id yet, so nothing refers to them: the later issue that rekeys the older tables adds it.
 */
export function oauthGrantsMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres')
        for (const kind of OAUTH_ID_KINDS) await sql`create sequence ${sql.id(`ids_${kind}`)}`.execute(db);
      await db.schema
        .createTable('oauth_grants')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('id', bigint, (c) => c.notNull())
        .addColumn('app_id', bigint, (c) => c.notNull())
        .addColumn('user_id', bigint, (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addPrimaryKeyConstraint('oauth_grants_pk', ['brand_id', 'id'])
        .addForeignKeyConstraint('oauth_grants_app_fk', ['brand_id', 'app_id'], 'api_apps', ['brand_id', 'id'], (fk) =>
          fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createTable('oauth_grant_access_tokens')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('grant_id', bigint, (c) => c.notNull())
        .addColumn('access_token_id', bigint, (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('oauth_grant_access_tokens_pk', ['brand_id', 'grant_id', 'access_token_id'])
        .addForeignKeyConstraint(
          'oauth_grant_access_tokens_grant_fk',
          ['brand_id', 'grant_id'],
          'oauth_grants',
          ['brand_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createTable('oauth_authorization_codes')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('id', bigint, (c) => c.notNull())
        .addColumn('app_id', bigint, (c) => c.notNull())
        .addColumn('user_id', bigint, (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('code_challenge_method', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('reused_at', 'text')
        .addColumn('grant_id', bigint)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('oauth_authorization_codes_pk', ['brand_id', 'id'])
        .addUniqueConstraint('oauth_authorization_codes_hash_uq', ['brand_id', 'code_hash'])
        .addForeignKeyConstraint(
          'oauth_authorization_codes_app_fk',
          ['brand_id', 'app_id'],
          'api_apps',
          ['brand_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .addForeignKeyConstraint(
          'oauth_authorization_codes_grant_fk',
          ['brand_id', 'grant_id'],
          'oauth_grants',
          ['brand_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createTable('oauth_refresh_tokens')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('id', bigint, (c) => c.notNull())
        .addColumn('grant_id', bigint, (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('spent_at', 'text')
        .addColumn('revoked_at', 'text')
        .addColumn('replaced_by_id', bigint)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('oauth_refresh_tokens_pk', ['brand_id', 'id'])
        .addUniqueConstraint('oauth_refresh_tokens_hash_uq', ['brand_id', 'token_hash'])
        .addForeignKeyConstraint(
          'oauth_refresh_tokens_grant_fk',
          ['brand_id', 'grant_id'],
          'oauth_grants',
          ['brand_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      // Revoking a grant marks all of its refresh tokens.
      await db.schema
        .createIndex('oauth_refresh_tokens_grant_idx')
        .on('oauth_refresh_tokens')
        .columns(['brand_id', 'grant_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('oauth_refresh_tokens').execute();
      await db.schema.dropTable('oauth_authorization_codes').execute();
      await db.schema.dropTable('oauth_grant_access_tokens').execute();
      await db.schema.dropTable('oauth_grants').execute();
      if (dialect === 'postgres')
        for (const kind of OAUTH_ID_KINDS) await sql`drop sequence ${sql.id(`ids_${kind}`)}`.execute(db);
    },
  };
}
