import { Meta } from '../catalog/catalog.entities';
import { Customer } from '../customers/customer.entities';
import { NewTimelineEvent } from '../documents/document.entities';
import { timelineOfEvents } from '../documents/timeline-from-events';
import { NewDomainEvent } from '../events/event.entities';
import { recordEvents } from '../events/record-events';
import { createShipment } from '../fulfilment/create-shipment';
import { Shipment } from '../fulfilment/shipment.entities';
import { applyStockMovementsWithEvents } from '../inventory/apply-stock-movements';
import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { documentTotals, lineTotal } from '../shared/money';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { openPieces } from './open-pieces';
import { CheckedLine, CheckedOrder, checkOrder } from './order-checks';
import { Order, OrderAddress, OrderChannel, OrderLine } from './order.entities';
import { pricesIncludeVatFor } from './order-pricing';
import { PlaceOrderInput } from './place-order.input';
import { reservationMovements } from './reserve-stock';

/** Customs fields a line copies from the variant's meta, else the product's (string values only). */
const CUSTOMS_KEYS = {
  countryOfOrigin: 'country_of_origin',
  composition: 'composition',
  hsTariffCode: 'hs_tariff_code',
} as const;

type PlaceOrderRepositories = Pick<
  Repositories,
  | 'brands'
  | 'customers'
  | 'documentNumbers'
  | 'drops'
  | 'events'
  | 'ids'
  | 'inventoryLocations'
  | 'orderChannels'
  | 'orders'
  | 'products'
  | 'settings'
  | 'shipments'
  | 'stock'
  | 'timeline'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/**
 * A new order, its shipment when the channel approves on creation, and the order's timeline as it
 * now stands (the entries this creation wrote, in their order), so its answer can show the order
 * as GET does without reading it back.
 */
export interface PlacedOrder {
  order: Order;
  shipment: Shipment | null;
  timeline: NewTimelineEvent[];
}

/**
 * Places an order on a channel: checks customer, drop, currency and every line (sellable on the
 * channel's order type, priced in the currency, in stock), prices it, reserves its pieces and
 * numbers it, all in one transaction. Anything wrong refuses the whole order with one violation
 * per problem (each naming its SKU), and nothing is written: no stock moves and no order number
 * is drawn. A channel with `autoApprove` approves the order at once and makes its shipment.
 *
 * Concurrency: stock balances are read (and locked on Postgres) just before the decision and
 * moved right after it; the order number, which locks the brand's counter until commit, is
 * drawn last.
 *
 * @example
 * const { order } = await placeOrder({ uow, clock }, { brandId, userId, channelPublicId, order: { customerNumber: 'C-1', lines: [{ sku: 'TEE-M', quantity: 3 }] } });
 */
export async function placeOrder(
  deps: { uow: UnitOfWork<PlaceOrderRepositories>; clock: Clock },
  input: { brandId: number; userId: number | null; channelPublicId: string; order: PlaceOrderInput },
): Promise<PlacedOrder> {
  const { brandId, userId } = input;
  return deps.uow.run(async (tx) => {
    const channel = await tx.orderChannels.findByPublicId(brandId, input.channelPublicId);
    if (!channel) throw DomainError.notFound('order channel', input.channelPublicId);
    const checked = await checkOrder(tx, brandId, channel, input.order);
    const now = deps.clock.now();
    const { orderId, lines } = await numberLines(tx, checked.lines);
    // Its inventory.changed events are recorded with the order's, in one call.
    const reserved = await applyStockMovementsWithEvents(
      tx,
      brandId,
      reservationMovements(brandId, orderId, userId, lines),
      now,
    );
    const placed = await draftOrder(tx, { brandId, userId, channel, body: input.order, checked, orderId, lines, now });
    const created: NewDomainEvent<'order.created'> = {
      type: 'order.created',
      object: placed,
      timeline: { note: `placed on channel ${channel.name}`, userId },
    };
    if (!channel.autoApprove) {
      await tx.orders.save(placed);
      await recordEvents(tx, brandId, now, [...reserved.events, created]);
      return { order: placed, shipment: null, timeline: timelineOfEvents(brandId, now, [created]) };
    }
    return approveOnCreation(tx, { placed, channel, userId, now, events: [...reserved.events, created] });
  });
}

/** Draws the order's id and its lines' ids, and makes its lines. */
async function numberLines(
  tx: Pick<Repositories, 'ids'>,
  checked: readonly CheckedLine[],
): Promise<{ orderId: number; lines: OrderLine[] }> {
  const [orderId] = await tx.ids.next('orders');
  if (orderId === undefined) throw new Error('placeOrder: the orders sequence drew no id');
  const lineIds = await tx.ids.next('order_lines', checked.length);
  const lines = checked.map((c, i) => {
    const id = lineIds[i];
    if (id === undefined) throw new Error(`placeOrder: drew ${lineIds.length} line ids for ${checked.length} lines`);
    return orderLine(orderId, id, c);
  });
  return { orderId, lines };
}

function orderLine(orderId: number, id: number, c: CheckedLine): OrderLine {
  return {
    id,
    orderId,
    variantId: c.variant.id,
    productId: c.product.id,
    sku: c.variant.sku,
    ean: c.variant.ean,
    itemNumber: c.product.itemNumber,
    productName: c.product.name,
    attributes: c.variant.attributes,
    countryOfOrigin: customsValue(c, CUSTOMS_KEYS.countryOfOrigin),
    composition: customsValue(c, CUSTOMS_KEYS.composition),
    hsTariffCode: customsValue(c, CUSTOMS_KEYS.hsTariffCode),
    tracksInventory: !c.product.noInventory,
    quantity: c.quantity,
    unitPrice: c.price.unitPrice,
    discountBasisPoints: c.price.discountBasisPoints,
    totalPrice: lineTotal(c.quantity, c.price.unitPrice, c.price.discountBasisPoints),
    reservations: c.reservations,
    shippedQuantity: 0,
    deliveredQuantity: 0,
    invoicedQuantity: 0,
    regulatedQuantity: 0,
  };
}

/** The placed order, a draft, with its totals and the number drawn for it (drawn last: it locks the brand's counter). */
async function draftOrder(
  tx: Pick<Repositories, 'documentNumbers'>,
  draft: {
    brandId: number;
    userId: number | null;
    channel: OrderChannel;
    body: PlaceOrderInput;
    checked: CheckedOrder;
    orderId: number;
    lines: OrderLine[];
    now: string;
  },
): Promise<Order> {
  const { brandId, userId, channel, body, checked, orderId, lines, now } = draft;
  const shippingCost = body.shippingCost ?? null;
  const pricesIncludeVat = pricesIncludeVatFor(channel.orderType);
  const vatRate = checked.settings.defaultVatRateBasisPoints;
  const totals = documentTotals(
    lines.reduce((sum, l) => sum + l.totalPrice, 0) + (shippingCost ?? 0),
    vatRate,
    pricesIncludeVat,
  );
  const fallbackAddress = addressOf(checked.customer);
  return {
    id: orderId,
    brandId,
    orderNumber: await tx.documentNumbers.next(brandId, 'order'),
    status: 'draft',
    orderType: channel.orderType,
    orderChannelId: channel.id,
    customerId: checked.customer.id,
    customerNumber: checked.customer.customerNumber,
    dropId: checked.dropId,
    currency: checked.currency,
    vatRateBasisPoints: vatRate,
    pricesIncludeVat,
    email: body.email ?? null,
    telephone: body.telephone ?? null,
    reference: body.reference ?? null,
    notes: body.notes ?? null,
    invoiceAddress:
      body.invoiceAddress !== undefined && body.invoiceAddress !== null ? body.invoiceAddress : fallbackAddress,
    deliveryAddress:
      body.deliveryAddress !== undefined && body.deliveryAddress !== null ? body.deliveryAddress : fallbackAddress,
    shippingCode: body.shippingCode ?? null,
    shippingCost,
    responsiblePerson: body.responsiblePerson ?? null,
    orderMeta: body.orderMeta ?? {},
    ...totals,
    approvedAt: null,
    cancelledAt: null,
    archivedAt: null,
    createdByUserId: userId,
    createdAt: now,
    updatedAt: now,
    lines,
  };
}

/**
 * A channel that approves automatically: the placed order is approved at once and its shipment
 * made; `events` (the reservations' and the order's creation) are recorded before the approval's.
 */
async function approveOnCreation(
  tx: Pick<
    Repositories,
    | 'documentNumbers'
    | 'events'
    | 'ids'
    | 'orders'
    | 'shipments'
    | 'timeline'
    | 'transaction'
    | 'webhookDeliveries'
    | 'webhookEndpoints'
  >,
  input: { placed: Order; channel: OrderChannel; userId: number | null; now: string; events: NewDomainEvent[] },
): Promise<PlacedOrder> {
  const { placed, channel, userId, now } = input;
  const approved: Order = { ...placed, status: 'approved', approvedAt: now };
  // createShipment saves the order (before the shipment that refers to it).
  const result = await createShipment(tx, {
    order: approved,
    pieces: openPieces(approved),
    otherShipments: [],
    userId,
    at: now,
  });
  const approvedEvent: NewDomainEvent<'order.approved'> = {
    type: 'order.approved',
    object: result.order,
    timeline: { note: `approved on creation (channel ${channel.name} approves automatically)`, userId },
  };
  await recordEvents(tx, placed.brandId, now, [...input.events, approvedEvent, ...result.events]);
  await tx.timeline.append(result.orderTimeline);
  const orderEntries = timelineOfEvents(placed.brandId, now, [...input.events, approvedEvent]).filter(
    (entry) => entry.documentType === 'order' && entry.documentId === placed.id,
  );
  return { order: result.order, shipment: result.shipment, timeline: [...orderEntries, ...result.orderTimeline] };
}

function customsValue(c: { variant: { meta: Meta }; product: { meta: Meta } }, key: string): string | null {
  const fromVariant = c.variant.meta[key];
  if (typeof fromVariant === 'string' && fromVariant !== '') return fromVariant;
  const fromProduct = c.product.meta[key];
  return typeof fromProduct === 'string' && fromProduct !== '' ? fromProduct : null;
}

/** A copy of the customer's first address in the order's form. */
function addressOf(customer: Customer): OrderAddress | null {
  const a = customer.addresses[0];
  if (!a) return null;
  return {
    name: a.name,
    att: null,
    address: a.address2 ? `${a.address}, ${a.address2}` : a.address,
    zip: a.zip,
    region: a.region ?? '',
    city: a.city,
    country: a.country,
  };
}
