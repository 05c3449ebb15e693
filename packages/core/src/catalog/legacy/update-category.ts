import { Clock } from '../../shared/clock.ports';
import { Repositories, UnitOfWork } from '../../shared/unit-of-work.ports';
import { Category } from '../catalog.entities';
import { checkCategoryName, ensureNameFree, findCategory } from './legacy-category-rules';

/**
 * `PUT /api/categories/{id}`: renames a category (its parent stays). The new name must be free
 * under the same parent (code 40001); changing only the letter case of its own name is allowed.
 * An unchanged name keeps `updated_at`.
 */
export async function updateCategory(
  deps: { uow: UnitOfWork<Pick<Repositories, 'categories'>>; clock: Clock },
  input: { brandId: number; id: number; name: string },
): Promise<Category> {
  const name = checkCategoryName(input.name);
  return deps.uow.run(async (tx) => {
    const current = await findCategory(tx, input.brandId, input.id);
    if (current.name === name) return current;
    await ensureNameFree(tx, input.brandId, current.parentId, name, current.id);
    const next: Category = { ...current, name, updatedAt: deps.clock.now() };
    await tx.categories.update(next);
    return next;
  });
}
