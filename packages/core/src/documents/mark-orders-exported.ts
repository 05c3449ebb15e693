import { NewTimelineEvent } from './document.entities';
import { NewDomainEvent } from '../events/event.entities';
import { recordEvents } from '../events/record-events';
import { Order } from '../orders/order.entities';
import { orderLifecycle } from '../orders/order.lifecycle';
import { applyStockMovements } from '../inventory/apply-stock-movements';
import { NewStockMovement } from '../inventory/inventory.entities';
import { planRegulation } from '../orders/order-stock';
import { Clock } from '../shared/clock.ports';
import { DomainError, Violation, ViolationList, pointerToPath } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { loadSettings } from '../settings/load-settings';
import { MarkRequest, checkMarkRequest, recordMarks } from './export-marks';

/** One item of `POST /v10/orders/mark-as-exported`. */
export interface OrderMarkItem {
  orderId: number;
  systemId: string;
  note: string | null;
  /** True: the exporting system invoices the order, so its pieces leave In stock and the order is archived. */
  regulateInventory: boolean;
}

type MarkOrdersExportedRepositories = Pick<
  Repositories,
  | 'events'
  | 'exportMarks'
  | 'ids'
  | 'inventoryLocations'
  | 'orders'
  | 'settings'
  | 'stock'
  | 'timeline'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/**
 * `POST /v10/orders/mark-as-exported`. Marks each order as imported by its item's system and,
 * where `regulateInventory` is true, takes the order's remaining pieces out of In stock (its
 * reservations first, so In stock 10 / Available 9 become 9 / 9) and archives it — the way stock
 * leaves the books when invoices are made outside the service. Rules:
 * - regulating is refused when the brand invoices in the service (booking the invoice regulates
 *   then) and for draft orders (not approved yet); cancelled and archived orders are only marked
 *   (nothing is left to regulate), so marking again never regulates twice;
 * - at most 10 items; an unknown or foreign order id names its item;
 * - all or nothing, in one transaction; each order it archives is announced (`order.archived`,
 *   with the order as saved), in the order of the items; the stock of all of them moves in one
 *   call after them (one `inventory.changed` per balance, however many orders it shares).
 * Returns the orders named, once each, in the order of the items, as they are after the call.
 */
export async function markOrdersExported(
  deps: { uow: UnitOfWork<MarkOrdersExportedRepositories>; clock: Clock },
  input: { brandId: number; userId: number | null; items: OrderMarkItem[] },
): Promise<Order[]> {
  const request: MarkRequest = {
    brandId: input.brandId,
    userId: input.userId,
    documentType: 'order',
    arrayKey: 'orders',
    idKey: 'order_id',
    items: input.items.map((item) => ({ documentId: item.orderId, systemId: item.systemId, note: item.note })),
  };
  return deps.uow.run(async (tx) => {
    const at = deps.clock.now();
    const orders = new Map<number, Order>();
    await checkMarkRequest(request, async (ids) => {
      for (const order of await tx.orders.findByIds(input.brandId, ids)) orders.set(order.id, order);
      return new Set(orders.keys());
    });

    const settings = await loadSettings(tx, input.brandId);
    const violations = new ViolationList();
    const drafts: Violation[] = [];
    input.items.forEach((item, i) => {
      if (!item.regulateInventory) return;
      const pointer = `/orders/${i}/regulate_inventory`;
      if (settings.invoicing === 'in_service') {
        violations.add(
          pointer,
          'must be false: this brand invoices in the service, where booking the invoice regulates the inventory',
        );
        return;
      }
      const order = orders.get(item.orderId)!;
      if (order.status === 'draft') {
        drafts.push({
          pointer,
          detail: `${pointerToPath(pointer)} cannot be true for order ${order.orderNumber}: it is a draft, not approved`,
        });
      }
    });
    violations.throwIfAny();
    // A draft cannot move to archived: the order lifecycle's error, naming the item.
    if (drafts.length > 0)
      throw new DomainError('invalid_state_transition', drafts[0]!.detail, {
        violations: drafts,
        data: { from: 'draft', to: 'archived' },
      });

    const regulate = new Set(input.items.filter((item) => item.regulateInventory).map((item) => item.orderId));
    // Each archived order's timeline reads exported (the marks), regulated, archived (its
    // order.archived event's entry): the entries no event announces are written first.
    const regulatedTimeline: NewTimelineEvent[] = [];
    const archivedEvents: NewDomainEvent<'order.archived'>[] = [];
    // The stock of every order moves in one call after the loop: one inventory.changed per balance.
    const movements: NewStockMovement[] = [];
    for (const orderId of regulate) {
      const order = orders.get(orderId)!;
      if (order.status !== 'approved') continue; // cancelled or archived: nothing left to regulate
      const remaining = new Map(order.lines.map((line) => [line.id, line.quantity - line.regulatedQuantity]));
      const { order: regulated, movements: taken } = await planRegulation(tx, order, remaining, 'order_regulated', {
        brandId: input.brandId,
        userId: input.userId,
        at,
        documentType: 'order',
        documentId: order.id,
      });
      movements.push(...taken);
      orderLifecycle.assertTransition(order.status, 'archived');
      const archived: Order = { ...regulated, status: 'archived', archivedAt: at, updatedAt: at };
      await tx.orders.save(archived);
      archivedEvents.push({
        type: 'order.archived',
        object: archived,
        timeline: { note: 'archived on export with regulate_inventory', userId: input.userId },
      });
      orders.set(orderId, archived);
      const pieces =
        regulated.lines.reduce((sum, line) => sum + line.regulatedQuantity, 0) -
        order.lines.reduce((sum, line) => sum + line.regulatedQuantity, 0);
      if (pieces > 0)
        regulatedTimeline.push({
          brandId: input.brandId,
          documentType: 'order',
          documentId: order.id,
          kind: 'regulated',
          note: `${pieces} ${pieces === 1 ? 'piece' : 'pieces'} taken out of In stock on export`,
          systemId: null,
          userId: input.userId,
          createdAt: at,
        });
    }
    await recordMarks(tx, request, at);
    await tx.timeline.append(regulatedTimeline);
    // Announced in the orders' order, before the inventory.changed of the stock they moved.
    await recordEvents(tx, input.brandId, at, archivedEvents);
    await applyStockMovements(tx, input.brandId, movements, at);
    return [...new Set(input.items.map((item) => item.orderId))].map((id) => orders.get(id)!);
  });
}
