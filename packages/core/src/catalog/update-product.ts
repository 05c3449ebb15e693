import { DomainError } from '../shared/errors';
import { ProductDetail, productDetailIncludes, readProductDetail } from './product-detail';
import { applyProductSyncItems } from './product-sync-apply';
import { FetchedSyncImages } from './product-sync-images';
import { ProductSyncViolations } from './product-sync-rules';
import { ProductChanges, ProductWriteDeps, changedConcurrently, syncItemOf } from './product-writes';

/**
 * `PATCH /v10/products/{id}`: changes a product's own fields, its categories, suppliers and
 * translations, by the rules and the merge of the product sync (a one-item sync under the
 * product's item number): fields not sent keep their value, `meta` merges, `null` clears.
 * Variants are changed through their own resource (`updateVariant`). The item number may be sent
 * only unchanged. A product of another brand is `not_found`, like a missing one. Announces
 * `product.updated` only when something changed. Answers with the product as
 * `GET /v10/products/{id}` shows it with `includes`, read in the same transaction.
 *
 * @example
 * await updateProduct(deps, { brandId: 1, id: 7, changes: { name: 'Tee, organic', meta: { fabric: 'cotton' } } });
 */
export async function updateProduct(
  deps: ProductWriteDeps,
  input: { brandId: number; userId?: number | null; id: number; changes: ProductChanges; includes?: unknown },
): Promise<ProductDetail> {
  const { brandId, id, changes } = input;
  const includes = productDetailIncludes(input.includes);
  return deps.uow.run(async (tx) => {
    const [current] = await tx.products.findByIds(brandId, [id]);
    if (!current || current.product.brandId !== brandId) throw DomainError.notFound('product', id);
    const { itemNumber } = current.product;
    const violations = ProductSyncViolations.forOneProduct();
    if (changes.itemNumber !== undefined && changes.itemNumber !== itemNumber) {
      violations.add(
        '/products/0/item_number',
        `cannot be changed: it is the product's key in the product sync (${JSON.stringify(itemNumber)})`,
      );
    }
    const item = syncItemOf(changes, itemNumber);
    await applyProductSyncItems(tx, deps.clock, {
      brandId,
      userId: input.userId ?? null,
      items: [item],
      // Images belong to variants; product fields name none.
      fetched: FetchedSyncImages.none(),
      violations,
      checkStored: (stored) => {
        if (stored.get(itemNumber)?.product.id !== id) throw changedConcurrently('product', id);
      },
    });
    return readProductDetail(tx, brandId, id, includes);
  });
}
