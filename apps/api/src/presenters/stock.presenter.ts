import { AvailableStock, StockBalance } from '@brand/core';

/** Stock of a variant at one location, as variants show it (`includes[]=inventory`). */
export interface StockBalanceWire {
  inventory_location_id: number;
  in_stock: number;
  reserved: number;
  /** In stock minus reserved: what can still be sold. */
  available: number;
  updated_at: string;
}

export function presentStockBalance(balance: StockBalance): StockBalanceWire {
  return {
    inventory_location_id: balance.locationId,
    in_stock: balance.inStock,
    reserved: balance.reserved,
    available: balance.inStock - balance.reserved,
    updated_at: balance.updatedAt,
  };
}

/** One row of `GET /v10/inventory-available`: a variant at a location. */
export interface AvailableStockWire {
  /** The balance row's id; `starting_after` takes it. */
  id: number;
  variant_id: number;
  sku: string;
  ean: string | null;
  inventory_location_id: number;
  in_stock: number;
  available: number;
  updated_at: string;
}

export function presentAvailableStock(row: AvailableStock): AvailableStockWire {
  return {
    id: row.id,
    variant_id: row.variantId,
    sku: row.sku,
    ean: row.ean,
    inventory_location_id: row.locationId,
    in_stock: row.inStock,
    available: row.available,
    updated_at: row.updatedAt,
  };
}
