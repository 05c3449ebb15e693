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
  deps: { uow: UnitOfWork<VariantReadRepositories> },
  input: { brandId: number; id: number; includes?: unknown },
): Promise<VariantDetail> {
  const includes = variantDetailIncludes(input.includes);
  return deps.uow.read((repos) => readVariantDetail(repos, input.brandId, input.id, includes));
}

/** What a variant detail reads. */
export type VariantReadRepositories = Pick<Repositories, 'costPriceSets' | 'products' | 'stock'>;

/** The checked includes of a variant detail. */
export function variantDetailIncludes(includes: unknown): string[] {
  return validateListQuery(variantListDefinition, { includes }).includes;
}

/**
 * Reads one variant with the relations of its (checked) includes, with the caller's repositories:
 * a write of `/v10` answers with the variant as `GET /v10/variants/{id}` shows it, read in the
 * write's own transaction.
 */
export async function readVariantDetail(
  repos: VariantReadRepositories,
  brandId: number,
  id: number,
  includes: string[],
): Promise<VariantDetail> {
  const [variant] = await repos.products.findVariantsByIds(brandId, [id]);
  if (!variant || variant.variant.brandId !== brandId) throw DomainError.notFound('variant', id);
  const relations = await loadVariantRelations(repos, brandId, [variant], includes);
  return { variant, includes, relations };
}
