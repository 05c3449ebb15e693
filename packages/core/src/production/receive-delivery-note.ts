import { Meta } from '../catalog/catalog.entities';
import { recordEvents } from '../events/record-events';
import { applyStockMovements } from '../inventory/apply-stock-movements';
import { ensureDefaultLocation } from '../inventory/ensure-default-location';
import { NewStockMovement } from '../inventory/inventory.entities';
import { lookupInLines, resolveVariantLines } from '../orders/variant-lines';
import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { DeliveryNote, ProductionOrder } from './production.entities';
import { DeliveryNoteView } from './production-view';
import { deliveryNoteLifecycle } from './delivery-note.lifecycle';

/** `production_order_delivery_note` of `POST /3pl/production/receive`. */
export interface DeliveryNoteReceipt {
  deliveryNoteNumber: number;
  /** Merged into the note's meta (sent keys added or replaced); undefined leaves it unchanged. */
  meta?: Meta;
  lines: Array<{ sku?: string; ean?: string; receivedQuantity: number }>;
}

const POINTER = '/production_order_delivery_note';

type ReceiveDeliveryNoteRepositories = Pick<
  Repositories,
  | 'deliveryNotes'
  | 'events'
  | 'ids'
  | 'inventoryLocations'
  | 'productionOrders'
  | 'products'
  | 'stock'
  | 'suppliers'
  | 'timeline'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/**
 * The warehouse reports pieces of a delivery note received. Receipts accumulate: a note may be
 * received over several calls, each adding its pieces, and more than expected is accepted (the
 * warehouse reports what arrived; refusing would leave real goods off the books). The pieces go
 * In stock at the brand's default location (products kept without inventory excepted), the note
 * becomes `received`, and the production order's lines count them. Lines name variants of the
 * note by SKU or EAN; the note's production order must still be open. All or nothing. Every
 * receipt announces `delivery_note.received` with the whole note as it left it (a later receipt of
 * the same note is announced again, with the pieces added up).
 */
export async function receiveDeliveryNote(
  deps: { uow: UnitOfWork<ReceiveDeliveryNoteRepositories>; clock: Clock },
  input: { brandId: number; userId: number | null; receipt: DeliveryNoteReceipt },
): Promise<DeliveryNoteView> {
  const { brandId, userId, receipt } = input;
  return deps.uow.run(async (tx) => {
    const [before] = await tx.deliveryNotes.findByNumbers(brandId, [receipt.deliveryNoteNumber]);
    const numberPointer = `${POINTER}/production_order_delivery_note_number`;
    if (!before) {
      throw DomainError.validation([
        {
          pointer: numberPointer,
          detail: `production_order_delivery_note.production_order_delivery_note_number names delivery note ${receipt.deliveryNoteNumber}, which does not exist`,
        },
      ]);
    }
    const [order] = await tx.productionOrders.findByIds(brandId, [before.productionOrderId]);
    if (!order)
      throw new Error(
        `delivery note ${before.id} refers to production order ${before.productionOrderId}, which is missing`,
      );
    if (order.status !== 'open') {
      throw DomainError.validation([
        {
          pointer: numberPointer,
          detail: `production_order_delivery_note.production_order_delivery_note_number: production order ${order.productionOrderNumber} of delivery note ${before.deliveryNoteNumber} is ${order.status}; it takes no more receipts`,
        },
      ]);
    }

    const violations = new ViolationList();
    // resolveVariantLines wants pieces above 0; here 0 is a valid count, so it resolves the
    // variants only and the received quantities are checked below under their own name.
    const resolved = await resolveVariantLines(
      receipt.lines.map((l) => ({ sku: l.sku, ean: l.ean, quantity: 1 })),
      `${POINTER}/lines`,
      lookupInLines(before.lines, `is not on delivery note ${before.deliveryNoteNumber}`),
      violations,
    );
    receipt.lines.forEach((line, i) => {
      if (!Number.isSafeInteger(line.receivedQuantity) || line.receivedQuantity < 0)
        violations.add(`${POINTER}/lines/${i}/received_quantity`, 'must be a whole number of 0 or more');
    });
    violations.throwIfAny();

    const pieces = new Map<number, number>();
    for (const r of resolved)
      pieces.set(r.variantId, (pieces.get(r.variantId) ?? 0) + receipt.lines[r.index]!.receivedQuantity);
    deliveryNoteLifecycle.assertTransition(before.status, 'received');
    const now = deps.clock.now();
    const note: DeliveryNote = {
      ...before,
      status: 'received',
      receivedAt: now,
      updatedAt: now,
      meta: { ...before.meta, ...(receipt.meta ?? {}) },
      lines: before.lines.map((l) => ({ ...l, receivedQuantity: l.receivedQuantity + (pieces.get(l.variantId) ?? 0) })),
    };
    const byProductionLine = new Map(note.lines.map((l) => [l.productionOrderLineId, pieces.get(l.variantId) ?? 0]));
    const productionOrder: ProductionOrder = {
      ...order,
      updatedAt: now,
      lines: order.lines.map((l) => ({
        ...l,
        receivedQuantity: l.receivedQuantity + (byProductionLine.get(l.id) ?? 0),
      })),
    };
    // Only the lines that moved are written: saves upsert lines by id and never drop the others,
    // and a receipt names a few lines of notes and orders that may have hundreds.
    const changedNoteLines = new Set(note.lines.filter((l) => (pieces.get(l.variantId) ?? 0) > 0).map((l) => l.id));
    await tx.deliveryNotes.save({ ...note, lines: note.lines.filter((l) => changedNoteLines.has(l.id)) });
    await tx.productionOrders.save({
      ...productionOrder,
      lines: productionOrder.lines.filter((l) => (byProductionLine.get(l.id) ?? 0) > 0),
    });
    // Announced before the stock it moves (the note changed first), with all its lines: the
    // save above writes only the lines that moved, but the note as read back has them all.
    const total = [...pieces.values()].reduce((sum, p) => sum + p, 0);
    const text = `${total} ${total === 1 ? 'piece' : 'pieces'} received on delivery note ${note.deliveryNoteNumber}`;
    await recordEvents(tx, brandId, now, [
      { type: 'delivery_note.received', object: note, timeline: { note: text, userId } },
    ]);
    await restock(tx, note, pieces, userId, now);
    // The production order announces nothing of the receipt: its entry is written here.
    await tx.timeline.append([
      {
        brandId,
        documentType: 'production_order',
        documentId: order.id,
        kind: 'delivery_note_received',
        note: text,
        systemId: null,
        userId,
        createdAt: now,
      },
    ]);
    const supplier = await tx.suppliers.findById(brandId, note.supplierId);
    if (!supplier) throw new Error(`delivery note ${note.id} refers to supplier ${note.supplierId}, which is missing`);
    return { note, productionOrder, supplier };
  });
}

async function restock(
  tx: Pick<
    Repositories,
    | 'events'
    | 'ids'
    | 'inventoryLocations'
    | 'products'
    | 'stock'
    | 'webhookDeliveries'
    | 'transaction'
    | 'webhookEndpoints'
  >,
  note: DeliveryNote,
  pieces: ReadonlyMap<number, number>,
  userId: number | null,
  at: string,
): Promise<void> {
  const received = note.lines.filter((l) => (pieces.get(l.variantId) ?? 0) > 0);
  if (received.length === 0) return;
  // Read without locks, so a receipt does not queue behind catalog writes; only the product's
  // no-inventory flag is needed. A variant no longer found is stocked anyway.
  const variants = await tx.products.findSaleableVariants(note.brandId, {
    skus: [...new Set(received.map((l) => l.sku))],
  });
  const untracked = new Set(variants.filter((v) => v.product.noInventory).map((v) => v.variant.id));
  const tracked = received.filter((l) => !untracked.has(l.variantId));
  if (tracked.length === 0) return;
  const location = await ensureDefaultLocation(tx, { now: () => at }, note.brandId);
  const movements: NewStockMovement[] = tracked.map((l) => ({
    brandId: note.brandId,
    variantId: l.variantId,
    locationId: location.id,
    inStockDelta: pieces.get(l.variantId)!,
    reservedDelta: 0,
    reason: 'production_received',
    note: `delivery note ${note.deliveryNoteNumber}`,
    documentType: 'delivery_note',
    documentId: note.id,
    userId,
  }));
  await applyStockMovements(tx, note.brandId, movements, at);
}
