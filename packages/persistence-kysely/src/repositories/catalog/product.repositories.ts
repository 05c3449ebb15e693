import { DomainError, ProductRepository, VariantRef, settleAll } from '@brand/core';
import { Kysely, Selectable, sql } from 'kysely';
import { Database } from '../../database';
import { brandTableList, fetchListPage, ListColumns, ListSource } from '../../listing/list-sql';
import { isForeignKeyViolation } from '../../storage-errors';
import { ProductsTable, VariantsTable } from '../../tables/catalog.tables';
import { runInChunks, selectInChunks, unique } from '../batches';
import { bulkInsert, upsertByIdWithinBrand } from '../bulk-insert';
import { DependentTable, PRODUCT_DEPENDENTS, VARIANT_DEPENDENTS } from '../dependents';
import { Executor } from '../executor';
import { adjustRowCount, rowCountSql } from '../row-counts';
import {
  AggregateParts,
  aggregatesFromRows,
  costPriceToRow,
  FULL_AGGREGATE,
  loadPrices,
  priceToRow,
  productToRow,
  rowToProduct,
  rowToVariant,
  supplierLinkToRow,
  translationToRow,
  variantsFromRows,
  variantToRow,
} from './product-rows';
import { KeptStatement, runKept } from '../kept-statements';

/** The list keys of `productListDefinition` / `legacyProductListDefinition`. */
const PRODUCT_COLUMNS: ListColumns = {
  id: { column: 'products.id', type: 'integer' },
  item_number: { column: 'products.item_number', type: 'string' },
  name: { column: 'products.name', type: 'string' },
  active: { column: 'products.active', type: 'boolean' },
  no_inventory: { column: 'products.no_inventory', type: 'boolean' },
  noos: { column: 'products.noos', type: 'boolean' },
  collection_id: { column: 'products.collection_id', type: 'integer' },
  subbrand_id: { column: 'products.subbrand_id', type: 'integer' },
  release_date: { column: 'products.release_date', type: 'string' },
  created_at: { column: 'products.created_at', type: 'datetime' },
  updated_at: { column: 'products.updated_at', type: 'datetime' },
};

/** The list keys of `variantListDefinition`. */
const VARIANT_COLUMNS: ListColumns = {
  id: { column: 'variants.id', type: 'integer' },
  sku: { column: 'variants.sku', type: 'string' },
  ean: { column: 'variants.ean', type: 'string' },
  product_id: { column: 'variants.product_id', type: 'integer' },
  item_number: { column: 'products.item_number', type: 'string' },
  archived: { column: 'variants.archived', type: 'boolean' },
  b2c_available: { column: 'variants.b2c_available', type: 'boolean' },
  created_at: { column: 'variants.created_at', type: 'datetime' },
  updated_at: { column: 'variants.updated_at', type: 'datetime' },
};

const PRODUCT_LIST = brandTableList('products', PRODUCT_COLUMNS, 'products');

/** Variants with their product's item number, which their references carry. */
const variantRefs = (db: Kysely<Database>, brandId: number) =>
  db
    .selectFrom('variants')
    .innerJoin('products', (join) =>
      join.onRef('products.brand_id', '=', 'variants.brand_id').onRef('products.id', '=', 'variants.product_id'),
    )
    .selectAll('variants')
    .select('products.item_number')
    .where('variants.brand_id', '=', brandId);

const VARIANT_LIST: ListSource<Awaited<ReturnType<ReturnType<typeof variantRefs>['execute']>>[number]> = {
  columns: VARIANT_COLUMNS,
  base: variantRefs,
  rowCount: (brandId) => rowCountSql(brandId, 'variants'),
};

/** Columns an upsert overwrites on an existing row (never the id, the brand or the creation time). */
const PRODUCT_UPDATE_COLUMNS = [
  'item_number',
  'name',
  'description',
  'active',
  'make_to_order_b2b',
  'make_to_order_b2c',
  'meta',
  'weight',
  'weight_type',
  'no_inventory',
  'release_date',
  'noos',
  'min_order_quantity',
  'custom_sort',
  'order_colli_only',
  'colli',
  'url',
  'meta_title',
  'meta_description',
  'tags',
  'use_sort_b2c',
  'subbrand_id',
  'collection_id',
  'updated_at',
] as const satisfies readonly (keyof ProductsTable)[];

const VARIANT_UPDATE_COLUMNS = [
  'product_id',
  'sku',
  'ean',
  'attributes',
  'archived',
  'b2c_available',
  'make_to_order_b2b',
  'make_to_order_b2c',
  'noos',
  'weight',
  'weight_type',
  'release_date',
  'meta',
  'picture',
  'position',
  'updated_at',
] as const satisfies readonly (keyof VariantsTable)[];

const PRODUCT_UPSERT = upsertByIdWithinBrand('products', PRODUCT_UPDATE_COLUMNS);
const VARIANT_UPSERT = upsertByIdWithinBrand('variants', VARIANT_UPDATE_COLUMNS);

/**
 * What a list loads: the product with its category ids, supplier links and translations (a
 * query each for the whole page), and the variants with their prices and cost prices only when
 * an include asks for variants — they are most of an aggregate's rows.
 */
function partsFor(includes: string[]): AggregateParts {
  const variants = includes.some((i) => i === 'variants' || i.startsWith('variants.'));
  return { variants, prices: variants, costPrices: variants, suppliers: true, translations: true };
}

// The plain reads of placing an order (never locked: it reads the catalog, it does not change it).
const VARIANTS_BY_SKU: KeptStatement<Selectable<VariantsTable>> = (db, [brandId, ...skus]) =>
  db.selectFrom('variants').selectAll().where('brand_id', '=', brandId).where('sku', 'in', skus);
const VARIANTS_BY_EAN: KeptStatement<Selectable<VariantsTable>> = (db, [brandId, ...eans]) =>
  db.selectFrom('variants').selectAll().where('brand_id', '=', brandId).where('ean', 'in', eans);
const PRODUCTS_BY_ID: KeptStatement<Selectable<ProductsTable>> = (db, [brandId, ...ids]) =>
  db.selectFrom('products').selectAll().where('brand_id', '=', brandId).where('id', 'in', ids);

export function productRepository(executor: Executor): ProductRepository {
  const { db, dialect } = executor;

  const variantRefsFrom = async (
    brandId: number,
    rows: (Selectable<VariantsTable> & { item_number: string })[],
  ): Promise<VariantRef[]> => {
    const variants = await variantsFromRows(executor, brandId, rows);
    return variants.map((variant, i) => ({ variant, itemNumber: rows[i]!.item_number }));
  };

  const variantRefsWhere = (brandId: number) => variantRefs(db, brandId);

  /** Labels of the dependent tables holding a row that refers to one of `ids`. */
  const dependentsIn = async (dependents: DependentTable[], brandId: number, ids: number[]): Promise<string[]> => {
    const found: string[] = [];
    if (ids.length === 0) return found;
    for (const d of dependents) {
      const row = await sql<{
        one: number;
      }>`select 1 as one from ${sql.table(d.table)} where brand_id = ${brandId} and ${sql.ref(d.column)} in (${sql.join(ids)}) limit 1`.execute(
        db,
      );
      if (row.rows.length > 0 && !found.includes(d.label)) found.push(d.label);
    }
    return found;
  };

  /**
   * Inside a Postgres transaction the products read are locked until it ends (in id order, so two
   * writers cannot deadlock): a product sync and an image sync of the same product then run one
   * after the other instead of the later one overwriting the earlier one's changes with what it
   * read before. SQLite transactions are serialised already; plain reads take no lock.
   */
  const lockedInTransaction = <Q extends { orderBy(column: 'id'): Q; forUpdate(): Q }>(query: Q): Q =>
    dialect === 'postgres' && db.isTransaction ? query.orderBy('id').forUpdate() : query;

  return {
    async findByItemNumbers(brandId, itemNumbers) {
      const rows = await selectInChunks(unique(itemNumbers), (numbers) =>
        lockedInTransaction(
          db.selectFrom('products').selectAll().where('brand_id', '=', brandId).where('item_number', 'in', numbers),
        ).execute(),
      );
      rows.sort((a, b) => Number(a.id) - Number(b.id));
      return aggregatesFromRows(executor, brandId, rows, FULL_AGGREGATE);
    },

    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        lockedInTransaction(
          db.selectFrom('products').selectAll().where('brand_id', '=', brandId).where('id', 'in', chunk),
        ).execute(),
      );
      rows.sort((a, b) => Number(a.id) - Number(b.id));
      return aggregatesFromRows(executor, brandId, rows, FULL_AGGREGATE);
    },

    async findByCategoryIds(brandId, categoryIds) {
      const links = await selectInChunks(unique(categoryIds), (chunk) =>
        db
          .selectFrom('product_categories')
          .select('product_id')
          .where('brand_id', '=', brandId)
          .where('category_id', 'in', chunk)
          .execute(),
      );
      const productIds = unique(links.map((l) => Number(l.product_id)));
      const rows = await selectInChunks(productIds, (chunk) =>
        db.selectFrom('products').selectAll().where('brand_id', '=', brandId).where('id', 'in', chunk).execute(),
      );
      rows.sort((a, b) => Number(a.id) - Number(b.id));
      return aggregatesFromRows(executor, brandId, rows, FULL_AGGREGATE);
    },

    async findVariantsBySkus(brandId, skus) {
      const rows = await selectInChunks(unique(skus), (chunk) =>
        variantRefsWhere(brandId).where('variants.sku', 'in', chunk).execute(),
      );
      rows.sort((a, b) => Number(a.id) - Number(b.id));
      return variantRefsFrom(brandId, rows);
    },

    async findVariantsByEans(brandId, eans) {
      const rows = await selectInChunks(unique(eans), (chunk) =>
        variantRefsWhere(brandId).where('variants.ean', 'in', chunk).execute(),
      );
      rows.sort((a, b) => Number(a.id) - Number(b.id));
      return variantRefsFrom(brandId, rows);
    },

    async findVariantsByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        variantRefsWhere(brandId).where('variants.id', 'in', chunk).execute(),
      );
      rows.sort((a, b) => Number(a.id) - Number(b.id));
      return variantRefsFrom(brandId, rows);
    },

    async findSaleableVariants(brandId, keys) {
      // Three plain reads (variants, their products, their prices), never locked: placing an
      // order reads the catalog, it does not change it.
      const bySku = await selectInChunks(unique(keys.skus ?? []), (chunk) =>
        runKept(executor, VARIANTS_BY_SKU, [brandId, ...chunk]),
      );
      const byEan = await selectInChunks(unique(keys.eans ?? []), (chunk) =>
        runKept(executor, VARIANTS_BY_EAN, [brandId, ...chunk]),
      );
      const variantRows = [...new Map([...bySku, ...byEan].map((r) => [Number(r.id), r])).values()].sort(
        (a, b) => Number(a.id) - Number(b.id),
      );
      if (variantRows.length === 0) return [];
      const variantIds = variantRows.map((r) => Number(r.id));
      const [productRows, prices] = await settleAll([
        selectInChunks(unique(variantRows.map((r) => Number(r.product_id))), (chunk) =>
          runKept(executor, PRODUCTS_BY_ID, [brandId, ...chunk]),
        ),
        loadPrices(executor, brandId, variantIds),
      ]);
      const products = new Map(productRows.map((r) => [Number(r.id), r]));
      return variantRows.map((r) => {
        const { dropIds: _dropIds, ...variant } = rowToVariant(r, []);
        const { categoryIds: _categoryIds, ...product } = rowToProduct(products.get(Number(r.product_id))!, []);
        return { variant, product, prices: prices.get(variant.id) ?? [] };
      });
    },

    async saveAll(brandId, aggregates) {
      if (aggregates.length === 0) return;
      const productRows = aggregates.map((a) => productToRow(brandId, a.product));
      const variantEntries = aggregates.flatMap((a) =>
        a.variants.map((record) => ({ productId: a.product.id, record })),
      );
      const variantRows = variantEntries.map(({ productId, record }) =>
        variantToRow(brandId, productId, record.variant),
      );
      const productIds = productRows.map((r) => r.id);
      const variantIds = variantRows.map((r) => r.id);

      // Which rows exist already: new rows move the row counters and have no children to clear.
      const [existingProducts, existingVariants] = await settleAll([
        selectInChunks(productIds, (ids) =>
          db.selectFrom('products').select('id').where('brand_id', '=', brandId).where('id', 'in', ids).execute(),
        ),
        selectInChunks(variantIds, (ids) =>
          db.selectFrom('variants').select('id').where('brand_id', '=', brandId).where('id', 'in', ids).execute(),
        ),
      ]);
      const oldProductIds = existingProducts.map((r) => Number(r.id));
      const oldVariantIds = existingVariants.map((r) => Number(r.id));

      // Upserts by (brand_id, id): a row of another brand is a different key, never touched.
      await bulkInsert(executor, 'products', productRows, { conflict: PRODUCT_UPSERT });
      await bulkInsert(executor, 'variants', variantRows, { conflict: VARIANT_UPSERT });

      // Make the children equal to the aggregate: clear those of rows that existed, insert the new sets.
      await runInChunks(oldProductIds, async (ids) => {
        await db
          .deleteFrom('product_categories')
          .where('brand_id', '=', brandId)
          .where('product_id', 'in', ids)
          .execute();
        await db
          .deleteFrom('product_suppliers')
          .where('brand_id', '=', brandId)
          .where('product_id', 'in', ids)
          .execute();
        await db
          .deleteFrom('product_translations')
          .where('brand_id', '=', brandId)
          .where('product_id', 'in', ids)
          .execute();
      });
      await runInChunks(oldVariantIds, async (ids) => {
        await db.deleteFrom('variant_prices').where('brand_id', '=', brandId).where('variant_id', 'in', ids).execute();
        await db
          .deleteFrom('variant_cost_prices')
          .where('brand_id', '=', brandId)
          .where('variant_id', 'in', ids)
          .execute();
        await db.deleteFrom('variant_drops').where('brand_id', '=', brandId).where('variant_id', 'in', ids).execute();
      });

      await bulkInsert(
        executor,
        'product_categories',
        aggregates.flatMap((a) =>
          unique(a.product.categoryIds).map((categoryId) => ({
            brand_id: brandId,
            product_id: a.product.id,
            category_id: categoryId,
          })),
        ),
      );
      await bulkInsert(
        executor,
        'product_suppliers',
        aggregates.flatMap((a) => a.suppliers.map((s) => supplierLinkToRow(brandId, a.product.id, s))),
      );
      await bulkInsert(
        executor,
        'product_translations',
        aggregates.flatMap((a) => a.translations.map((t) => translationToRow(brandId, a.product.id, t))),
      );
      await bulkInsert(
        executor,
        'variant_prices',
        variantEntries.flatMap(({ record }) => record.prices.map((p) => priceToRow(brandId, record.variant.id, p))),
      );
      await bulkInsert(
        executor,
        'variant_cost_prices',
        variantEntries.flatMap(({ record }) =>
          record.costPrices.map((c) => costPriceToRow(brandId, record.variant.id, c)),
        ),
      );
      await bulkInsert(
        executor,
        'variant_drops',
        variantEntries.flatMap(({ record }) =>
          unique(record.variant.dropIds).map((dropId) => ({
            brand_id: brandId,
            variant_id: record.variant.id,
            drop_id: dropId,
          })),
        ),
      );

      await adjustRowCount(executor, brandId, 'products', unique(productIds).length - oldProductIds.length);
      await adjustRowCount(executor, brandId, 'variants', unique(variantIds).length - oldVariantIds.length);
    },

    async deleteProduct(brandId, productId) {
      try {
        const variants = await db
          .selectFrom('variants')
          .select(sql<number>`count(*)`.as('n'))
          .where('brand_id', '=', brandId)
          .where('product_id', '=', productId)
          .executeTakeFirst();
        // Variants, prices, images, balances and ledger rows go with it (ON DELETE CASCADE).
        const deleted = await db
          .deleteFrom('products')
          .where('brand_id', '=', brandId)
          .where('id', '=', productId)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) > 0) {
          await adjustRowCount(executor, brandId, 'products', -1);
          await adjustRowCount(executor, brandId, 'variants', -Number(variants?.n ?? 0));
        }
      } catch (error) {
        if (isForeignKeyViolation(error))
          throw new DomainError('has_dependents', `product ${productId} still has dependent data`);
        throw error;
      }
    },

    async deleteVariant(brandId, variantId) {
      try {
        const deleted = await db
          .deleteFrom('variants')
          .where('brand_id', '=', brandId)
          .where('id', '=', variantId)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) > 0) await adjustRowCount(executor, brandId, 'variants', -1);
      } catch (error) {
        if (isForeignKeyViolation(error))
          throw new DomainError('has_dependents', `variant ${variantId} still has dependent data`);
        throw error;
      }
    },

    async dependentsOfProduct(brandId, productId) {
      const variantIds = (
        await db
          .selectFrom('variants')
          .select('id')
          .where('brand_id', '=', brandId)
          .where('product_id', '=', productId)
          .execute()
      ).map((r) => Number(r.id));
      const labels = [
        ...(await dependentsIn(PRODUCT_DEPENDENTS, brandId, [productId])),
        ...(await dependentsIn(VARIANT_DEPENDENTS, brandId, variantIds)),
      ];
      return unique(labels);
    },

    async dependentsOfVariant(brandId, variantId) {
      return dependentsIn(VARIANT_DEPENDENTS, brandId, [variantId]);
    },

    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, PRODUCT_LIST, brandId, query);
      return { rows: await aggregatesFromRows(executor, brandId, rows, partsFor(query.includes)), total };
    },

    async listVariants(brandId, query) {
      const { rows, total } = await fetchListPage(executor, VARIANT_LIST, brandId, query);
      return { rows: await variantRefsFrom(brandId, rows), total };
    },
  };
}
