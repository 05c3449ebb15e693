import { Repositories } from '../../shared/unit-of-work.ports';
import { DomainError, ViolationList } from '../../shared/errors';
import { Category } from '../catalog.entities';
import { LEGACY_ERROR_CODES, legacyError } from './legacy-error';

/** The category, or `not_found` (a category of another brand is the same as a missing one). */
export async function findCategory(
  repos: Pick<Repositories, 'categories'>,
  brandId: number,
  id: number,
): Promise<Category> {
  const [category] = await repos.categories.findByIds(brandId, [id]);
  if (!category) throw DomainError.notFound('category', id);
  return category;
}

/** Checks a category name: trimmed, not empty. */
export function checkCategoryName(name: string): string {
  const violations = new ViolationList();
  const trimmed = name.trim();
  if (trimmed === '') violations.add('/category/name', 'must not be empty');
  violations.throwIfAny();
  return trimmed;
}

/**
 * Refuses a name already used under the same parent (case-insensitively), other than by the
 * category being renamed itself: error 40001 of the older interface.
 */
export async function ensureNameFree(
  repos: Pick<Repositories, 'categories'>,
  brandId: number,
  parentId: number | null,
  name: string,
  self: number | null,
): Promise<void> {
  const taken = (await repos.categories.findByNames(brandId, [{ parentId, name }])).find(
    (c) => c.id !== self && c.parentId === parentId && c.name.toLowerCase() === name.toLowerCase(),
  );
  if (taken) {
    const where = parentId === null ? 'as a top category' : `under category ${parentId}`;
    throw legacyError('duplicate', LEGACY_ERROR_CODES.categoryExists, [
      {
        pointer: '/category/name',
        detail: `category.name: a category named ${JSON.stringify(taken.name)} already exists ${where} (id ${taken.id})`,
      },
    ]);
  }
}
