import { Kysely, Migration, SqlBool, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/** Kinds added by returns whose ids come from Postgres sequences `ids_<kind>`. */
export const RETURNS_ID_KINDS = ['returns', 'return_lines', 'claim_causes', 'return_portals', 'alerts'] as const;

/**
 * Claim causes, return portals, returns (with their lines) and alerts.
 *
 * Returns are never deleted; their lines are (a portal upsert sends the full desired set, so the
 * save removes lines left out). Lines refer to variants and order lines without cascade, so a
 * variant that was returned cannot be deleted; returns refer to customers the same way.
 * A portal's returns are unique by (brand, portal, rma): the partial unique index is what makes
 * 20 concurrent upserts of one new rma end as one return (the losers hit it and the unit of work
 * retries them, when they find the winner's). Returns without a portal (back office, ad hoc) carry
 * their own number as rma and are not constrained. Portal public ids are unique across brands
 * (the portal routes resolve the portal before the brand). Indexes lead with brand_id for the
 * keyset lists, plus (brand_id, status, id) for the 3PL export, which filters by status.
 */
export function returnsMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);

  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        for (const kind of RETURNS_ID_KINDS) await sql`create sequence ${sql.id(`ids_${kind}`)}`.execute(db);
      }

      await db.schema
        .createTable('claim_causes')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('claim_causes_brand_id_idx').on('claim_causes').columns(['brand_id', 'id']).execute();

      await db.schema
        .createTable('return_portals')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('public_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('requires_claim_causes', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('return_portals_public_id_uq', ['public_id'])
        .execute();
      await db.schema
        .createIndex('return_portals_brand_id_idx')
        .on('return_portals')
        .columns(['brand_id', 'id'])
        .execute();

      await db.schema
        .createTable('returns')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('return_number', bigint, (c) => c.notNull())
        .addColumn('rma', 'text', (c) => c.notNull())
        .addColumn('rma_number', bigint, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('return_portal_id', bigint, (c) => c.references('return_portals.id'))
        .addColumn('order_id', bigint, (c) => c.references('orders.id'))
        .addColumn('order_number', bigint)
        .addColumn('shipment_id', bigint, (c) => c.references('shipments.id'))
        .addColumn('customer_id', bigint, (c) => c.notNull().references('customers.id'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('vat_rate_basis_points', 'integer', (c) => c.notNull())
        .addColumn('prices_include_vat', 'integer', (c) => c.notNull())
        .addColumn('notes', 'text')
        .addColumn('return_meta', 'text', (c) => c.notNull())
        .addColumn('shipping_method', 'text')
        .addColumn('track_trace', 'text')
        .addColumn('track_trace_link', 'text')
        .addColumn('carrier_code', 'text')
        .addColumn('carrier_label', 'text')
        .addColumn('labelless_code', 'text')
        .addColumn('return_fee_incl_vat', bigint)
        .addColumn('exchange_fee_incl_vat', bigint)
        .addColumn('storefront_refund_gift_card', 'integer', (c) => c.notNull())
        .addColumn('storefront_refund_gift_card_bonus_type', 'text')
        .addColumn('storefront_refund_gift_card_bonus_value', 'text')
        .addColumn('storefront_refund_gift_card_free_shipping', 'integer', (c) => c.notNull())
        .addColumn('approved_at', 'text')
        .addColumn('received_at', 'text')
        .addColumn('credited_at', 'text')
        .addColumn('created_by_user_id', bigint)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('returns_number_uq', ['brand_id', 'return_number'])
        .execute();
      await db.schema
        .createIndex('returns_portal_rma_uq')
        .on('returns')
        .columns(['brand_id', 'return_portal_id', 'rma'])
        .unique()
        .where(sql<SqlBool>`return_portal_id is not null`)
        .execute();
      await db.schema.createIndex('returns_brand_id_idx').on('returns').columns(['brand_id', 'id']).execute();
      await db.schema
        .createIndex('returns_updated_at_idx')
        .on('returns')
        .columns(['brand_id', 'updated_at', 'id'])
        .execute();
      await db.schema.createIndex('returns_status_idx').on('returns').columns(['brand_id', 'status', 'id']).execute();
      // The 3PL receipt finds a return by rma whatever its portal.
      await db.schema.createIndex('returns_rma_idx').on('returns').columns(['brand_id', 'rma']).execute();
      await db.schema.createIndex('returns_order_idx').on('returns').columns(['order_id', 'brand_id']).execute();
      await db.schema.createIndex('returns_customer_idx').on('returns').columns(['customer_id', 'brand_id']).execute();

      await db.schema
        .createTable('return_lines')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('return_id', bigint, (c) => c.notNull().references('returns.id'))
        .addColumn('order_line_id', bigint, (c) => c.references('order_lines.id'))
        .addColumn('variant_id', bigint, (c) => c.notNull().references('variants.id'))
        .addColumn('product_id', bigint, (c) => c.notNull())
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('ean', 'text')
        .addColumn('item_number', 'text', (c) => c.notNull())
        .addColumn('product_name', 'text', (c) => c.notNull())
        .addColumn('attributes', 'text', (c) => c.notNull())
        .addColumn('country_of_origin', 'text')
        .addColumn('composition', 'text')
        .addColumn('hs_tariff_code', 'text')
        .addColumn('expected_quantity', 'integer', (c) => c.notNull())
        .addColumn('received_quantity', 'integer', (c) => c.notNull())
        .addColumn('claim_type', 'text', (c) => c.notNull())
        .addColumn('claim_cause_id', bigint, (c) => c.references('claim_causes.id'))
        .addColumn('unit_price', bigint, (c) => c.notNull())
        .addColumn('discount_basis_points', 'integer', (c) => c.notNull())
        .addColumn('unit_price_incl_vat', bigint)
        .addColumn('comments', 'text')
        .addColumn('regulate_inventory', 'integer', (c) => c.notNull())
        .addColumn('refund_storefront', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('return_lines_return_idx')
        .on('return_lines')
        .columns(['return_id', 'brand_id', 'id'])
        .execute();
      await db.schema
        .createIndex('return_lines_variant_idx')
        .on('return_lines')
        .columns(['variant_id', 'brand_id'])
        .execute();

      await db.schema
        .createTable('alerts')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('return_id', bigint, (c) => c.notNull().references('returns.id'))
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('credit_note_id', bigint, (c) => c.references('credit_notes.id'))
        .addColumn('resolved_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('alerts_brand_id_idx').on('alerts').columns(['brand_id', 'id']).execute();
      await db.schema.createIndex('alerts_status_idx').on('alerts').columns(['brand_id', 'status', 'id']).execute();
    },
    async down() {
      throw new Error('The returns migration cannot be undone');
    },
  };
}
