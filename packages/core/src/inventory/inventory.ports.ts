import { ListQuery, ListRows } from '../listing/list-query';
import {
  AppliedStock,
  AvailableStock,
  InventoryLocation,
  NewStockMovement,
  StockBalance,
  StockMovement,
} from './inventory.entities';

/** A brand's inventory locations, including its default one. */
export interface InventoryLocationRepository {
  insert(location: InventoryLocation): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<InventoryLocation[]>;
  /** The brand's default location, or null before one was made. */
  findDefault(brandId: number): Promise<InventoryLocation | null>;
  list(brandId: number, query: ListQuery): Promise<ListRows<InventoryLocation>>;
}

/**
 * Stock balances and their ledger. `apply` writes the movements and moves the balances in the
 * same transaction (creating a zero balance first where none exists).
 */
export interface StockRepository {
  /** Balances of the given variants at every location (or only at `locationId`). */
  balances(brandId: number, variantIds: number[], locationId?: number): Promise<StockBalance[]>;
  /** Appends the movements to the ledger and adds their deltas to the balances; returns the new balances. */
  apply(brandId: number, movements: NewStockMovement[], at: string): Promise<StockBalance[]>;
  /**
   * `apply`, answering each touched balance with its variant's SKU and EAN as they stand (in the
   * same order, one per variant and location): what `inventory.changed` announces, read without
   * another round trip. Use cases call it through `applyStockMovements`.
   */
  applyWithVariants(brandId: number, movements: NewStockMovement[], at: string): Promise<AppliedStock[]>;
  /** Ledger rows of one variant, newest first. */
  movements(brandId: number, variantId: number, limit: number): Promise<StockMovement[]>;
  /** Rows of `GET /v10/inventory-available` (keyset pagination by `id` = balance row order). */
  listAvailable(brandId: number, query: ListQuery): Promise<ListRows<AvailableStock>>;
}

/** The inventory module's repositories; the declaration below adds them to `Repositories`. */
export interface InventoryRepositories {
  inventoryLocations: InventoryLocationRepository;
  stock: StockRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends InventoryRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The inventory module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    inventory_locations: true;
    stock_balances: true;
    stock_movements: true;
  }
}
