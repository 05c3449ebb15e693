/**
 * Row types of production orders and their delivery notes (each with lines). Conventions as in
 * orders.tables.ts: timestamps ISO-8601 UTC text, money in minor units (bigint), structures
 * (meta, attributes, the sales order ids) JSON text; lines are never deleted.
 */

export interface ProductionOrdersTable {
  id: number;
  brand_id: number;
  production_order_number: number;
  status: string;
  supplier_id: number;
  supplier_number: string;
  currency: string;
  expected_delivery: string | null;
  notes: string | null;
  /** JSON object. */
  production_order_meta: string;
  /** JSON array of order ids. */
  sales_order_ids: string;
  approved_at: string | null;
  closed_at: string | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

/** Catalog copies shared by production order and delivery note lines. */
interface ProductionLineCopies {
  variant_id: number;
  sku: string;
  ean: string | null;
  item_number: string;
  product_name: string;
  /** JSON object. */
  attributes: string;
  country_of_origin: string | null;
  composition: string | null;
  hs_tariff_code: string | null;
  expected_quantity: number;
  received_quantity: number;
}

export interface ProductionOrderLinesTable extends ProductionLineCopies {
  id: number;
  brand_id: number;
  production_order_id: number;
  product_id: number;
  quantity: number;
  unit_cost: number | null;
}

export interface DeliveryNotesTable {
  id: number;
  brand_id: number;
  delivery_note_number: number;
  production_order_id: number;
  production_order_number: number;
  supplier_id: number;
  status: string;
  currency: string;
  expected_delivery: string | null;
  notes: string | null;
  /** JSON object. */
  meta: string;
  received_at: string | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryNoteLinesTable extends ProductionLineCopies {
  id: number;
  brand_id: number;
  delivery_note_id: number;
  production_order_line_id: number;
}

declare module '../database' {
  /** The production tables. */
  interface Database {
    production_orders: ProductionOrdersTable;
    production_order_lines: ProductionOrderLinesTable;
    delivery_notes: DeliveryNotesTable;
    delivery_note_lines: DeliveryNoteLinesTable;
  }
}
