import { sql } from 'kysely';
import { Executor } from './executor';

/** A table whose rows refer to a customer or supplier and so forbid deleting it. */
export interface DependentTable {
  table: string;
  column: string;
  /** How the refusal names this data, e.g. "orders". */
  label: string;
}

/**
 * Tables that refer to customers / suppliers / variants / products. Each later module that adds such a table adds it
 * here (the foreign keys stay as a backstop, translated to `has_dependents`).
 */
export const CUSTOMER_DEPENDENTS: DependentTable[] = [
  { table: 'orders', column: 'customer_id', label: 'orders' },
  { table: 'shipments', column: 'customer_id', label: 'shipments' },
  { table: 'invoices', column: 'customer_id', label: 'invoices' },
  { table: 'credit_notes', column: 'customer_id', label: 'credit notes' },
  { table: 'returns', column: 'customer_id', label: 'returns' },
];
export const SUPPLIER_DEPENDENTS: DependentTable[] = [
  { table: 'product_suppliers', column: 'supplier_id', label: 'products' },
  { table: 'production_orders', column: 'supplier_id', label: 'production orders' },
];
/**
 * Tables whose rows (order lines, invoice lines, …) refer to a variant by `variant_id` and so
 * forbid deleting it or its product. Prices, drop links, images, balances and the stock ledger
 * are not dependents: they belong to the variant and go with it.
 */
export const VARIANT_DEPENDENTS: DependentTable[] = [
  { table: 'order_lines', column: 'variant_id', label: 'orders' },
  { table: 'shipment_lines', column: 'variant_id', label: 'shipments' },
  { table: 'invoice_lines', column: 'variant_id', label: 'invoices' },
  { table: 'credit_note_lines', column: 'variant_id', label: 'credit notes' },
  { table: 'return_lines', column: 'variant_id', label: 'returns' },
  { table: 'production_order_lines', column: 'variant_id', label: 'production orders' },
  { table: 'delivery_note_lines', column: 'variant_id', label: 'delivery notes' },
];
/** Tables whose rows refer to a product itself by `product_id` (beyond its own children). */
export const PRODUCT_DEPENDENTS: DependentTable[] = [];

/** Labels of the dependent tables that hold at least one row referring to `id`. */
export async function findDependents(
  { db }: Executor,
  dependents: DependentTable[],
  brandId: number,
  id: number,
): Promise<string[]> {
  const found: string[] = [];
  for (const d of dependents) {
    const row = await sql<{
      one: number;
    }>`select 1 as one from ${sql.table(d.table)} where brand_id = ${brandId} and ${sql.ref(d.column)} = ${id} limit 1`.execute(
      db,
    );
    if (row.rows.length > 0) found.push(d.label);
  }
  return found;
}
