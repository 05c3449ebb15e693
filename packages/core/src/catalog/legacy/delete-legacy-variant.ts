import { recordEvents } from '../../events/record-events';
import { Clock } from '../../shared/clock.ports';
import { DomainError } from '../../shared/errors';
import { Repositories, UnitOfWork } from '../../shared/unit-of-work.ports';
import { ProductAggregate } from '../catalog.entities';
import { productAfterSave } from '../product-events';
import { findProduct, variantOf } from './legacy-product-rules';
import { LEGACY_ERROR_CODES, legacyError } from './legacy-error';

/**
 * `DELETE /api/products/{id}/variants/{variantId}`: deletes a variant with its prices and stock.
 * A product keeps at least one variant (1000005), and a variant that orders (or other
 * documents) refer to stays (`has_dependents`). The product's `updated_at` moves, and the
 * product is announced (`product.updated`, without the variant) in the same transaction.
 */
export async function deleteLegacyVariant(
  deps: {
    uow: UnitOfWork<
      Pick<Repositories, 'events' | 'ids' | 'products' | 'webhookDeliveries' | 'transaction' | 'webhookEndpoints'>
    >;
    clock: Clock;
  },
  input: { brandId: number; productId: number; variantId: number },
): Promise<void> {
  const { brandId } = input;
  await deps.uow.run(async (tx) => {
    const current = await findProduct(tx, brandId, input.productId);
    const { variant } = variantOf(current, input.variantId);
    if (current.variants.length === 1) {
      throw legacyError(
        'validation_failed',
        LEGACY_ERROR_CODES.lastVariant,
        `variant ${variant.sku} is the last variant of product ${current.product.itemNumber}; a product needs at least one variant (delete the product instead)`,
      );
    }
    const dependents = await tx.products.dependentsOfVariant(brandId, variant.id);
    if (dependents.length > 0) {
      throw new DomainError(
        'has_dependents',
        `variant ${variant.sku} cannot be deleted: it still has ${dependents.join(', ')}`,
        { data: { dependents } },
      );
    }
    await tx.products.deleteVariant(brandId, variant.id);
    const now = deps.clock.now();
    const saved: ProductAggregate = { ...current, product: { ...current.product, updatedAt: now }, variants: [] };
    await tx.products.saveAll(brandId, [saved]);
    await recordEvents(tx, brandId, now, [
      { type: 'product.updated', object: productAfterSave(current, saved, new Set([variant.id])) },
    ]);
  });
}
