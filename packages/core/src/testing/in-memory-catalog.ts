import {
  Category,
  Collection,
  CostPriceSet,
  Drop,
  Product,
  ProductAggregate,
  ProductImage,
  ProductLocale,
  ProductSupplierLink,
  ProductTranslation,
  Subbrand,
  Variant,
  VariantCostPrice,
  VariantPrice,
  VariantRecord,
} from '../catalog/catalog.entities';
import {
  availableStockListDefinition,
  categoryListDefinition,
  collectionListDefinition,
  dropListDefinition,
  inventoryLocationListDefinition,
  productListDefinition,
  variantListDefinition,
} from '../catalog/catalog.list-definitions';
import { VariantRef } from '../catalog/catalog.ports';
import {
  AppliedStock,
  AvailableStock,
  InventoryLocation,
  NewStockMovement,
  StockBalance,
  StockMovement,
} from '../inventory/inventory.entities';
import { listInMemory } from '../listing/in-memory-list';
import { CatalogRepositories } from '../catalog/catalog.ports';
import { InventoryRepositories } from '../inventory/inventory.ports';
import { ReferringTables, productDependents, refuseIfReferred, variantDependents } from './in-memory-dependents';
import { InMemoryFactories } from './in-memory-factories';
import { PartnersState } from './in-memory-partners';
import { refuseCrossBrandReference } from './in-memory-references';

/**
 * The catalog and inventory tables in memory, stored the way the SQL schema stores them: one
 * array per table, children (prices, cost prices, supplier links, translations, balances,
 * movements) as rows of their own. A product row keeps its `categoryIds` and a variant row its
 * `dropIds` (the join tables), both kept ascending.
 */
export interface CatalogState {
  products: Product[];
  variants: Variant[];
  variantPrices: VariantPrice[];
  variantCostPrices: VariantCostPrice[];
  productSuppliers: ProductSupplierLink[];
  productTranslations: ProductTranslation[];
  categories: Category[];
  collections: Collection[];
  subbrands: Subbrand[];
  drops: Drop[];
  costPriceSets: CostPriceSet[];
  productLocales: ProductLocale[];
  productImages: ProductImage[];
  inventoryLocations: InventoryLocation[];
  stockBalances: StockBalance[];
  stockMovements: StockMovement[];
}

export function emptyCatalogState(): CatalogState {
  return {
    products: [],
    variants: [],
    variantPrices: [],
    variantCostPrices: [],
    productSuppliers: [],
    productTranslations: [],
    categories: [],
    collections: [],
    subbrands: [],
    drops: [],
    costPriceSets: [],
    productLocales: [],
    productImages: [],
    inventoryLocations: [],
    stockBalances: [],
    stockMovements: [],
  };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const ascending = (values: number[]): number[] => [...new Set(values)].sort((a, b) => a - b);

const byId = <T extends { id: number }>(rows: T[]): T[] => [...rows].sort((a, b) => a.id - b.id);

function groupBy<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/** Code-point order, as `ORDER BY` on the SQL adapters' (ASCII) codes compares them. */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Inserts or replaces by id (within the brand: a row of another brand is never overwritten). */
function put<T extends { id: number; brandId: number }>(rows: T[], row: T, what: string): void {
  const index = rows.findIndex((r) => r.id === row.id);
  if (index < 0) {
    rows.push(clone(row));
    return;
  }
  if (rows[index]!.brandId !== row.brandId) throw new Error(`${what} ${row.id} belongs to another brand`);
  rows[index] = clone(row);
}

/** Inserts only; a taken id is a programming error, as a primary-key violation is in SQL. */
function insert<T extends { id: number }>(rows: T[], row: T, what: string): void {
  if (rows.some((r) => r.id === row.id)) throw new Error(`${what} ${row.id} already exists`);
  rows.push(clone(row));
}

/** Updates the row with the same id and brand; a missing or foreign row is left alone, like `UPDATE … WHERE brand_id`. */
function update<T extends { id: number; brandId: number }>(rows: T[], row: T): void {
  const index = rows.findIndex((r) => r.id === row.id && r.brandId === row.brandId);
  if (index >= 0) rows[index] = clone(row);
}

/** What the repositories below share, over one binding's state. */
function catalogRows(state: () => CatalogState) {
  const s = state;

  function variantRecords(variants: Variant[]): VariantRecord[] {
    const wanted = new Set(variants.map((v) => v.id));
    const prices = groupBy(
      s().variantPrices.filter((p) => wanted.has(p.variantId)),
      (p) => p.variantId,
    );
    const costs = groupBy(
      s().variantCostPrices.filter((c) => wanted.has(c.variantId)),
      (c) => c.variantId,
    );
    return [...variants]
      .sort((a, b) => a.position - b.position || a.id - b.id)
      .map((variant) => ({
        variant: clone(variant),
        prices: clone(prices.get(variant.id) ?? []).sort((a, b) => compareText(a.currency, b.currency)),
        costPrices: clone(costs.get(variant.id) ?? []).sort((a, b) => a.costPriceSetId - b.costPriceSetId),
      }));
  }

  /** Whole aggregates of the given product rows; `withVariants: false` leaves `variants` empty. */
  function aggregates(products: Product[], withVariants = true): ProductAggregate[] {
    const productIds = new Set(products.map((p) => p.id));
    const records = withVariants ? variantRecords(s().variants.filter((v) => productIds.has(v.productId))) : [];
    const recordsOf = groupBy(records, (r) => r.variant.productId);
    const suppliersOf = groupBy(
      s().productSuppliers.filter((l) => productIds.has(l.productId)),
      (l) => l.productId,
    );
    const translationsOf = groupBy(
      s().productTranslations.filter((t) => productIds.has(t.productId)),
      (t) => t.productId,
    );
    return byId(products).map((product) => ({
      product: clone(product),
      variants: recordsOf.get(product.id) ?? [],
      suppliers: clone(suppliersOf.get(product.id) ?? []).sort((a, b) => a.supplierId - b.supplierId),
      translations: clone(translationsOf.get(product.id) ?? []).sort((a, b) => a.localeId - b.localeId),
    }));
  }

  function variantRefs(variants: Variant[]): VariantRef[] {
    const itemNumbers = new Map(s().products.map((p) => [p.id, p.itemNumber]));
    return byId(variants).map((variant) => ({
      variant: clone(variant),
      itemNumber: itemNumbers.get(variant.productId) ?? '',
    }));
  }

  /** Removes variants with everything hanging off them: prices, cost prices, balances, movements, image attachments. */
  function removeVariants(variantIds: Set<number>): void {
    const state = s();
    state.variants = state.variants.filter((v) => !variantIds.has(v.id));
    state.variantPrices = state.variantPrices.filter((p) => !variantIds.has(p.variantId));
    state.variantCostPrices = state.variantCostPrices.filter((c) => !variantIds.has(c.variantId));
    state.stockBalances = state.stockBalances.filter((b) => !variantIds.has(b.variantId));
    state.stockMovements = state.stockMovements.filter((m) => !variantIds.has(m.variantId));
    for (const image of state.productImages) image.variantIds = image.variantIds.filter((id) => !variantIds.has(id));
  }

  /** SQL unique keys: item number and SKU are unique per brand. */
  function checkUniqueKeys(brandId: number): void {
    const itemNumbers = new Set<string>();
    for (const p of s().products) {
      if (p.brandId !== brandId) continue;
      if (itemNumbers.has(p.itemNumber)) throw new Error(`item number ${p.itemNumber} is taken`);
      itemNumbers.add(p.itemNumber);
    }
    const skus = new Set<string>();
    for (const v of s().variants) {
      if (v.brandId !== brandId) continue;
      if (skus.has(v.sku)) throw new Error(`SKU ${v.sku} is taken`);
      skus.add(v.sku);
    }
  }

  function availableRows(brandId: number): AvailableStock[] {
    const variants = new Map(
      s()
        .variants.filter((v) => v.brandId === brandId)
        .map((v) => [v.id, v]),
    );
    return s().stockBalances.flatMap((b): AvailableStock[] => {
      const variant = variants.get(b.variantId);
      if (b.brandId !== brandId || !variant) return [];
      return [
        {
          id: b.id,
          variantId: b.variantId,
          sku: variant.sku,
          ean: variant.ean,
          locationId: b.locationId,
          inStock: b.inStock,
          available: b.inStock - b.reserved,
          updatedAt: b.updatedAt,
        },
      ];
    });
  }

  return { variantRecords, aggregates, variantRefs, removeVariants, checkUniqueKeys, availableRows };
}

/**
 * The catalog and inventory ports over `state()`, with the semantics every adapter must match
 * (the catalog contract suite checks them):
 * - Orders: aggregates of `findByCategoryIds` by product id; variants by (position, id); prices by
 *   currency; cost prices by cost price set id; supplier links by supplier id; translations by
 *   locale id; `categoryIds`, `dropIds` and an image's `variantIds` ascending; tags, colli and a
 *   collection's allowed customers as saved; images of `findByProductIds` by (product id, sort,
 *   id); balances by (variant id, location id); `apply`'s result one balance per (variant,
 *   location) in the order first touched; movements newest first (created at, then id,
 *   descending). Other lookups promise no order.
 * - `products.list` always carries supplier links and translations; it carries the variants (each
 *   with its prices and cost prices) when any of `variants`, `variants.prices`,
 *   `variants.cost_prices`, `variants.inventory` is included, otherwise `variants: []`.
 * - Deleting a product deletes its variants, their prices, cost prices, drops, stock balances and
 *   ledger rows, and the product's supplier links, translations and images; deleting a variant
 *   deletes the same of the variant and detaches it from images. Deleting categories removes them
 *   from products' `categoryIds` (subcategories are deleted only when their ids are passed too).
 *   A product or variant that documents still refer to is not deleted (`has_dependents`), as the
 *   SQL adapters' foreign keys refuse it.
 * - Names compare case-insensitively as JavaScript's `toLowerCase` folds them; codes, SKUs, EANs,
 *   item numbers and URLs compare exactly.
 */
export const inMemoryCatalogFactories: InMemoryFactories<
  CatalogRepositories,
  CatalogState & ReferringTables & Pick<PartnersState, 'suppliers'>
> = {
  products: (s) => {
    const { aggregates, variantRefs, removeVariants, checkUniqueKeys } = catalogRows(s);
    return {
      async findByItemNumbers(brandId, itemNumbers) {
        const wanted = new Set(itemNumbers);
        return aggregates(s().products.filter((p) => p.brandId === brandId && wanted.has(p.itemNumber)));
      },
      async findByIds(brandId, productIds) {
        const wanted = new Set(productIds);
        return aggregates(s().products.filter((p) => p.brandId === brandId && wanted.has(p.id)));
      },
      async findByCategoryIds(brandId, categoryIds) {
        const wanted = new Set(categoryIds);
        return aggregates(
          s().products.filter((p) => p.brandId === brandId && p.categoryIds.some((id) => wanted.has(id))),
        );
      },
      async findVariantsBySkus(brandId, skus) {
        const wanted = new Set(skus);
        return variantRefs(s().variants.filter((v) => v.brandId === brandId && wanted.has(v.sku)));
      },
      async findVariantsByEans(brandId, eans) {
        const wanted = new Set(eans);
        return variantRefs(s().variants.filter((v) => v.brandId === brandId && v.ean !== null && wanted.has(v.ean)));
      },
      async findVariantsByIds(brandId, variantIds) {
        const wanted = new Set(variantIds);
        return variantRefs(s().variants.filter((v) => v.brandId === brandId && wanted.has(v.id)));
      },
      async findSaleableVariants(brandId, keys) {
        const skus = new Set(keys.skus ?? []);
        const eans = new Set(keys.eans ?? []);
        const variants = s().variants.filter(
          (v) => v.brandId === brandId && (skus.has(v.sku) || (v.ean !== null && eans.has(v.ean))),
        );
        const products = new Map(s().products.map((p) => [p.id, p]));
        return byId(variants).map((v) => {
          const { dropIds: _dropIds, ...variant } = clone(v);
          const { categoryIds: _categoryIds, ...product } = clone(products.get(v.productId)!);
          const prices = clone(s().variantPrices.filter((p) => p.variantId === v.id)).sort((a, b) =>
            compareText(a.currency, b.currency),
          );
          return { variant, product, prices };
        });
      },
      async saveAll(brandId, aggregates) {
        const state = s();
        for (const aggregate of aggregates) {
          const { product } = aggregate;
          if (product.brandId !== brandId) throw new Error(`product ${product.id} is not of brand ${brandId}`);
          for (const link of aggregate.suppliers)
            refuseCrossBrandReference('supplier', brandId, link.supplierId, state.suppliers);
          for (const categoryId of product.categoryIds)
            refuseCrossBrandReference('category', brandId, categoryId, state.categories);
          put(state.products, { ...product, categoryIds: ascending(product.categoryIds) }, 'product');
          state.productSuppliers = state.productSuppliers.filter((l) => l.productId !== product.id);
          state.productSuppliers.push(...clone(aggregate.suppliers.map((l) => ({ ...l, productId: product.id }))));
          state.productTranslations = state.productTranslations.filter((t) => t.productId !== product.id);
          state.productTranslations.push(
            ...clone(aggregate.translations.map((t) => ({ ...t, productId: product.id }))),
          );
          for (const { variant, prices, costPrices } of aggregate.variants) {
            if (variant.brandId !== brandId) throw new Error(`variant ${variant.id} is not of brand ${brandId}`);
            put(state.variants, { ...variant, productId: product.id, dropIds: ascending(variant.dropIds) }, 'variant');
            state.variantPrices = state.variantPrices.filter((p) => p.variantId !== variant.id);
            state.variantPrices.push(...clone(prices.map((p) => ({ ...p, variantId: variant.id }))));
            state.variantCostPrices = state.variantCostPrices.filter((c) => c.variantId !== variant.id);
            state.variantCostPrices.push(...clone(costPrices.map((c) => ({ ...c, variantId: variant.id }))));
          }
        }
        checkUniqueKeys(brandId);
      },
      async deleteProduct(brandId, productId) {
        refuseIfReferred(productDependents(s(), brandId, productId), `product ${productId}`);
        const state = s();
        if (!state.products.some((p) => p.brandId === brandId && p.id === productId)) return;
        removeVariants(new Set(state.variants.filter((v) => v.productId === productId).map((v) => v.id)));
        state.products = state.products.filter((p) => p.id !== productId);
        state.productSuppliers = state.productSuppliers.filter((l) => l.productId !== productId);
        state.productTranslations = state.productTranslations.filter((t) => t.productId !== productId);
        state.productImages = state.productImages.filter((i) => i.productId !== productId);
      },
      async deleteVariant(brandId, variantId) {
        refuseIfReferred(variantDependents(s(), brandId, variantId), `variant ${variantId}`);
        if (!s().variants.some((v) => v.brandId === brandId && v.id === variantId)) return;
        removeVariants(new Set([variantId]));
      },
      // Documents refer to variants: the state at hand holds them too (`ReferringTables`).
      async dependentsOfProduct(brandId, productId) {
        return productDependents(s(), brandId, productId);
      },
      async dependentsOfVariant(brandId, variantId) {
        return variantDependents(s(), brandId, variantId);
      },
      async list(brandId, query) {
        // Filters and sort only read product fields, so the page is chosen on variant-less aggregates.
        const { rows, total } = listInMemory(
          productListDefinition,
          query,
          aggregates(
            s().products.filter((p) => p.brandId === brandId),
            false,
          ),
        );
        const withVariants = query.includes.some((name) => name === 'variants' || name.startsWith('variants.'));
        if (!withVariants) return { rows, total };
        const loaded = new Map(aggregates(rows.map((r) => r.product)).map((a) => [a.product.id, a]));
        return { rows: rows.map((r) => loaded.get(r.product.id)!), total };
      },
      async listVariants(brandId, query) {
        const { rows, total } = listInMemory(
          variantListDefinition,
          query,
          variantRefs(s().variants.filter((v) => v.brandId === brandId)),
        );
        return { rows, total };
      },
    };
  },
  categories: (s) => ({
    async insert(category) {
      insert(s().categories, category, 'category');
    },
    async update(category) {
      update(s().categories, category);
    },
    async findByIds(brandId, categoryIds) {
      const wanted = new Set(categoryIds);
      return clone(byId(s().categories.filter((c) => c.brandId === brandId && wanted.has(c.id))));
    },
    async findByNames(brandId, keys) {
      return clone(
        byId(
          s().categories.filter(
            (c) =>
              c.brandId === brandId &&
              keys.some((k) => k.parentId === c.parentId && k.name.toLowerCase() === c.name.toLowerCase()),
          ),
        ),
      );
    },
    async findChildren(brandId, parentIds) {
      const wanted = new Set(parentIds);
      return clone(
        byId(s().categories.filter((c) => c.brandId === brandId && c.parentId !== null && wanted.has(c.parentId))),
      );
    },
    async delete(brandId, categoryIds) {
      const state = s();
      // Subcategories go with their parent, as the SQL adapters' foreign key cascades do.
      const doomed = new Set(
        state.categories.filter((c) => c.brandId === brandId && categoryIds.includes(c.id)).map((c) => c.id),
      );
      for (const child of state.categories)
        if (child.parentId !== null && doomed.has(child.parentId)) doomed.add(child.id);
      state.categories = state.categories.filter((c) => !doomed.has(c.id));
      for (const product of state.products) {
        if (product.brandId === brandId) product.categoryIds = product.categoryIds.filter((id) => !doomed.has(id));
      }
    },
    async list(brandId, query) {
      const { rows, total } = listInMemory(
        categoryListDefinition,
        query,
        s().categories.filter((c) => c.brandId === brandId),
      );
      return { rows: clone(rows), total };
    },
  }),
  collections: (s) => ({
    async insert(collection) {
      insert(s().collections, collection, 'collection');
    },
    async update(collection) {
      update(s().collections, collection);
    },
    async findByIds(brandId, collectionIds) {
      const wanted = new Set(collectionIds);
      return clone(byId(s().collections.filter((c) => c.brandId === brandId && wanted.has(c.id))));
    },
    async list(brandId, query) {
      const { rows, total } = listInMemory(
        collectionListDefinition,
        query,
        s().collections.filter((c) => c.brandId === brandId),
      );
      return { rows: clone(rows), total };
    },
  }),
  subbrands: (s) => ({
    async insert(subbrand) {
      insert(s().subbrands, subbrand, 'subbrand');
    },
    async findByIds(brandId, subbrandIds) {
      const wanted = new Set(subbrandIds);
      return clone(byId(s().subbrands.filter((x) => x.brandId === brandId && wanted.has(x.id))));
    },
  }),
  drops: (s) => ({
    async insert(drop) {
      insert(s().drops, drop, 'drop');
    },
    async findByIds(brandId, dropIds) {
      const wanted = new Set(dropIds);
      return clone(byId(s().drops.filter((d) => d.brandId === brandId && wanted.has(d.id))));
    },
    async findByCodes(brandId, codes) {
      const wanted = new Set(codes);
      return clone(byId(s().drops.filter((d) => d.brandId === brandId && wanted.has(d.code))));
    },
    async list(brandId, query) {
      const { rows, total } = listInMemory(
        dropListDefinition,
        query,
        s().drops.filter((d) => d.brandId === brandId),
      );
      return { rows: clone(rows), total };
    },
  }),
  costPriceSets: (s) => ({
    async insert(set) {
      insert(s().costPriceSets, set, 'cost price set');
    },
    async all(brandId) {
      return clone(byId(s().costPriceSets.filter((c) => c.brandId === brandId)));
    },
  }),
  productLocales: (s) => ({
    async insert(locale) {
      insert(s().productLocales, locale, 'product locale');
    },
    async findByIds(brandId, localeIds) {
      const wanted = new Set(localeIds);
      return clone(byId(s().productLocales.filter((l) => l.brandId === brandId && wanted.has(l.id))));
    },
    async findByCodes(brandId, codes) {
      const wanted = new Set(codes);
      return clone(byId(s().productLocales.filter((l) => l.brandId === brandId && wanted.has(l.code))));
    },
    async all(brandId) {
      return clone(byId(s().productLocales.filter((l) => l.brandId === brandId)));
    },
  }),
  productImages: (s) => ({
    async findByProductIds(brandId, productIds) {
      const wanted = new Set(productIds);
      return clone(s().productImages.filter((i) => i.brandId === brandId && wanted.has(i.productId))).sort(
        (a, b) => a.productId - b.productId || a.sort - b.sort || a.id - b.id,
      );
    },
    async findBySourceUrls(brandId, urls) {
      const wanted = new Set(urls);
      return clone(byId(s().productImages.filter((i) => i.brandId === brandId && wanted.has(i.sourceUrl))));
    },
    async findByExistanceKeys(brandId, keys) {
      const wanted = new Set(keys);
      return clone(
        byId(
          s().productImages.filter(
            (i) => i.brandId === brandId && i.existanceKey !== null && wanted.has(i.existanceKey),
          ),
        ),
      );
    },
    async saveAll(images) {
      for (const image of images)
        put(s().productImages, { ...image, variantIds: ascending(image.variantIds) }, 'product image');
    },
    async delete(brandId, imageIds) {
      const doomed = new Set(imageIds);
      s().productImages = s().productImages.filter((i) => !(i.brandId === brandId && doomed.has(i.id)));
    },
  }),
};

/** The inventory module's repositories in memory. */
export const inMemoryInventoryFactories: InMemoryFactories<InventoryRepositories, CatalogState> = {
  inventoryLocations: (s) => ({
    async insert(location) {
      insert(s().inventoryLocations, location, 'inventory location');
    },
    async findByIds(brandId, locationIds) {
      const wanted = new Set(locationIds);
      return clone(byId(s().inventoryLocations.filter((l) => l.brandId === brandId && wanted.has(l.id))));
    },
    async findDefault(brandId) {
      return clone(byId(s().inventoryLocations.filter((l) => l.brandId === brandId && l.isDefault))[0] ?? null);
    },
    async list(brandId, query) {
      const { rows, total } = listInMemory(
        inventoryLocationListDefinition,
        query,
        s().inventoryLocations.filter((l) => l.brandId === brandId),
      );
      return { rows: clone(rows), total };
    },
  }),
  stock: (s, bound) => {
    const { availableRows } = catalogRows(s);
    return {
      async balances(brandId, variantIds, locationId) {
        const wanted = new Set(variantIds);
        return clone(
          s().stockBalances.filter(
            (b) =>
              b.brandId === brandId &&
              wanted.has(b.variantId) &&
              (locationId === undefined || b.locationId === locationId),
          ),
        ).sort((a, b) => a.variantId - b.variantId || a.locationId - b.locationId);
      },
      async apply(brandId, movements, at) {
        return (await applyWithVariants(brandId, movements, at)).map(({ sku: _sku, ean: _ean, ...balance }) => balance);
      },
      applyWithVariants,
      async movements(brandId, variantId, limit) {
        return clone(
          s()
            .stockMovements.filter((m) => m.brandId === brandId && m.variantId === variantId)
            .sort((a, b) => compareText(b.createdAt, a.createdAt) || b.id - a.id)
            .slice(0, limit),
        );
      },
      async listAvailable(brandId, query) {
        const { rows } = listInMemory(availableStockListDefinition, query, availableRows(brandId));
        return { rows, total: null };
      },
    };

    /**
     * Moves the balances; answers them with their variant's SKU and EAN. This storage does not
     * check references (test fixtures stock bare variant ids, which SQL storage refuses by foreign
     * key): a variant it does not hold answers an empty SKU.
     */
    async function applyWithVariants(
      brandId: number,
      movements: NewStockMovement[],
      at: string,
    ): Promise<AppliedStock[]> {
      if (movements.length === 0) return [];
      const state = s();
      const touched: StockBalance[] = [];
      const movementIds = await bound.ids.next('stock_movements', movements.length);
      for (const [index, movement] of movements.entries()) {
        if (movement.brandId !== brandId)
          throw new Error(`stock movement of brand ${movement.brandId} applied for brand ${brandId}`);
        refuseCrossBrandReference('variant', brandId, movement.variantId, state.variants);
        refuseCrossBrandReference('inventory location', brandId, movement.locationId, state.inventoryLocations);
        let balance = state.stockBalances.find(
          (b) => b.brandId === brandId && b.variantId === movement.variantId && b.locationId === movement.locationId,
        );
        if (!balance) {
          const [id] = await bound.ids.next('stock_balances');
          balance = {
            id: id!,
            brandId,
            variantId: movement.variantId,
            locationId: movement.locationId,
            inStock: 0,
            reserved: 0,
            updatedAt: at,
          };
          state.stockBalances.push(balance);
        }
        balance.inStock += movement.inStockDelta;
        balance.reserved += movement.reservedDelta;
        balance.updatedAt = at;
        if (!touched.includes(balance)) touched.push(balance);
        state.stockMovements.push(clone({ ...movement, id: movementIds[index]!, createdAt: at }));
      }
      const wanted = new Set(touched.map((b) => b.variantId));
      const variants = new Map(
        state.variants.filter((v) => wanted.has(v.id) && v.brandId === brandId).map((v) => [v.id, v]),
      );
      return touched.map((balance): AppliedStock => {
        const variant = variants.get(balance.variantId);
        return { ...clone(balance), sku: variant?.sku ?? '', ean: variant?.ean ?? null };
      });
    }
  },
};
