import { recordEvents } from '../../events/record-events';
import { Clock } from '../../shared/clock.ports';
import { ViolationList } from '../../shared/errors';
import { UnitOfWork } from '../../shared/unit-of-work.ports';
import { ProductAggregate, VariantRecord } from '../catalog.entities';
import { storedProductForm } from '../product-events';
import { mergePrices, newVariant, productAttributes } from './legacy-product-fields';
import {
  LegacyProductWriteRepositories,
  baseCurrencyOf,
  ensureSameAttributeNames,
  ensureSkusFree,
  findProduct,
  normalizeVariant,
  requireBaseCurrency,
} from './legacy-product-rules';
import { applyInventory, resolveStockLocations } from './legacy-product-stock';
import { LegacyVariantView, loadLegacyProductRelations } from './legacy-product-view';
import { LegacyVariantInput } from './legacy-product.input';

/**
 * `POST /api/products/{id}/variants`: adds a variant to a product. It must have the product's
 * attribute names (1000001), a free SKU (1000003) and a price in the brand's base currency;
 * its stock is set like a new product's. The product's `updated_at` moves too, so the product is
 * announced (`product.updated`, with the new variant) in the same transaction, before the stock moves.
 */
export async function createLegacyVariant(
  deps: { uow: UnitOfWork<LegacyProductWriteRepositories>; clock: Clock },
  input: { brandId: number; productId: number; userId?: number | null; variant: LegacyVariantInput },
): Promise<LegacyVariantView> {
  const { brandId } = input;
  return deps.uow.run(async (tx) => {
    const current = await findProduct(tx, brandId, input.productId);
    const violations = new ViolationList();
    const variant = normalizeVariant(input.variant, '/variant', violations, 'create');
    requireBaseCurrency(variant.prices ?? [], await baseCurrencyOf(tx, brandId), '/variant', violations);
    if (current.product.noInventory && variant.inventory.length > 0)
      violations.add('/variant/inventory', `cannot be set: product ${current.product.itemNumber} keeps no inventory`);
    const locations = await resolveStockLocations(tx, deps.clock, brandId, [variant], violations);
    violations.throwIfAny();
    ensureSameAttributeNames([variant], productAttributes(current));
    await ensureSkusFree(tx, brandId, [variant], null);

    const now = deps.clock.now();
    const [id] = await tx.ids.next('variants');
    const position = Math.max(0, ...current.variants.map((v) => v.variant.position)) + 1;
    const record: VariantRecord = {
      variant: newVariant({ id: id!, brandId, productId: current.product.id, position, now }, variant),
      prices: mergePrices(id!, [], variant.prices),
      costPrices: [],
    };
    const aggregate: ProductAggregate = {
      ...current,
      product: { ...current.product, updatedAt: now },
      variants: [...current.variants, record],
    };
    await tx.products.saveAll(brandId, [{ ...aggregate, variants: [record] }]);
    await recordEvents(tx, brandId, now, [{ type: 'product.updated', object: storedProductForm(aggregate) }]);
    await applyInventory(
      tx,
      { brandId, userId: input.userId ?? null, at: now },
      variant.inventory.map((stock) => ({ variantId: id!, stock, location: locations.get(stock.key)! })),
    );
    const relations = await loadLegacyProductRelations(
      tx,
      brandId,
      [{ ...aggregate, variants: [record] }],
      ['variants.inventory'],
    );
    return { record, relations };
  });
}
