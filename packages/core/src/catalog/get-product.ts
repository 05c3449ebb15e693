import { UnitOfWork } from '../shared/unit-of-work.ports';
import { ProductReadRepositories } from './catalog-relations';
import { ProductDetail, productDetailIncludes, readProductDetail } from './product-detail';

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
