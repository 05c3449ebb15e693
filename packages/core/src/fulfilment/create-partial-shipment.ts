import { recordEvents } from '../events/record-events';
import { findOrderOrFail } from '../orders/find-order';
import { VariantLineInput, lookupInLines, quantitiesByVariant, resolveVariantLines } from '../orders/variant-lines';
import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { createShipment } from './create-shipment';
import { Shipment } from './shipment.entities';

/**
 * Back office: ships some open pieces of an approved order (`POST /v10/orders/{id}/shipments`).
 * Lines name variants of the order by SKU or EAN; a variant's pieces (summed over the request's
 * lines) may not exceed what is open of it on the order (summed over its order lines), and are
 * taken from its order lines in line order. Draft, cancelled and archived orders are refused.
 * Announces `order.updated` (its shipped quantities; the order's `shipment_created` entry), then
 * `shipment.created`, each as saved (the order first, as it is saved first).
 */
export async function createPartialShipment(
  deps: {
    uow: UnitOfWork<
      Pick<
        Repositories,
        | 'documentNumbers'
        | 'events'
        | 'ids'
        | 'orders'
        | 'shipments'
        | 'timeline'
        | 'webhookDeliveries'
        | 'transaction'
        | 'webhookEndpoints'
      >
    >;
    clock: Clock;
  },
  input: { brandId: number; userId: number | null; orderId: number; lines: VariantLineInput[] },
): Promise<Shipment> {
  return deps.uow.run(async (tx) => {
    const order = await findOrderOrFail(tx, input.brandId, input.orderId);
    if (order.status !== 'approved') {
      throw new DomainError(
        'invalid_state_transition',
        `order ${order.orderNumber} is ${order.status}; only approved orders get shipments`,
        {
          data: { status: order.status, required: 'approved' },
        },
      );
    }
    const violations = new ViolationList();
    const resolved = await resolveVariantLines(
      input.lines,
      '/lines',
      lookupInLines(order.lines, `is not on order ${order.orderNumber}`),
      violations,
    );
    const requested = quantitiesByVariant(resolved);
    const open = new Map<number, number>();
    for (const l of order.lines) open.set(l.variantId, (open.get(l.variantId) ?? 0) + l.quantity - l.shippedQuantity);
    const reported = new Set<number>();
    for (const r of resolved) {
      const wanted = requested.get(r.variantId)!;
      const left = open.get(r.variantId) ?? 0;
      if (wanted > left && !reported.has(r.variantId)) {
        reported.add(r.variantId);
        violations.add(
          r.quantityPointer,
          `SKU ${r.sku}: ${wanted} pieces asked, but only ${left} are open on order ${order.orderNumber}`,
        );
      }
    }
    violations.throwIfAny();

    const pieces = new Map<number, number>();
    for (const [variantId, quantity] of requested) {
      let remaining = quantity;
      for (const line of order.lines) {
        if (line.variantId !== variantId || remaining === 0) continue;
        const taken = Math.min(line.quantity - line.shippedQuantity, remaining);
        if (taken > 0) pieces.set(line.id, taken);
        remaining -= taken;
      }
    }
    const now = deps.clock.now();
    const others = await tx.shipments.findByOrderIds(input.brandId, [order.id]);
    const { shipment, events, orderUpdated } = await createShipment(tx, {
      order: { ...order, updatedAt: now },
      pieces,
      otherShipments: others,
      userId: input.userId,
      at: now,
    });
    await recordEvents(tx, input.brandId, now, [...orderUpdated, ...events]);
    return shipment!;
  });
}
