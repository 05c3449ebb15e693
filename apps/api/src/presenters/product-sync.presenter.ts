import { ProductSyncOutcome } from '@brand/core';
import { Static, Type, arrayOf, string } from '../http/wire-schema';
import { syncAction, syncedId } from './sync-outcome.presenter';

/** One variant line of a product sync answer. */
export const VariantSyncOutcomeSchema = Type.Object({ sku: string(), id: syncedId, action: syncAction });
export type VariantSyncOutcomeWire = Static<typeof VariantSyncOutcomeSchema>;

/** One product line of a product sync answer: what happened to the product and to each variant it named. */
export const ProductSyncOutcomeSchema = Type.Object({
  item_number: string(),
  id: syncedId,
  action: syncAction,
  variants: arrayOf(
    VariantSyncOutcomeSchema,
    'Each variant the item named, in request order (for a deleted product: the variants it had)',
  ),
});
export type ProductSyncOutcomeWire = Static<typeof ProductSyncOutcomeSchema>;

export function presentProductSyncOutcome(outcome: ProductSyncOutcome): ProductSyncOutcomeWire {
  return {
    item_number: outcome.itemNumber,
    id: outcome.id,
    action: outcome.action,
    variants: outcome.variants.map((variant) => ({ sku: variant.sku, id: variant.id, action: variant.action })),
  };
}
