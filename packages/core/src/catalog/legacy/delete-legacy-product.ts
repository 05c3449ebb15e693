import { recordEvents } from '../../events/record-events';
import { Clock } from '../../shared/clock.ports';
import { DomainError } from '../../shared/errors';
import { Repositories, UnitOfWork } from '../../shared/unit-of-work.ports';
import { storedProductForm } from '../product-events';
import { findProduct } from './legacy-product-rules';

/**
 * `DELETE /api/products/{id}`: deletes the product with its variants, prices and stock, but only
 * while no orders (or other documents) refer to it; otherwise `has_dependents`. Announces
 * `product.deleted` in the same transaction with the whole product as stored just before (as
 * `GET /v10/products/{id}` showed it last): an integrator that keeps a copy learns which product
 * and which variants (SKUs) are gone. Its stock balances leave with it, without `inventory.changed`.
 */
export async function deleteLegacyProduct(
  deps: {
    uow: UnitOfWork<
      Pick<Repositories, 'events' | 'ids' | 'products' | 'webhookDeliveries' | 'transaction' | 'webhookEndpoints'>
    >;
    clock: Clock;
  },
  input: { brandId: number; id: number },
): Promise<void> {
  await deps.uow.run(async (tx) => {
    const aggregate = await findProduct(tx, input.brandId, input.id);
    const { product } = aggregate;
    const dependents = await tx.products.dependentsOfProduct(input.brandId, product.id);
    if (dependents.length > 0) {
      throw new DomainError(
        'has_dependents',
        `product ${product.itemNumber} cannot be deleted: it still has ${dependents.join(', ')}`,
        {
          data: { dependents },
        },
      );
    }
    await tx.products.deleteProduct(input.brandId, product.id);
    await recordEvents(tx, input.brandId, deps.clock.now(), [
      { type: 'product.deleted', object: storedProductForm(aggregate) },
    ]);
  });
}
