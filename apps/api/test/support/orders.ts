import request from 'supertest';
import { Delivery, ProductAggregate, deliverShipment } from '@brand/core';
import { ProductSpec, seedProducts, seedStock } from './catalog-reads';
import { address, newCustomer, syncCustomers } from './customers';
import { Integrator, createIntegrator } from './integrator';
import { TestContext } from './test-app';

/**
 * A brand ready to take orders, for the order, finance, export and 3PL tests: a small catalog
 * with prices and stock (written through the core repositories), customers (through the
 * customer sync), and a B2B and a B2C channel (through the API).
 */

type Body = Record<string, unknown>;

/**
 * The default catalog, prices in EUR minor units:
 * - TEE (T-shirt): TEE-S (EAN 5700000000011) and TEE-M, B2B 10.00 (TEE-M on offer at 8.00), B2C 25.00 (TEE-M on sale at 20.00).
 * - CAP (cap): CAP-ONE, B2B 5.50, B2C 12.95; customs data in the product's meta.
 * - SOCK (socks, colli-only in 6 and 12, minimum 12 pieces): SOCK-42, B2B 2.00, B2C 4.99.
 */
export function defaultCatalog(): ProductSpec[] {
  return [
    {
      itemNumber: 'TEE',
      product: { name: 'T-shirt' },
      variants: [
        { sku: 'TEE-S', ean: '5700000000011', attributes: { size: 'S' }, prices: { EUR: { sales: 1000, rec: 2500 } } },
        {
          sku: 'TEE-M',
          ean: '5700000000028',
          attributes: { size: 'M' },
          prices: { EUR: { sales: 1000, rec: 2500, offer: 800, b2cOffer: 2000 } },
        },
      ],
    },
    {
      itemNumber: 'CAP',
      product: { name: 'Cap', meta: { country_of_origin: 'PT', composition: '100% cotton', hs_tariff_code: '650500' } },
      variants: [
        {
          sku: 'CAP-ONE',
          ean: '5700000000035',
          attributes: { size: 'One size' },
          prices: { EUR: { sales: 550, rec: 1295 } },
        },
      ],
    },
    {
      itemNumber: 'SOCK',
      product: { name: 'Socks', orderColliOnly: true, colli: [6, 12], minOrderQuantity: 12 },
      variants: [
        { sku: 'SOCK-42', ean: '5700000000042', attributes: { size: '42' }, prices: { EUR: { sales: 200, rec: 499 } } },
      ],
    },
  ];
}

/** Pieces in stock per SKU of the default catalog (at the brand's default location). */
export const DEFAULT_STOCK: Readonly<Record<string, number>> = {
  'TEE-S': 10,
  'TEE-M': 10,
  'CAP-ONE': 5,
  'SOCK-42': 100,
};

export interface OrderingBrand {
  brand: Integrator;
  products: ProductAggregate[];
  /** Variant ids by SKU. */
  variantIds: Record<string, number>;
  /** Customers by number: `C-B2B` (EUR, 10 % discount, one address), `C-SHOP` (the webshop's B2C customer), `C-INACTIVE` (inactive). */
  customers: Record<string, { id: number; customer_number: string }>;
  /** Public ids of the channels: `b2b` ("ERP") and `b2c` ("Webshop"). */
  channels: { b2b: string; b2c: string };
}

export interface OrderingBrandOptions {
  products?: ProductSpec[];
  /** Pieces in stock per SKU; SKUs left out get none. */
  stock?: Record<string, number>;
  /** Extra customer sync items (besides the three defaults). */
  customers?: Body[];
  /** Extra fields of the two channels (auto_approve, drop_id). */
  b2bChannel?: Body;
  b2cChannel?: Body;
  integrator?: Parameters<typeof createIntegrator>[2];
}

/** POSTs a JSON body and expects the given status; returns the body. */
async function expectPost(t: TestContext, who: Integrator, path: string, body: Body, status: number): Promise<Body> {
  const response = await request(t.server).post(path).set(who.headers).send(body);
  if (response.status !== status)
    throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Body;
}

/** A new brand with catalog, stock, customers and a B2B and a B2C channel. */
export async function seedOrderingBrand(t: TestContext, options: OrderingBrandOptions = {}): Promise<OrderingBrand> {
  const brand = await createIntegrator(t.storage, t.clock, options.integrator ?? {});
  const products = await seedProducts(t.storage, t.clock, brand.brandId, options.products ?? defaultCatalog());
  const variantIds = Object.fromEntries(
    products.flatMap((p) => p.variants.map((v) => [v.variant.sku, v.variant.id] as const)),
  );
  const stock = Object.entries(options.stock ?? DEFAULT_STOCK).filter(([, pieces]) => pieces > 0);
  if (stock.length > 0) {
    await seedStock(
      t.storage,
      t.clock,
      brand.brandId,
      stock.map(([sku, inStock]) => ({ variantId: variantIds[sku]!, inStock })),
    );
  }
  const synced = await syncCustomers(t.app, brand, [
    newCustomer('C-B2B', {
      name: 'Wholesale Ltd',
      discount_percentage: 10,
      email: 'buyer@wholesale.example',
      addresses_sync_mode: 'replace',
      addresses_sync_key: 'address_title',
      addresses: [address('Main')],
    }),
    newCustomer('C-SHOP', { name: 'Webshop customers' }),
    newCustomer('C-INACTIVE', { active: false }),
    ...(options.customers ?? []),
  ]);
  const customers = Object.fromEntries(
    synced.customers.map((c) => [c.customer_number, { id: c.id, customer_number: c.customer_number }]),
  );
  const b2b = await expectPost(
    t,
    brand,
    '/v10/order-channels',
    { name: 'ERP', order_type: 'b2b', ...options.b2bChannel },
    201,
  );
  const b2c = await expectPost(
    t,
    brand,
    '/v10/order-channels',
    { name: 'Webshop', order_type: 'b2c', ...options.b2cChannel },
    201,
  );
  return {
    brand,
    products,
    variantIds,
    customers,
    channels: {
      b2b: (b2b['order_channel'] as Body)['public_id'] as string,
      b2c: (b2c['order_channel'] as Body)['public_id'] as string,
    },
  };
}

/** `POST /v10/order-channels/{publicId}/orders` with `{ order }`; the response as it came. */
export function postOrder(t: TestContext, who: Integrator, channelPublicId: string, order: Body) {
  return request(t.server).post(`/v10/order-channels/${channelPublicId}/orders`).set(who.headers).send({ order });
}

/** Places an order and expects 201; returns the order as the API showed it. */
export async function placeOrder(t: TestContext, who: Integrator, channelPublicId: string, order: Body): Promise<Body> {
  const response = await postOrder(t, who, channelPublicId, order);
  if (response.status !== 201)
    throw new Error(`order creation answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.order as Body;
}

/** Approves an order and expects 200; returns the order. */
export async function approveOrder(t: TestContext, who: Integrator, orderId: number, body: Body = {}): Promise<Body> {
  return (await expectPost(t, who, `/v10/orders/${orderId}/approve`, body, 200))['order'] as Body;
}

/** GETs a path and expects 200; returns the body. */
export async function getOk(t: TestContext, who: Integrator, path: string): Promise<Body> {
  const response = await request(t.server).get(path).set(who.headers);
  if (response.status !== 200)
    throw new Error(`GET ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Body;
}

/** In stock and available of a SKU over all locations, read through `GET /v10/inventory-available`. */
export async function stockOf(
  t: TestContext,
  who: Integrator,
  sku: string,
): Promise<{ in_stock: number; available: number }> {
  const body = await getOk(
    t,
    who,
    `/v10/inventory-available?limit=100&filter_groups[0][filters][0][key]=sku&filter_groups[0][filters][0][value]=${encodeURIComponent(sku)}`,
  );
  const rows = body['inventory'] as { in_stock: number; available: number }[];
  return rows.reduce(
    (sum, row) => ({ in_stock: sum.in_stock + row.in_stock, available: sum.available + row.available }),
    { in_stock: 0, available: 0 },
  );
}

/** The brand's orders (`GET /v10/orders`, with `query` appended). */
export async function listOrders(
  t: TestContext,
  who: Integrator,
  query = '',
): Promise<{ orders: Body[]; total?: number; has_more: boolean; next_cursor: string | null }> {
  return (await getOk(t, who, `/v10/orders${query ? `?${query}` : ''}`)) as never;
}

/** PATCHes the brand's settings and expects 200. */
export async function changeSettings(t: TestContext, who: Integrator, changes: Body): Promise<Body> {
  const response = await request(t.server).patch('/v10/settings').set(who.headers).send(changes);
  if (response.status !== 200)
    throw new Error(`PATCH /v10/settings answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.settings as Body;
}

/**
 * Reports a shipment delivered through the core use case (what `POST /3pl/shipments/deliver`
 * does), for tests of what follows a delivery. Without `colli`, one parcel with every piece of
 * the shipment; pass the shipment as the API showed it (with `lines`).
 */
export async function deliverThroughCore(
  t: TestContext,
  who: Integrator,
  shipment: { shipment_number: number; lines: { sku: string; quantity: number }[] },
  options: { orderType?: 'b2b' | 'b2c'; carrier?: string; colli?: Delivery['colli'] } = {},
) {
  return deliverShipment(
    { uow: t.storage.uow, clock: t.clock },
    {
      brandId: who.brandId,
      userId: who.userId,
      delivery: {
        shipmentNumber: shipment.shipment_number,
        orderType: options.orderType ?? 'b2b',
        carrier: options.carrier ?? 'gls',
        colli: options.colli ?? [
          {
            trackTrace: '3STEST0001',
            trackTraceLink: null,
            ssccNumber: null,
            lines: shipment.lines.map((l) => ({ sku: l.sku, quantity: l.quantity })),
          },
        ],
      },
    },
  );
}
