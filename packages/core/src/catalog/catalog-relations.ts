// The related records the product and variant reads load for their includes (stock, cost price
// sets, categories, suppliers, translations, images, the variants' products), in batches for a
// whole page: shared by the lists, the single reads and the writes that answer with a detail.
import { StockBalance } from '../inventory/inventory.entities';
import { Supplier } from '../suppliers/supplier.entities';
import { Repositories } from '../shared/unit-of-work.ports';
import { settleAll } from '../shared/settle-all';
import {
  Category,
  CostPriceSet,
  Product,
  ProductAggregate,
  ProductImage,
  ProductLocale,
  VariantRecord,
} from './catalog.entities';
import { VariantRef } from './catalog.ports';

/** What the product reads use: the products and the relations their includes load. */
export type ProductReadRepositories = Pick<
  Repositories,
  'categories' | 'costPriceSets' | 'productImages' | 'productLocales' | 'products' | 'stock' | 'suppliers'
>;

type ProductRelationRepositories = Pick<
  Repositories,
  'categories' | 'costPriceSets' | 'productImages' | 'productLocales' | 'stock' | 'suppliers'
>;

/**
 * Records related to a page of products or variants, loaded in batches for what `includes`
 * asked for (empty maps otherwise). Presenters look related records up here by id.
 */
export interface CatalogRelations {
  /** Stock balances per variant id, at every location (`variants.inventory` / `inventory`). */
  stock: ReadonlyMap<number, StockBalance[]>;
  /** Cost price sets by id, to show a cost price's currency and label (`variants.cost_prices` / `cost_prices`). */
  costPriceSets: ReadonlyMap<number, CostPriceSet>;
  /** The products' categories and their parents by id (`categories`). */
  categories: ReadonlyMap<number, Category>;
  /** Linked suppliers by id (`suppliers`). */
  suppliers: ReadonlyMap<number, Supplier>;
  /** Product locales by id, to show a translation's locale code (`translations`). */
  locales: ReadonlyMap<number, ProductLocale>;
  /** Images per product id, ordered by `sort` (`images`). */
  images: ReadonlyMap<number, ProductImage[]>;
}

/** Relations with nothing loaded: for presenting catalog objects without includes. */
export function emptyCatalogRelations(): CatalogRelations {
  return {
    stock: new Map(),
    costPriceSets: new Map(),
    categories: new Map(),
    suppliers: new Map(),
    locales: new Map(),
    images: new Map(),
  };
}

/** Variant ids per balance query: well below the bound-parameter limits of SQLite and Postgres. */
const STOCK_BATCH = 500;

/** Stock balances of the variants at every location, grouped by variant id, in a few batched reads. */
export async function loadStockByVariant(
  repos: Pick<Repositories, 'stock'>,
  brandId: number,
  variantIds: number[],
): Promise<Map<number, StockBalance[]>> {
  const ids = [...new Set(variantIds)];
  const byVariant = new Map<number, StockBalance[]>();
  for (let start = 0; start < ids.length; start += STOCK_BATCH) {
    const balances = await repos.stock.balances(brandId, ids.slice(start, start + STOCK_BATCH));
    for (const balance of balances) {
      const list = byVariant.get(balance.variantId) ?? [];
      list.push(balance);
      byVariant.set(balance.variantId, list);
    }
  }
  for (const list of byVariant.values()) list.sort((a, b) => a.locationId - b.locationId);
  return byVariant;
}

/** Every cost price set of the brand by id (a brand has a handful). */
export async function loadCostPriceSets(
  repos: Pick<Repositories, 'costPriceSets'>,
  brandId: number,
): Promise<Map<number, CostPriceSet>> {
  return new Map((await repos.costPriceSets.all(brandId)).map((set) => [set.id, set]));
}

/** A nested include (`variants.prices`) needs its parent (`variants`) loaded and shown too. */
export function withParentIncludes(includes: readonly string[]): string[] {
  const result = [...includes];
  for (const name of includes) {
    const parent = name.split('.').slice(0, -1).join('.');
    if (parent !== '' && !result.includes(parent)) result.unshift(parent);
  }
  return result;
}

async function loadCategoriesWithParents(
  repos: Pick<Repositories, 'categories'>,
  brandId: number,
  ids: number[],
): Promise<Map<number, Category>> {
  const byId = new Map((await repos.categories.findByIds(brandId, ids)).map((c) => [c.id, c]));
  const parentIds = [
    ...new Set([...byId.values()].flatMap((c) => (c.parentId !== null && !byId.has(c.parentId) ? [c.parentId] : []))),
  ];
  if (parentIds.length > 0)
    for (const parent of await repos.categories.findByIds(brandId, parentIds)) byId.set(parent.id, parent);
  return byId;
}

function groupImages(images: ProductImage[]): Map<number, ProductImage[]> {
  const byProduct = new Map<number, ProductImage[]>();
  for (const image of images) {
    const list = byProduct.get(image.productId) ?? [];
    list.push(image);
    byProduct.set(image.productId, list);
  }
  for (const list of byProduct.values()) list.sort((a, b) => a.sort - b.sort || a.id - b.id);
  return byProduct;
}

/**
 * Loads what the product includes need for the given products, one batched read per kind:
 * stock of all their variants, cost price sets, categories (with parents), suppliers,
 * translation locales and images.
 */
export async function loadProductRelations(
  repos: ProductRelationRepositories,
  brandId: number,
  products: ProductAggregate[],
  includes: readonly string[],
): Promise<CatalogRelations> {
  const wants = (name: string) => includes.includes(name);
  const relations = emptyCatalogRelations();
  if (products.length === 0) return relations;
  const productIds = products.map((a) => a.product.id);
  const variantIds = products.flatMap((a) => a.variants.map((v) => v.variant.id));
  const categoryIds = [...new Set(products.flatMap((a) => a.product.categoryIds))];
  const supplierIds = [...new Set(products.flatMap((a) => a.suppliers.map((s) => s.supplierId)))];
  const localeIds = [...new Set(products.flatMap((a) => a.translations.map((t) => t.localeId)))];

  const [stock, costPriceSets, categories, suppliers, locales, images] = await settleAll([
    wants('variants.inventory') && variantIds.length > 0
      ? loadStockByVariant(repos, brandId, variantIds)
      : relations.stock,
    wants('variants.cost_prices') ? loadCostPriceSets(repos, brandId) : relations.costPriceSets,
    wants('categories') && categoryIds.length > 0
      ? loadCategoriesWithParents(repos, brandId, categoryIds)
      : relations.categories,
    // The supplier port reads one supplier at a time; a page links few distinct suppliers.
    wants('suppliers') && supplierIds.length > 0
      ? settleAll(supplierIds.map((id) => repos.suppliers.findById(brandId, id))).then(
          (found) => new Map(found.flatMap((s): [number, Supplier][] => (s ? [[s.id, s]] : []))),
        )
      : relations.suppliers,
    wants('translations') && localeIds.length > 0
      ? repos.productLocales.findByIds(brandId, localeIds).then((found) => new Map(found.map((l) => [l.id, l])))
      : relations.locales,
    wants('images') ? repos.productImages.findByProductIds(brandId, productIds).then(groupImages) : relations.images,
  ]);
  return { stock, costPriceSets, categories, suppliers, locales, images };
}

/** What the variant includes (`prices`, `inventory`, `cost_prices`, `product`) need, by id. */
export interface VariantRelations extends CatalogRelations {
  /** The variants' prices and cost prices by variant id (`prices`, `cost_prices`). */
  records: ReadonlyMap<number, VariantRecord>;
  /** The variants' products by id (`product`). */
  products: ReadonlyMap<number, Product>;
}

/** Product ids per read of whole aggregates. */
const PRODUCT_BATCH = 200;

/**
 * Loads what the variant includes need, one batched read per kind: the variants' products
 * (whose aggregates carry the prices and cost prices), stock balances and cost price sets.
 */
export async function loadVariantRelations(
  repos: Pick<Repositories, 'costPriceSets' | 'products' | 'stock'>,
  brandId: number,
  variants: VariantRef[],
  includes: readonly string[],
): Promise<VariantRelations> {
  const wants = (name: string) => includes.includes(name);
  const base = emptyCatalogRelations();
  const records = new Map<number, VariantRecord>();
  const products = new Map<number, Product>();
  if (variants.length > 0 && (wants('prices') || wants('cost_prices') || wants('product'))) {
    const productIds = [...new Set(variants.map((v) => v.variant.productId))];
    const wanted = new Set(variants.map((v) => v.variant.id));
    for (let start = 0; start < productIds.length; start += PRODUCT_BATCH) {
      for (const aggregate of await repos.products.findByIds(brandId, productIds.slice(start, start + PRODUCT_BATCH))) {
        products.set(aggregate.product.id, aggregate.product);
        for (const record of aggregate.variants)
          if (wanted.has(record.variant.id)) records.set(record.variant.id, record);
      }
    }
  }
  const [stock, costPriceSets] = await settleAll([
    wants('inventory') && variants.length > 0
      ? loadStockByVariant(
          repos,
          brandId,
          variants.map((v) => v.variant.id),
        )
      : base.stock,
    wants('cost_prices') ? loadCostPriceSets(repos, brandId) : base.costPriceSets,
  ]);
  return { ...base, stock, costPriceSets, records, products };
}
