/**
 * Row types of settings, order channels, orders, shipments, invoices, credit notes, accounting
 * entries and the document side tables (export marks, timeline). Booleans are 0/1, timestamps
 * ISO-8601 UTC text, money in minor units (bigint), rates and discounts in basis points, and
 * structures (addresses, meta, reservations, colli, accounting lines) JSON text, in both dialects.
 * Every table carries `brand_id`; lines are never deleted (an aggregate's save upserts them by id).
 */

export interface BrandSettingsTable {
  brand_id: number;
  invoicing: string;
  requires_drop: number;
  default_vat_rate_basis_points: number;
  ad_hoc_return_mode: string | null;
  /** JSON object of carrier code → URL template. */
  tracking_link_templates: string;
  updated_at: string | null;
}

export interface OrderChannelsTable {
  id: number;
  brand_id: number;
  /** Globally unique (the order creation route resolves the channel before the brand). */
  public_id: string;
  name: string;
  order_type: string;
  auto_approve: number;
  drop_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface OrdersTable {
  id: number;
  brand_id: number;
  order_number: number;
  status: string;
  order_type: string;
  order_channel_id: number;
  customer_id: number;
  customer_number: string;
  drop_id: number | null;
  currency: string;
  vat_rate_basis_points: number;
  prices_include_vat: number;
  email: string | null;
  telephone: string | null;
  reference: string | null;
  notes: string | null;
  /** JSON address or NULL. */
  invoice_address: string | null;
  /** JSON address or NULL. */
  delivery_address: string | null;
  /** JSON {code, dropPointId} or NULL. */
  shipping_code: string | null;
  shipping_cost: number | null;
  /** JSON {email, firstName, lastName} or NULL. */
  responsible_person: string | null;
  /** JSON object. */
  order_meta: string;
  net_total: number;
  vat_total: number;
  total: number;
  approved_at: string | null;
  cancelled_at: string | null;
  archived_at: string | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface OrderLinesTable {
  id: number;
  brand_id: number;
  order_id: number;
  variant_id: number;
  product_id: number;
  sku: string;
  ean: string | null;
  item_number: string;
  product_name: string;
  /** JSON object of attribute name → value. */
  attributes: string;
  country_of_origin: string | null;
  composition: string | null;
  hs_tariff_code: string | null;
  tracks_inventory: number;
  quantity: number;
  unit_price: number;
  discount_basis_points: number;
  total_price: number;
  /** JSON array of {locationId, quantity}. */
  reservations: string;
  shipped_quantity: number;
  delivered_quantity: number;
  invoiced_quantity: number;
  regulated_quantity: number;
}

export interface ShipmentsTable {
  id: number;
  brand_id: number;
  shipment_number: number;
  order_id: number;
  order_number: number;
  customer_id: number;
  status: string;
  shipping_cost: number | null;
  carrier: string | null;
  /** JSON array of colli. */
  colli: string;
  delivered_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ShipmentLinesTable {
  id: number;
  brand_id: number;
  shipment_id: number;
  order_line_id: number;
  variant_id: number;
  sku: string;
  ean: string | null;
  quantity: number;
  delivered_quantity: number;
}

export interface InvoicesTable {
  id: number;
  brand_id: number;
  invoice_number: number;
  status: string;
  order_id: number | null;
  shipment_id: number | null;
  customer_id: number;
  currency: string;
  vat_rate_basis_points: number;
  prices_include_vat: number;
  net_total: number;
  vat_total: number;
  total: number;
  inventory_regulated: number;
  booked_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Lines of invoices and credit notes (two tables of this shape, parent key `invoice_id` / `credit_note_id`). */
interface FinancialLineColumns {
  id: number;
  brand_id: number;
  kind: string;
  order_line_id: number | null;
  variant_id: number | null;
  sku: string | null;
  description: string;
  quantity: number;
  unit_price: number;
  discount_basis_points: number;
  total_price: number;
}

export interface InvoiceLinesTable extends FinancialLineColumns {
  invoice_id: number;
}

export interface CreditNotesTable {
  id: number;
  brand_id: number;
  credit_note_number: number;
  status: string;
  order_id: number | null;
  invoice_id: number | null;
  return_id: number | null;
  customer_id: number;
  currency: string;
  vat_rate_basis_points: number;
  prices_include_vat: number;
  net_total: number;
  vat_total: number;
  total: number;
  booked_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CreditNoteLinesTable extends FinancialLineColumns {
  credit_note_id: number;
}

export interface AccountingEntriesTable {
  id: number;
  brand_id: number;
  entry_number: number;
  document_type: string;
  document_id: number;
  /** YYYY-MM-DD. */
  date: string;
  currency: string;
  /** JSON array of {account, debit, credit}. */
  lines: string;
  created_at: string;
  updated_at: string;
}

/** One row per (brand, document type, document, system): the latest mark of that system. */
export interface DocumentExportsTable {
  brand_id: number;
  document_type: string;
  document_id: number;
  system_id: string;
  exported_at: string;
  note: string | null;
}

export interface TimelineEventsTable {
  id: number;
  brand_id: number;
  document_type: string;
  document_id: number;
  kind: string;
  note: string | null;
  system_id: string | null;
  user_id: number | null;
  created_at: string;
}

declare module '../database' {
  /** The orders-to-cash tables. */
  interface Database {
    brand_settings: BrandSettingsTable;
    order_channels: OrderChannelsTable;
    orders: OrdersTable;
    order_lines: OrderLinesTable;
    shipments: ShipmentsTable;
    shipment_lines: ShipmentLinesTable;
    invoices: InvoicesTable;
    invoice_lines: InvoiceLinesTable;
    credit_notes: CreditNotesTable;
    credit_note_lines: CreditNoteLinesTable;
    accounting_entries: AccountingEntriesTable;
    document_exports: DocumentExportsTable;
    timeline_events: TimelineEventsTable;
  }
}
