// What refuses a new order: its customer, drop, currency and shipping cost, and every line (its
// variant, whether it sells on the channel's order type, its price, its stock), all checked before
// anything is written and reported together. `placeOrder` runs them first.
import { SaleableVariant } from '../catalog/catalog.ports';
import { Customer } from '../customers/customer.entities';
import { isCurrencyCode } from '../shared/codes';
import { ViolationList } from '../shared/errors';
import { resolveReferences } from '../shared/reference';
import { settleAll } from '../shared/settle-all';
import { Repositories } from '../shared/unit-of-work.ports';
import { BrandSettings } from '../settings/settings.entities';
import { loadSettings } from '../settings/load-settings';
import { Order, OrderChannel, OrderType, Reservation } from './order.entities';
import { LinePrice, OrderLineCandidate, checkSellable, linePrice } from './order-pricing';
import { PlaceOrderInput } from './place-order.input';
import { StockDemand, allocateStock } from './reserve-stock';
import { VariantLineInput, resolveVariantLines } from './variant-lines';

/** The order as checked: who orders, in which drop and currency, under which settings, and its lines. */
export interface CheckedOrder {
  settings: BrandSettings;
  customer: Customer;
  dropId: number | null;
  currency: string;
  lines: CheckedLine[];
}

/**
 * A requested line matched to its variant, with what it asks of stock, its price in the order's
 * currency (null when it has none there, or the currency is unknown) and the pieces reserved for it
 * (none when its product keeps no inventory).
 */
export interface LineDraft extends OrderLineCandidate {
  demand: StockDemand;
  price: LinePrice | null;
  reservations: Reservation[];
}

/** A line that passed every check: priced, and its pieces reserved. */
export interface CheckedLine extends LineDraft {
  price: LinePrice;
}

/**
 * Checks the whole order before anything is written, collecting one violation per problem in the
 * order the fields come (customer, drop, currency, shipping cost, then each line: its variant,
 * whether it sells, its price, its stock), and refuses it with all of them at once.
 */
export async function checkOrder(
  tx: Pick<Repositories, 'brands' | 'customers' | 'drops' | 'inventoryLocations' | 'products' | 'settings' | 'stock'>,
  brandId: number,
  channel: OrderChannel,
  body: PlaceOrderInput,
): Promise<CheckedOrder> {
  const orderType = channel.orderType;
  const violations = new ViolationList();
  const settings = await loadSettings(tx, brandId);
  const customer = await resolveCustomer(tx, brandId, body, violations);
  // The spec binds every order of a brand that requires drops, whatever the channel's type.
  const dropId = await resolveDrop(tx, brandId, channel, body, settings.requiresDrop, violations);
  const currency = await resolveCurrency(tx, brandId, orderType, body, customer, violations);
  checkShippingCost(body, violations);

  const candidates = await findLineCandidates(tx, brandId, body.lines, violations);
  checkSellable(orderType, candidates, violations);
  const discount = orderType === 'b2b' ? (customer?.discountBasisPoints ?? 0) : 0;
  const priced = candidates.map((c) => ({
    ...c,
    demand: stockDemandOf(orderType, c),
    price: priceLine(orderType, c, currency, discount, violations),
  }));
  const lines = await reserveStock(tx, brandId, priced, violations);
  violations.throwIfAny();

  // Each of these is missing only where a violation was added above (a customer not found, a
  // currency unknown, a line without a price in it), so the order was refused already.
  if (customer === null || currency === null || !lines.every(isPriced))
    throw new Error('placeOrder: the checks left a customer, currency or price missing without a violation');
  return { settings, customer, dropId, currency, lines };
}

const isPriced = (line: LineDraft): line is CheckedLine => line.price !== null;

/**
 * The order's currency: the one the body names, else the customer's (B2B) or the brand's (B2C).
 * Null when unknown (a malformed code, no customer): lines are then not priced, and the order is
 * refused anyway.
 */
async function resolveCurrency(
  tx: Pick<Repositories, 'brands'>,
  brandId: number,
  orderType: OrderType,
  body: PlaceOrderInput,
  customer: Customer | null,
  violations: ViolationList,
): Promise<string | null> {
  if (body.currency !== undefined && !isCurrencyCode(body.currency)) {
    violations.add('/order/currency', 'must be a 3-letter ISO 4217 code such as EUR');
    return null;
  }
  return (
    body.currency ?? (orderType === 'b2b' ? customer?.currency : (await tx.brands.findById(brandId))?.currency) ?? null
  );
}

function checkShippingCost(body: PlaceOrderInput, violations: ViolationList): void {
  if (
    body.shippingCost !== undefined &&
    body.shippingCost !== null &&
    (!Number.isInteger(body.shippingCost) || body.shippingCost < 0)
  ) {
    violations.add('/order/shipping_cost', 'must be an amount of 0 or more with at most 2 decimals');
  }
}

/**
 * The requested lines matched to their variants. One light read per key kind (variants with their
 * product and prices), not whole product aggregates: placing orders is the hot path, and it must
 * not lock the catalog.
 */
async function findLineCandidates(
  tx: Pick<Repositories, 'products'>,
  brandId: number,
  lines: VariantLineInput[],
  violations: ViolationList,
): Promise<OrderLineCandidate[]> {
  const resolved = await resolveVariantLines(
    lines,
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
  return resolved.map((r) => ({
    index: r.index,
    quantity: r.quantity,
    product: r.match.product,
    variant: r.match.variant,
    prices: r.match.prices,
    keyPointer: r.keyPointer,
    quantityPointer: r.quantityPointer,
  }));
}

/** The line's price in the order's currency; a variant without a price there is refused at the line. */
function priceLine(
  orderType: OrderType,
  c: OrderLineCandidate,
  currency: string | null,
  discountBasisPoints: number,
  violations: ViolationList,
): LinePrice | null {
  if (currency === null) return null;
  const price = linePrice(orderType, c.prices, currency, discountBasisPoints);
  if (!price) violations.add(c.keyPointer, `SKU ${c.variant.sku} has no price in ${currency}`);
  return price;
}

function stockDemandOf(orderType: OrderType, c: OrderLineCandidate): StockDemand {
  return {
    variantId: c.variant.id,
    sku: c.variant.sku,
    quantity: c.quantity,
    quantityPointer: c.quantityPointer,
    sellsBeyondStock: sellsBeyondStock(orderType, c),
  };
}

/**
 * Reserves the pieces of the lines whose products keep inventory, from balances read (and locked on
 * Postgres) now; a line short of stock is refused at its quantity.
 */
async function reserveStock<L extends OrderLineCandidate & { demand: StockDemand }>(
  tx: Pick<Repositories, 'inventoryLocations' | 'stock'>,
  brandId: number,
  lines: readonly L[],
  violations: ViolationList,
): Promise<(L & { reservations: Reservation[] })[]> {
  const tracked = lines.filter((l) => !l.product.noInventory);
  const trackedVariantIds = [...new Set(tracked.map((l) => l.demand.variantId))];
  const [balances, defaultLocation] = trackedVariantIds.length
    ? await settleAll([tx.stock.balances(brandId, trackedVariantIds), tx.inventoryLocations.findDefault(brandId)])
    : [[], null];
  const allocations = allocateStock(
    tracked.map((l) => l.demand),
    balances,
    defaultLocation?.id ?? null,
    violations,
  );
  return lines.map((l) => ({ ...l, reservations: allocations.get(l.demand) ?? [] }));
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
