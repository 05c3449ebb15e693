import { DomainError } from '../shared/errors';
import { VariantDetail, readVariantDetail, variantDetailIncludes } from './variant-detail';
import { applyProductSyncItems } from './product-sync-apply';
import { fetchSyncImages } from './product-sync-images';
import { ProductSyncViolations, storedVariant } from './product-sync-rules';
import { ProductWriteDeps, VariantChanges, changedConcurrently, syncVariantChangesOf } from './product-writes';

/**
 * `PATCH /v10/variants/{id}`: changes one variant by the rules and the merge of the product sync
 * (a one-item sync naming the variant's product and its SKU): fields not sent keep their value,
 * `attributes`, `meta` and `prices` merge, `null` clears an override; images sent are added as
 * the sync adds them. The SKU may be sent only unchanged. A variant of another brand is
 * `not_found`, like a missing one. Announces `product.updated` (with the whole product) only when
 * something of the variant changed. Answers with the variant as `GET /v10/variants/{id}` shows it
 * with `includes`, read in the same transaction.
 *
 * @example
 * await updateVariant(deps, { brandId: 1, id: 31, changes: { ean: '4006381333931', prices: { EUR: { salesPrice: 14 } } } });
 */
export async function updateVariant(
  deps: ProductWriteDeps,
  input: { brandId: number; userId?: number | null; id: number; changes: VariantChanges; includes?: unknown },
): Promise<VariantDetail> {
  const { brandId, id, changes } = input;
  const includes = variantDetailIncludes(input.includes);
  // Read first, so that a request for a variant the brand does not have downloads nothing.
  const [ref] = await deps.uow.read((repos) => repos.products.findVariantsByIds(brandId, [id]));
  if (!ref || ref.variant.brandId !== brandId) throw DomainError.notFound('variant', id);
  const { sku } = ref.variant;
  const item = { itemNumber: ref.itemNumber, variants: [syncVariantChangesOf(changes, sku)] };
  const fetched = await fetchSyncImages(deps, brandId, [item]);
  return deps.uow.run(async (tx) => {
    const violations = ProductSyncViolations.forOneVariant();
    if (changes.sku !== undefined && changes.sku !== sku) {
      violations.add(
        '/products/0/variants/0/sku',
        `cannot be changed: it is the variant's key in the product sync (${JSON.stringify(sku)})`,
      );
    }
    await applyProductSyncItems(tx, deps.clock, {
      brandId,
      userId: input.userId ?? null,
      items: [item],
      fetched,
      violations,
      checkStored: (stored) => {
        if (storedVariant(stored.get(item.itemNumber), sku)?.variant.id !== id)
          throw changedConcurrently('variant', id);
      },
    });
    return readVariantDetail(tx, brandId, id, includes);
  });
}
