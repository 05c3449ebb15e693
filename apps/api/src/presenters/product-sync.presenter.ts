import { ProductSyncOutcome } from '@brand/core';

/** One variant line of a product sync answer. */
export interface VariantSyncOutcomeWire {
  sku: string;
  id: number | null;
  action: ProductSyncOutcome['action'];
}

/** One product line of a product sync answer: what happened to the product and to each variant it named. */
export interface ProductSyncOutcomeWire {
  item_number: string;
  id: number | null;
  action: ProductSyncOutcome['action'];
  variants: VariantSyncOutcomeWire[];
}

export function presentProductSyncOutcome(outcome: ProductSyncOutcome): ProductSyncOutcomeWire {
  return {
    item_number: outcome.itemNumber,
    id: outcome.id,
    action: outcome.action,
    variants: outcome.variants.map((variant) => ({ sku: variant.sku, id: variant.id, action: variant.action })),
  };
}
