import { validateListQuery } from '../listing/validate-list-query';
import { DomainError } from '../shared/errors';
import { UnitOfWork } from '../shared/unit-of-work.ports';
import { ProductAggregate } from './catalog.entities';
import { productListDefinition } from './catalog.list-definitions';
import { CatalogRelations, ProductReadRepositories, loadProductRelations, withParentIncludes } from './list-products';

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

/**
 * One product of the brand (`GET /v10/products/{id}`) with the includes of the product list.
 * A product of another brand is `not_found`, exactly like a missing one; an unknown include is
 * `invalid_list_query`.
 *
 * @example
 * const { product, relations } = await getProduct({ uow }, { brandId, id: 42, includes: ['variants.prices'] });
 */
export async function getProduct(
  deps: { uow: UnitOfWork<ProductReadRepositories> },
  input: { brandId: number; id: number; includes?: unknown },
): Promise<ProductDetail> {
  const includes = productDetailIncludes(input.includes);
  return deps.uow.read((repos) => readProductDetail(repos, input.brandId, input.id, includes));
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
