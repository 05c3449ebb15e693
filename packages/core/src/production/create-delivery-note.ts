import { Meta } from '../catalog/catalog.entities';
import { VariantLineInput, lookupInLines, quantitiesByVariant, resolveVariantLines } from '../orders/variant-lines';
import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findProductionOrderOrFail, isCalendarDate } from './find-production-order';
import { DeliveryNote, DeliveryNoteLine, ProductionOrder } from './production.entities';

/** `delivery_note` of `POST /v10/production-orders/{id}/delivery-notes`. */
export interface CreateDeliveryNoteInput {
  expectedDelivery?: string | null;
  notes?: string | null;
  meta?: Meta;
  lines: VariantLineInput[];
}

/** Violations point into the flat back-office body (DESIGN §6): `/lines/0/sku`. */
const POINTER = '';

/**
 * Announces a delivery of an open production order to the warehouse: lines name variants of the
 * production order (pieces of a variant named twice are added up); the production lines' expected
 * pieces rise. More pieces than ordered are accepted — suppliers over-deliver, and the warehouse
 * counts what arrives anyway. A draft (not yet approved) or closed order takes no delivery notes.
 */
export async function createDeliveryNote(
  deps: {
    uow: UnitOfWork<Pick<Repositories, 'deliveryNotes' | 'documentNumbers' | 'ids' | 'productionOrders' | 'timeline'>>;
    clock: Clock;
  },
  input: { brandId: number; userId: number | null; productionOrderId: number; deliveryNote: CreateDeliveryNoteInput },
): Promise<{ deliveryNote: DeliveryNote; productionOrder: ProductionOrder }> {
  const { brandId, userId, deliveryNote: body } = input;
  return deps.uow.run(async (tx) => {
    const order = await findProductionOrderOrFail(tx, brandId, input.productionOrderId);
    if (order.status !== 'open') {
      throw new DomainError(
        'invalid_state_transition',
        `production order ${order.productionOrderNumber} is ${order.status}: only an open production order takes delivery notes`,
        {
          data: { resource: 'production order', id: order.id, status: order.status },
        },
      );
    }
    const violations = new ViolationList();
    if (body.expectedDelivery != null && !isCalendarDate(body.expectedDelivery))
      violations.add(`${POINTER}/expected_delivery`, 'must be a date written YYYY-MM-DD');
    const resolved = await resolveVariantLines(
      body.lines,
      `${POINTER}/lines`,
      lookupInLines(order.lines, `is not on production order ${order.productionOrderNumber}`),
      violations,
    );
    violations.throwIfAny();

    const pieces = quantitiesByVariant(resolved);
    const now = deps.clock.now();
    const [id] = await tx.ids.next('delivery_notes');
    const productionLines = order.lines.filter((l) => pieces.has(l.variantId));
    const lineIds = await tx.ids.next('delivery_note_lines', productionLines.length);
    const lines = productionLines.map(
      (l, i): DeliveryNoteLine => ({
        id: lineIds[i]!,
        deliveryNoteId: id!,
        productionOrderLineId: l.id,
        variantId: l.variantId,
        sku: l.sku,
        ean: l.ean,
        itemNumber: l.itemNumber,
        productName: l.productName,
        attributes: l.attributes,
        countryOfOrigin: l.countryOfOrigin,
        composition: l.composition,
        hsTariffCode: l.hsTariffCode,
        expectedQuantity: pieces.get(l.variantId)!,
        receivedQuantity: 0,
      }),
    );
    const productionOrder: ProductionOrder = {
      ...order,
      updatedAt: now,
      lines: order.lines.map((l) => ({ ...l, expectedQuantity: l.expectedQuantity + (pieces.get(l.variantId) ?? 0) })),
    };
    const note: DeliveryNote = {
      id: id!,
      brandId,
      deliveryNoteNumber: await tx.documentNumbers.next(brandId, 'delivery_note'),
      productionOrderId: order.id,
      productionOrderNumber: order.productionOrderNumber,
      supplierId: order.supplierId,
      status: 'expected',
      currency: order.currency,
      expectedDelivery: body.expectedDelivery ?? order.expectedDelivery,
      notes: body.notes ?? null,
      meta: body.meta ?? {},
      receivedAt: null,
      createdByUserId: userId,
      createdAt: now,
      updatedAt: now,
      lines,
    };
    await tx.productionOrders.save(productionOrder);
    await tx.deliveryNotes.save(note);
    await tx.timeline.append([
      {
        brandId,
        documentType: 'delivery_note',
        documentId: note.id,
        kind: 'created',
        note: null,
        systemId: null,
        userId,
        createdAt: now,
      },
      {
        brandId,
        documentType: 'production_order',
        documentId: order.id,
        kind: 'delivery_note_created',
        note: `delivery note ${note.deliveryNoteNumber}`,
        systemId: null,
        userId,
        createdAt: now,
      },
    ]);
    return { deliveryNote: note, productionOrder };
  });
}
