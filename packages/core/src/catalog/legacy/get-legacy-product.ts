import { RawListQuery } from '../../listing/list-query';
import { UnitOfWork } from '../../shared/unit-of-work.ports';
import { legacyProductListDefinition } from '../catalog.list-definitions';
import { findProduct } from './legacy-product-rules';
import { LegacyProductReadRepositories, LegacyProductView, loadLegacyProductRelations } from './legacy-product-view';
import { validateIncludes } from './legacy-list-request';

/**
 * `GET /api/products/{id}`: one product of the brand in the older form, with its variants and
 * the includes of the product list (`categories`, `collection`, `subbrand`, `tags`, `variants.inventory`).
 */
export async function getLegacyProduct(
  deps: { uow: UnitOfWork<LegacyProductReadRepositories> },
  input: { brandId: number; id: number; includes?: RawListQuery['includes'] },
): Promise<LegacyProductView> {
  const includes = validateIncludes(legacyProductListDefinition, input.includes);
  return deps.uow.read(async (repos) => {
    const aggregate = await findProduct(repos, input.brandId, input.id);
    return { aggregate, relations: await loadLegacyProductRelations(repos, input.brandId, [aggregate], includes) };
  });
}
