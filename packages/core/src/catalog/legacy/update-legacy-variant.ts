import { recordEvents } from '../../events/record-events';
import { Clock } from '../../shared/clock.ports';
import { ViolationList } from '../../shared/errors';
import { sameData } from '../../shared/sync-outcome';
import { UnitOfWork } from '../../shared/unit-of-work.ports';
import { ProductAggregate, VariantRecord } from '../catalog.entities';
import { productAfterSave } from '../product-events';
import { mergePrices } from './legacy-product-fields';
import {
  LegacyProductWriteRepositories,
  baseCurrencyOf,
  ensureSameAttributeNames,
  ensureSkusFree,
  findProduct,
  normalizeVariant,
  requireBaseCurrency,
  variantOf,
} from './legacy-product-rules';
import { applyInventory, resolveStockLocations } from './legacy-product-stock';
import { LegacyVariantView, loadLegacyProductRelations } from './legacy-product-view';
import { LegacyVariantChanges } from './legacy-product.input';

/**
 * `PUT /api/products/{id}/variants/{variantId}`: changes a variant's SKU (must be free: 1000003),
 * EAN, picture, attribute values (the names stay: 1000001), prices (the currencies sent; the
 * others stay, and the base currency must remain) and stock. Fields not sent keep their value.
 * A change of the variant or its prices moves the product's `updated_at` and is announced
 * (`product.updated`) in the same transaction; a change of stock alone is not a product change.
 */
export async function updateLegacyVariant(
  deps: { uow: UnitOfWork<LegacyProductWriteRepositories>; clock: Clock },
  input: {
    brandId: number;
    productId: number;
    variantId: number;
    userId?: number | null;
    variant: LegacyVariantChanges;
  },
): Promise<LegacyVariantView> {
  const { brandId } = input;
  return deps.uow.run(async (tx) => {
    const current = await findProduct(tx, brandId, input.productId);
    const existing = variantOf(current, input.variantId);
    const violations = new ViolationList();
    const changes = normalizeVariant(input.variant, '/variant', violations, 'update');
    const prices = mergePrices(existing.variant.id, existing.prices, changes.prices);
    if (changes.prices !== undefined)
      requireBaseCurrency(prices, await baseCurrencyOf(tx, brandId), '/variant', violations);
    if (current.product.noInventory && changes.inventory.length > 0)
      violations.add('/variant/inventory', `cannot be set: product ${current.product.itemNumber} keeps no inventory`);
    const locations = await resolveStockLocations(tx, deps.clock, brandId, [changes], violations);
    violations.throwIfAny();
    ensureSameAttributeNames([changes], existing.variant.attributes);
    if (changes.sku !== undefined && changes.sku !== existing.variant.sku)
      await ensureSkusFree(tx, brandId, [changes], existing.variant.id);

    const now = deps.clock.now();
    const variant = {
      ...existing.variant,
      sku: changes.sku ?? existing.variant.sku,
      ean: changes.ean !== undefined ? changes.ean : existing.variant.ean,
      picture: changes.picture !== undefined ? changes.picture : existing.variant.picture,
      attributes: changes.attributes ?? existing.variant.attributes,
    };
    let record: VariantRecord = existing;
    if (!sameData(variant, existing.variant) || !sameData(prices, existing.prices)) {
      record = { ...existing, variant: { ...variant, updatedAt: now }, prices };
      const saved: ProductAggregate = {
        ...current,
        product: { ...current.product, updatedAt: now },
        variants: [record],
      };
      await tx.products.saveAll(brandId, [saved]);
      await recordEvents(tx, brandId, now, [{ type: 'product.updated', object: productAfterSave(current, saved) }]);
    }
    await applyInventory(
      tx,
      { brandId, userId: input.userId ?? null, at: now },
      changes.inventory.map((stock) => ({
        variantId: existing.variant.id,
        stock,
        location: locations.get(stock.key)!,
      })),
    );
    const relations = await loadLegacyProductRelations(
      tx,
      brandId,
      [{ ...current, variants: [record] }],
      ['variants.inventory'],
    );
    return { record, relations };
  });
}
