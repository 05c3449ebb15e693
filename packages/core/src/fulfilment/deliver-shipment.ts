import { recordEvents } from '../events/record-events';
import { draftInvoiceForShipment } from '../finance/draft-invoice-for-shipment';
import { Invoice } from '../finance/finance.entities';
import { Order, OrderType } from '../orders/order.entities';
import { ResolvedLine, VariantLineInput, lookupInLines, resolveVariantLines } from '../orders/variant-lines';
import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { loadSettings } from '../settings/load-settings';
import { ShipmentView, loadShipmentViews } from './shipment-view';
import { Colli, Shipment, ShipmentLine } from './shipment.entities';
import { shipmentLifecycle } from './shipment.lifecycle';
import { trackingLinkFor } from './tracking-links';

/** One parcel as the warehouse reports it. */
export interface DeliveredColli {
  trackTrace: string | null;
  /** Null: built from the carrier's tracking-link template, when there is one. */
  trackTraceLink: string | null;
  ssccNumber: string | null;
  lines: VariantLineInput[];
}

/** `delivery_note` of `POST /3pl/shipments/deliver`. */
export interface Delivery {
  shipmentNumber: number;
  orderType: OrderType;
  carrier: string;
  colli: DeliveredColli[];
}

const POINTER = '/delivery_note';

type DeliverShipmentRepositories = Pick<
  Repositories,
  | 'customers'
  | 'documentNumbers'
  | 'events'
  | 'exportMarks'
  | 'ids'
  | 'invoices'
  | 'orders'
  | 'paymentTerms'
  | 'settings'
  | 'shipments'
  | 'timeline'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/**
 * The warehouse reports a shipment delivered (`POST /3pl/shipments/deliver`), once: the shipment
 * is completed with its carrier and colli, the order lines count the delivered pieces, and pieces
 * packed short (fewer than the shipment holds) go back to the order's open quantity. Colli lines
 * name the shipment's variants by SKU or EAN; a variant may not be delivered beyond its pieces
 * on the shipment. When the brand invoices in the service, a draft invoice bills the delivered
 * pieces.
 *
 * Announces `shipment.delivered` with the shipment as saved, before what the delivery changes
 * next (the draft invoice's `invoice.created`, then the order's `order.updated` with its delivered,
 * shipped and invoiced quantities, which carries the order's `delivered` entry), so the events
 * follow the changes in order.
 */
export async function deliverShipment(
  deps: { uow: UnitOfWork<DeliverShipmentRepositories>; clock: Clock },
  input: { brandId: number; userId: number | null; delivery: Delivery },
): Promise<{ shipment: ShipmentView; invoice: Invoice | null }> {
  const { brandId, userId, delivery } = input;
  return deps.uow.run(async (tx) => {
    const [shipment] = await tx.shipments.findByNumbers(brandId, [delivery.shipmentNumber]);
    if (!shipment) {
      throw DomainError.validation([
        {
          pointer: `${POINTER}/shipment_number`,
          detail: `delivery_note.shipment_number names shipment ${delivery.shipmentNumber}, which does not exist`,
        },
      ]);
    }
    shipmentLifecycle.assertTransition(shipment.status, 'completed');
    const [order] = await tx.orders.findByIds(brandId, [shipment.orderId]);
    if (!order) throw new Error(`shipment ${shipment.id} refers to order ${shipment.orderId}, which is missing`);

    const violations = new ViolationList();
    if (delivery.orderType !== order.orderType) {
      violations.add(
        `${POINTER}/order_type`,
        `is ${delivery.orderType}, but shipment ${shipment.shipmentNumber} belongs to a ${order.orderType} order`,
      );
    }
    if (delivery.carrier.trim() === '') violations.add(`${POINTER}/carrier`, 'must not be empty');
    const lookup = lookupInLines(shipment.lines, `is not on shipment ${shipment.shipmentNumber}`);
    const colliLines: ResolvedLine<ShipmentLine>[][] = [];
    for (const [c, colli] of delivery.colli.entries()) {
      // An empty colli is a parcel without contents listed: allowed, unlike an empty order.
      colliLines.push(
        colli.lines.length === 0
          ? []
          : await resolveVariantLines(colli.lines, `${POINTER}/colli/${c}/lines`, lookup, violations),
      );
    }
    const delivered = new Map<number, number>();
    for (const r of colliLines.flat()) delivered.set(r.variantId, (delivered.get(r.variantId) ?? 0) + r.quantity);
    const onShipment = new Map<number, number>();
    for (const l of shipment.lines) onShipment.set(l.variantId, (onShipment.get(l.variantId) ?? 0) + l.quantity);
    const reported = new Set<number>();
    for (const r of colliLines.flat()) {
      const pieces = delivered.get(r.variantId)!;
      const held = onShipment.get(r.variantId)!;
      if (pieces > held && !reported.has(r.variantId)) {
        reported.add(r.variantId);
        violations.add(
          r.quantityPointer,
          `SKU ${r.sku}: ${pieces} pieces delivered in all colli, but shipment ${shipment.shipmentNumber} holds ${held}`,
        );
      }
    }
    violations.throwIfAny();

    const now = deps.clock.now();
    const settings = await loadSettings(tx, brandId);
    const lines = distribute(shipment.lines, delivered);
    const colli: Colli[] = delivery.colli.map((c, k) => ({
      trackTrace: c.trackTrace,
      trackTraceLink:
        c.trackTraceLink ?? trackingLinkFor(delivery.carrier, c.trackTrace, settings.trackingLinkTemplates),
      ssccNumber: c.ssccNumber,
      lines: colliLines[k]!.map((r) => ({ variantId: r.variantId, sku: r.sku, quantity: r.quantity })),
    }));
    const completed: Shipment = {
      ...shipment,
      status: 'completed',
      carrier: delivery.carrier.trim(),
      colli,
      deliveredAt: now,
      updatedAt: now,
      lines,
    };
    const byOrderLine = new Map(lines.map((l) => [l.orderLineId, l]));
    let updated: Order = {
      ...order,
      updatedAt: now,
      lines: order.lines.map((l) => {
        const s = byOrderLine.get(l.id);
        return s
          ? {
              ...l,
              deliveredQuantity: l.deliveredQuantity + s.deliveredQuantity,
              shippedQuantity: l.shippedQuantity - (s.quantity - s.deliveredQuantity),
            }
          : l;
      }),
    };
    await tx.shipments.save(completed);
    const pieces = lines.reduce((sum, l) => sum + l.deliveredQuantity, 0);
    const held = lines.reduce((sum, l) => sum + l.quantity, 0);
    await recordEvents(tx, brandId, now, [
      {
        type: 'shipment.delivered',
        object: completed,
        timeline: {
          note: `${pieces} of ${held} pieces delivered by ${completed.carrier} in ${colli.length} colli`,
          userId,
        },
      },
    ]);
    let invoice: Invoice | null = null;
    if (settings.invoicing === 'in_service')
      ({ invoice, order: updated } = await draftInvoiceForShipment(tx, {
        order: updated,
        shipment: completed,
        userId,
        at: now,
      }));
    await tx.orders.save(updated);
    await recordEvents(tx, brandId, now, [
      {
        type: 'order.updated',
        object: updated,
        timeline: {
          kind: 'delivered',
          note: `shipment ${shipment.shipmentNumber}: ${pieces} of ${held} pieces delivered`,
          userId,
        },
      },
    ]);
    const [view] = await loadShipmentViews(tx, brandId, [completed]);
    return { shipment: view!, invoice };
  });
}

/** Spreads each variant's delivered pieces over its shipment lines in line order. */
function distribute(lines: readonly ShipmentLine[], delivered: ReadonlyMap<number, number>): ShipmentLine[] {
  const left = new Map(delivered);
  return lines.map((l) => {
    const pieces = Math.min(l.quantity, left.get(l.variantId) ?? 0);
    left.set(l.variantId, (left.get(l.variantId) ?? 0) - pieces);
    return { ...l, deliveredQuantity: pieces };
  });
}
