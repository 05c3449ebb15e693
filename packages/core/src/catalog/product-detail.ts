// One product as `GET /v10/products/{id}` shows it, read with the caller's repositories: the read
// itself and the writes of `/v10` that answer with the product they wrote.
import { validateListQuery } from '../listing/validate-list-query';
import { DomainError } from '../shared/errors';
import { ProductAggregate } from './catalog.entities';
import { productListDefinition } from './catalog.list-definitions';
import {
  CatalogRelations,
  ProductReadRepositories,
  loadProductRelations,
  withParentIncludes,
} from './catalog-relations';

/**
 * What `getProduct` returns: the product, the includes it was read with and the related records
 * those includes ask for.
 */
export interface ProductDetail {
  product: ProductAggregate;
  /** The validated includes (with `variants` whenever a `variants.*` include was asked). */
  includes: string[];
  relations: CatalogRelations;
}

/** The checked includes of a product detail (with `variants` whenever a `variants.*` include was asked). */
export function productDetailIncludes(includes: unknown): string[] {
  return withParentIncludes(validateListQuery(productListDefinition, { includes }).includes);
}

/**
 * Reads one product with the relations of its (checked) includes, with the caller's repositories:
 * a write of `/v10` answers with the product as `GET /v10/products/{id}` shows it, read in the
 * write's own transaction.
 */
export async function readProductDetail(
  repos: ProductReadRepositories,
  brandId: number,
  id: number,
  includes: string[],
): Promise<ProductDetail> {
  const [product] = await repos.products.findByIds(brandId, [id]);
  if (!product || product.product.brandId !== brandId) throw DomainError.notFound('product', id);
  const relations = await loadProductRelations(repos, brandId, [product], includes);
  return { product, includes, relations };
}
