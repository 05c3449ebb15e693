/** Tables whose integer ids come from the id generator. */
export type EntityKind =
  | 'brands'
  | 'users'
  | 'api_apps'
  | 'access_tokens'
  | 'request_logs'
  | 'customers'
  | 'customer_addresses'
  | 'customer_groups'
  | 'payment_terms'
  | 'suppliers'
  | 'supplier_addresses'
  | 'products'
  | 'variants'
  | 'categories'
  | 'collections'
  | 'subbrands'
  | 'drops'
  | 'cost_price_sets'
  | 'product_locales'
  | 'product_images'
  | 'inventory_locations'
  | 'stock_balances'
  | 'stock_movements'
  | 'order_channels'
  | 'orders'
  | 'order_lines'
  | 'shipments'
  | 'shipment_lines'
  | 'invoices'
  | 'invoice_lines'
  | 'credit_notes'
  | 'credit_note_lines'
  | 'accounting_entries'
  | 'timeline_events'
  | 'production_orders'
  | 'production_order_lines'
  | 'delivery_notes'
  | 'delivery_note_lines'
  | 'returns'
  | 'return_lines'
  | 'claim_causes'
  | 'return_portals'
  | 'alerts';

/**
 * Integer ids are handed out by the storage adapter inside the transaction (a Postgres sequence,
 * a counter row on SQLite), never by column defaults, so every dialect numbers alike.
 * @example const [id] = await tx.ids.next('customers');
 */
export interface IdGenerator {
  /** Returns `count` (default 1) fresh, strictly increasing ids for `kind`. */
  next(kind: EntityKind, count?: number): Promise<number[]>;
}

/** Per-brand document number series (order, shipment, invoice, credit note, RMA, production order, delivery note). */
export type DocumentKind =
  | 'order'
  | 'shipment'
  | 'invoice'
  | 'credit_note'
  | 'return'
  | 'production_order'
  | 'delivery_note'
  | 'accounting_entry';

/**
 * Gap-free per-brand document numbers. The adapter locks the brand's counter row for the rest of
 * the transaction, so concurrent transactions (or processes) never draw the same number and a
 * rolled-back transaction gives its number back.
 * @example const orderNumber = await tx.documentNumbers.next(brandId, 'order'); // 1001
 */
export interface DocumentNumberSequence {
  next(brandId: number, kind: DocumentKind): Promise<number>;
}
