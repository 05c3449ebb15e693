import request from 'supertest';
import { Integrator } from './integrator';
import { OrderingBrand, approveOrder, deliverThroughCore, getOk, placeOrder } from './orders';
import { TestContext } from './test-app';

/**
 * Returns test data on top of the ordering brand: delivered orders (placed and approved through
 * the API, delivered through the core as the warehouse would report it), claim causes and RMAs
 * made through the API.
 */

type Body = Record<string, unknown>;

/** POSTs a JSON body and expects `status`; returns the body. */
export async function postExpect(
  t: TestContext,
  who: Integrator,
  path: string,
  body: Body,
  status: number,
): Promise<Body> {
  const response = await request(t.server).post(path).set(who.headers).send(body);
  if (response.status !== status)
    throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Body;
}

/**
 * A B2B order of C-B2B (10 % customer discount: TEE-S at 10.00 less 10 %, CAP-ONE at 5.50 less
 * 10 %), approved, with its shipment delivered in full. Returns the order and the shipment as
 * the API shows them.
 */
export async function aDeliveredOrder(
  t: TestContext,
  shop: OrderingBrand,
  lines: { sku: string; quantity: number }[] = [
    { sku: 'TEE-S', quantity: 3 },
    { sku: 'CAP-ONE', quantity: 2 },
  ],
) {
  const placed = await placeOrder(t, shop.brand, shop.channels.b2b, { customer_number: 'C-B2B', lines });
  await approveOrder(t, shop.brand, placed['id'] as number);
  const order = (await getOk(t, shop.brand, `/v10/orders/${placed['id']}?includes[]=shipments`))['order'] as Body;
  const shipment = (order['shipments'] as Body[])[0]! as {
    id: number;
    shipment_number: number;
    lines: { sku: string; quantity: number }[];
  };
  await deliverThroughCore(t, shop.brand, shipment);
  return { order: order as Body & { id: number; order_number: number }, shipment };
}

export async function aClaimCause(
  t: TestContext,
  who: Integrator,
  code: string,
): Promise<{ id: number; code: string }> {
  return (await postExpect(t, who, '/v10/claim-causes', { code, name: `Cause ${code}` }, 201))['claim_cause'] as {
    id: number;
    code: string;
  };
}

/** `POST /v10/returns` (201), approved unless told otherwise; returns the return as the API showed it last. */
export async function anRma(
  t: TestContext,
  who: Integrator,
  orderNumber: number,
  lines: Body[],
  options: { approve?: boolean } = {},
): Promise<Body & { id: number; rma: string }> {
  const created = (
    await postExpect(
      t,
      who,
      '/v10/returns',
      { order_number: orderNumber, lines: lines.map((l) => ({ claim_type: 'return', ...l })) },
      201,
    )
  )['return'] as Body & { id: number; rma: string };
  if (options.approve === false) return created;
  return (await postExpect(t, who, `/v10/returns/${created.id}/approve`, {}, 200))['return'] as Body & {
    id: number;
    rma: string;
  };
}

/** The brand's credit notes with their lines (`GET /v10/credit-notes`). */
export async function creditNotesOf(t: TestContext, who: Integrator): Promise<Array<Body & { lines: Body[] }>> {
  return (await getOk(t, who, '/v10/credit-notes?includes[]=lines'))['credit_notes'] as Array<Body & { lines: Body[] }>;
}

/** A return as `GET /v10/returns/{id}` shows it. */
export async function returnOf(
  t: TestContext,
  who: Integrator,
  id: number,
): Promise<Body & { status: string; lines: Body[]; credit_notes: Body[]; timeline: Body[] }> {
  return (await getOk(t, who, `/v10/returns/${id}`))['return'] as never;
}
