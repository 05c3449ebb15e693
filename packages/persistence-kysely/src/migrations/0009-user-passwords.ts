import { Kysely, Migration } from 'kysely';
import { Dialect } from '../storage';

/**
 * Users who log in (DESIGN §11): a password hash (`scrypt$N$r$p$salt$hash`, null for users who only
 * hold tokens) and the login e-mail, the address in lower case, set together with the hash. The
 * login e-mail is unique across brands, because logging in names no brand; users without a
 * password keep it null, so existing users sharing an address (across brands) stay valid.
 *
 * The unique index is the one key of a tenant table without `brand_id` (DESIGN §9): the log-in
 * lookup is global by nature. On a sharded Postgres it moves to a reference table (login e-mail →
 * brand, user), with the later issue that migrates the older tables.
 */
export function userPasswordsMigration(_dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();
      await db.schema.alterTable('users').addColumn('login_email', 'text').execute();
      await db.schema.createIndex('users_login_email_uq').on('users').column('login_email').unique().execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('users_login_email_uq').execute();
      await db.schema.alterTable('users').dropColumn('login_email').execute();
      await db.schema.alterTable('users').dropColumn('password_hash').execute();
    },
  };
}
