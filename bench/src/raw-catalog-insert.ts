import { createBrand, parseDecimal, systemClock } from '@brand/core';
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
 * The baseline: the same products, variants, prices, stock balances and ledger rows the sync
 * writes, inserted with plain batched Kysely inserts (one transaction per 100 products, ids
 * counted in memory, no validation, no reads). Returns the seconds it took.
 */
export async function rawInsertCatalog(
  databaseUrl: string,
  products: number,
  perRequest: number,
  batch: Batch,
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
      p.variants.map((v, position) => ({
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
        position,
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
    const balanceRows = variants.map((v, i) => ({
      id: variantRows[i]!.id,
      brand_id: brand.id,
      variant_id: variantRows[i]!.id,
      location_id: 1,
      in_stock: v.inventory[0]!.quantity,
      reserved: 0,
      updated_at: now,
    }));
    const movementRows = variants.map((v, i) => ({
      id: variantRows[i]!.id,
      brand_id: brand.id,
      variant_id: variantRows[i]!.id,
      location_id: 1,
      in_stock_delta: v.inventory[0]!.quantity,
      reserved_delta: 0,
      reason: 'sync_quantity',
      note: v.inventory[0]!.text,
      document_type: null,
      document_id: null,
      user_id: null,
      created_at: now,
    }));
    await db.transaction().execute(async (tx) => {
      for (const rows of chunks(productRows)) await tx.insertInto('products').values(rows).execute();
      for (const rows of chunks(variantRows)) await tx.insertInto('variants').values(rows).execute();
      for (const rows of chunks(priceRows)) await tx.insertInto('variant_prices').values(rows).execute();
      for (const rows of chunks(balanceRows)) await tx.insertInto('stock_balances').values(rows).execute();
      for (const rows of chunks(movementRows)) await tx.insertInto('stock_movements').values(rows).execute();
    });
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await db.destroy();
  return seconds;
}
