// One variant as `GET /v10/variants/{id}` shows it, read with the caller's repositories: the read
// itself and the writes of `/v10` that answer with the variant they wrote.
import { validateListQuery } from '../listing/validate-list-query';
import { DomainError } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { variantListDefinition } from './catalog.list-definitions';
import { VariantRef } from './catalog.ports';
import { VariantRelations, loadVariantRelations } from './catalog-relations';

/**
 * What `getVariant` returns: the variant, the includes it was read with and the related records
 * those includes ask for.
 */
export interface VariantDetail {
  variant: VariantRef;
  includes: string[];
  relations: VariantRelations;
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
