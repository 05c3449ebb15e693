/**
 * Stock per variant and location. In stock is what is physically there; reserved is what open
 * orders hold; available = in stock − reserved. Every change is a ledger row (movement) and the
 * balance row is updated in the same transaction.
 */

/** A place a brand keeps stock (a warehouse); one of them is the brand's default. */
export interface InventoryLocation {
  id: number;
  brandId: number;
  name: string;
  /** Where stock goes when no location is named; every brand has exactly one. */
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * The stock of one variant at one location: pieces in stock and pieces reserved by open orders
 * (available is the difference).
 */
export interface StockBalance {
  /** Stable id of the (variant, location) balance row; inventory lists page by it. */
  id: number;
  brandId: number;
  variantId: number;
  locationId: number;
  inStock: number;
  reserved: number;
  updatedAt: string;
}

/**
 * A balance as `StockRepository.applyWithVariants` leaves it, with its variant's SKU and EAN:
 * everything a row of `GET /v10/inventory-available` shows (`inventory.changed` announces it).
 */
export interface AppliedStock extends StockBalance {
  sku: string;
  ean: string | null;
}

/** Why stock moved. */
export type StockReason =
  | 'sync_quantity'
  | 'sync_adjustment'
  | 'api_quantity'
  | 'order_reserved'
  | 'order_released'
  | 'order_regulated'
  | 'invoice_regulated'
  | 'return_received'
  | 'production_received';

/** One change of a balance, as recorded in the ledger. */
export interface StockMovement {
  id: number;
  brandId: number;
  variantId: number;
  locationId: number;
  inStockDelta: number;
  reservedDelta: number;
  reason: StockReason;
  /** Free text (the sync's `text`). */
  note: string | null;
  /** The document that caused it (order, invoice, …), if any. */
  documentType: string | null;
  documentId: number | null;
  userId: number | null;
  createdAt: string;
}

/** A movement to apply; ids and timestamps are set by the repository call. */
export type NewStockMovement = Omit<StockMovement, 'id' | 'createdAt'>;

/** One row of `GET /v10/inventory-available`. */
export interface AvailableStock {
  /** The balance row's id (the list's keyset and `starting_after`). */
  id: number;
  variantId: number;
  sku: string;
  ean: string | null;
  locationId: number;
  inStock: number;
  available: number;
  updatedAt: string;
}
