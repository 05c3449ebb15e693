import request from 'supertest';
import { createApiApp, issueAccessToken } from '@brand/core';
import { nodeSecretHasher } from '../../src/infrastructure/node-secret-hasher';
import { Integrator } from './integrator';
import { OrderingBrand, approveOrder, placeOrder, seedOrderingBrand } from './orders';
import { TestContext } from './test-app';

/**
 * External return portal test data on top of the ordering brand: an approved webshop (B2C, prices
 * incl. VAT) order with the customer's e-mail, portals made through the back office, and a
 * partner app (an API app with an internal code) of the same brand.
 */

type Body = Record<string, unknown>;

export const EMAIL = 'anna@example.com';

export interface PortalShop extends OrderingBrand {
  /** Approved B2C order of 2 × TEE-S and 1 × CAP-ONE by EMAIL. */
  order: Body & { id: number; order_number: number };
  /** Public id of a `custom` portal. */
  portal: string;
}

/** A portal of the brand through `POST /v10/return-portals`; returns its public id. */
export async function aPortal(t: TestContext, who: Integrator, body: Body = {}): Promise<string> {
  const response = await request(t.server)
    .post('/v10/return-portals')
    .set(who.headers)
    .send({ name: 'Webshop returns', type: 'custom', ...body });
  if (response.status !== 201)
    throw new Error(`portal creation answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.return_portal.public_id as string;
}

/** An approved order of the brand by EMAIL on a channel (default: the B2C webshop). */
export async function anOrderByEmail(
  t: TestContext,
  shop: OrderingBrand,
  options: { channel?: 'b2b' | 'b2c'; lines?: Body[] } = {},
) {
  const channel = options.channel ?? 'b2c';
  const placed = await placeOrder(t, shop.brand, shop.channels[channel], {
    customer_number: channel === 'b2c' ? 'C-SHOP' : 'C-B2B',
    email: EMAIL,
    lines: options.lines ?? [
      { sku: 'TEE-S', quantity: 2 },
      { sku: 'CAP-ONE', quantity: 1 },
    ],
  });
  return (await approveOrder(t, shop.brand, placed['id'] as number)) as Body & { id: number; order_number: number };
}

export async function seedPortalShop(t: TestContext): Promise<PortalShop> {
  const shop = await seedOrderingBrand(t);
  const order = await anOrderByEmail(t, shop);
  return { ...shop, order, portal: await aPortal(t, shop.brand) };
}

/** Another app of the brand (same user), whose internal code lets it use portals of that partner type. */
export async function aPartnerApp(t: TestContext, who: Integrator, internalCode: string): Promise<Integrator> {
  const deps = { uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher };
  const { app, appKey } = await createApiApp(deps, {
    brandId: who.brandId,
    name: `${internalCode} portal`,
    internalCode,
  });
  const { token, accessToken } = await issueAccessToken(deps, { userId: who.userId, appId: app.id });
  return {
    ...who,
    appId: app.id,
    tokenId: token.id,
    accessToken,
    appKey,
    headers: { Authorization: `Bearer ${accessToken}`, 'X-Service-App-Key': appKey },
  };
}

/** A portal line: one piece of `sku` paid at `price` incl. VAT, claim type return. */
export const line = (sku: string, extra: Body = {}): Body => ({
  sku,
  quantity: 1,
  claim_type: 'return',
  unit_price_incl_vat: 25,
  ...extra,
});

/** `PUT /v10/external-return-portals/{publicId}/returns`. */
export function upsert(t: TestContext, who: Integrator, publicId: string, body: Body) {
  return request(t.server).put(`/v10/external-return-portals/${publicId}/returns`).set(who.headers).send(body);
}

/** `POST /v10/external-return-portals/{publicId}/returns/finalize`. */
export function finalize(t: TestContext, who: Integrator, publicId: string, body: Body) {
  return request(t.server)
    .post(`/v10/external-return-portals/${publicId}/returns/finalize`)
    .set(who.headers)
    .send(body);
}

/** A first upsert of `rma` for the shop's order, expecting 201; returns the portal return. */
export async function aPortalReturn(
  t: TestContext,
  shop: PortalShop,
  ret: Body,
  options: { publicId?: string; order?: { order_number: number } } = {},
) {
  const response = await upsert(t, shop.brand, options.publicId ?? shop.portal, {
    email: EMAIL,
    order_number: (options.order ?? shop.order).order_number,
    return: ret,
  });
  if (response.status !== 201) throw new Error(`upsert answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.return as Body & { id: number; lines: Array<Body & { id: number }> };
}

/** The error objects' pointers of a refused call. */
export const pointers = (body: { errors: Array<{ source?: { pointer?: string } }> }) =>
  body.errors.map((e) => e.source?.pointer);
