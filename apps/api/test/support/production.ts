import request from 'supertest';
import { Integrator } from './integrator';
import { OrderingBrand, seedOrderingBrand } from './orders';
import { TestContext } from './test-app';

/**
 * A brand ready for production: the ordering brand's catalog and stock, plus suppliers synced
 * through `POST /production/suppliers/sync` (SUP-1 active in EUR, SUP-OFF inactive).
 */

type Body = Record<string, unknown>;

export interface ProductionBrand extends OrderingBrand {
  post(path: string, body?: Body): request.Test;
  get(path: string): request.Test;
  /** Creates a production order (201 expected); returns it. */
  createOrder(extra?: Body): Promise<Body>;
  /** Creates and approves a production order; returns it (open). */
  openOrder(extra?: Body): Promise<Body>;
  /** Announces a delivery note (201 expected); returns it. */
  announce(productionOrderId: unknown, lines?: Body[], extra?: Body): Promise<Body>;
}

export const DEFAULT_PRODUCTION_LINES: Body[] = [
  { sku: 'TEE-S', quantity: 20, unit_cost: 4.5 },
  { ean: '5700000000035', quantity: 10 },
];

export async function seedProductionBrand(
  t: TestContext,
  options: { integrator?: Parameters<typeof seedOrderingBrand>[1] } = {},
): Promise<ProductionBrand> {
  const shop = await seedOrderingBrand(t, options.integrator ?? {});
  const who: Integrator = shop.brand;
  const post = (path: string, body: Body = {}) => request(t.server).post(path).set(who.headers).send(body);
  const get = (path: string) => request(t.server).get(path).set(who.headers);
  const synced = await post('/production/suppliers/sync', {
    suppliers: [
      { supplier_number: 'SUP-1', name: 'Porto Mills', currency: 'EUR' },
      { supplier_number: 'SUP-OFF', name: 'Closed Mill', currency: 'EUR', active: false },
    ],
  });
  if (synced.status !== 200) throw new Error(`supplier sync answered ${synced.status}: ${JSON.stringify(synced.body)}`);

  const expect201 = async (path: string, body: Body, key: string): Promise<Body> => {
    const response = await post(path, body);
    if (response.status !== 201)
      throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body[key] as Body;
  };
  const createOrder = (extra: Body = {}) =>
    expect201(
      '/v10/production-orders',
      { supplier_number: 'SUP-1', lines: DEFAULT_PRODUCTION_LINES, ...extra },
      'production_order',
    );
  const openOrder = async (extra: Body = {}) => {
    const order = await createOrder(extra);
    const approved = await post(`/v10/production-orders/${order['id']}/approve`);
    if (approved.status !== 200)
      throw new Error(`approve answered ${approved.status}: ${JSON.stringify(approved.body)}`);
    return approved.body.production_order as Body;
  };
  const announce = (
    productionOrderId: unknown,
    lines: Body[] = [
      { sku: 'TEE-S', quantity: 12 },
      { sku: 'CAP-ONE', quantity: 10 },
    ],
    extra: Body = {},
  ) =>
    expect201(
      `/v10/production-orders/${productionOrderId}/delivery-notes`,
      { lines, ...extra },
      'production_order_delivery_note',
    );
  return { ...shop, post, get, createOrder, openOrder, announce };
}
