import { createBrand, parseDecimal, systemClock } from '@brand/core';
import BetterSqlite3 from 'better-sqlite3';
import { connectKysely, openStorage, parseDatabaseUrl } from '@brand/persistence-kysely';

type Batch = (
  from: number,
  to: number,
) => Array<{
  item_number: string;
  name: string;
  description: string;
  variants: Array<{
    sku: string;
    attributes: Record<string, string>;
    prices: Record<string, { sales_price: number; rec_sales_price: number }>;
    inventory: Array<{ quantity: number; text: string }>;
  }>;
}>;

/** Rows per insert statement: well under both dialects' bound-parameter limits. */
const CHUNK = 500;

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

/**
 * The baseline: the products, variants, prices, stock balances and ledger rows the sync writes,
 * inserted with plain batched Kysely inserts (one transaction per 100 products, ids counted in
 * memory, no validation, no reads). Returns the seconds it took.
 *
 * With `events`, it also writes the events the sync records in the same transactions (DESIGN
 * §10's outbox): `product.created` with the product, its variants and prices as the sync stores
 * them, and `inventory.changed` for each variant given stock. They are about half the bytes the
 * sync writes. Without `events` it is the baseline as issue 3 defined it, before events existed.
 */
export async function rawInsertCatalog(
  databaseUrl: string,
  products: number,
  perRequest: number,
  batch: Batch,
  options: { events?: boolean } = {},
): Promise<number> {
  const storage = await openStorage(databaseUrl);
  await storage.migrate();
  const brand = await createBrand({ uow: storage.uow, clock: systemClock }, { name: 'Raw brand', currency: 'EUR' });
  await storage.close();
  const db = connectKysely(parseDatabaseUrl(databaseUrl));
  const now = new Date().toISOString();
  await db
    .insertInto('inventory_locations')
    .values({ id: 1, brand_id: brand.id, name: 'Main warehouse', is_default: 1, created_at: now, updated_at: now })
    .execute();
  let productId = 0;
  let variantId = 0;
  let eventId = 0;
  let balanceId = 0;
  let movementId = 0;
  const started = process.hrtime.bigint();
  for (let from = 0; from < products; from += perRequest) {
    const items = batch(from, Math.min(products, from + perRequest));
    const productRows = items.map((p) => ({
      id: ++productId,
      brand_id: brand.id,
      item_number: p.item_number,
      name: p.name,
      description: p.description,
      active: 1,
      make_to_order_b2b: 0,
      make_to_order_b2c: 0,
      meta: '{}',
      weight: null,
      weight_type: 'g',
      no_inventory: 0,
      release_date: null,
      noos: 0,
      min_order_quantity: null,
      custom_sort: null,
      order_colli_only: 0,
      colli: '[]',
      url: null,
      meta_title: null,
      meta_description: null,
      tags: '[]',
      use_sort_b2c: 0,
      subbrand_id: null,
      collection_id: null,
      created_at: now,
      updated_at: now,
    }));
    const variantRows = items.flatMap((p, i) =>
      p.variants.map((v, index) => ({
        id: ++variantId,
        brand_id: brand.id,
        product_id: productRows[i]!.id,
        sku: v.sku,
        ean: null,
        attributes: JSON.stringify(v.attributes),
        archived: 0,
        b2c_available: 1,
        make_to_order_b2b: null,
        make_to_order_b2c: null,
        noos: null,
        weight: null,
        weight_type: null,
        release_date: null,
        meta: '{}',
        picture: null,
        // The sync numbers variants from 1; the baseline of issue 3 numbered them from 0.
        position: options.events ? index + 1 : index,
        created_at: now,
        updated_at: now,
      })),
    );
    const variants = items.flatMap((p) => p.variants);
    const priceRows = variants.flatMap((v, i) =>
      Object.entries(v.prices).map(([currency, price]) => ({
        brand_id: brand.id,
        variant_id: variantRows[i]!.id,
        currency,
        sales_price: parseDecimal(price.sales_price, 2)!,
        rec_sales_price: parseDecimal(price.rec_sales_price, 2)!,
        offer_price: null,
        b2c_offer_price: null,
      })),
    );
    // The sync writes no balance or ledger row for a quantity of 0, and draws their ids one after
    // another over the rows it writes; the baseline of issue 3 wrote every variant's, by variant id.
    const stockedVariants = variants
      .map((v, i) => ({
        quantity: v.inventory[0]!.quantity,
        text: v.inventory[0]!.text,
        variantId: variantRows[i]!.id,
      }))
      .filter((v) => !options.events || v.quantity !== 0);
    const balanceRows = stockedVariants.map((v) => ({
      id: options.events ? ++balanceId : v.variantId,
      brand_id: brand.id,
      variant_id: v.variantId,
      location_id: 1,
      in_stock: v.quantity,
      reserved: 0,
      updated_at: now,
    }));
    const movementRows = stockedVariants.map((v) => ({
      id: options.events ? ++movementId : v.variantId,
      brand_id: brand.id,
      variant_id: v.variantId,
      location_id: 1,
      in_stock_delta: v.quantity,
      reserved_delta: 0,
      reason: 'sync_quantity',
      note: v.text,
      document_type: null,
      document_id: null,
      user_id: null,
      created_at: now,
    }));
    // The events: their objects as the sync stores them (the core's entities, camelCase).
    const eventRows: { brand_id: number; id: number; type: string; object: string; created_at: string }[] = [];
    if (options.events) {
      const pricesOf = new Map<number, typeof priceRows>();
      for (const price of priceRows) pricesOf.set(price.variant_id, [...(pricesOf.get(price.variant_id) ?? []), price]);
      const skuOf = new Map(variantRows.map((variant) => [variant.id, variant.sku]));
      let first = 0;
      for (const [i, product] of productRows.entries()) {
        const own = variantRows.slice(first, first + items[i]!.variants.length);
        first += own.length;
        const object = {
          product: {
            id: product.id,
            brandId: brand.id,
            itemNumber: product.item_number,
            name: product.name,
            description: product.description,
            active: true,
            makeToOrderB2b: false,
            makeToOrderB2c: false,
            meta: {},
            weight: null,
            weightType: 'g',
            noInventory: false,
            releaseDate: null,
            noos: false,
            minOrderQuantity: null,
            customSort: null,
            orderColliOnly: false,
            colli: [],
            url: null,
            metaTitle: null,
            metaDescription: null,
            tags: [],
            useSortB2c: false,
            subbrandId: null,
            collectionId: null,
            categoryIds: [],
            createdAt: now,
            updatedAt: now,
          },
          variants: own.map((variant, index) => ({
            variant: {
              id: variant.id,
              brandId: brand.id,
              productId: product.id,
              sku: variant.sku,
              ean: null,
              attributes: items[i]!.variants[index]!.attributes,
              archived: false,
              b2cAvailable: true,
              makeToOrderB2b: null,
              makeToOrderB2c: null,
              noos: null,
              weight: null,
              weightType: null,
              releaseDate: null,
              meta: {},
              picture: null,
              position: variant.position,
              dropIds: [],
              createdAt: now,
              updatedAt: now,
            },
            prices: (pricesOf.get(variant.id) ?? []).map((price) => ({
              variantId: variant.id,
              currency: price.currency,
              salesPrice: price.sales_price,
              recSalesPrice: price.rec_sales_price,
              offerPrice: null,
              b2cOfferPrice: null,
            })),
            costPrices: [],
          })),
          suppliers: [],
          translations: [],
        };
        eventRows.push({
          brand_id: brand.id,
          id: ++eventId,
          type: 'product.created',
          object: JSON.stringify(object),
          created_at: now,
        });
      }
      for (const balance of balanceRows) {
        const object = {
          id: balance.id,
          variantId: balance.variant_id,
          sku: skuOf.get(balance.variant_id)!,
          ean: null,
          locationId: balance.location_id,
          inStock: balance.in_stock,
          available: balance.in_stock - balance.reserved,
          updatedAt: now,
        };
        eventRows.push({
          brand_id: brand.id,
          id: ++eventId,
          type: 'inventory.changed',
          object: JSON.stringify(object),
          created_at: now,
        });
      }
    }
    await db.transaction().execute(async (tx) => {
      for (const rows of chunks(productRows)) await tx.insertInto('products').values(rows).execute();
      for (const rows of chunks(variantRows)) await tx.insertInto('variants').values(rows).execute();
      for (const rows of chunks(priceRows)) await tx.insertInto('variant_prices').values(rows).execute();
      for (const rows of chunks(balanceRows)) await tx.insertInto('stock_balances').values(rows).execute();
      for (const rows of chunks(movementRows)) await tx.insertInto('stock_movements').values(rows).execute();
      for (const rows of chunks(eventRows)) await tx.insertInto('events').values(rows).execute();
    });
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await db.destroy();
  return seconds;
}

/**
 * Fails unless the raw insert with events wrote the rows the sync wrote: the same number of rows
 * per table, the same events by type with the same payload sizes, and the same first
 * `product.created` object apart from its timestamps. Keeps "the same rows" a checked claim.
 */
export function assertSameRowsAsTheSync(rawDatabase: string, syncDatabase: string): void {
  const open = (file: string) => new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  const [raw, sync] = [open(rawDatabase), open(syncDatabase)];
  try {
    const summary = (db: BetterSqlite3.Database) => ({
      rows: Object.fromEntries(
        ['products', 'variants', 'variant_prices', 'stock_balances', 'stock_movements'].map((table) => [
          table,
          (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n,
        ]),
      ),
      events: db
        .prepare(
          "select type, count(*) as n, sum(length(object)) as bytes from events where type in ('product.created', 'inventory.changed') group by type order by type",
        )
        .all(),
      firstProduct: JSON.stringify(
        JSON.parse(
          (
            db.prepare("select object from events where type = 'product.created' order by id limit 1").get() as {
              object: string;
            }
          ).object,
        ),
        (key, value: unknown) => (key === 'createdAt' || key === 'updatedAt' ? undefined : value),
      ),
    });
    const [rawRows, syncRows] = [summary(raw), summary(sync)];
    if (JSON.stringify(rawRows) !== JSON.stringify(syncRows)) {
      throw new Error(
        `the raw insert with events did not write the rows the sync wrote:\nraw  ${JSON.stringify(rawRows)}\nsync ${JSON.stringify(syncRows)}`,
      );
    }
  } finally {
    raw.close();
    sync.close();
  }
}
