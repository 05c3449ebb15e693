import { recordEvents } from '../../events/record-events';
import { Clock } from '../../shared/clock.ports';
import { Repositories, UnitOfWork } from '../../shared/unit-of-work.ports';
import { storedProductForm } from '../product-events';
import { findCategory } from './legacy-category-rules';

/**
 * `DELETE /api/categories/{id}`: deletes the category and its subcategories; their products are
 * detached, never deleted. Each product detached shows other `category_ids` afterwards, so it is
 * announced (`product.updated`, in id order) in the same transaction; storage detaches it without
 * moving its `updated_at`, and the event carries it exactly so.
 */
export async function deleteCategory(
  deps: {
    uow: UnitOfWork<
      Pick<
        Repositories,
        'categories' | 'events' | 'ids' | 'products' | 'webhookDeliveries' | 'transaction' | 'webhookEndpoints'
      >
    >;
    clock: Clock;
  },
  input: { brandId: number; id: number },
): Promise<void> {
  await deps.uow.run(async (tx) => {
    const category = await findCategory(tx, input.brandId, input.id);
    const children = await tx.categories.findChildren(input.brandId, [category.id]);
    const deleted = new Set([category.id, ...children.map((c) => c.id)]);
    const detached = await tx.products.findByCategoryIds(input.brandId, [...deleted]);
    await tx.categories.delete(input.brandId, [...deleted]);
    await recordEvents(
      tx,
      input.brandId,
      deps.clock.now(),
      [...detached]
        .sort((a, b) => a.product.id - b.product.id)
        .map((aggregate) => ({
          type: 'product.updated' as const,
          object: storedProductForm({
            ...aggregate,
            product: {
              ...aggregate.product,
              categoryIds: aggregate.product.categoryIds.filter((id) => !deleted.has(id)),
            },
          }),
        })),
    );
  });
}
