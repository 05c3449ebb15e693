import { NewDomainEvent } from '../events/event.entities';
import { recordEvents } from '../events/record-events';
import { applyStockMovements } from '../inventory/apply-stock-movements';
import { ensureDefaultLocation } from '../inventory/ensure-default-location';
import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { settleAll } from '../shared/settle-all';
import { Repositories } from '../shared/unit-of-work.ports';
import { ProductAggregate, ProductSupplierLink } from './catalog.entities';
import { checkProductFields, checkVariantFields, parseMoney } from './product-sync-fields';
import { productAfterSave, storedProductForm } from './product-events';
import { FetchedSyncImages, attachSyncImages } from './product-sync-images';
import { StockPlan } from './product-sync-inventory';
import { MergedItem, mergeItem } from './product-sync-merge';
import {
  ProductSyncReferences,
  ResolvedProductReferences,
  loadProductSyncReferences,
  resolveProductReferences,
} from './product-sync-references';
import { ProductSyncViolations, checkProductItem, checkRequestKeys, storedVariant } from './product-sync-rules';
import { ProductSyncItem, ProductSyncOutcome, VariantSyncOutcome } from './product-sync.input';

/**
 * The product sync's work inside its transaction: read what the items name, check every rule,
 * and only then write and announce. `syncProducts` runs it over a request of many items; the
 * single writes of `/v10` (`createProduct`, `updateProduct`, `addVariant`, `updateVariant`) run it
 * over a one-item request, so that one product or variant is checked, merged and announced by
 * exactly the rules of the sync.
 */

/** What the product sync reads and writes. */
export type ProductSyncRepositories = Pick<
  Repositories,
  | 'categories'
  | 'costPriceSets'
  | 'drops'
  | 'events'
  | 'ids'
  | 'inventoryLocations'
  | 'productImages'
  | 'productLocales'
  | 'products'
  | 'stock'
  | 'suppliers'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/** One run of the sync's rules and writes, inside the caller's transaction. */
export interface ProductSyncRun {
  brandId: number;
  /** The acting user, recorded on stock movements. */
  userId: number | null;
  items: ProductSyncItem[];
  /** The items' images, obtained before the transaction opened (`fetchSyncImages`). */
  fetched: FetchedSyncImages;
  /** Where problems are collected; it names them as the caller's request names its fields. */
  violations: ProductSyncViolations;
  /**
   * The caller's own rules over the stored products the items name (by item number), checked with
   * the sync's before anything is written: a create refuses an item number that is taken, an
   * update requires the product it read by id to be the one stored under its item number. Adds to
   * `violations`, or throws (`not_found`).
   */
  checkStored?: (stored: ReadonlyMap<string, ProductAggregate>) => void;
}

/** A product item that passed the checks, with what it refers to. */
interface CheckedItem {
  item: ProductSyncItem;
  current: ProductAggregate | undefined;
  refs: ResolvedProductReferences;
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];

/**
 * Checks a run's items against the sync's rules and what is stored (the whole run is read in a
 * few batched queries), and only if every item is valid writes them: one `saveAll` for all
 * products, one ledger append for all stock changes. Each product saved is announced right after
 * the `saveAll`, in item order (`product.created`, or `product.updated` when its row, suppliers,
 * translations or variants changed, with the whole product as saved; `product.deleted` for a
 * stored product the item deletes, as stored before); an item that changes nothing, or only stock
 * or images, announces no product event. A failed check throws
 * `validation_failed` naming every problem by its pointer.
 */
export async function applyProductSyncItems(
  tx: ProductSyncRepositories,
  clock: Clock,
  run: ProductSyncRun,
): Promise<ProductSyncOutcome[]> {
  const { brandId, items, violations, fetched } = run;
  fetched.report(violations);
  checkRequestKeys(items, violations);

  const [aggregates, owners] = await settleAll([
    tx.products.findByItemNumbers(brandId, unique(items.map((item) => item.itemNumber))),
    tx.products.findVariantsBySkus(brandId, unique(items.flatMap((item) => (item.variants ?? []).map((v) => v.sku)))),
  ]);
  const stored = new Map(aggregates.map((aggregate) => [aggregate.product.itemNumber, aggregate]));
  run.checkStored?.(stored);
  const owner = new Map(owners.map((ref) => [ref.variant.sku, ref]));
  const references = await loadProductSyncReferences(tx, brandId, items, violations);
  const stock = await planStock(tx, brandId, items, stored, references);

  const checked: CheckedItem[] = [];
  for (const [i, item] of items.entries()) {
    const pointer = `/products/${i}`;
    const current = stored.get(item.itemNumber);
    if (item.delete) {
      if (current)
        await checkDependents(
          `${pointer}/delete`,
          `product ${JSON.stringify(item.itemNumber)}`,
          () => tx.products.dependentsOfProduct(brandId, current.product.id),
          violations,
        );
      continue;
    }
    checkProductFields(item, pointer, violations);
    checkProductItem(item, pointer, current, owner, violations);
    const refs = resolveProductReferences(item, pointer, references, violations);
    for (const [j, variant] of (item.variants ?? []).entries()) {
      const at = `${pointer}/variants/${j}`;
      checkVariantFields(variant, at, violations);
      const record = storedVariant(current, variant.sku);
      if (variant.delete) {
        if (record)
          await checkDependents(
            `${at}/delete`,
            `variant ${JSON.stringify(variant.sku)}`,
            () => tx.products.dependentsOfVariant(brandId, record.variant.id),
            violations,
          );
        continue;
      }
      if (variant.inventory?.length) {
        stock.add(
          variant.sku,
          record?.variant.id ?? null,
          variant.inventory,
          refs.variants.get(variant)!.locationIds,
          `${at}/inventory`,
          violations,
        );
      }
    }
    checked.push({ item, current, refs });
  }
  violations.throwIfAny();

  return write(tx, clock, {
    brandId,
    userId: run.userId,
    items,
    stored,
    checked,
    references,
    stock,
    fetched,
  });
}

/** Refuses a delete while orders, invoices or other data still refer to the record. */
async function checkDependents(
  pointer: string,
  what: string,
  dependents: () => Promise<string[]>,
  violations: ViolationList,
): Promise<void> {
  const found = await dependents();
  if (found.length > 0) violations.add(pointer, `cannot delete ${what}: it still has ${found.join(', ')}`);
}

/** Reads the balances of every stored variant the request changes stock of, in one query. */
async function planStock(
  tx: Pick<Repositories, 'stock'>,
  brandId: number,
  items: ProductSyncItem[],
  stored: Map<string, ProductAggregate>,
  references: ProductSyncReferences,
): Promise<StockPlan> {
  const variantIds = unique(
    items.flatMap((item) =>
      item.delete
        ? []
        : (item.variants ?? []).flatMap((variant) => {
            const record =
              variant.inventory?.length && !variant.delete
                ? storedVariant(stored.get(item.itemNumber), variant.sku)
                : undefined;
            return record ? [record.variant.id] : [];
          }),
    ),
  );
  const balances = variantIds.length > 0 ? await tx.stock.balances(brandId, variantIds) : [];
  return new StockPlan(balances, references.defaultLocation?.id ?? null);
}

interface WriteInput {
  brandId: number;
  userId: number | null;
  items: ProductSyncItem[];
  stored: Map<string, ProductAggregate>;
  checked: CheckedItem[];
  references: ProductSyncReferences;
  stock: StockPlan;
  fetched: FetchedSyncImages;
}

type ProductSyncWriteRepositories = Pick<
  Repositories,
  | 'categories'
  | 'costPriceSets'
  | 'events'
  | 'ids'
  | 'inventoryLocations'
  | 'productImages'
  | 'products'
  | 'stock'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/** Writes a checked request: planned categories and cost price sets, deletes, products, images, stock. */
async function write(tx: ProductSyncWriteRepositories, clock: Clock, input: WriteInput): Promise<ProductSyncOutcome[]> {
  const { brandId, items, stored, checked, references } = input;
  const now = clock.now();
  await references.categories.createMissing(tx, clock, brandId);
  await references.costPriceSets.createMissing(tx, clock, brandId);

  // Ids for every new product and variant of the request, in two draws.
  const newProducts = checked.filter(({ current }) => !current).length;
  const newVariants = checked.reduce(
    (count, { item, current }) =>
      count + (item.variants ?? []).filter((v) => !v.delete && !storedVariant(current, v.sku)).length,
    0,
  );
  const newProductIds = newProducts > 0 ? await tx.ids.next('products', newProducts) : [];
  const newVariantIds = newVariants > 0 ? await tx.ids.next('variants', newVariants) : [];
  let nextProduct = 0;
  let nextVariant = 0;

  const merged = new Map<string, MergedItem>();
  for (const { item, current, refs } of checked) {
    merged.set(
      item.itemNumber,
      mergeItem(item, current, {
        brandId,
        now,
        nextProductId: () => newProductIds[nextProduct++]!,
        nextVariantId: () => newVariantIds[nextVariant++]!,
        categoryIds: item.categories ? refs.categoryKeys.map((key) => references.categories.idOf(key)) : undefined,
        suppliers: item.suppliers
          ? refs.suppliers.map(
              ({ supplier, input: link, costPriceSetKey }): Omit<ProductSupplierLink, 'productId'> => ({
                supplierId: supplier.id,
                primary: link.primary ?? false,
                leadTimeType: link.leadTimeType ?? 'weeks',
                leadTimeFrom: link.leadTimeFrom ?? null,
                leadTimeTo: link.leadTimeTo ?? null,
                costPriceSetId: references.costPriceSets.idOf(costPriceSetKey),
              }),
            )
          : undefined,
        translations: item.translations
          ? refs.translations.map(({ locale, input: translation }) => ({ ...translation, localeId: locale.id }))
          : undefined,
        variant: (variant) => {
          const resolved = refs.variants.get(variant)!;
          return {
            dropIds: resolved.dropIds,
            costPrices: resolved.costPrices.map(({ costPriceSetKey, input: cost }) => ({
              costPriceSetId: references.costPriceSets.idOf(costPriceSetKey),
              costPrice: parseMoney(cost.costPrice)!,
            })),
          };
        },
      }),
    );
  }
  const results = [...merged.values()];

  // Deletes first: nothing saved below refers to what is deleted.
  const deletedVariantIds = new Set(results.flatMap((result) => result.deletedVariantIds));
  for (const variantId of deletedVariantIds) await tx.products.deleteVariant(brandId, variantId);
  for (const item of items) {
    const current = stored.get(item.itemNumber);
    if (item.delete && current) await tx.products.deleteProduct(brandId, current.product.id);
  }

  const toSave = results.flatMap((result) => (result.toSave ? [result.toSave] : []));
  if (toSave.length > 0) await tx.products.saveAll(brandId, toSave);
  await recordEvents(tx, brandId, now, productEvents(items, stored, merged, deletedVariantIds));

  const imageRequests = checked.flatMap(({ item, current }) => {
    const result = merged.get(item.itemNumber)!;
    return result.images.length > 0
      ? [{ productId: result.productId, stored: current !== undefined, variants: result.images }]
      : [];
  });
  const attached = await attachSyncImages(tx, brandId, now, imageRequests, input.fetched, deletedVariantIds);
  if (attached.images.length > 0) await tx.productImages.saveAll(attached.images);

  const variantIds = new Map(
    results.flatMap((result) =>
      [...result.variants].flatMap(([sku, { id }]) => (id !== null ? [[sku, id] as const] : [])),
    ),
  );
  const stockMoved = await applyStock(tx, clock, input, (sku) => variantIds.get(sku)!, now);

  return items.map((item) =>
    outcomeOf(item, stored.get(item.itemNumber), merged.get(item.itemNumber), stockMoved, attached.changedVariantIds),
  );
}

/**
 * One event per product the write saves or deletes, in request order: the whole product as saved,
 * or, for `product.deleted`, as stored before the delete (as `GET` showed it last).
 */
function productEvents(
  items: ProductSyncItem[],
  stored: ReadonlyMap<string, ProductAggregate>,
  merged: ReadonlyMap<string, MergedItem>,
  deletedVariantIds: ReadonlySet<number>,
): NewDomainEvent<'product.created' | 'product.updated' | 'product.deleted'>[] {
  return items.flatMap((item): NewDomainEvent<'product.created' | 'product.updated' | 'product.deleted'>[] => {
    const current = stored.get(item.itemNumber);
    if (item.delete) return current ? [{ type: 'product.deleted', object: storedProductForm(current) }] : [];
    const saved = merged.get(item.itemNumber)!.toSave;
    if (!saved) return [];
    const object = productAfterSave(current, saved, deletedVariantIds);
    return [{ type: current ? ('product.updated' as const) : ('product.created' as const), object }];
  });
}

/** The answer line of one item. Stock moves and new image attachments make an otherwise unchanged variant `updated`. */
function outcomeOf(
  item: ProductSyncItem,
  current: ProductAggregate | undefined,
  merged: MergedItem | undefined,
  stockMoved: Set<string>,
  imagesChanged: Set<number>,
): ProductSyncOutcome {
  if (item.delete || !merged) {
    const variants = [...(current?.variants ?? [])].sort((a, b) => a.variant.position - b.variant.position);
    return {
      itemNumber: item.itemNumber,
      id: current?.product.id ?? null,
      action: current ? 'deleted' : 'absent',
      variants: variants.map(({ variant }) => ({ sku: variant.sku, id: variant.id, action: 'deleted' })),
    };
  }
  const variants = (item.variants ?? []).map((variant): VariantSyncOutcome => {
    const { id, action } = merged.variants.get(variant.sku)!;
    const touched = id !== null && (stockMoved.has(variant.sku) || imagesChanged.has(id));
    return { sku: variant.sku, id, action: action === 'unchanged' && touched ? 'updated' : action };
  });
  const touched = variants.some((v) => v.action !== 'unchanged' && v.action !== 'absent');
  return {
    itemNumber: item.itemNumber,
    id: merged.productId,
    action: merged.action === 'unchanged' && touched ? 'updated' : merged.action,
    variants,
  };
}

/** Applies the planned stock changes in one call; returns the SKUs whose stock moved. */
async function applyStock(
  tx: Pick<
    Repositories,
    'events' | 'ids' | 'inventoryLocations' | 'stock' | 'webhookDeliveries' | 'transaction' | 'webhookEndpoints'
  >,
  clock: Clock,
  input: WriteInput,
  variantIdOf: (sku: string) => number,
  now: string,
): Promise<Set<string>> {
  const { stock, brandId } = input;
  if (stock.isEmpty) return new Set();
  const needsDefault = stock.changes.some((change) => change.location === null);
  const defaultLocationId = needsDefault
    ? (input.references.defaultLocation ?? (await ensureDefaultLocation(tx, clock, brandId))).id
    : null;
  const defaultId = () => defaultLocationId!;
  const balances = await applyStockMovements(
    tx,
    brandId,
    stock.movements(brandId, input.userId, variantIdOf, defaultId),
    now,
  );
  stock.verify(balances, variantIdOf, defaultId);
  return new Set(stock.changes.map((change) => change.sku));
}
