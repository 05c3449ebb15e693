import { Clock } from '../../shared/clock.ports';
import { DomainError } from '../../shared/errors';
import { Repositories, UnitOfWork } from '../../shared/unit-of-work.ports';
import { Category } from '../catalog.entities';
import { checkCategoryName, ensureNameFree, findCategory } from './legacy-category-rules';

/**
 * `POST /api/categories` and `POST /api/categories/{parentId}/categories`: adds a top category,
 * or a subcategory when `parentId` is given. The parent must be a top category of the brand
 * (categories are two levels deep: a subcategory cannot have subcategories). A name already used
 * under the same parent, in any letter case, is refused with code 40001.
 */
export async function createCategory(
  deps: { uow: UnitOfWork<Pick<Repositories, 'categories' | 'ids'>>; clock: Clock },
  input: { brandId: number; name: string; parentId?: number | null },
): Promise<Category> {
  const name = checkCategoryName(input.name);
  const parentId = input.parentId ?? null;
  return deps.uow.run(async (tx) => {
    if (parentId !== null) {
      const parent = await findCategory(tx, input.brandId, parentId);
      if (parent.parentId !== null) {
        throw new DomainError(
          'validation_failed',
          `category ${parent.id} is a subcategory (of category ${parent.parentId}); subcategories cannot have subcategories`,
          { data: { parent_id: parent.id } },
        );
      }
    }
    await ensureNameFree(tx, input.brandId, parentId, name, null);
    const [id] = await tx.ids.next('categories');
    const now = deps.clock.now();
    const category: Category = { id: id!, brandId: input.brandId, parentId, name, createdAt: now, updatedAt: now };
    await tx.categories.insert(category);
    return category;
  });
}
