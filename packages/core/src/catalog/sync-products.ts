import { ensureDefaultLocation } from '../inventory/ensure-default-location';
import { Clock } from '../shared/clock.port';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.port';
import { ProductAggregate, ProductSupplierLink, VariantRecord } from './catalog.entities';
import { BlobStore, ImageFetcher } from './image-storage.ports';
import { checkProductFields, checkVariantFields, parseMoney } from './product-sync-fields';
import { FetchedSyncImages, ProductImageRequest, attachSyncImages, fetchSyncImages } from './product-sync-images';
import { StockPlan } from './product-sync-inventory';
import { mergeProduct, mergeSupplierLinks, mergeTranslations, mergeVariant, newProduct, newVariant, productChanged, variantChanged } from './product-sync-merge';
import { ProductSyncReferences, ResolvedProductReferences, loadProductSyncReferences, resolveProductReferences } from './product-sync-references';
import { ProductSyncViolations, checkProductItem, checkRequestKeys, storedVariant } from './product-sync-rules';
import { ProductSyncCommand, ProductSyncItem, ProductSyncOutcome, SyncAction, VariantSyncOutcome } from './product-sync.input';

/** What `syncProducts` needs: storage, time, and a way to download and keep image bytes. */
export interface SyncProductsDeps {
  uow: UnitOfWork;
  clock: Clock;
  images: { fetcher: ImageFetcher; blobs: BlobStore };
}

/** A product item that passed the checks, with what it refers to. */
interface CheckedItem {
  item: ProductSyncItem;
  current: ProductAggregate | undefined;
  refs: ResolvedProductReferences;
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];

/**
 * Creates, updates or deletes products and their variants, matched by item number and SKU
 * (`POST /products/sync`). Images are downloaded first, outside the transaction; then, in one
 * transaction, the whole request is read in a few batched queries and checked, and only if every
 * item is valid is anything written (one `saveAll` for all products, one ledger append for all
 * stock changes). A failed check throws `validation_failed` naming every problem by its JSON
 * pointer (`/products/2/variants/0/prices/EUR/sales_price`).
 *
 * @example
 * const [outcome] = await syncProducts({ uow, clock, images: { fetcher, blobs } }, {
 *   brandId: 1,
 *   products: [{ itemNumber: 'TEE-1', name: 'Tee', variants: [{ sku: 'TEE-1-M', attributes: { size: 'M' }, prices: { EUR: { salesPrice: 12.5 } } }] }],
 * });
 * // outcome: { itemNumber: 'TEE-1', id: 7, action: 'created', variants: [{ sku: 'TEE-1-M', id: 31, action: 'created' }] }
 */
export async function syncProducts(deps: SyncProductsDeps, input: ProductSyncCommand): Promise<ProductSyncOutcome[]> {
  const { brandId, products: items } = input;
  const fetched = await fetchSyncImages(deps, brandId, items);
  return deps.uow.run(async (tx) => {
    const violations = new ProductSyncViolations();
    fetched.report(violations);
    checkRequestKeys(items, violations);

    const [aggregates, owners] = await Promise.all([
      tx.products.findByItemNumbers(brandId, unique(items.map((item) => item.itemNumber))),
      tx.products.findVariantsBySkus(brandId, unique(items.flatMap((item) => (item.variants ?? []).map((v) => v.sku)))),
    ]);
    const stored = new Map(aggregates.map((aggregate) => [aggregate.product.itemNumber, aggregate]));
    const owner = new Map(owners.map((ref) => [ref.variant.sku, ref]));
    const references = await loadProductSyncReferences(tx, brandId, items, violations);
    const stock = await planStock(tx, brandId, items, stored, references);

    const checked: CheckedItem[] = [];
    for (const [i, item] of items.entries()) {
      const pointer = `/products/${i}`;
      const current = stored.get(item.itemNumber);
      if (item.delete) {
        if (current) await checkDependents(`${pointer}/delete`, `product ${JSON.stringify(item.itemNumber)}`, () => tx.products.dependentsOfProduct(brandId, current.product.id), violations);
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
          if (record) await checkDependents(`${at}/delete`, `variant ${JSON.stringify(variant.sku)}`, () => tx.products.dependentsOfVariant(brandId, record.variant.id), violations);
          continue;
        }
        if (variant.inventory?.length) {
          stock.plan.add(variant.sku, record?.variant.id ?? null, variant.inventory, refs.variants.get(variant)!.locationIds, `${at}/inventory`, violations);
        }
      }
      checked.push({ item, current, refs });
    }
    violations.throwIfAny();

    return write(tx, deps.clock, { brandId, userId: input.userId ?? null, items, stored, checked, references, stock: stock.plan, fetched });
  });
}

/** Refuses a delete while orders, invoices or other data still refer to the record. */
async function checkDependents(pointer: string, what: string, dependents: () => Promise<string[]>, violations: ViolationList): Promise<void> {
  const found = await dependents();
  if (found.length > 0) violations.add(pointer, `cannot delete ${what}: it still has ${found.join(', ')}`);
}

/** Reads the balances of every stored variant the request changes stock of, in one query. */
async function planStock(
  tx: Repositories,
  brandId: number,
  items: ProductSyncItem[],
  stored: Map<string, ProductAggregate>,
  references: ProductSyncReferences,
): Promise<{ plan: StockPlan }> {
  const variantIds = unique(
    items.flatMap((item) =>
      item.delete
        ? []
        : (item.variants ?? []).flatMap((variant) => {
            const record = variant.inventory?.length && !variant.delete ? storedVariant(stored.get(item.itemNumber), variant.sku) : undefined;
            return record ? [record.variant.id] : [];
          }),
    ),
  );
  const balances = variantIds.length > 0 ? await tx.stock.balances(brandId, variantIds) : [];
  return { plan: new StockPlan(balances, references.defaultLocation?.id ?? null) };
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

/** Writes a checked request: planned categories and cost price sets, deletes, products, images, stock. */
async function write(tx: Repositories, clock: Clock, input: WriteInput): Promise<ProductSyncOutcome[]> {
  const { brandId, items, stored, checked, references } = input;
  const now = clock.now();
  await references.categories.createMissing(tx, clock, brandId);
  await references.costPriceSets.createMissing(tx, clock, brandId);

  const newProducts = checked.filter(({ current }) => !current).length;
  const newVariants = checked.reduce((count, { item, current }) => count + (item.variants ?? []).filter((v) => !v.delete && !storedVariant(current, v.sku)).length, 0);
  const productIds = newProducts > 0 ? await tx.ids.next('products', newProducts) : [];
  const variantIds = newVariants > 0 ? await tx.ids.next('variants', newVariants) : [];

  const productIdOf = new Map<string, number>();
  const variantIdOfSku = new Map<string, number>();
  const deletedVariantIds = new Set<number>();
  const variantActions = new Map<string, SyncAction>();
  const productActions = new Map<string, SyncAction>();
  const changedProducts: ProductAggregate[] = [];
  const imageRequests: ProductImageRequest[] = [];

  for (const { item, current, refs } of checked) {
    const productId = current?.product.id ?? productIds.shift()!;
    productIdOf.set(item.itemNumber, productId);
    const base = current?.product ?? newProduct(productId, brandId, item.itemNumber, now);
    const product = mergeProduct(base, item, item.categories ? refs.categoryKeys.map((key) => references.categories.idOf(key)) : undefined);
    const suppliers = item.suppliers
      ? mergeSupplierLinks(current?.suppliers ?? [], refs.suppliers.map(({ supplier, input: link, costPriceSetKey }): ProductSupplierLink => ({
          productId,
          supplierId: supplier.id,
          primary: link.primary ?? false,
          leadTimeType: link.leadTimeType ?? 'weeks',
          leadTimeFrom: link.leadTimeFrom ?? null,
          leadTimeTo: link.leadTimeTo ?? null,
          costPriceSetId: references.costPriceSets.idOf(costPriceSetKey),
        })), item.suppliers.mode)
      : (current?.suppliers ?? []);
    const translations = item.translations
      ? mergeTranslations(current?.translations ?? [], productId, refs.translations.map(({ locale, input: t }) => ({ ...t, localeId: locale.id })))
      : (current?.translations ?? []);

    let position = Math.max(0, ...(current?.variants ?? []).map((record) => record.variant.position));
    const changedVariants: VariantRecord[] = [];
    const images: ProductImageRequest['variants'] = [];
    for (const variant of item.variants ?? []) {
      const record = storedVariant(current, variant.sku);
      if (variant.delete) {
        if (record) {
          deletedVariantIds.add(record.variant.id);
          variantIdOfSku.set(variant.sku, record.variant.id);
        }
        variantActions.set(variant.sku, record ? 'deleted' : 'absent');
        continue;
      }
      const resolved = refs.variants.get(variant)!;
      const before = record ?? newVariant(variantIds.shift()!, brandId, productId, variant.sku, ++position, now);
      const after = mergeVariant(before, variant, {
        dropIds: resolved.dropIds,
        costPrices: resolved.costPrices.map(({ costPriceSetKey, input: cost }) => ({
          costPriceSetId: references.costPriceSets.idOf(costPriceSetKey),
          costPrice: parseMoney(cost.costPrice)!,
        })),
      });
      variantIdOfSku.set(variant.sku, before.variant.id);
      const changed = !record || variantChanged(record, after);
      if (changed) changedVariants.push({ ...after, variant: { ...after.variant, updatedAt: now } });
      variantActions.set(variant.sku, !record ? 'created' : changed ? 'updated' : 'unchanged');
      if (variant.images?.length) images.push({ variantId: before.variant.id, images: variant.images });
    }
    if (images.length > 0) imageRequests.push({ productId, stored: current !== undefined, variants: images });

    const deletedHere = (item.variants ?? []).some((v) => v.delete && storedVariant(current, v.sku));
    const changed = !current || changedVariants.length > 0 || deletedHere || productChanged(current, { product, suppliers, translations });
    if (changed) changedProducts.push({ product: { ...product, updatedAt: now }, variants: changedVariants, suppliers, translations });
    productActions.set(item.itemNumber, !current ? 'created' : changed ? 'updated' : 'unchanged');
  }

  // Deletes first: a product created in the same request never refers to what is deleted.
  for (const variantId of deletedVariantIds) await tx.products.deleteVariant(brandId, variantId);
  const deletedProducts = items.filter((item) => item.delete && stored.has(item.itemNumber)).map((item) => stored.get(item.itemNumber)!);
  for (const aggregate of deletedProducts) await tx.products.deleteProduct(brandId, aggregate.product.id);

  if (changedProducts.length > 0) await tx.products.saveAll(brandId, changedProducts);

  const attached = await attachSyncImages(tx, brandId, now, imageRequests, input.fetched, deletedVariantIds);
  if (attached.images.length > 0) await tx.productImages.saveAll(attached.images);

  const stockMoved = await applyStock(tx, clock, input, variantIdOfSku, now);

  return items.map((item): ProductSyncOutcome => {
    const current = stored.get(item.itemNumber);
    if (item.delete) {
      return {
        itemNumber: item.itemNumber,
        id: current?.product.id ?? null,
        action: current ? 'deleted' : 'absent',
        variants: current ? [...current.variants].sort((a, b) => a.variant.position - b.variant.position).map(({ variant }) => ({ sku: variant.sku, id: variant.id, action: 'deleted' })) : [],
      };
    }
    const variants = (item.variants ?? []).map((variant): VariantSyncOutcome => {
      const id = variantIdOfSku.get(variant.sku) ?? null;
      let action = variantActions.get(variant.sku)!;
      if (action === 'unchanged' && id !== null && (stockMoved.has(variant.sku) || attached.changedVariantIds.has(id))) action = 'updated';
      return { sku: variant.sku, id, action };
    });
    let action = productActions.get(item.itemNumber)!;
    if (action === 'unchanged' && variants.some((v) => v.action !== 'unchanged' && v.action !== 'absent')) action = 'updated';
    return { itemNumber: item.itemNumber, id: productIdOf.get(item.itemNumber)!, action, variants };
  });
}

/** Applies the planned stock changes in one call; returns the SKUs whose stock moved. */
async function applyStock(tx: Repositories, clock: Clock, input: WriteInput, variantIdOfSku: Map<string, number>, now: string): Promise<Set<string>> {
  const { stock, brandId } = input;
  if (stock.isEmpty) return new Set();
  const needsDefault = stock.changes.some((change) => change.location === null);
  const defaultLocationId = needsDefault ? (input.references.defaultLocation ?? (await ensureDefaultLocation(tx, clock, brandId))).id : null;
  const variantIdOf = (sku: string) => variantIdOfSku.get(sku)!;
  const defaultId = () => defaultLocationId!;
  const balances = await tx.stock.apply(brandId, stock.movements(brandId, input.userId, variantIdOf, defaultId), now);
  stock.verify(balances, variantIdOf, defaultId);
  return new Set(stock.changes.map((change) => change.sku));
}
