import { AvailableStock, StockBalance } from '@brand/core';
import { Static, Type, component, dateTime, integer, nullable, string } from '../http/wire-schema';

/** Stock of a variant at one location, as variants show it (`includes[]=inventory`). */
export const StockBalanceSchema = component(
  'StockBalance',
  Type.Object({
    inventory_location_id: integer(),
    in_stock: integer('Pieces physically there'),
    reserved: integer('Pieces held by open orders'),
    available: integer('in_stock − reserved: pieces that can still be sold'),
    updated_at: dateTime(),
  }),
);
export type StockBalanceWire = Static<typeof StockBalanceSchema>;

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
export const AvailableStockSchema = component(
  'AvailableStock',
  Type.Object({
    id: integer('The stock row id; pass the last one as starting_after'),
    variant_id: integer(),
    sku: string(),
    ean: nullable(string()),
    inventory_location_id: integer(),
    in_stock: integer(),
    available: integer('in_stock minus reserved pieces'),
    updated_at: dateTime(),
  }),
);
export type AvailableStockWire = Static<typeof AvailableStockSchema>;

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
