import { DomainError } from '../../shared/errors';
import { Repositories, UnitOfWork } from '../../shared/unit-of-work.ports';
import { findProduct } from './legacy-product.helpers';

/**
 * `DELETE /api/products/{id}`: deletes the product with its variants, prices and stock, but only
 * while no orders (or other documents) refer to it; otherwise `has_dependents`.
 */
export async function deleteLegacyProduct(
  deps: { uow: UnitOfWork<Pick<Repositories, 'products'>> },
  input: { brandId: number; id: number },
): Promise<void> {
  await deps.uow.run(async (tx) => {
    const { product } = await findProduct(tx, input.brandId, input.id);
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
  });
}
