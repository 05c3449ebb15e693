import { DomainError, ViolationList } from '../shared/errors';
import { NewStockMovement, StockBalance, StockReason } from '../inventory/inventory.entities';
import { InventoryChangeInput } from './product-sync.input';

/**
 * The stock part of a product sync. `quantity` sets in stock at a location (the movement is the
 * difference to what is there), `adjustment` adds to it; the changes of one variant apply in the
 * order sent, and in stock may never end below 0. A change that moves nothing writes no ledger row.
 */

/** Where a change goes: a named location, or the brand's default location (`null`, created on first use). */
export type LocationRef = number | null;

/** One planned movement, for a variant known by SKU until new variants have their ids. */
export interface PlannedStockChange {
  sku: string;
  location: LocationRef;
  delta: number;
  reason: Extract<StockReason, 'sync_quantity' | 'sync_adjustment'>;
  note: string | null;
}

/** What in stock must be once the movements are applied, per (SKU, location). */
interface ExpectedBalance {
  sku: string;
  location: LocationRef;
  inStock: number;
  /** Set by a `quantity`: the stock must be exactly `inStock`; otherwise only at least 0. */
  exact: boolean;
}

const keyOf = (sku: string, location: LocationRef) => `${sku}\u0000${location ?? 'default'}`;

/** Plans the stock changes of a whole request against the balances read in the same transaction. */
export class StockPlan {
  readonly changes: PlannedStockChange[] = [];
  private readonly expected = new Map<string, ExpectedBalance>();

  /**
   * @param balances the stored balances of the request's existing variants (by variant id)
   * @param defaultLocationId the brand's default location, when it exists already
   */
  private readonly stored: Map<string, number>;

  constructor(
    balances: StockBalance[],
    private readonly defaultLocationId: number | null,
  ) {
    this.stored = new Map(balances.map((b) => [`${b.variantId}:${b.locationId}`, b.inStock]));
  }

  /**
   * Plans one variant's changes; `variantId` is null for a variant the request creates.
   * `locations[k]` is the resolved location of `changes[k]` (null: the default location).
   */
  add(
    sku: string,
    variantId: number | null,
    changes: InventoryChangeInput[],
    locations: LocationRef[],
    pointer: string,
    violations: ViolationList,
  ): void {
    changes.forEach((change, k) => {
      // The default location named by id and left out are one and the same balance.
      const location = locations[k] === this.defaultLocationId ? null : (locations[k] ?? null);
      const key = keyOf(sku, location);
      const running = this.expected.get(key) ?? {
        sku,
        location,
        inStock: this.storedInStock(variantId, location),
        exact: false,
      };
      const note = change.text ?? null;
      if (change.quantity !== undefined && change.quantity !== null) {
        const delta = change.quantity - running.inStock;
        if (delta !== 0) this.changes.push({ sku, location, delta, reason: 'sync_quantity', note });
        this.expected.set(key, { ...running, inStock: change.quantity, exact: true });
      } else if (change.adjustment !== undefined && change.adjustment !== null) {
        const inStock = running.inStock + change.adjustment;
        if (inStock < 0) {
          violations.add(
            `${pointer}/${k}/adjustment`,
            `would take the stock below 0 (in stock ${running.inStock}, adjustment ${change.adjustment})`,
          );
        }
        if (change.adjustment !== 0)
          this.changes.push({ sku, location, delta: change.adjustment, reason: 'sync_adjustment', note });
        this.expected.set(key, { ...running, inStock });
      }
    });
  }

  private storedInStock(variantId: number | null, location: LocationRef): number {
    if (variantId === null) return 0;
    const locationId = location ?? this.defaultLocationId;
    if (locationId === null) return 0;
    return this.stored.get(`${variantId}:${locationId}`) ?? 0;
  }

  get isEmpty(): boolean {
    return this.changes.length === 0;
  }

  /** The ledger rows to apply, once every SKU has its variant id and the default location exists. */
  movements(
    brandId: number,
    userId: number | null,
    variantIdOf: (sku: string) => number,
    defaultLocationId: () => number,
  ): NewStockMovement[] {
    return this.changes.map((change) => ({
      brandId,
      variantId: variantIdOf(change.sku),
      locationId: change.location ?? defaultLocationId(),
      inStockDelta: change.delta,
      reservedDelta: 0,
      reason: change.reason,
      note: change.note,
      documentType: null,
      documentId: null,
      userId,
    }));
  }

  /**
   * Compares the balances `apply` returned with the plan. They differ only when stock moved
   * between our read and our write (another transaction regulated an order meanwhile); the
   * request then fails as a conflict instead of setting a quantity other than the one sent.
   */
  verify(after: StockBalance[], variantIdOf: (sku: string) => number, defaultLocationId: () => number): void {
    const balances = new Map(after.map((b) => [`${b.variantId}:${b.locationId}`, b]));
    for (const expected of this.expected.values()) {
      const balance = balances.get(`${variantIdOf(expected.sku)}:${expected.location ?? defaultLocationId()}`);
      if (!balance) continue;
      if (expected.exact ? balance.inStock !== expected.inStock : balance.inStock < 0) {
        throw new DomainError(
          'concurrency_conflict',
          `the stock of ${expected.sku} changed while the sync ran; retry the request`,
        );
      }
    }
  }
}
