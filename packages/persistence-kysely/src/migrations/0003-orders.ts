import { CreateTableBuilder, Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/** Kinds added by orders to cash whose ids come from Postgres sequences `ids_<kind>`. */
export const ORDERS_ID_KINDS = [
  'order_channels',
  'orders',
  'order_lines',
  'shipments',
  'shipment_lines',
  'invoices',
  'invoice_lines',
  'credit_notes',
  'credit_note_lines',
  'accounting_entries',
  'timeline_events',
] as const;

/**
 * Brand settings, order channels, orders, shipments, invoices, credit notes and accounting
 * entries (each document with its lines), and the tables every exportable document shares:
 * per-system export marks and the timeline (keyed by document type and id, no foreign key).
 *
 * Documents are never deleted. Their lines refer to variants without cascade, so a variant (or
 * product) that was ordered, shipped or billed cannot be deleted; documents refer to customers
 * the same way. Indexes lead with brand_id for the keyset lists — (brand_id, id), plus the sort
 * keys and (brand_id, status, id) for the export GETs, which filter by status — and child tables
 * with their parent id (the page's lines are one `parent_id in (…)` read). Document numbers are
 * unique per brand.
 */
export function ordersMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);

  /** Columns shared by invoice and credit note lines. */
  const financialLineColumns = <T extends string>(table: CreateTableBuilder<T, never>) =>
    table
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('order_line_id', bigint, (c) => c.references('order_lines.id'))
      .addColumn('variant_id', bigint, (c) => c.references('variants.id'))
      .addColumn('sku', 'text')
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('quantity', 'integer', (c) => c.notNull())
      .addColumn('unit_price', bigint, (c) => c.notNull())
      .addColumn('discount_basis_points', 'integer', (c) => c.notNull())
      .addColumn('total_price', bigint, (c) => c.notNull());

  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        for (const kind of ORDERS_ID_KINDS) await sql`create sequence ${sql.id(`ids_${kind}`)}`.execute(db);
      }

      await db.schema
        .createTable('brand_settings')
        .addColumn('brand_id', bigint, (c) => c.primaryKey().references('brands.id'))
        .addColumn('invoicing', 'text', (c) => c.notNull())
        .addColumn('requires_drop', 'integer', (c) => c.notNull())
        .addColumn('default_vat_rate_basis_points', 'integer', (c) => c.notNull())
        .addColumn('ad_hoc_return_mode', 'text')
        .addColumn('tracking_link_templates', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text')
        .execute();

      await db.schema
        .createTable('order_channels')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('public_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('order_type', 'text', (c) => c.notNull())
        .addColumn('auto_approve', 'integer', (c) => c.notNull())
        .addColumn('drop_id', bigint, (c) => c.references('drops.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('order_channels_public_id_uq', ['public_id'])
        .execute();
      await db.schema
        .createIndex('order_channels_brand_id_idx')
        .on('order_channels')
        .columns(['brand_id', 'id'])
        .execute();

      await db.schema
        .createTable('orders')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('order_number', bigint, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('order_type', 'text', (c) => c.notNull())
        .addColumn('order_channel_id', bigint, (c) => c.notNull().references('order_channels.id'))
        .addColumn('customer_id', bigint, (c) => c.notNull().references('customers.id'))
        .addColumn('customer_number', 'text', (c) => c.notNull())
        .addColumn('drop_id', bigint, (c) => c.references('drops.id'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('vat_rate_basis_points', 'integer', (c) => c.notNull())
        .addColumn('prices_include_vat', 'integer', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('telephone', 'text')
        .addColumn('reference', 'text')
        .addColumn('notes', 'text')
        .addColumn('invoice_address', 'text')
        .addColumn('delivery_address', 'text')
        .addColumn('shipping_code', 'text')
        .addColumn('shipping_cost', bigint)
        .addColumn('responsible_person', 'text')
        .addColumn('order_meta', 'text', (c) => c.notNull())
        .addColumn('net_total', bigint, (c) => c.notNull())
        .addColumn('vat_total', bigint, (c) => c.notNull())
        .addColumn('total', bigint, (c) => c.notNull())
        .addColumn('approved_at', 'text')
        .addColumn('cancelled_at', 'text')
        .addColumn('archived_at', 'text')
        .addColumn('created_by_user_id', bigint)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('orders_number_uq', ['brand_id', 'order_number'])
        .execute();
      await db.schema.createIndex('orders_brand_id_idx').on('orders').columns(['brand_id', 'id']).execute();
      await db.schema
        .createIndex('orders_updated_at_idx')
        .on('orders')
        .columns(['brand_id', 'updated_at', 'id'])
        .execute();
      await db.schema.createIndex('orders_status_idx').on('orders').columns(['brand_id', 'status', 'id']).execute();
      await db.schema.createIndex('orders_customer_idx').on('orders').columns(['customer_id', 'brand_id']).execute();

      await db.schema
        .createTable('order_lines')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('order_id', bigint, (c) => c.notNull().references('orders.id'))
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
        .addColumn('tracks_inventory', 'integer', (c) => c.notNull())
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('unit_price', bigint, (c) => c.notNull())
        .addColumn('discount_basis_points', 'integer', (c) => c.notNull())
        .addColumn('total_price', bigint, (c) => c.notNull())
        .addColumn('reservations', 'text', (c) => c.notNull())
        .addColumn('shipped_quantity', 'integer', (c) => c.notNull())
        .addColumn('delivered_quantity', 'integer', (c) => c.notNull())
        .addColumn('invoiced_quantity', 'integer', (c) => c.notNull())
        .addColumn('regulated_quantity', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('order_lines_order_idx')
        .on('order_lines')
        .columns(['order_id', 'brand_id', 'id'])
        .execute();
      await db.schema
        .createIndex('order_lines_variant_idx')
        .on('order_lines')
        .columns(['variant_id', 'brand_id'])
        .execute();

      await db.schema
        .createTable('shipments')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('shipment_number', bigint, (c) => c.notNull())
        .addColumn('order_id', bigint, (c) => c.notNull().references('orders.id'))
        .addColumn('order_number', bigint, (c) => c.notNull())
        .addColumn('customer_id', bigint, (c) => c.notNull().references('customers.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('shipping_cost', bigint)
        .addColumn('carrier', 'text')
        .addColumn('colli', 'text', (c) => c.notNull())
        .addColumn('delivered_at', 'text')
        .addColumn('cancelled_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('shipments_number_uq', ['brand_id', 'shipment_number'])
        .execute();
      await db.schema.createIndex('shipments_brand_id_idx').on('shipments').columns(['brand_id', 'id']).execute();
      await db.schema
        .createIndex('shipments_created_at_idx')
        .on('shipments')
        .columns(['brand_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('shipments_status_idx')
        .on('shipments')
        .columns(['brand_id', 'status', 'id'])
        .execute();
      await db.schema.createIndex('shipments_order_idx').on('shipments').columns(['order_id', 'brand_id']).execute();
      await db.schema
        .createIndex('shipments_customer_idx')
        .on('shipments')
        .columns(['customer_id', 'brand_id'])
        .execute();

      await db.schema
        .createTable('shipment_lines')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('shipment_id', bigint, (c) => c.notNull().references('shipments.id'))
        .addColumn('order_line_id', bigint, (c) => c.notNull().references('order_lines.id'))
        .addColumn('variant_id', bigint, (c) => c.notNull().references('variants.id'))
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('ean', 'text')
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('delivered_quantity', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('shipment_lines_shipment_idx')
        .on('shipment_lines')
        .columns(['shipment_id', 'brand_id', 'id'])
        .execute();
      await db.schema
        .createIndex('shipment_lines_variant_idx')
        .on('shipment_lines')
        .columns(['variant_id', 'brand_id'])
        .execute();

      await db.schema
        .createTable('invoices')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('invoice_number', bigint, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('order_id', bigint, (c) => c.references('orders.id'))
        .addColumn('shipment_id', bigint, (c) => c.references('shipments.id'))
        .addColumn('customer_id', bigint, (c) => c.notNull().references('customers.id'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('vat_rate_basis_points', 'integer', (c) => c.notNull())
        .addColumn('prices_include_vat', 'integer', (c) => c.notNull())
        .addColumn('net_total', bigint, (c) => c.notNull())
        .addColumn('vat_total', bigint, (c) => c.notNull())
        .addColumn('total', bigint, (c) => c.notNull())
        .addColumn('inventory_regulated', 'integer', (c) => c.notNull())
        .addColumn('booked_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('invoices_number_uq', ['brand_id', 'invoice_number'])
        .execute();
      await db.schema.createIndex('invoices_brand_id_idx').on('invoices').columns(['brand_id', 'id']).execute();
      await db.schema
        .createIndex('invoices_updated_at_idx')
        .on('invoices')
        .columns(['brand_id', 'updated_at', 'id'])
        .execute();
      await db.schema.createIndex('invoices_status_idx').on('invoices').columns(['brand_id', 'status', 'id']).execute();
      await db.schema.createIndex('invoices_order_idx').on('invoices').columns(['order_id', 'brand_id']).execute();
      await db.schema
        .createIndex('invoices_customer_idx')
        .on('invoices')
        .columns(['customer_id', 'brand_id'])
        .execute();

      await financialLineColumns(
        db.schema
          .createTable('invoice_lines')
          .addColumn('id', bigint, (c) => c.primaryKey())
          .addColumn('brand_id', bigint, (c) => c.notNull())
          .addColumn('invoice_id', bigint, (c) => c.notNull().references('invoices.id')),
      ).execute();
      await db.schema
        .createIndex('invoice_lines_invoice_idx')
        .on('invoice_lines')
        .columns(['invoice_id', 'brand_id', 'id'])
        .execute();
      await db.schema
        .createIndex('invoice_lines_variant_idx')
        .on('invoice_lines')
        .columns(['variant_id', 'brand_id'])
        .execute();

      await db.schema
        .createTable('credit_notes')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('credit_note_number', bigint, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('order_id', bigint, (c) => c.references('orders.id'))
        .addColumn('invoice_id', bigint, (c) => c.references('invoices.id'))
        // Returns arrive with a later module; the reference is kept without a foreign key until then.
        .addColumn('return_id', bigint)
        .addColumn('customer_id', bigint, (c) => c.notNull().references('customers.id'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('vat_rate_basis_points', 'integer', (c) => c.notNull())
        .addColumn('prices_include_vat', 'integer', (c) => c.notNull())
        .addColumn('net_total', bigint, (c) => c.notNull())
        .addColumn('vat_total', bigint, (c) => c.notNull())
        .addColumn('total', bigint, (c) => c.notNull())
        .addColumn('booked_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('credit_notes_number_uq', ['brand_id', 'credit_note_number'])
        .execute();
      await db.schema.createIndex('credit_notes_brand_id_idx').on('credit_notes').columns(['brand_id', 'id']).execute();
      await db.schema
        .createIndex('credit_notes_status_idx')
        .on('credit_notes')
        .columns(['brand_id', 'status', 'id'])
        .execute();
      await db.schema
        .createIndex('credit_notes_invoice_idx')
        .on('credit_notes')
        .columns(['invoice_id', 'brand_id'])
        .execute();
      await db.schema
        .createIndex('credit_notes_return_idx')
        .on('credit_notes')
        .columns(['return_id', 'brand_id'])
        .execute();
      await db.schema
        .createIndex('credit_notes_customer_idx')
        .on('credit_notes')
        .columns(['customer_id', 'brand_id'])
        .execute();

      await financialLineColumns(
        db.schema
          .createTable('credit_note_lines')
          .addColumn('id', bigint, (c) => c.primaryKey())
          .addColumn('brand_id', bigint, (c) => c.notNull())
          .addColumn('credit_note_id', bigint, (c) => c.notNull().references('credit_notes.id')),
      ).execute();
      await db.schema
        .createIndex('credit_note_lines_credit_note_idx')
        .on('credit_note_lines')
        .columns(['credit_note_id', 'brand_id', 'id'])
        .execute();
      await db.schema
        .createIndex('credit_note_lines_variant_idx')
        .on('credit_note_lines')
        .columns(['variant_id', 'brand_id'])
        .execute();

      await db.schema
        .createTable('accounting_entries')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('entry_number', bigint, (c) => c.notNull())
        .addColumn('document_type', 'text', (c) => c.notNull())
        .addColumn('document_id', bigint, (c) => c.notNull())
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('lines', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('accounting_entries_number_uq', ['brand_id', 'entry_number'])
        .execute();
      await db.schema
        .createIndex('accounting_entries_brand_id_idx')
        .on('accounting_entries')
        .columns(['brand_id', 'id'])
        .execute();
      await db.schema
        .createIndex('accounting_entries_document_idx')
        .on('accounting_entries')
        .columns(['brand_id', 'document_type', 'document_id'])
        .execute();

      // The export GETs ask "is there a mark of this system at or before T" per candidate row: one
      // probe of this key each (the NOT EXISTS of listForExport).
      await db.schema
        .createTable('document_exports')
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('document_type', 'text', (c) => c.notNull())
        .addColumn('document_id', bigint, (c) => c.notNull())
        .addColumn('system_id', 'text', (c) => c.notNull())
        .addColumn('exported_at', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addPrimaryKeyConstraint('document_exports_pk', ['brand_id', 'document_type', 'document_id', 'system_id'])
        .execute();

      await db.schema
        .createTable('timeline_events')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('document_type', 'text', (c) => c.notNull())
        .addColumn('document_id', bigint, (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('system_id', 'text')
        .addColumn('user_id', bigint)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('timeline_events_document_idx')
        .on('timeline_events')
        .columns(['brand_id', 'document_type', 'document_id', 'created_at', 'id'])
        .execute();
    },
    async down() {
      throw new Error('The orders migration cannot be undone');
    },
  };
}
