import { Repositories, UnitOfWork } from '../../shared/unit-of-work.ports';
import { findCategory } from './legacy-category.helpers';

/**
 * `DELETE /api/categories/{id}`: deletes the category and its subcategories; their products are
 * detached, never deleted.
 */
export async function deleteCategory(
  deps: { uow: UnitOfWork<Pick<Repositories, 'categories'>> },
  input: { brandId: number; id: number },
): Promise<void> {
  await deps.uow.run(async (tx) => {
    const category = await findCategory(tx, input.brandId, input.id);
    const children = await tx.categories.findChildren(input.brandId, [category.id]);
    await tx.categories.delete(input.brandId, [category.id, ...children.map((c) => c.id)]);
  });
}
