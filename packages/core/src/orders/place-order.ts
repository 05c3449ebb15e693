import { Meta } from '../catalog/catalog.entities';
import { SaleableVariant } from '../catalog/catalog.ports';
import { Customer } from '../customers/customer.entities';
import { recordEvents } from '../events/record-events';
import { createShipment } from '../fulfilment/create-shipment';
import { applyStockMovementsWithEvents } from '../inventory/apply-stock-movements';
import { Shipment } from '../fulfilment/shipment.entities';
import { Clock } from '../shared/clock.ports';
import { isCurrencyCode } from '../shared/codes';
import { DomainError, ViolationList } from '../shared/errors';
import { documentTotals, lineTotal } from '../shared/money';
import { resolveReferences } from '../shared/reference';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { loadSettings } from '../settings/load-settings';
import { openPieces } from './find-order';
import { Order, OrderAddress, OrderChannel, OrderLine, ResponsiblePerson, ShippingCode } from './order.entities';
import { OrderLineCandidate, checkSellable, linePrice, pricesIncludeVatFor } from './order-pricing';
import { StockDemand, allocateStock, reservationMovements } from './reserve-stock';
import { VariantLineInput, resolveVariantLines } from './variant-lines';
import { settleAll } from '../shared/settle-all';

/**
 * The body of `POST /v10/order-channels/{publicId}/orders` (`order`), of the right JSON types
 * (the API checked shapes); everything that needs data is checked here. Amounts in minor units.
 */
export interface PlaceOrderInput {
  customerId?: number;
  customerNumber?: string;
  dropId?: number;
  dropCode?: string;
  /** Default: the customer's currency on B2B, the brand's on B2C. */
  currency?: string;
  reference?: string | null;
  notes?: string | null;
  email?: string | null;
  telephone?: string | null;
  /** Default: a copy of the customer's first address. */
  invoiceAddress?: OrderAddress | null;
  deliveryAddress?: OrderAddress | null;
  shippingCode?: ShippingCode | null;
  /** In the order's VAT basis (net on B2B, incl. VAT on B2C). */
  shippingCost?: number | null;
  responsiblePerson?: ResponsiblePerson | null;
  orderMeta?: Meta;
  lines: VariantLineInput[];
}

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
): Promise<{ order: Order; shipment: Shipment | null }> {
  const { brandId, userId, order: body } = input;
  return deps.uow.run(async (tx) => {
    const channel = await tx.orderChannels.findByPublicId(brandId, input.channelPublicId);
    if (!channel) throw DomainError.notFound('order channel', input.channelPublicId);
    const orderType = channel.orderType;
    const violations = new ViolationList();

    const settings = await loadSettings(tx, brandId);
    const customer = await resolveCustomer(tx, brandId, body, violations);
    // The spec binds every order of a brand that requires drops, whatever the channel's type.
    const dropId = await resolveDrop(tx, brandId, channel, body, settings.requiresDrop, violations);
    const currencyValid = body.currency === undefined || isCurrencyCode(body.currency);
    if (!currencyValid) violations.add('/order/currency', 'must be a 3-letter ISO 4217 code such as EUR');
    if (
      body.shippingCost !== undefined &&
      body.shippingCost !== null &&
      (!Number.isInteger(body.shippingCost) || body.shippingCost < 0)
    ) {
      violations.add('/order/shipping_cost', 'must be an amount of 0 or more with at most 2 decimals');
    }
    // Null when unknown (no customer, a malformed code): lines are then not priced, the order is refused anyway.
    const currency = !currencyValid
      ? null
      : (body.currency ??
        (orderType === 'b2b' ? customer?.currency : (await tx.brands.findById(brandId))?.currency) ??
        null);

    // One light read per key kind (variants with their product and prices), not whole product
    // aggregates: placing orders is the hot path, and it must not lock the catalog.
    const resolved = await resolveVariantLines(
      body.lines,
      '/order/lines',
      {
        bySkus: (skus) => tx.products.findSaleableVariants(brandId, { skus }),
        byEans: (eans) => tx.products.findSaleableVariants(brandId, { eans }),
        skuOf: (found: SaleableVariant) => found.variant.sku,
        eanOf: (found: SaleableVariant) => found.variant.ean,
        variantIdOf: (found: SaleableVariant) => found.variant.id,
        missing: 'is not a variant of this brand',
      },
      violations,
    );
    const candidates: OrderLineCandidate[] = resolved.map((r) => ({
      index: r.index,
      quantity: r.quantity,
      product: r.match.product,
      variant: r.match.variant,
      prices: r.match.prices,
      keyPointer: r.keyPointer,
      quantityPointer: r.quantityPointer,
    }));

    checkSellable(orderType, candidates, violations);
    const discount = orderType === 'b2b' ? (customer?.discountBasisPoints ?? 0) : 0;
    const prices = candidates.map((c) => {
      if (currency === null) return null;
      const price = linePrice(orderType, c.prices, currency, discount);
      if (!price) violations.add(c.keyPointer, `SKU ${c.variant.sku} has no price in ${currency}`);
      return price;
    });

    const demands: StockDemand[] = candidates.map((c) => ({
      variantId: c.variant.id,
      sku: c.variant.sku,
      quantity: c.quantity,
      quantityPointer: c.quantityPointer,
      sellsBeyondStock: sellsBeyondStock(orderType, c),
    }));
    const tracked = candidates.flatMap((c, i) => (c.product.noInventory ? [] : [i]));
    const trackedVariantIds = [...new Set(tracked.map((i) => demands[i]!.variantId))];
    const [balances, defaultLocation] = trackedVariantIds.length
      ? await settleAll([tx.stock.balances(brandId, trackedVariantIds), tx.inventoryLocations.findDefault(brandId)])
      : [[], null];
    const allocations = allocateStock(
      tracked.map((i) => demands[i]!),
      balances,
      defaultLocation?.id ?? null,
      violations,
    );
    violations.throwIfAny();

    const reservationsByCandidate = new Map(tracked.map((candidateIndex, k) => [candidateIndex, allocations[k]!]));
    const now = deps.clock.now();
    const [orderId] = await tx.ids.next('orders');
    const lineIds = await tx.ids.next('order_lines', candidates.length);
    const lines: OrderLine[] = candidates.map((c, i) => {
      const price = prices[i]!;
      return {
        id: lineIds[i]!,
        orderId: orderId!,
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
        unitPrice: price.unitPrice,
        discountBasisPoints: price.discountBasisPoints,
        totalPrice: lineTotal(c.quantity, price.unitPrice, price.discountBasisPoints),
        reservations: reservationsByCandidate.get(i) ?? [],
        shippedQuantity: 0,
        deliveredQuantity: 0,
        invoicedQuantity: 0,
        regulatedQuantity: 0,
      };
    });
    // Its inventory.changed events are recorded with the order's, in one call.
    const reserved = await applyStockMovementsWithEvents(
      tx,
      brandId,
      reservationMovements(brandId, orderId!, userId, lines),
      now,
    );

    const shippingCost = body.shippingCost ?? null;
    const pricesIncludeVat = pricesIncludeVatFor(orderType);
    const vatRate = settings.defaultVatRateBasisPoints;
    const totals = documentTotals(
      lines.reduce((sum, l) => sum + l.totalPrice, 0) + (shippingCost ?? 0),
      vatRate,
      pricesIncludeVat,
    );
    const fallbackAddress = customer ? addressOf(customer) : null;
    const placed: Order = {
      id: orderId!,
      brandId,
      orderNumber: await tx.documentNumbers.next(brandId, 'order'),
      status: 'draft',
      orderType,
      orderChannelId: channel.id,
      customerId: customer!.id,
      customerNumber: customer!.customerNumber,
      dropId,
      currency: currency!,
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
    const created = {
      type: 'order.created' as const,
      object: placed,
      timeline: { note: `placed on channel ${channel.name}`, userId },
    };
    if (!channel.autoApprove) {
      await tx.orders.save(placed);
      await recordEvents(tx, brandId, now, [...reserved.events, created]);
      return { order: placed, shipment: null };
    }
    const approved: Order = { ...placed, status: 'approved', approvedAt: now };
    // createShipment saves the order (before the shipment that refers to it).
    const result = await createShipment(tx, {
      order: approved,
      pieces: openPieces(approved),
      otherShipments: [],
      userId,
      at: now,
    });
    await recordEvents(tx, brandId, now, [
      ...reserved.events,
      created,
      {
        type: 'order.approved',
        object: result.order,
        timeline: { note: `approved on creation (channel ${channel.name} approves automatically)`, userId },
      },
      ...result.events,
    ]);
    await tx.timeline.append(result.orderTimeline);
    return { order: result.order, shipment: result.shipment };
  });
}

/** By id or by number; an unknown or inactive customer is refused at the field that named it. */
async function resolveCustomer(
  tx: Pick<Repositories, 'customers'>,
  brandId: number,
  body: PlaceOrderInput,
  violations: ViolationList,
): Promise<Customer | null> {
  let customer: Customer | null = null;
  let pointer: string;
  if (body.customerId !== undefined) {
    pointer = '/order/customer_id';
    customer = await tx.customers.findById(brandId, body.customerId);
    if (!customer) violations.add(pointer, `names customer id ${body.customerId}, which does not exist`);
    else if (body.customerNumber !== undefined && body.customerNumber !== customer.customerNumber) {
      violations.add(
        '/order/customer_number',
        `names customer ${JSON.stringify(body.customerNumber)}, but customer_id ${body.customerId} is customer ${JSON.stringify(customer.customerNumber)}`,
      );
    }
  } else if (body.customerNumber !== undefined) {
    pointer = '/order/customer_number';
    customer = (await tx.customers.findByNumbers(brandId, [body.customerNumber]))[0] ?? null;
    if (!customer)
      violations.add(pointer, `names customer ${JSON.stringify(body.customerNumber)}, which does not exist`);
  } else {
    violations.add('/order/customer_id', 'is required when customer_number is not given');
    return null;
  }
  if (customer && !customer.active)
    violations.add(
      pointer,
      `names customer ${JSON.stringify(customer.customerNumber)}, which is inactive and cannot order`,
    );
  return customer;
}

/**
 * The order's drop: the channel's fixed drop (a different drop in the body is refused), else
 * the one the body names (by id or code), else none — unless a drop is required.
 */
async function resolveDrop(
  tx: Pick<Repositories, 'drops'>,
  brandId: number,
  channel: OrderChannel,
  body: PlaceOrderInput,
  requiresDrop: boolean,
  violations: ViolationList,
): Promise<number | null> {
  const named = body.dropId !== undefined || body.dropCode !== undefined;
  const pointer = body.dropId !== undefined ? '/order/drop_id' : '/order/drop_code';
  let dropId: number | null = null;
  if (named) {
    const ref = {
      ...(body.dropId !== undefined ? { id: body.dropId } : {}),
      ...(body.dropCode !== undefined ? { code: body.dropCode } : {}),
    };
    const drops = await resolveReferences(
      [{ ref, pointer }],
      'drop',
      {
        byIds: (ids) => tx.drops.findByIds(brandId, ids),
        byCodes: (codes) => tx.drops.findByCodes(brandId, codes),
      },
      violations,
    );
    dropId = drops.get(ref)?.id ?? null;
  }
  if (channel.dropId !== null) {
    if (dropId !== null && dropId !== channel.dropId) {
      violations.add(
        pointer,
        `names drop ${dropId}, but orders of channel ${JSON.stringify(channel.name)} belong to drop ${channel.dropId}`,
      );
    }
    return channel.dropId;
  }
  if (!named && requiresDrop)
    violations.add(
      '/order/drop_id',
      'is required: the brand requires a drop on every order (send drop_id or drop_code)',
    );
  return dropId;
}

/** Make-to-order (per channel type, the variant's override else the product's) and NOOS lines sell beyond stock. */
function sellsBeyondStock(orderType: Order['orderType'], c: OrderLineCandidate): boolean {
  const makeToOrder =
    orderType === 'b2b'
      ? (c.variant.makeToOrderB2b ?? c.product.makeToOrderB2b)
      : (c.variant.makeToOrderB2c ?? c.product.makeToOrderB2c);
  return makeToOrder || (c.variant.noos ?? c.product.noos);
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
