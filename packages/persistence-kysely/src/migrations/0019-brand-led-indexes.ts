import { Kysely, Migration, SqlBool, sql } from 'kysely';

/** An index of a tenant table that lacked brand_id, as it was (0017 kept it as it found it). */
interface IndexWithoutBrand {
  table: string;
  index: string;
  columns: string[];
  /** Partial indexes keep their condition. */
  where?: string;
}

const INDEXES_WITHOUT_BRAND: readonly IndexWithoutBrand[] = [
  { table: 'customer_addresses', index: 'customer_addresses_owner_idx', columns: ['owner_id', 'position'] },
  { table: 'supplier_addresses', index: 'supplier_addresses_owner_idx', columns: ['owner_id', 'position'] },
  { table: 'product_suppliers', index: 'product_suppliers_supplier_idx', columns: ['supplier_id'] },
  { table: 'product_categories', index: 'product_categories_category_idx', columns: ['category_id'] },
  { table: 'variant_drops', index: 'variant_drops_drop_idx', columns: ['drop_id'] },
  { table: 'product_image_variants', index: 'product_image_variants_variant_idx', columns: ['variant_id'] },
  { table: 'stock_movements', index: 'stock_movements_variant_idx', columns: ['variant_id', 'created_at', 'id'] },
  { table: 'events', index: 'events_created_at_idx', columns: ['created_at'] },
  { table: 'webhook_deliveries', index: 'webhook_deliveries_due_idx', columns: ['status', 'next_attempt_at'] },
  { table: 'webhook_deliveries', index: 'webhook_deliveries_created_at_idx', columns: ['created_at'] },
  { table: 'request_logs', index: 'request_logs_created_at_idx', columns: ['created_at'] },
  { table: 'access_tokens', index: 'access_tokens_expires_at_idx', columns: ['expires_at'] },
  {
    table: 'access_tokens',
    index: 'access_tokens_revoked_at_idx',
    columns: ['revoked_at'],
    where: 'revoked_at is not null',
  },
  { table: 'oauth_refresh_tokens', index: 'oauth_refresh_tokens_expires_at_idx', columns: ['expires_at'] },
  { table: 'oauth_grant_access_tokens', index: 'oauth_grant_access_tokens_expires_at_idx', columns: ['expires_at'] },
  { table: 'idempotency_keys', index: 'idempotency_keys_created_at', columns: ['created_at'] },
];

async function recreate(db: Kysely<unknown>, { table, index, where }: IndexWithoutBrand, columns: string[]) {
  await db.schema.dropIndex(index).execute();
  const created = db.schema.createIndex(index).on(table).columns(columns);
  await (where ? created.where(sql<SqlBool>`${sql.raw(where)}`) : created).execute();
}

/**
 * Every index of a tenant table leads with brand_id (DESIGN §9). Since 0017 every statement names
 * its brand, and every table's primary key is `(brand_id, id)`: an index without brand_id left
 * SQLite's planner, which has no statistics, a choice between it and the key's `brand_id = ?`
 * prefix, and it took the key and sorted: an owner's addresses (`brand_id = ? and owner_id in (…)
 * order by owner_id, position`) read every address of the brand on each call (figures in
 * docs/performance.md). The housekeeping indexes (`created_at`,
 * `expires_at`) serve deletes that now go one brand at a time, and the webhook dispatcher claims
 * one brand's due deliveries at a time. Postgres gets the same indexes, so both dialects keep one
 * schema; the catalog test (tenant-keys-catalog) holds every later index to it.
 */
export function brandLedIndexesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const index of INDEXES_WITHOUT_BRAND) await recreate(db, index, ['brand_id', ...index.columns]);
    },
    async down(db: Kysely<unknown>) {
      for (const index of INDEXES_WITHOUT_BRAND) await recreate(db, index, index.columns);
    },
  };
}
