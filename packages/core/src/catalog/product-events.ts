import { ProductAggregate, VariantRecord } from './catalog.entities';

/**
 * What `product.created` and `product.updated` carry: the whole product aggregate as storage reads
 * it back right after the change committed, built from what the writer holds (no read-back).
 */

const byNumber = (a: number, b: number) => a - b;
const ascending = (ids: readonly number[]): number[] => [...new Set(ids)].sort(byNumber);
/** Code-point order, as the SQL adapters' `ORDER BY` on ASCII codes compares. */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function storedVariantForm(record: VariantRecord): VariantRecord {
  return {
    variant: { ...record.variant, dropIds: ascending(record.variant.dropIds) },
    prices: [...record.prices].sort((a, b) => compareText(a.currency, b.currency)),
    costPrices: [...record.costPrices].sort((a, b) => a.costPriceSetId - b.costPriceSetId),
  };
}

/**
 * The aggregate in the order storage reads it back: category and drop ids ascending, variants by
 * position then id, prices by currency, cost prices by set, supplier links by supplier,
 * translations by locale.
 */
export function storedProductForm(aggregate: ProductAggregate): ProductAggregate {
  return {
    product: { ...aggregate.product, categoryIds: ascending(aggregate.product.categoryIds) },
    variants: aggregate.variants
      .map(storedVariantForm)
      .sort((a, b) => a.variant.position - b.variant.position || a.variant.id - b.variant.id),
    suppliers: [...aggregate.suppliers].sort((a, b) => a.supplierId - b.supplierId),
    translations: [...aggregate.translations].sort((a, b) => a.localeId - b.localeId),
  };
}

/**
 * The whole product after `products.saveAll([saved])` over `current` (the aggregate before, or
 * undefined for a new product) and the deletion of `deletedVariantIds`: `saveAll` writes only the
 * variants in `saved` and leaves the product's other variants as they were.
 *
 * @example productAfterSave(stored, { ...stored, product: renamed, variants: [] }) // every stored variant kept
 */
export function productAfterSave(
  current: ProductAggregate | undefined,
  saved: ProductAggregate,
  deletedVariantIds: ReadonlySet<number> = new Set(),
): ProductAggregate {
  const variants = new Map<number, VariantRecord>();
  for (const record of current?.variants ?? []) {
    if (!deletedVariantIds.has(record.variant.id)) variants.set(record.variant.id, record);
  }
  for (const record of saved.variants) variants.set(record.variant.id, record);
  return storedProductForm({ ...saved, variants: [...variants.values()] });
}
