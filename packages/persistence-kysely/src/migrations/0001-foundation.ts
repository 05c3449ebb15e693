import { Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/** Kinds whose ids come from Postgres sequences named `ids_<kind>` (SQLite counts in `id_counters`). */
export const FOUNDATION_ID_KINDS = [
  'brands',
  'users',
  'api_apps',
  'access_tokens',
  'request_logs',
  'customers',
  'customer_addresses',
  'customer_groups',
  'payment_terms',
  'suppliers',
  'supplier_addresses',
] as const;

/** Identity, customers, suppliers and the infrastructure tables. */
export function foundationMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('id_counters')
        .addColumn('kind', 'text', (c) => c.primaryKey())
        .addColumn('value', bigint, (c) => c.notNull())
        .execute();
      if (dialect === 'postgres') {
        for (const kind of FOUNDATION_ID_KINDS) await sql`create sequence ${sql.id(`ids_${kind}`)}`.execute(db);
      }
      await db.schema
        .createTable('document_sequences')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('last_value', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('document_sequences_pk', ['brand_id', 'kind'])
        .execute();
      await db.schema
        .createTable('rate_limit_counters')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addColumn('reset_at_ms', bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('row_counts')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('resource', 'text', (c) => c.notNull())
        .addColumn('row_count', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('row_counts_pk', ['brand_id', 'resource'])
        .execute();
      await db.schema
        .createTable('shared_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('brands')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('api_apps')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('app_key_hash', 'text', (c) => c.notNull())
        .addColumn('internal_code', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('access_tokens')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('user_id', bigint, (c) => c.notNull().references('users.id'))
        .addColumn('app_id', bigint, (c) => c.notNull().references('api_apps.id'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('request_logs')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('user_id', bigint, (c) => c.notNull())
        .addColumn('app_id', bigint, (c) => c.notNull())
        .addColumn('token_id', bigint, (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('request_logs_user_idx')
        .on('request_logs')
        .columns(['brand_id', 'user_id', 'id'])
        .execute();

      await db.schema
        .createTable('customer_groups')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('customer_groups_code_uq', ['brand_id', 'code'])
        .execute();
      await db.schema
        .createTable('payment_terms')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('days', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('payment_terms_code_uq', ['brand_id', 'code'])
        .execute();
      await db.schema
        .createTable('customers')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('customer_number', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('discount_basis_points', 'integer', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('customer_group_id', bigint, (c) => c.references('customer_groups.id'))
        .addColumn('payment_terms_id', bigint, (c) => c.references('payment_terms.id'))
        .addColumn('email', 'text')
        .addColumn('telephone', 'text')
        .addColumn('vat_number', 'text')
        .addColumn('eori_number', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('customers_number_uq', ['brand_id', 'customer_number'])
        .execute();
      // Keyset pages walk (brand_id, id); the primary key alone would not be brand-first.
      await db.schema.createIndex('customers_brand_id_idx').on('customers').columns(['brand_id', 'id']).execute();
      await db.schema
        .createTable('suppliers')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('supplier_number', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('suppliers_number_uq', ['brand_id', 'supplier_number'])
        .execute();
      await db.schema.createIndex('suppliers_brand_id_idx').on('suppliers').columns(['brand_id', 'id']).execute();
      for (const [table, owner] of [
        ['customer_addresses', 'customers'],
        ['supplier_addresses', 'suppliers'],
      ] as const) {
        await db.schema
          .createTable(table)
          .addColumn('id', bigint, (c) => c.primaryKey())
          .addColumn('brand_id', bigint, (c) => c.notNull())
          .addColumn('owner_id', bigint, (c) => c.notNull().references(`${owner}.id`).onDelete('cascade'))
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('address', 'text', (c) => c.notNull())
          .addColumn('address_2', 'text')
          .addColumn('zip', 'text', (c) => c.notNull())
          .addColumn('city', 'text', (c) => c.notNull())
          .addColumn('region', 'text')
          .addColumn('country', 'text', (c) => c.notNull())
          .addColumn('remote_erp_id', 'text')
          .execute();
        await db.schema.createIndex(`${table}_owner_idx`).on(table).columns(['owner_id', 'position']).execute();
      }
    },
    async down() {
      throw new Error('The foundation migration cannot be undone');
    },
  };
}
