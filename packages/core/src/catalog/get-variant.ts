import { UnitOfWork } from '../shared/unit-of-work.ports';
import { VariantDetail, VariantReadRepositories, readVariantDetail, variantDetailIncludes } from './variant-detail';

/**
 * One variant of the brand (`GET /v10/variants/{id}`) with the includes of the variant list.
 * A variant of another brand is `not_found`, exactly like a missing one.
 *
 * @example
 * const { variant, relations } = await getVariant({ uow }, { brandId, id: 7, includes: ['prices'] });
 */
export async function getVariant(
  deps: { uow: UnitOfWork<VariantReadRepositories> },
  input: { brandId: number; id: number; includes?: unknown },
): Promise<VariantDetail> {
  const includes = variantDetailIncludes(input.includes);
  return deps.uow.read((repos) => readVariantDetail(repos, input.brandId, input.id, includes));
}
