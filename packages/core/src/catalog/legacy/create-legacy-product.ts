import { recordEvents } from '../../events/record-events';
import { Clock } from '../../shared/clock.ports';
import { ViolationList } from '../../shared/errors';
import { UnitOfWork } from '../../shared/unit-of-work.ports';
import { ProductAggregate } from '../catalog.entities';
import { storedProductForm } from '../product-events';
import { newProduct } from '../product-sync-merge';
import { applyProductFields, mergePrices, newVariant } from './legacy-product-fields';
import {
  LegacyProductWriteRepositories,
  baseCurrencyOf,
  checkProductFields,
  checkProductReferences,
  ensureItemNumberFree,
  ensureSameAttributeNames,
  ensureSkusFree,
  normalizeVariant,
  requireBaseCurrency,
} from './legacy-product-rules';
import { applyInventory, resolveStockLocations } from './legacy-product-stock';
import { LegacyProductView, loadLegacyProductRelations } from './legacy-product-view';
import { LegacyProductFields, LegacyVariantInput } from './legacy-product.input';

/**
 * What `createLegacyProduct` adds: a product in the older interface's shape, with its variants,
 * prices and stock.
 */
export interface CreateLegacyProductInput {
  brandId: number;
  /** The acting user, recorded on the stock movements. */
  userId?: number | null;
  product: LegacyProductFields & { variants: LegacyVariantInput[] };
}

/**
 * `POST /api/products`: adds a product with its variants, their prices and their stock. Every
 * variant needs at least one attribute, the same attribute names as the others (1000001) and a
 * price in the brand's base currency; the item number (1000002) and the SKUs (1000003) must be
 * free. Stock is set per stock type (see `LegacyVariantInput.inventory`) as `api_quantity`
 * movements. Nothing is written unless all of it is valid. The product is announced
 * (`product.created`, as saved) in the same transaction, before its stock moves.
 */
export async function createLegacyProduct(
  deps: { uow: UnitOfWork<LegacyProductWriteRepositories>; clock: Clock },
  input: CreateLegacyProductInput,
): Promise<LegacyProductView> {
  const { brandId, product: fields } = input;
  return deps.uow.run(async (tx) => {
    const violations = new ViolationList();
    checkProductFields(fields, violations, 'create');
    if (fields.variants.length === 0) violations.add('/product/variants', 'must contain at least one variant');
    const variants = fields.variants.map((v, i) => normalizeVariant(v, `/product/variants/${i}`, violations, 'create'));
    const currency = await baseCurrencyOf(tx, brandId);
    for (const v of variants) requireBaseCurrency(v.prices ?? [], currency, v.pointer, violations);
    await checkProductReferences(tx, brandId, fields, violations);
    const locations = await resolveStockLocations(tx, deps.clock, brandId, variants, violations);
    violations.throwIfAny();
    ensureSameAttributeNames(variants, null);
    const itemNumber = fields.itemNumber.trim();
    await ensureItemNumberFree(tx, brandId, itemNumber, null, '/product/item_number');
    await ensureSkusFree(tx, brandId, variants, null);

    const now = deps.clock.now();
    const [productId] = await tx.ids.next('products');
    const variantIds = await tx.ids.next('variants', variants.length);
    const product = applyProductFields(newProduct(productId!, brandId, '', now), fields);
    const aggregate: ProductAggregate = {
      product,
      variants: variants.map((v, i) => ({
        variant: newVariant({ id: variantIds[i]!, brandId, productId: product.id, position: i + 1, now }, v),
        prices: mergePrices(variantIds[i]!, [], v.prices),
        costPrices: [],
      })),
      suppliers: [],
      translations: [],
    };
    await tx.products.saveAll(brandId, [aggregate]);
    await recordEvents(tx, brandId, now, [{ type: 'product.created', object: storedProductForm(aggregate) }]);
    await applyInventory(
      tx,
      { brandId, userId: input.userId ?? null, at: now },
      variants.flatMap((v, i) =>
        v.inventory.map((stock) => ({ variantId: variantIds[i]!, stock, location: locations.get(stock.key)! })),
      ),
    );
    return { aggregate, relations: await loadLegacyProductRelations(tx, brandId, [aggregate], ['variants.inventory']) };
  });
}
