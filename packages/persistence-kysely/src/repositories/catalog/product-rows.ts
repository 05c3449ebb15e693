import {
  LeadTimeType,
  Meta,
  Product,
  ProductAggregate,
  ProductSupplierLink,
  ProductTranslation,
  Variant,
  VariantCostPrice,
  VariantPrice,
  VariantRecord,
  WeightUnit,
  settleAll,
} from '@brand/core';
import { Selectable } from 'kysely';
import {
  ProductsTable,
  ProductSuppliersTable,
  ProductTranslationsTable,
  VariantCostPricesTable,
  VariantPricesTable,
  VariantsTable,
} from '../../tables/catalog.tables';
import { groupBy, selectInChunks } from '../batches';
import { Executor, fromFlag, toFlag } from '../executor';
import { fromJson, fromNullableFlag, toJson, toNullableFlag, toNullableNumber } from '../json-columns';
import { KeptStatement, runKept } from '../kept-statements';

// ---- mappers ----------------------------------------------------------------------------------

export const rowToProduct = (r: Selectable<ProductsTable>, categoryIds: number[]): Product => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  itemNumber: r.item_number,
  name: r.name,
  description: r.description,
  active: fromFlag(r.active),
  makeToOrderB2b: fromFlag(r.make_to_order_b2b),
  makeToOrderB2c: fromFlag(r.make_to_order_b2c),
  meta: fromJson<Meta>(r.meta, {}),
  weight: toNullableNumber(r.weight),
  weightType: r.weight_type as WeightUnit,
  noInventory: fromFlag(r.no_inventory),
  releaseDate: r.release_date,
  noos: fromFlag(r.noos),
  minOrderQuantity: toNullableNumber(r.min_order_quantity),
  customSort: toNullableNumber(r.custom_sort),
  orderColliOnly: fromFlag(r.order_colli_only),
  colli: fromJson<number[]>(r.colli, []),
  url: r.url,
  metaTitle: r.meta_title,
  metaDescription: r.meta_description,
  tags: fromJson<string[]>(r.tags, []),
  useSortB2c: fromFlag(r.use_sort_b2c),
  subbrandId: toNullableNumber(r.subbrand_id),
  collectionId: toNullableNumber(r.collection_id),
  categoryIds,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The row of a product; `brandId` is the caller's brand, never taken from the entity alone. */
export const productToRow = (brandId: number, p: Product): Selectable<ProductsTable> => ({
  id: p.id,
  brand_id: brandId,
  item_number: p.itemNumber,
  name: p.name,
  description: p.description,
  active: toFlag(p.active),
  make_to_order_b2b: toFlag(p.makeToOrderB2b),
  make_to_order_b2c: toFlag(p.makeToOrderB2c),
  meta: toJson(p.meta),
  weight: p.weight,
  weight_type: p.weightType,
  no_inventory: toFlag(p.noInventory),
  release_date: p.releaseDate,
  noos: toFlag(p.noos),
  min_order_quantity: p.minOrderQuantity,
  custom_sort: p.customSort,
  order_colli_only: toFlag(p.orderColliOnly),
  colli: toJson(p.colli),
  url: p.url,
  meta_title: p.metaTitle,
  meta_description: p.metaDescription,
  tags: toJson(p.tags),
  use_sort_b2c: toFlag(p.useSortB2c),
  subbrand_id: p.subbrandId,
  collection_id: p.collectionId,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
});

export const rowToVariant = (r: Selectable<VariantsTable>, dropIds: number[]): Variant => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  productId: Number(r.product_id),
  sku: r.sku,
  ean: r.ean,
  attributes: fromJson<Record<string, string>>(r.attributes, {}),
  archived: fromFlag(r.archived),
  b2cAvailable: fromFlag(r.b2c_available),
  makeToOrderB2b: fromNullableFlag(r.make_to_order_b2b),
  makeToOrderB2c: fromNullableFlag(r.make_to_order_b2c),
  noos: fromNullableFlag(r.noos),
  weight: toNullableNumber(r.weight),
  weightType: r.weight_type as WeightUnit | null,
  releaseDate: r.release_date,
  meta: fromJson<Meta>(r.meta, {}),
  picture: r.picture,
  position: Number(r.position),
  dropIds,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const variantToRow = (brandId: number, productId: number, v: Variant): Selectable<VariantsTable> => ({
  id: v.id,
  brand_id: brandId,
  product_id: productId,
  sku: v.sku,
  ean: v.ean,
  attributes: toJson(v.attributes),
  archived: toFlag(v.archived),
  b2c_available: toFlag(v.b2cAvailable),
  make_to_order_b2b: toNullableFlag(v.makeToOrderB2b),
  make_to_order_b2c: toNullableFlag(v.makeToOrderB2c),
  noos: toNullableFlag(v.noos),
  weight: v.weight,
  weight_type: v.weightType,
  release_date: v.releaseDate,
  meta: toJson(v.meta),
  picture: v.picture,
  position: v.position,
  created_at: v.createdAt,
  updated_at: v.updatedAt,
});

const rowToPrice = (r: Selectable<VariantPricesTable>): VariantPrice => ({
  variantId: Number(r.variant_id),
  currency: r.currency,
  salesPrice: Number(r.sales_price),
  recSalesPrice: Number(r.rec_sales_price),
  offerPrice: toNullableNumber(r.offer_price),
  b2cOfferPrice: toNullableNumber(r.b2c_offer_price),
});

export const priceToRow = (brandId: number, variantId: number, p: VariantPrice): Selectable<VariantPricesTable> => ({
  brand_id: brandId,
  variant_id: variantId,
  currency: p.currency,
  sales_price: p.salesPrice,
  rec_sales_price: p.recSalesPrice,
  offer_price: p.offerPrice,
  b2c_offer_price: p.b2cOfferPrice,
});

const rowToCostPrice = (r: Selectable<VariantCostPricesTable>): VariantCostPrice => ({
  variantId: Number(r.variant_id),
  costPriceSetId: Number(r.cost_price_set_id),
  costPrice: Number(r.cost_price),
});

export const costPriceToRow = (
  brandId: number,
  variantId: number,
  c: VariantCostPrice,
): Selectable<VariantCostPricesTable> => ({
  brand_id: brandId,
  variant_id: variantId,
  cost_price_set_id: c.costPriceSetId,
  cost_price: c.costPrice,
});

const rowToSupplierLink = (r: Selectable<ProductSuppliersTable>): ProductSupplierLink => ({
  productId: Number(r.product_id),
  supplierId: Number(r.supplier_id),
  primary: fromFlag(r.is_primary),
  leadTimeType: r.lead_time_type as LeadTimeType,
  leadTimeFrom: toNullableNumber(r.lead_time_from),
  leadTimeTo: toNullableNumber(r.lead_time_to),
  costPriceSetId: toNullableNumber(r.cost_price_set_id),
});

export const supplierLinkToRow = (
  brandId: number,
  productId: number,
  s: ProductSupplierLink,
): Selectable<ProductSuppliersTable> => ({
  brand_id: brandId,
  product_id: productId,
  supplier_id: s.supplierId,
  is_primary: toFlag(s.primary),
  lead_time_type: s.leadTimeType,
  lead_time_from: s.leadTimeFrom,
  lead_time_to: s.leadTimeTo,
  cost_price_set_id: s.costPriceSetId,
});

const rowToTranslation = (r: Selectable<ProductTranslationsTable>): ProductTranslation => ({
  productId: Number(r.product_id),
  localeId: Number(r.locale_id),
  name: r.name,
  description: r.description,
  metaTitle: r.meta_title,
  metaDescription: r.meta_description,
});

export const translationToRow = (
  brandId: number,
  productId: number,
  t: ProductTranslation,
): Selectable<ProductTranslationsTable> => ({
  brand_id: brandId,
  product_id: productId,
  locale_id: t.localeId,
  name: t.name,
  description: t.description,
  meta_title: t.metaTitle,
  meta_description: t.metaDescription,
});

/** Code-point order (`<` on strings), as the in-memory adapter sorts text keys. */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// ---- batched loaders: one query per table for the whole set ---------------------------------

/** What to load besides the product rows (and their category ids, which are part of `Product`). */
export interface AggregateParts {
  variants: boolean;
  prices: boolean;
  costPrices: boolean;
  suppliers: boolean;
  translations: boolean;
}

export const FULL_AGGREGATE: AggregateParts = {
  variants: true,
  prices: true,
  costPrices: true,
  suppliers: true,
  translations: true,
};

/** Category ids per product, ascending. */
async function loadCategoryIds(
  { db }: Executor,
  brandId: number,
  productIds: number[],
): Promise<Map<number, number[]>> {
  const rows = await selectInChunks(productIds, (ids) =>
    db
      .selectFrom('product_categories')
      .select(['product_id', 'category_id'])
      .where('brand_id', '=', brandId)
      .where('product_id', 'in', ids)
      .orderBy('product_id')
      .orderBy('category_id')
      .execute(),
  );
  const byProduct = new Map<number, number[]>();
  for (const r of rows) {
    const list = byProduct.get(Number(r.product_id));
    if (list) list.push(Number(r.category_id));
    else byProduct.set(Number(r.product_id), [Number(r.category_id)]);
  }
  return byProduct;
}

/** Drop ids per variant, ascending. */
export async function loadDropIds(
  { db }: Executor,
  brandId: number,
  variantIds: number[],
): Promise<Map<number, number[]>> {
  const rows = await selectInChunks(variantIds, (ids) =>
    db
      .selectFrom('variant_drops')
      .select(['variant_id', 'drop_id'])
      .where('brand_id', '=', brandId)
      .where('variant_id', 'in', ids)
      .orderBy('variant_id')
      .orderBy('drop_id')
      .execute(),
  );
  const byVariant = new Map<number, number[]>();
  for (const r of rows) {
    const list = byVariant.get(Number(r.variant_id));
    if (list) list.push(Number(r.drop_id));
    else byVariant.set(Number(r.variant_id), [Number(r.drop_id)]);
  }
  return byVariant;
}

/** Variants (with their drop ids) from rows, in the rows' order. */
export async function variantsFromRows(
  executor: Executor,
  brandId: number,
  rows: Selectable<VariantsTable>[],
): Promise<Variant[]> {
  const drops = await loadDropIds(
    executor,
    brandId,
    rows.map((r) => Number(r.id)),
  );
  return rows.map((r) => rowToVariant(r, drops.get(Number(r.id)) ?? []));
}

// Unordered: the rows are sorted below anyway, and SQLite's ORDER BY over an IN list cost as much
// as the lookup itself.
const PRICES_OF_VARIANTS: KeptStatement<Selectable<VariantPricesTable>> = (db, [brandId, ...variantIds]) =>
  db.selectFrom('variant_prices').selectAll().where('brand_id', '=', brandId).where('variant_id', 'in', variantIds);

/** The prices of the variants by variant id, currencies in code-point order whatever the database's collation. */

export async function loadPrices(
  executor: Executor,
  brandId: number,
  variantIds: number[],
): Promise<Map<number, VariantPrice[]>> {
  const rows = await selectInChunks(variantIds, (ids) => runKept(executor, PRICES_OF_VARIANTS, [brandId, ...ids]));
  return groupBy(
    rows.map(rowToPrice).sort((a, b) => a.variantId - b.variantId || compareText(a.currency, b.currency)),
    (p) => p.variantId,
  );
}

/**
 * Turns product rows into aggregates with a fixed number of queries whatever the number of
 * products: one per child table asked for. Orders, as every adapter promises: variants by
 * (position, id), prices by currency, cost prices by set id, supplier links by supplier id,
 * translations by locale id, category and drop ids ascending.
 */
export async function aggregatesFromRows(
  executor: Executor,
  brandId: number,
  productRows: Selectable<ProductsTable>[],
  parts: AggregateParts,
): Promise<ProductAggregate[]> {
  if (productRows.length === 0) return [];
  const { db } = executor;
  const productIds = productRows.map((r) => Number(r.id));
  const [categoryIds, supplierRows, translationRows, variantRows] = await settleAll([
    loadCategoryIds(executor, brandId, productIds),
    parts.suppliers
      ? selectInChunks(productIds, (ids) =>
          db
            .selectFrom('product_suppliers')
            .selectAll()
            .where('brand_id', '=', brandId)
            .where('product_id', 'in', ids)
            .orderBy('product_id')
            .orderBy('supplier_id')
            .execute(),
        )
      : Promise.resolve([]),
    parts.translations
      ? selectInChunks(productIds, (ids) =>
          db
            .selectFrom('product_translations')
            .selectAll()
            .where('brand_id', '=', brandId)
            .where('product_id', 'in', ids)
            .orderBy('product_id')
            .orderBy('locale_id')
            .execute(),
        )
      : Promise.resolve([]),
    parts.variants
      ? selectInChunks(productIds, (ids) =>
          db
            .selectFrom('variants')
            .selectAll()
            .where('brand_id', '=', brandId)
            .where('product_id', 'in', ids)
            .orderBy('product_id')
            .orderBy('position')
            .orderBy('id')
            .execute(),
        )
      : Promise.resolve([]),
  ]);
  const variantIds = variantRows.map((r) => Number(r.id));
  const [dropIds, prices, costPriceRows] = await settleAll([
    loadDropIds(executor, brandId, variantIds),
    parts.prices ? loadPrices(executor, brandId, variantIds) : Promise.resolve(new Map<number, VariantPrice[]>()),
    parts.costPrices
      ? selectInChunks(variantIds, (ids) =>
          db
            .selectFrom('variant_cost_prices')
            .selectAll()
            .where('brand_id', '=', brandId)
            .where('variant_id', 'in', ids)
            .orderBy('variant_id')
            .orderBy('cost_price_set_id')
            .execute(),
        )
      : Promise.resolve([]),
  ]);
  const costPrices = groupBy(costPriceRows.map(rowToCostPrice), (c) => c.variantId);
  const records = groupBy(
    variantRows.map((r): VariantRecord => {
      const id = Number(r.id);
      return {
        variant: rowToVariant(r, dropIds.get(id) ?? []),
        prices: prices.get(id) ?? [],
        costPrices: costPrices.get(id) ?? [],
      };
    }),
    (v) => v.variant.productId,
  );
  const suppliers = groupBy(supplierRows.map(rowToSupplierLink), (s) => s.productId);
  const translations = groupBy(translationRows.map(rowToTranslation), (t) => t.productId);
  return productRows.map((r) => {
    const id = Number(r.id);
    return {
      product: rowToProduct(r, categoryIds.get(id) ?? []),
      variants: records.get(id) ?? [],
      suppliers: suppliers.get(id) ?? [],
      translations: translations.get(id) ?? [],
    };
  });
}
