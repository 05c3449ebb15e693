import { CreateTableBuilder, Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/** Kinds added by production whose ids come from Postgres sequences `ids_<kind>`. */
export const PRODUCTION_ID_KINDS = [
  'production_orders',
  'production_order_lines',
  'delivery_notes',
  'delivery_note_lines',
] as const;

/**
 * Production orders and their delivery notes, each with lines.
 *
 * Documents are never deleted and neither are their lines. Lines refer to variants without
 * cascade and orders to suppliers the same way, so a variant or supplier that was ordered from
 * production cannot be deleted (the dependents registry names them). Indexes lead with brand_id
 * for the keyset lists — (brand_id, id), (brand_id, updated_at, id) for the production order
 * sort, (brand_id, status, id) for the export, which filters by status — and child tables with
 * their parent id. Document numbers are unique per brand; the 3PL receipt finds a note by number.
 */
export function productionMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);

  /** The catalog copies and quantities both line tables carry. */
  const lineColumns = <T extends string>(table: CreateTableBuilder<T, never>) =>
    table
      .addColumn('variant_id', bigint, (c) => c.notNull().references('variants.id'))
      .addColumn('sku', 'text', (c) => c.notNull())
      .addColumn('ean', 'text')
      .addColumn('item_number', 'text', (c) => c.notNull())
      .addColumn('product_name', 'text', (c) => c.notNull())
      .addColumn('attributes', 'text', (c) => c.notNull())
      .addColumn('country_of_origin', 'text')
      .addColumn('composition', 'text')
      .addColumn('hs_tariff_code', 'text')
      .addColumn('expected_quantity', 'integer', (c) => c.notNull())
      .addColumn('received_quantity', 'integer', (c) => c.notNull());

  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        for (const kind of PRODUCTION_ID_KINDS) await sql`create sequence ${sql.id(`ids_${kind}`)}`.execute(db);
      }

      await db.schema
        .createTable('production_orders')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('production_order_number', bigint, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('supplier_id', bigint, (c) => c.notNull().references('suppliers.id'))
        .addColumn('supplier_number', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('expected_delivery', 'text')
        .addColumn('notes', 'text')
        .addColumn('production_order_meta', 'text', (c) => c.notNull())
        .addColumn('sales_order_ids', 'text', (c) => c.notNull())
        .addColumn('approved_at', 'text')
        .addColumn('closed_at', 'text')
        .addColumn('created_by_user_id', bigint)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('production_orders_number_uq', ['brand_id', 'production_order_number'])
        .execute();
      await db.schema
        .createIndex('production_orders_brand_id_idx')
        .on('production_orders')
        .columns(['brand_id', 'id'])
        .execute();
      await db.schema
        .createIndex('production_orders_updated_at_idx')
        .on('production_orders')
        .columns(['brand_id', 'updated_at', 'id'])
        .execute();
      await db.schema
        .createIndex('production_orders_status_idx')
        .on('production_orders')
        .columns(['brand_id', 'status', 'id'])
        .execute();
      await db.schema
        .createIndex('production_orders_supplier_idx')
        .on('production_orders')
        .columns(['supplier_id', 'brand_id'])
        .execute();

      await lineColumns(
        db.schema
          .createTable('production_order_lines')
          .addColumn('id', bigint, (c) => c.primaryKey())
          .addColumn('brand_id', bigint, (c) => c.notNull())
          .addColumn('production_order_id', bigint, (c) => c.notNull().references('production_orders.id'))
          .addColumn('product_id', bigint, (c) => c.notNull())
          .addColumn('quantity', 'integer', (c) => c.notNull())
          .addColumn('unit_cost', bigint),
      ).execute();
      await db.schema
        .createIndex('production_order_lines_order_idx')
        .on('production_order_lines')
        .columns(['production_order_id', 'brand_id', 'id'])
        .execute();
      await db.schema
        .createIndex('production_order_lines_variant_idx')
        .on('production_order_lines')
        .columns(['variant_id', 'brand_id'])
        .execute();

      await db.schema
        .createTable('delivery_notes')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('delivery_note_number', bigint, (c) => c.notNull())
        .addColumn('production_order_id', bigint, (c) => c.notNull().references('production_orders.id'))
        .addColumn('production_order_number', bigint, (c) => c.notNull())
        .addColumn('supplier_id', bigint, (c) => c.notNull().references('suppliers.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('expected_delivery', 'text')
        .addColumn('notes', 'text')
        .addColumn('meta', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text')
        .addColumn('created_by_user_id', bigint)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('delivery_notes_number_uq', ['brand_id', 'delivery_note_number'])
        .execute();
      await db.schema
        .createIndex('delivery_notes_brand_id_idx')
        .on('delivery_notes')
        .columns(['brand_id', 'id'])
        .execute();
      await db.schema
        .createIndex('delivery_notes_order_idx')
        .on('delivery_notes')
        .columns(['production_order_id', 'brand_id'])
        .execute();
      await db.schema
        .createIndex('delivery_notes_supplier_idx')
        .on('delivery_notes')
        .columns(['supplier_id', 'brand_id'])
        .execute();

      await lineColumns(
        db.schema
          .createTable('delivery_note_lines')
          .addColumn('id', bigint, (c) => c.primaryKey())
          .addColumn('brand_id', bigint, (c) => c.notNull())
          .addColumn('delivery_note_id', bigint, (c) => c.notNull().references('delivery_notes.id'))
          .addColumn('production_order_line_id', bigint, (c) => c.notNull().references('production_order_lines.id')),
      ).execute();
      await db.schema
        .createIndex('delivery_note_lines_note_idx')
        .on('delivery_note_lines')
        .columns(['delivery_note_id', 'brand_id', 'id'])
        .execute();
      await db.schema
        .createIndex('delivery_note_lines_variant_idx')
        .on('delivery_note_lines')
        .columns(['variant_id', 'brand_id'])
        .execute();
    },
    async down() {
      throw new Error('The production migration cannot be undone');
    },
  };
}
