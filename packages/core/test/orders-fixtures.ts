import {
  Brand,
  Customer,
  FixedClock,
  Invoice,
  ListRequest,
  Order,
  OrderLine,
  OrderStatus,
  OrderType,
  Shipment,
  createBrand,
  ensureDefaultLocation,
  isDomainError,
  lineTotal,
  syncCustomers,
  updateBrandSettings,
} from '../src';
import { draftInvoiceForShipment } from '../src/finance/draft-invoice-for-shipment';
import { documentTotals } from '../src/shared/money';
import { InMemoryUnitOfWork } from '../src/testing';

/**
 * Small builders for the finance, settings and export tests: orders, shipments and invoices are
 * saved straight through the repositories (with the stock movements an order's reservations
 * imply), so each test states exactly the prices, statuses and reservations it is about.
 */

export const START = '2026-06-01T08:00:00.000Z';

export interface World {
  uow: InMemoryUnitOfWork;
  clock: FixedClock;
  brand: Brand;
  customer: Customer;
  deps: { uow: InMemoryUnitOfWork; clock: FixedClock };
}

export async function aWorld(
  options: {
    invoicing?: 'external' | 'in_service';
    brandName?: string;
    uow?: InMemoryUnitOfWork;
    clock?: FixedClock;
  } = {},
): Promise<World> {
  const uow = options.uow ?? new InMemoryUnitOfWork();
  const clock = options.clock ?? new FixedClock(START);
  const deps = { uow, clock };
  const brand = await createBrand(deps, { name: options.brandName ?? 'North Knits', currency: 'EUR' });
  await syncCustomers(deps, {
    brandId: brand.id,
    customers: [{ customerNumber: 'C-1', name: 'Shop One', currency: 'EUR' }],
  });
  const [customer] = await uow.read((r) => r.customers.findByNumbers(brand.id, ['C-1']));
  if (options.invoicing)
    await updateBrandSettings(deps, { brandId: brand.id, changes: { invoicing: options.invoicing } });
  return { uow, clock, brand, customer: customer!, deps };
}

/** Puts `inStock` pieces of a variant at the brand's default location. */
export async function stockUp(world: World, variantId: number, inStock: number): Promise<void> {
  await world.uow.run(async (tx) => {
    const location = await ensureDefaultLocation(tx, world.clock, world.brand.id);
    await tx.stock.apply(
      world.brand.id,
      [
        {
          brandId: world.brand.id,
          variantId,
          locationId: location.id,
          inStockDelta: inStock,
          reservedDelta: 0,
          reason: 'sync_quantity',
          note: null,
          documentType: null,
          documentId: null,
          userId: null,
        },
      ],
      world.clock.now(),
    );
  });
}

/** In stock and available of a variant over every location. */
export async function stockOf(world: World, variantId: number): Promise<{ inStock: number; available: number }> {
  const balances = await world.uow.read((r) => r.stock.balances(world.brand.id, [variantId]));
  const inStock = balances.reduce((sum, b) => sum + b.inStock, 0);
  return { inStock, available: inStock - balances.reduce((sum, b) => sum + b.reserved, 0) };
}

export interface LineSpec {
  variantId: number;
  sku: string;
  ean?: string | null;
  quantity: number;
  /** Minor units, in the order's VAT basis. */
  unitPrice: number;
  discountBasisPoints?: number;
  /** Pieces reserved at the default location (default: all). */
  reserved?: number;
  tracksInventory?: boolean;
}

/** Saves an order with the given lines, reserving their pieces (Available drops, In stock stays). */
export async function anOrder(
  world: World,
  spec: {
    status?: OrderStatus;
    orderType?: OrderType;
    lines: LineSpec[];
    shippingCost?: number | null;
    vatRateBasisPoints?: number;
  },
): Promise<Order> {
  const orderType = spec.orderType ?? 'b2b';
  const pricesIncludeVat = orderType === 'b2c';
  const vatRate = spec.vatRateBasisPoints ?? 2500;
  const status = spec.status ?? 'approved';
  return world.uow.run(async (tx) => {
    const at = world.clock.now();
    const brandId = world.brand.id;
    const location = await ensureDefaultLocation(tx, world.clock, brandId);
    const [id] = await tx.ids.next('orders');
    const lineIds = await tx.ids.next('order_lines', spec.lines.length);
    const lines: OrderLine[] = spec.lines.map((l, i) => {
      const discount = l.discountBasisPoints ?? 0;
      const tracks = l.tracksInventory ?? true;
      const reserved = tracks ? (l.reserved ?? l.quantity) : 0;
      return {
        id: lineIds[i]!,
        orderId: id!,
        variantId: l.variantId,
        productId: l.variantId,
        sku: l.sku,
        ean: l.ean ?? null,
        itemNumber: l.sku.split('-')[0]!,
        productName: `Product ${l.sku}`,
        attributes: { size: 'M' },
        countryOfOrigin: null,
        composition: null,
        hsTariffCode: null,
        tracksInventory: tracks,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        discountBasisPoints: discount,
        totalPrice: lineTotal(l.quantity, l.unitPrice, discount),
        reservations: reserved > 0 ? [{ locationId: location.id, quantity: reserved }] : [],
        shippedQuantity: 0,
        deliveredQuantity: 0,
        invoicedQuantity: 0,
        regulatedQuantity: 0,
      };
    });
    const sum = lines.reduce((s, l) => s + l.totalPrice, 0) + (spec.shippingCost ?? 0);
    const order: Order = {
      id: id!,
      brandId,
      orderNumber: await tx.documentNumbers.next(brandId, 'order'),
      status,
      orderType,
      orderChannelId: 1,
      customerId: world.customer.id,
      customerNumber: world.customer.customerNumber,
      dropId: null,
      currency: 'EUR',
      vatRateBasisPoints: vatRate,
      pricesIncludeVat,
      email: null,
      telephone: null,
      reference: null,
      notes: null,
      invoiceAddress: null,
      deliveryAddress: null,
      shippingCode: null,
      shippingCost: spec.shippingCost ?? null,
      responsiblePerson: null,
      orderMeta: {},
      ...documentTotals(sum, vatRate, pricesIncludeVat),
      approvedAt: status === 'draft' ? null : at,
      cancelledAt: status === 'cancelled' ? at : null,
      archivedAt: status === 'archived' ? at : null,
      createdByUserId: null,
      createdAt: at,
      updatedAt: at,
      lines,
    };
    await tx.stock.apply(
      brandId,
      lines.flatMap((l) =>
        l.reservations.map((r) => ({
          brandId,
          variantId: l.variantId,
          locationId: r.locationId,
          inStockDelta: 0,
          reservedDelta: r.quantity,
          reason: 'order_reserved' as const,
          note: null,
          documentType: 'order',
          documentId: order.id,
          userId: null,
        })),
      ),
      at,
    );
    await tx.orders.save(order);
    return order;
  });
}

/** Saves a shipment of the order for `pieces` (order line id → pieces; default every piece), open or delivered in full. */
export async function aShipment(
  world: World,
  order: Order,
  options: { status?: 'open' | 'completed' | 'cancelled'; pieces?: Map<number, number> } = {},
): Promise<Shipment> {
  const status = options.status ?? 'completed';
  return world.uow.run(async (tx) => {
    const at = world.clock.now();
    const [current] = await tx.orders.findByIds(world.brand.id, [order.id]);
    const pieces = options.pieces ?? new Map(current!.lines.map((l) => [l.id, l.quantity - l.shippedQuantity]));
    const earlier = await tx.shipments.findByOrderIds(world.brand.id, [order.id]);
    const [id] = await tx.ids.next('shipments');
    const lineIds = await tx.ids.next('shipment_lines', pieces.size);
    const shipped = current!.lines.filter((l) => (pieces.get(l.id) ?? 0) > 0);
    const shipment: Shipment = {
      id: id!,
      brandId: world.brand.id,
      shipmentNumber: await tx.documentNumbers.next(world.brand.id, 'shipment'),
      orderId: order.id,
      orderNumber: order.orderNumber,
      customerId: order.customerId,
      status,
      shippingCost: earlier.length === 0 ? current!.shippingCost : null,
      carrier: status === 'completed' ? 'postnord' : null,
      colli: [],
      deliveredAt: status === 'completed' ? at : null,
      cancelledAt: status === 'cancelled' ? at : null,
      createdAt: at,
      updatedAt: at,
      lines: shipped.map((l, i) => ({
        id: lineIds[i]!,
        shipmentId: id!,
        orderLineId: l.id,
        variantId: l.variantId,
        sku: l.sku,
        ean: l.ean,
        quantity: pieces.get(l.id)!,
        deliveredQuantity: status === 'completed' ? pieces.get(l.id)! : 0,
      })),
    };
    await tx.shipments.save(shipment);
    if (status !== 'cancelled') {
      await tx.orders.save({
        ...current!,
        lines: current!.lines.map((l) => ({
          ...l,
          shippedQuantity: l.shippedQuantity + (pieces.get(l.id) ?? 0),
          deliveredQuantity: l.deliveredQuantity + (status === 'completed' ? (pieces.get(l.id) ?? 0) : 0),
        })),
      });
    }
    return shipment;
  });
}

/** The draft invoice in-service invoicing makes for a delivered shipment (the lead's `draftInvoiceForShipment`). */
export async function anInvoice(world: World, order: Order, shipment?: Shipment): Promise<Invoice> {
  const delivered = shipment ?? (await aShipment(world, order));
  return world.uow.run(async (tx) => {
    const [current] = await tx.orders.findByIds(world.brand.id, [order.id]);
    const { invoice, order: invoiced } = await draftInvoiceForShipment(tx, {
      order: current!,
      shipment: delivered,
      userId: null,
      at: world.clock.now(),
    });
    await tx.orders.save(invoiced);
    return invoice!;
  });
}

export async function orderNow(world: World, orderId: number): Promise<Order> {
  const [order] = await world.uow.read((r) => r.orders.findByIds(world.brand.id, [orderId]));
  return order!;
}

/** A list request of the world's brand. */
export const listOf = (world: World, query: ListRequest['query'] = {}): ListRequest => ({
  brandId: world.brand.id,
  query,
});

/** Runs `work` and returns the DomainError it throws (failing when it does not throw one). */
export async function domainErrorOf(
  work: Promise<unknown>,
): Promise<{ code: string; message: string; violations: { pointer: string; detail: string }[] }> {
  try {
    await work;
  } catch (error) {
    if (isDomainError(error)) return { code: error.code, message: error.message, violations: error.violations };
    throw error;
  }
  throw new Error('expected a DomainError, but the call succeeded');
}
