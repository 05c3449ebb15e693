/**
 * The data of the production-size benchmark (issue 37): 20 brands holding, at BENCH_SCALE 1,
 * 1,000,000 orders of 3 lines (half of them approved, shipped, delivered and invoiced), 100,000
 * products × 5 variants with prices and stock, 200,000 customers, 2,000,000 events and
 * 1,000,000 request-log rows. The first brand holds 60 % of every kind (its orders are walked
 * deep by cursor), the other 19 share the rest evenly.
 *
 * How: the small things (brands, users with a password, apps, tokens, channels) are made by the
 * use cases; then one prototype of every bulk row (a product with its variants, prices and stock,
 * a customer, a draft order and an approved one with its delivered shipment and draft invoice,
 * the events and request-log rows those requests wrote) is made through the real API in the
 * first brand; then every bulk row is an `insert … select` of its prototype row against a
 * number series (generate_series on Postgres, a recursive CTE on SQLite), with the ids, brand,
 * numbers, references and times replaced. So every column holds a value the application itself
 * wrote, and the composite brand keys, unique keys and checks hold by construction. Afterwards
 * the id allocators (Postgres sequences, SQLite's id_counters), the brands' document numbers,
 * the kept row counts and the event feeds' counters are set to what was written, and the
 * planners' statistics are refreshed (ANALYZE; on Postgres VACUUM ANALYZE, then a checkpoint),
 * so the API goes on from there without a clash.
 *
 * Not kept consistent, as no constraint asks it: the stock balances' reserved quantities do not
 * add up the generated orders' reservations, and the generated events' objects are the
 * prototype's (their type and object are copies, their ids and times are the feed's own).
 */
import { Kysely, sql } from 'kysely';
import { createApiApp, createBrand, createOrderChannel, createUser, issueAccessToken, systemClock } from '@brand/core';
import { Database, connectKysely, openStorage, parseDatabaseUrl } from '@brand/persistence-kysely';
// The server's own scrypt hasher, so the console log-in accepts the password.
import { nodePasswordHasher, nodeSecretHasher } from '@brand/api';
import { postJson, startApiProcesses, stopApiProcesses } from './harness';

export type Dialect = 'sqlite' | 'postgres';
type Headers = Record<string, string>;

export const BRANDS = 20;
const FIRST_BRAND_SHARE = 0.6;
export const SIZES = ['XS', 'S', 'M', 'L', 'XL'];
export const PASSWORD = 'production-size-bench';

/** The totals at a scale (1 = full size), over all brands. */
export interface ProductionSize {
  scale: number;
  orders: number;
  products: number;
  customers: number;
  events: number;
  requestLogs: number;
}

export function productionSize(scale: number): ProductionSize {
  return {
    scale,
    orders: Math.round(1_000_000 * scale),
    products: Math.round(100_000 * scale),
    customers: Math.round(200_000 * scale),
    events: Math.round(2_000_000 * scale),
    requestLogs: Math.round(1_000_000 * scale),
  };
}

/** Brand `index`'s part of `total`: 60 % for the first, the rest evenly over the others. */
export function shareOf(total: number, index: number): number {
  const first = Math.round(total * FIRST_BRAND_SHARE);
  if (index === 0) return first;
  const rest = total - first;
  const each = Math.floor(rest / (BRANDS - 1));
  return index === BRANDS - 1 ? rest - each * (BRANDS - 2) : each;
}

export interface GeneratedBrand {
  brandId: number;
  email: string;
  headers: Headers;
  channelPublicId: string;
  orders: number;
  products: number;
  customers: number;
}

export interface Generated {
  brands: GeneratedBrand[];
  /** Seconds of the whole generation, and of its bulk SQL part alone. */
  seconds: number;
  bulkSeconds: number;
  rows: Record<string, number>;
  /** The database's size on disk after generation, in MB: what a buffer cache is measured against. */
  databaseMb: number;
}

/** A number series 1..n as a FROM item named `s` with the column `i`. */
function series(dialect: Dialect, n: number): string {
  return dialect === 'postgres'
    ? `generate_series(1, ${n}) as s(i)`
    : `(with recursive s(i) as (select 1 union all select i + 1 from s where i < ${n}) select i from s) as s`;
}

/** An ISO-8601 UTC timestamp as the application writes them (`2026-03-31T12:30:00.000Z`) from epoch seconds. */
function iso(dialect: Dialect, seconds: string): string {
  return dialect === 'postgres'
    ? `to_char(to_timestamp(${seconds}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : `strftime('%Y-%m-%dT%H:%M:%fZ', ${seconds}, 'unixepoch')`;
}

const q = (name: string): string => `"${name}"`;

class Writer {
  private readonly columnsOf = new Map<string, string[]>();
  readonly rows: Record<string, number> = {};

  constructor(
    readonly db: Kysely<Database>,
    readonly dialect: Dialect,
  ) {}

  async run<R = Record<string, unknown>>(text: string): Promise<R[]> {
    return (await sql.raw<R>(text).execute(this.db)).rows;
  }

  async columns(table: string): Promise<string[]> {
    let found = this.columnsOf.get(table);
    if (!found) {
      found =
        this.dialect === 'postgres'
          ? (
              await this.run<{ column_name: string }>(
                `select column_name from information_schema.columns where table_schema = current_schema() and table_name = '${table}' order by ordinal_position`,
              )
            ).map((r) => r.column_name)
          : (await this.run<{ name: string }>(`pragma table_info(${q(table)})`)).map((r) => r.name);
      this.columnsOf.set(table, found);
    }
    return found;
  }

  /** The largest id of a table (0 when empty): generated ids follow it. */
  async maxId(table: string): Promise<number> {
    const [row] = await this.run<{ m: number | string | null }>(`select max(id) as m from ${q(table)}`);
    return Number(row?.m ?? 0);
  }

  /**
   * `count` copies of the prototype row of `table` that `prototype` selects (as `p`), one per
   * series value `s.i`, its columns replaced by `overrides` (SQL over `s.i` and `p`).
   */
  async copy(table: string, count: number, prototype: string, overrides: Record<string, string>): Promise<void> {
    if (count <= 0) return;
    const columns = await this.columns(table);
    for (const column of Object.keys(overrides))
      if (!columns.includes(column)) throw new Error(`${table} has no column ${column}`);
    const select = columns.map((c) => overrides[c] ?? `p.${q(c)}`).join(', ');
    await this.run(
      `insert into ${q(table)} (${columns.map(q).join(', ')}) select ${select} from ${series(this.dialect, count)} cross join ${q(table)} p where ${prototype}`,
    );
    this.rows[table] = (this.rows[table] ?? 0) + count;
  }
}

async function ok(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The small things of every brand, by the use cases: brand, a user who logs in, an app, a token, a channel. */
async function makeBrands(url: string): Promise<Omit<GeneratedBrand, 'orders' | 'products' | 'customers'>[]> {
  const storage = await openStorage(url);
  try {
    await storage.migrate();
    const deps = { uow: storage.uow, clock: systemClock, hasher: nodeSecretHasher, passwordHasher: nodePasswordHasher };
    const made = [];
    for (let index = 0; index < BRANDS; index++) {
      const email = `ops${index + 1}@brand${index + 1}.example`;
      const brand = await createBrand(deps, { name: `Brand ${index + 1}`, currency: 'EUR' });
      const user = await createUser(deps, { brandId: brand.id, email, name: `Ops ${index + 1}`, password: PASSWORD });
      const { app, appKey } = await createApiApp(deps, { brandId: brand.id, name: 'ERP' });
      const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
      const channel = await createOrderChannel(deps, { brandId: brand.id, name: 'ERP', orderType: 'b2b' });
      made.push({
        brandId: brand.id,
        email,
        channelPublicId: channel.publicId,
        headers: {
          authorization: `Bearer ${accessToken}`,
          'x-service-app-key': appKey,
          'content-type': 'application/json',
        },
      });
    }
    return made;
  } finally {
    await storage.close();
  }
}

/** The prototypes, made through the real API in the first brand (see the header). */
async function makePrototypes(url: string, brand: { headers: Headers; channelPublicId: string }): Promise<void> {
  const api = await startApiProcesses(url, 1);
  const { baseUrl } = api;
  const { headers } = brand;
  try {
    await ok(
      await fetch(`${baseUrl}/v10/settings`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ invoicing: 'in_service' }),
      }),
      'settings',
    );
    await postJson(`${baseUrl}/products/sync`, headers, {
      products: [
        {
          item_number: 'PROTO',
          name: 'Prototype',
          variants: SIZES.map((size) => ({
            sku: `PROTO-${size}`,
            attributes: { size },
            prices: { EUR: { sales_price: 19.99, rec_sales_price: 49.95 } },
            inventory: [{ quantity: 1_000_000_000 }],
          })),
        },
      ],
    });
    await postJson(`${baseUrl}/customers/sync`, headers, {
      customers: [{ customer_number: 'PROTO-C', name: 'Prototype customer', currency: 'EUR', discount_percentage: 10 }],
    });
    const order = () =>
      postJson(`${baseUrl}/v10/order-channels/${brand.channelPublicId}/orders`, headers, {
        order: {
          customer_number: 'PROTO-C',
          reference: 'bench',
          lines: SIZES.slice(0, 3).map((size, k) => ({ sku: `PROTO-${size}`, quantity: k + 1 })),
        },
      }) as Promise<{ order: { id: number; order_type: string } }>;
    await order();
    const shipped = (await order()).order;
    await postJson(`${baseUrl}/v10/orders/${shipped.id}/approve`, headers, {});
    const shipments = await ok(
      await fetch(
        `${baseUrl}/v10/shipments?filter_groups[0][filters][0][key]=order_id&filter_groups[0][filters][0][value]=${shipped.id}`,
        { headers },
      ),
      'shipments',
    );
    const shipment = (shipments['shipments'] as { shipment_number: number }[])[0];
    if (!shipment) throw new Error(`the approved order made no shipment: ${JSON.stringify(shipments)}`);
    await postJson(`${baseUrl}/3pl/shipments/deliver`, headers, {
      delivery_note: {
        shipment_number: shipment.shipment_number,
        order_type: shipped.order_type,
        carrier: 'postnl',
        colli: [
          {
            track_trace: '3SPROTO',
            lines: SIZES.slice(0, 3).map((size, k) => ({ sku: `PROTO-${size}`, quantity: k + 1 })),
          },
        ],
      },
    });
  } finally {
    // Stopping flushes the request log: its rows are prototypes too.
    await stopApiProcesses(api);
  }
}

interface Prototypes {
  brandId: number;
  product: number;
  /** Variant ids by size position. */
  variants: number[];
  customer: number;
  draftOrder: number;
  draftLines: number[];
  shippedOrder: number;
  shippedLines: number[];
  shipment: number;
  shipmentLines: { id: number; line: number }[];
  invoice: number;
  invoiceLines: { id: number; line: number | null }[];
  stockBalances: { id: number; variant: number }[];
  events: number[];
  requestLog: number;
}

async function readPrototypes(w: Writer, brandId: number): Promise<Prototypes> {
  const ids = async (text: string): Promise<number[]> =>
    (await w.run<{ id: number | string }>(text)).map((r) => Number(r.id));
  const one = async (text: string, what: string): Promise<number> => {
    const found = await ids(text);
    if (found.length !== 1) throw new Error(`expected one prototype ${what}, found ${found.length}`);
    return found[0]!;
  };
  const b = `brand_id = ${brandId}`;
  const product = await one(`select id from products where ${b} and item_number = 'PROTO'`, 'product');
  const variants = await ids(`select id from variants where ${b} and product_id = ${product} order by position`);
  const orders = await ids(`select id from orders where ${b} order by id`);
  if (orders.length !== 2 || variants.length !== SIZES.length) throw new Error('the prototypes are not as made');
  const [draftOrder, shippedOrder] = orders as [number, number];
  const linesOf = (order: number) => ids(`select id from order_lines where ${b} and order_id = ${order} order by id`);
  const shipment = await one(`select id from shipments where ${b} and order_id = ${shippedOrder}`, 'shipment');
  const invoice = await one(`select id from invoices where ${b} and order_id = ${shippedOrder}`, 'invoice');
  const pairs = (text: string) => w.run<{ id: number | string; other: number | string | null }>(text);
  return {
    brandId,
    product,
    variants,
    customer: await one(`select id from customers where ${b} and customer_number = 'PROTO-C'`, 'customer'),
    draftOrder,
    draftLines: await linesOf(draftOrder),
    shippedOrder,
    shippedLines: await linesOf(shippedOrder),
    shipment,
    shipmentLines: (
      await pairs(
        `select id, order_line_id as other from shipment_lines where ${b} and shipment_id = ${shipment} order by id`,
      )
    ).map((r) => ({ id: Number(r.id), line: Number(r.other) })),
    invoice,
    invoiceLines: (
      await pairs(
        `select id, order_line_id as other from invoice_lines where ${b} and invoice_id = ${invoice} order by id`,
      )
    ).map((r) => ({ id: Number(r.id), line: r.other === null ? null : Number(r.other) })),
    stockBalances: (
      await pairs(
        `select id, variant_id as other from stock_balances where ${b} and variant_id in (${variants.join(', ')}) order by id`,
      )
    ).map((r) => ({ id: Number(r.id), variant: Number(r.other) })),
    events: await ids(`select id from events where ${b} order by id`),
    requestLog: await one(
      `select min(id) as id from request_logs where ${b} and method = 'GET' and status = 200`,
      'request log row',
    ),
  };
}

/** One brand's bulk rows (see the header); `at` is the generation's time in epoch seconds. */
async function fillBrand(
  w: Writer,
  p: Prototypes,
  brand: { brandId: number; index: number },
  size: ProductionSize,
  at: number,
): Promise<{ orders: number; products: number; customers: number }> {
  const B = brand.brandId;
  const products = Math.max(1, shareOf(size.products, brand.index));
  const customers = Math.max(1, shareOf(size.customers, brand.index));
  const orders = shareOf(size.orders, brand.index);
  const events = shareOf(size.events, brand.index);
  const logs = shareOf(size.requestLogs, brand.index);
  const variants = products * SIZES.length;
  const d = w.dialect;
  const proto = (_table: string, id: number) => `p.brand_id = ${p.brandId} and p.id = ${id}`;
  const now = iso(d, String(at));

  // Catalog: products P1…, variants P<n>-<size> (as the other benches' shop names them).
  const productBase = await w.maxId('products');
  await w.copy('products', products, proto('products', p.product), {
    id: `${productBase} + s.i`,
    brand_id: String(B),
    item_number: `'P' || s.i`,
    name: `'Product ' || s.i`,
    created_at: now,
    updated_at: now,
  });
  const variantBase = await w.maxId('variants');
  // Variant v (0-based) = product v / 5 + 1, size v % 5; its id is variantBase + v + 1.
  for (const [position, variant] of p.variants.entries()) {
    const v = `((s.i - 1) * ${SIZES.length} + ${position})`;
    await w.copy('variants', products, proto('variants', variant), {
      id: `${variantBase} + ${v} + 1`,
      brand_id: String(B),
      product_id: `${productBase} + s.i`,
      sku: `'P' || s.i || '-${SIZES[position]}'`,
      created_at: now,
      updated_at: now,
    });
    const columns = await w.columns('variant_prices');
    await w.run(
      `insert into variant_prices (${columns.map(q).join(', ')}) select ${columns
        .map((c) => (c === 'brand_id' ? String(B) : c === 'variant_id' ? `${variantBase} + ${v} + 1` : `p.${q(c)}`))
        .join(
          ', ',
        )} from ${series(d, products)} cross join variant_prices p where p.brand_id = ${p.brandId} and p.variant_id = ${variant}`,
    );
    w.rows['variant_prices'] = (w.rows['variant_prices'] ?? 0) + products;
  }
  // The default location is made with a brand's first stock: a copy of the prototype brand's.
  const defaultLocation = `select id from inventory_locations where brand_id = ${B} and is_default = 1`;
  if ((await w.run(defaultLocation)).length === 0)
    await w.copy('inventory_locations', 1, `p.brand_id = ${p.brandId} and p.is_default = 1`, {
      id: `${await w.maxId('inventory_locations')} + s.i`,
      brand_id: String(B),
      created_at: now,
      updated_at: now,
    });
  const [location] = await w.run<{ id: number | string }>(defaultLocation);
  if (!location) throw new Error(`brand ${B} has no default inventory location`);
  for (const balance of p.stockBalances) {
    const position = p.variants.indexOf(balance.variant);
    const balanceBase = await w.maxId('stock_balances');
    await w.copy('stock_balances', products, proto('stock_balances', balance.id), {
      id: `${balanceBase} + s.i`,
      brand_id: String(B),
      variant_id: `${variantBase} + (s.i - 1) * ${SIZES.length} + ${position} + 1`,
      location_id: String(location.id),
      reserved: '0',
      updated_at: now,
    });
  }

  const customerBase = await w.maxId('customers');
  await w.copy('customers', customers, proto('customers', p.customer), {
    id: `${customerBase} + s.i`,
    brand_id: String(B),
    customer_number: `'C' || s.i`,
    name: `'Customer ' || s.i`,
    created_at: now,
    updated_at: now,
  });

  // Orders: order i (1-based) was created `orders - i` minutes before now, so ids follow time;
  // even ones are shipped, delivered and invoiced, odd ones drafts.
  const [channel] = await w.run<{ id: number | string }>(`select id from order_channels where brand_id = ${B}`);
  if (!channel) throw new Error(`brand ${B} has no order channel`);
  const [numbers] = await w.run<{ o: number | null; s: number | null; n: number | null }>(
    `select (select max(order_number) from orders where brand_id = ${B}) as o, (select max(shipment_number) from shipments where brand_id = ${B}) as s, (select max(invoice_number) from invoices where brand_id = ${B}) as n`,
  );
  const orderNumbers = Number(numbers?.o ?? 0);
  const shipmentNumbers = Number(numbers?.s ?? 0);
  const invoiceNumbers = Number(numbers?.n ?? 0);
  const orderBase = await w.maxId('orders');
  const lineBase = await w.maxId('order_lines');
  const shipmentBase = await w.maxId('shipments');
  const shipmentLineBase = await w.maxId('shipment_lines');
  const invoiceBase = await w.maxId('invoices');
  const invoiceLineBase = await w.maxId('invoice_lines');
  const half = Math.floor(orders / 2);
  const drafts = orders - half;
  const customerOf = (order: string) => `(((${order}) - 1) % ${customers}) + 1`;
  const createdAt = (order: string) => iso(d, `${at} - (${orders} - (${order})) * 60`);
  // Line k of order o: variant index ((o - 1) * 3 + k) % variants.
  const variantIndex = (order: string, k: number) => `((((${order}) - 1) * 3 + ${k}) % ${variants})`;
  const lineId = (order: string, k: number) => `${lineBase} + ((${order}) - 1) * 3 + ${k} + 1`;
  const kinds = [
    { order: '2 * s.i - 1', count: drafts, proto: p.draftOrder, lines: p.draftLines },
    { order: '2 * s.i', count: half, proto: p.shippedOrder, lines: p.shippedLines },
  ];
  for (const kind of kinds) {
    await w.copy('orders', kind.count, proto('orders', kind.proto), {
      id: `${orderBase} + ${kind.order}`,
      brand_id: String(B),
      order_number: `${orderNumbers} + ${kind.order}`,
      order_channel_id: String(channel.id),
      customer_id: `${customerBase} + ${customerOf(kind.order)}`,
      customer_number: `'C' || ${customerOf(kind.order)}`,
      created_at: createdAt(kind.order),
      updated_at: createdAt(kind.order),
      ...(kind.proto === p.shippedOrder ? { approved_at: createdAt(kind.order) } : {}),
    });
    for (const [k, line] of kind.lines.entries()) {
      const v = variantIndex(kind.order, k);
      await w.copy('order_lines', kind.count, proto('order_lines', line), {
        id: lineId(kind.order, k),
        brand_id: String(B),
        order_id: `${orderBase} + ${kind.order}`,
        variant_id: `${variantBase} + ${v} + 1`,
        product_id: `${productBase} + ${v} / ${SIZES.length} + 1`,
        sku: `'P' || (${v} / ${SIZES.length} + 1) || (case ${v} % ${SIZES.length} ${SIZES.map((s, n) => `when ${n} then '-${s}'`).join(' ')} end)`,
        item_number: `'P' || (${v} / ${SIZES.length} + 1)`,
        product_name: `'Product ' || (${v} / ${SIZES.length} + 1)`,
      });
    }
  }
  // Shipment j and invoice j belong to order 2j.
  const shippedOrder = '2 * s.i';
  await w.copy('shipments', half, proto('shipments', p.shipment), {
    id: `${shipmentBase} + s.i`,
    brand_id: String(B),
    shipment_number: `${shipmentNumbers} + s.i`,
    order_id: `${orderBase} + ${shippedOrder}`,
    order_number: `${orderNumbers} + ${shippedOrder}`,
    customer_id: `${customerBase} + ${customerOf(shippedOrder)}`,
    ...((await w.columns('shipments')).includes('delivered_at') ? { delivered_at: createdAt(shippedOrder) } : {}),
    created_at: createdAt(shippedOrder),
    updated_at: createdAt(shippedOrder),
  });
  const perShipment = p.shipmentLines.length;
  for (const [n, line] of p.shipmentLines.entries()) {
    const k = p.shippedLines.indexOf(line.line);
    const v = variantIndex(shippedOrder, k);
    await w.copy('shipment_lines', half, proto('shipment_lines', line.id), {
      id: `${shipmentLineBase} + (s.i - 1) * ${perShipment} + ${n} + 1`,
      brand_id: String(B),
      shipment_id: `${shipmentBase} + s.i`,
      order_line_id: lineId(shippedOrder, k),
      variant_id: `${variantBase} + ${v} + 1`,
      sku: `'P' || (${v} / ${SIZES.length} + 1) || (case ${v} % ${SIZES.length} ${SIZES.map((s, m) => `when ${m} then '-${s}'`).join(' ')} end)`,
    });
  }
  await w.copy('invoices', half, proto('invoices', p.invoice), {
    id: `${invoiceBase} + s.i`,
    brand_id: String(B),
    invoice_number: `${invoiceNumbers} + s.i`,
    order_id: `${orderBase} + ${shippedOrder}`,
    shipment_id: `${shipmentBase} + s.i`,
    customer_id: `${customerBase} + ${customerOf(shippedOrder)}`,
    created_at: createdAt(shippedOrder),
    updated_at: createdAt(shippedOrder),
  });
  const perInvoice = p.invoiceLines.length;
  for (const [n, line] of p.invoiceLines.entries()) {
    const k = line.line === null ? -1 : p.shippedLines.indexOf(line.line);
    const v = variantIndex(shippedOrder, k);
    await w.copy('invoice_lines', half, proto('invoice_lines', line.id), {
      id: `${invoiceLineBase} + (s.i - 1) * ${perInvoice} + ${n} + 1`,
      brand_id: String(B),
      invoice_id: `${invoiceBase} + s.i`,
      ...(k < 0
        ? {}
        : {
            order_line_id: lineId(shippedOrder, k),
            variant_id: `${variantBase} + ${v} + 1`,
            sku: `'P' || (${v} / ${SIZES.length} + 1) || (case ${v} % ${SIZES.length} ${SIZES.map((s, m) => `when ${m} then '-${s}'`).join(' ')} end)`,
          }),
    });
  }

  // Events: the prototypes in turn, one every few seconds over the last 20 days (inside the
  // feed's retention), ids in time order.
  const eventBase = await w.maxId('events');
  const eventSpacing = Math.max(1, Math.floor((20 * 86_400) / Math.max(1, events)));
  for (const [r, event] of p.events.entries()) {
    const count = Math.floor((events - 1 - r) / p.events.length) + 1;
    const n = `((s.i - 1) * ${p.events.length} + ${r})`;
    await w.copy('events', events > r ? count : 0, proto('events', event), {
      id: `${eventBase} + ${n} + 1`,
      brand_id: String(B),
      created_at: iso(d, `${at} - (${events} - ${n}) * ${eventSpacing}`),
    });
  }
  if (d === 'postgres' && events > 0)
    await w.run(
      `insert into event_feeds (brand_id, events_written) values (${B}, ${events}) on conflict (brand_id) do update set events_written = event_feeds.events_written + excluded.events_written`,
    );

  // The request log: the brand's own user, app and token, over the last 20 days (inside its
  // retention), a status mix of successes, 404s and 500s.
  const [who] = await w.run<{ user_id: number; app_id: number; token_id: number }>(
    `select user_id, app_id, id as token_id from access_tokens where brand_id = ${B} order by id limit 1`,
  );
  if (!who) throw new Error(`brand ${B} has no token`);
  const logBase = await w.maxId('request_logs');
  const logSpacing = Math.max(1, Math.floor((20 * 86_400) / Math.max(1, logs)));
  await w.copy('request_logs', logs, proto('request_logs', p.requestLog), {
    id: `${logBase} + s.i`,
    brand_id: String(B),
    user_id: String(who.user_id),
    app_id: String(who.app_id),
    token_id: String(who.token_id),
    path: `'/v10/orders/' || s.i`,
    route: `'/v10/orders/:id'`,
    status: `case when s.i % 17 = 0 then 500 when s.i % 11 = 0 then 404 else 200 end`,
    duration_ms: 's.i % 97',
    request_id: `'gen-${B}-' || s.i`,
    created_at: iso(d, `${at} - (${logs} - s.i) * ${logSpacing}`),
  });
  return { orders, products, customers };
}

/** The id allocators, document numbers and kept row counts after the bulk rows (see the header). */
async function settle(w: Writer): Promise<void> {
  const kinds = [
    'inventory_locations',
    'products',
    'variants',
    'stock_balances',
    'customers',
    'orders',
    'order_lines',
    'shipments',
    'shipment_lines',
    'invoices',
    'invoice_lines',
    'events',
    'request_logs',
  ];
  for (const kind of kinds) {
    if (w.dialect === 'postgres') await w.run(`select setval('ids_${kind}', (select max(id) from ${q(kind)}))`);
    else
      await w.run(
        `insert into id_counters (kind, value) values ('${kind}', (select max(id) from ${q(kind)})) on conflict (kind) do update set value = excluded.value`,
      );
  }
  for (const [kind, table, column] of [
    ['order', 'orders', 'order_number'],
    ['shipment', 'shipments', 'shipment_number'],
    ['invoice', 'invoices', 'invoice_number'],
  ] as const)
    await w.run(
      `insert into document_sequences (brand_id, kind, last_value) select brand_id, '${kind}', max(${column}) from ${table} where true group by brand_id on conflict (brand_id, kind) do update set last_value = excluded.last_value`,
    );
  for (const resource of ['customers', 'products', 'variants', 'orders'])
    await w.run(
      `insert into row_counts (brand_id, resource, row_count) select brand_id, '${resource}', count(*) from ${resource} where true group by brand_id on conflict (brand_id, resource) do update set row_count = excluded.row_count`,
    );
  // The events list's total (migration 0023); on SQLite the feed row exists for this count alone.
  await w.run(
    `insert into event_feeds (brand_id, events_written, events_stored) select brand_id, count(*), count(*) from events where true group by brand_id on conflict (brand_id) do update set events_stored = excluded.events_stored`,
  );
  // Postgres: VACUUM as well. A database that grew over years has been vacuumed many times; one
  // just bulk-loaded has no visibility map (every index-only scan, the filtered totals', visits
  // the table) and autovacuum's first pass over its millions of new rows would land on the
  // measurement itself.
  await w.run(w.dialect === 'postgres' ? 'vacuum analyze' : 'analyze');
  // And a checkpoint: the load leaves gigabytes of pages dirty in Postgres's buffers, which the
  // checkpointer would otherwise write out, spread over minutes, under the first cases measured.
  // A database that grew over years has no such backlog.
  if (w.dialect === 'postgres') await w.run('checkpoint');
}

/**
 * Generates the production-size data into the migrated-or-empty database at `url`; on Postgres
 * the bulk SQL runs over `writerUrl` (the server's superuser, past row-level security).
 */
export async function generateProductionData(
  dialect: Dialect,
  url: string,
  writerUrl: string,
  size: ProductionSize,
  progress: (line: string) => void = () => undefined,
): Promise<Generated> {
  const started = Date.now();
  const made = await makeBrands(url);
  await makePrototypes(url, made[0]!);
  const bulkStarted = Date.now();
  const db = connectKysely(parseDatabaseUrl(writerUrl));
  const w = new Writer(db, dialect);
  const brands: GeneratedBrand[] = [];
  let databaseMb = 0;
  try {
    const prototypes = await readPrototypes(w, made[0]!.brandId);
    const at = Math.floor(Date.now() / 1000);
    for (const [index, brand] of made.entries()) {
      const counts = await fillBrand(w, prototypes, { brandId: brand.brandId, index }, size, at);
      brands.push({ ...brand, ...counts });
      progress(
        `brand ${index + 1}/${BRANDS}: ${counts.orders} orders (${((Date.now() - bulkStarted) / 1000).toFixed(0)} s)`,
      );
    }
    await settle(w);
    databaseMb = await databaseSizeMb(w);
  } finally {
    await db.destroy();
  }
  return {
    brands,
    seconds: (Date.now() - started) / 1000,
    bulkSeconds: (Date.now() - bulkStarted) / 1000,
    rows: w.rows,
    databaseMb,
  };
}

/** The size of the database on disk, tables and indexes, in MB. */
async function databaseSizeMb(w: Writer): Promise<number> {
  const [row] =
    w.dialect === 'postgres'
      ? await w.run<{ bytes: number | string }>('select pg_database_size(current_database()) as bytes')
      : await w.run<{ bytes: number | string }>(
          'select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()',
        );
  return Math.round(Number(row!.bytes) / (1024 * 1024));
}
