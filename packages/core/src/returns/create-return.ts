import { recordEvents } from '../events/record-events';
import { Order, OrderStatus } from '../orders/order.entities';
import { lookupInLines, resolveVariantLines } from '../orders/variant-lines';
import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Return, ReturnLine } from './return.entities';
import {
  checkClaimType,
  expectedByOrderLine,
  refusal,
  resolveClaimCauseCodes,
  returnLineFromOrderLine,
  spreadOverLines,
} from './return-line-builders';

/** One line of a back-office RMA: pieces of a variant of the order, named by SKU or EAN. */
export interface CreateReturnLineInput {
  sku?: string;
  ean?: string;
  quantity: number;
  claimType: string;
  /** Matched ignoring case; unknown or shared by several causes is a 422. */
  claimCauseCode?: string;
}

/** Orders whose goods can come back: those that went (or are going) out. */
const RETURNABLE_ORDER_STATUSES: readonly OrderStatus[] = ['approved', 'archived'];

/** The brand's order by number if its goods can come back, else a 422 at `/order_number`. */
async function returnableOrder(tx: Pick<Repositories, 'orders'>, brandId: number, orderNumber: number): Promise<Order> {
  const [order] = await tx.orders.findByNumbers(brandId, [orderNumber]);
  if (!order) throw refusal('/order_number', `${orderNumber} is not an order of this brand`);
  if (!RETURNABLE_ORDER_STATUSES.includes(order.status)) {
    throw refusal(
      '/order_number',
      `order ${order.orderNumber} is ${order.status}: only approved or archived orders take returns`,
    );
  }
  return order;
}

/**
 * Back office: announces an RMA for an order (`POST /v10/returns`), status `open` until approved.
 * Per variant, the pieces may not exceed what the order holds of it less what the order's other
 * returns already expect (so an order is never announced back twice); the pieces are spread over
 * the order's lines of the variant in line order and priced as those lines (price and discount).
 * Lines restock on receipt when their claim type is `return`. The number comes from the brand's
 * return series; the RMA is that number as text. Announces `return.created`.
 */
export async function createReturn(
  deps: {
    uow: UnitOfWork<
      Pick<
        Repositories,
        | 'claimCauses'
        | 'documentNumbers'
        | 'events'
        | 'ids'
        | 'orders'
        | 'returns'
        | 'timeline'
        | 'webhookDeliveries'
        | 'transaction'
        | 'webhookEndpoints'
      >
    >;
    clock: Clock;
  },
  input: {
    brandId: number;
    userId: number | null;
    orderNumber: number;
    notes?: string | null;
    lines: CreateReturnLineInput[];
  },
): Promise<Return> {
  return deps.uow.run(async (tx) => {
    const order = await returnableOrder(tx, input.brandId, input.orderNumber);
    const violations = new ViolationList();
    const resolved = await resolveVariantLines(
      input.lines,
      '/lines',
      lookupInLines(order.lines, `is not on order ${order.orderNumber}`),
      violations,
    );
    input.lines.forEach((line, i) => checkClaimType(line.claimType, `/lines/${i}/claim_type`, violations));
    const causeIds = await resolveClaimCauseCodes(
      tx,
      input.brandId,
      input.lines.map((l, i) => ({ claimCauseCode: l.claimCauseCode, pointer: `/lines/${i}/claim_cause_code` })),
      violations,
    );

    // Room per order line: its pieces less what other returns of the order already expect of it.
    const others = await tx.returns.findByOrderIds(input.brandId, [order.id]);
    const announced = expectedByOrderLine(others);
    const room = new Map(order.lines.map((l) => [l.id, l.quantity - (announced.get(l.id) ?? 0)]));
    const asked = new Map<number, number>();
    for (const r of resolved) {
      const variantLines = order.lines.filter((l) => l.variantId === r.variantId);
      const before = asked.get(r.variantId) ?? 0;
      asked.set(r.variantId, before + r.quantity);
      const left = variantLines.reduce((sum, l) => sum + Math.max(0, room.get(l.id)!), 0);
      if (before + r.quantity > left) {
        const ordered = variantLines.reduce((sum, l) => sum + l.quantity, 0);
        violations.add(
          r.quantityPointer,
          `SKU ${r.sku}: ${before + r.quantity} pieces announced, but order ${order.orderNumber} has ${ordered} and other returns already expect ${ordered - left}`,
        );
      }
    }
    violations.throwIfAny();

    const at = deps.clock.now();
    const [id] = await tx.ids.next('returns');
    const shares = resolved.flatMap((r) => {
      const candidates = order.lines
        .filter((l) => l.variantId === r.variantId)
        .map((line) => ({ line, room: room.get(line.id)! }));
      const spread = spreadOverLines(r.quantity, candidates);
      for (const s of spread) room.set(s.line.id, room.get(s.line.id)! - s.pieces);
      return spread.map((s) => ({ ...s, request: input.lines[r.index]!, causeId: causeIds[r.index] ?? null }));
    });
    const lineIds = await tx.ids.next('return_lines', shares.length);
    const lines: ReturnLine[] = shares.map((s, i) =>
      returnLineFromOrderLine(s.line, {
        id: lineIds[i]!,
        returnId: id!,
        expectedQuantity: s.pieces,
        claimType: s.request.claimType as ReturnLine['claimType'],
        claimCauseId: s.causeId,
        regulateInventory: true,
        refundStorefront: false,
      }),
    );
    const returnNumber = await tx.documentNumbers.next(input.brandId, 'return');
    const ret: Return = {
      id: id!,
      brandId: input.brandId,
      returnNumber,
      rma: String(returnNumber),
      rmaNumber: returnNumber,
      status: 'open',
      source: 'back_office',
      returnPortalId: null,
      orderId: order.id,
      orderNumber: order.orderNumber,
      shipmentId: null,
      customerId: order.customerId,
      currency: order.currency,
      vatRateBasisPoints: order.vatRateBasisPoints,
      pricesIncludeVat: order.pricesIncludeVat,
      notes: input.notes ?? null,
      returnMeta: {},
      shippingMethod: null,
      trackTrace: null,
      trackTraceLink: null,
      carrierCode: null,
      carrierLabel: null,
      labellessCode: null,
      returnFeeInclVat: null,
      exchangeFeeInclVat: null,
      storefrontRefundGiftCard: false,
      storefrontRefundGiftCardBonusType: null,
      storefrontRefundGiftCardBonusValue: null,
      storefrontRefundGiftCardFreeShipping: false,
      approvedAt: null,
      receivedAt: null,
      creditedAt: null,
      createdByUserId: input.userId,
      createdAt: at,
      updatedAt: at,
      lines,
    };
    await tx.returns.save(ret);
    const pieces = lines.reduce((sum, l) => sum + l.expectedQuantity, 0);
    await recordEvents(tx, input.brandId, at, [
      {
        type: 'return.created',
        object: ret,
        timeline: {
          note: `RMA ${ret.rma}: ${pieces} ${pieces === 1 ? 'piece' : 'pieces'} of order ${order.orderNumber} announced`,
          userId: input.userId,
        },
      },
    ]);
    // The order announces nothing of its return: its entry is written here.
    await tx.timeline.append([
      {
        brandId: input.brandId,
        documentType: 'order',
        documentId: order.id,
        kind: 'return_announced',
        note: `RMA ${ret.rma}: ${pieces} ${pieces === 1 ? 'piece' : 'pieces'}`,
        systemId: null,
        userId: input.userId,
        createdAt: at,
      },
    ]);
    return ret;
  });
}
