import { validateListQuery } from '../listing/validate-list-query';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { variantListDefinition } from './catalog.list-definitions';
import { VariantRef } from './catalog.ports';
import { VariantRelations, loadVariantRelations } from './list-variants';

/**
 * What `getVariant` returns: the variant, the includes it was read with and the related records
 * those includes ask for.
 */
export interface VariantDetail {
  variant: VariantRef;
  includes: string[];
  relations: VariantRelations;
}

/**
 * One variant of the brand (`GET /v10/variants/{id}`) with the includes of the variant list.
 * A variant of another brand is `not_found`, exactly like a missing one.
 *
 * @example
 * const { variant, relations } = await getVariant({ uow }, { brandId, id: 7, includes: ['prices'] });
 */
export async function getVariant(
  deps: { uow: UnitOfWork<Pick<Repositories, 'costPriceSets' | 'products' | 'stock'>> },
  input: { brandId: number; id: number; includes?: unknown },
): Promise<VariantDetail> {
  const { includes } = validateListQuery(variantListDefinition, { includes: input.includes });
  return deps.uow.read(async (repos) => {
    const [variant] = await repos.products.findVariantsByIds(input.brandId, [input.id]);
    if (!variant || variant.variant.brandId !== input.brandId) throw DomainError.notFound('variant', input.id);
    const relations = await loadVariantRelations(repos, input.brandId, [variant], includes);
    return { variant, includes, relations };
  });
}
