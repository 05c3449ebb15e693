/** Row types of inventory locations, stock balances and the stock ledger. */

export interface InventoryLocationsTable {
  id: number;
  brand_id: number;
  name: string;
  /** 0/1; a partial unique index allows one default per brand. */
  is_default: number;
  created_at: string;
  updated_at: string;
}

/** One row per (variant, location); moved only by `in_stock = in_stock + delta` in SQL. */
export interface StockBalancesTable {
  id: number;
  brand_id: number;
  variant_id: number;
  location_id: number;
  in_stock: number;
  reserved: number;
  updated_at: string;
}

/** The ledger: every change of a balance, never updated. */
export interface StockMovementsTable {
  id: number;
  brand_id: number;
  variant_id: number;
  location_id: number;
  in_stock_delta: number;
  reserved_delta: number;
  reason: string;
  note: string | null;
  document_type: string | null;
  document_id: number | null;
  user_id: number | null;
  created_at: string;
}

declare module '../database' {
  /** The inventory tables. */
  interface Database {
    inventory_locations: InventoryLocationsTable;
    stock_balances: StockBalancesTable;
    stock_movements: StockMovementsTable;
  }
}
