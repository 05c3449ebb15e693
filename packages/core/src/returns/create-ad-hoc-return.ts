import { recordEvents } from '../events/record-events';
import { CreditNote } from '../finance/finance.entities';
import { Shipment } from '../fulfilment/shipment.entities';
import { Order } from '../orders/order.entities';
import { ResolvedLine, lookupInLines, quantitiesByVariant, resolveVariantLines } from '../orders/variant-lines';
import { loadSettings } from '../settings/load-settings';
import { AdHocReturnMode } from '../settings/settings.entities';
import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { receiveReturnPieces } from './receive-return-pieces';
import { Alert, ClaimType, Return, ReturnLine } from './return.entities';
import {
  checkClaimType,
  refusal,
  resolveClaimCauseCodes,
  returnLineFromOrderLine,
  spreadOverLines,
} from './return-line-builders';

/** One line of an ad hoc return: pieces of a variant of the shipment, named by SKU or EAN. */
export interface AdHocReturnLineInput {
  sku?: string;
  ean?: string;
  quantity: number;
  /** Pieces go back in stock only when true and the claim type is `return`. */
  returnToInventory: boolean;
  claimType: string;
  claimCauseCode?: string;
  /** Default true. */
  shouldRefundStorefront?: boolean;
}

/** What an ad hoc report did: received a matching RMA, or made a new ad hoc return (with a credit note or an alert). */
export interface AdHocReturnOutcome {
  ret: Return;
  /** True when an approved RMA of the order matched and was received instead of making a new return. */
  matchedRma: boolean;
  creditNote: CreditNote | null;
  alert: Alert | null;
}

const SHIPMENT_POINTER = '/return/shipment_number';
const LINES_POINTER = '/return/lines';

type CreateAdHocReturnRepositories = Pick<
  Repositories,
  | 'alerts'
  | 'claimCauses'
  | 'creditNotes'
  | 'documentNumbers'
  | 'events'
  | 'ids'
  | 'inventoryLocations'
  | 'orders'
  | 'products'
  | 'returns'
  | 'settings'
  | 'shipments'
  | 'stock'
  | 'timeline'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/**
 * `POST /3pl/returns/create-ad-hoc-return`: the warehouse received pieces nobody announced, from a
 * shipment of the brand. What happens depends on the brand's `ad_hoc_return_mode` (null: refused):
 * - `always_credit_note`: a new ad hoc return, received at once, with a draft credit note;
 * - `credit_note_if_no_rma`: when an approved RMA of the shipment's order expects every reported
 *   variant with at least the reported pieces (the first such by id), that RMA is received with
 *   these pieces as a normal receipt (its own lines decide restocking, its credit note is drafted);
 *   otherwise as `always_credit_note`;
 * - `alert_if_no_rma`: a matching RMA as above; otherwise a new ad hoc return received without a
 *   credit note and an open dashboard alert, from which staff issue the credit note.
 * A new return's lines are priced as the order lines the shipment took the pieces from; per variant
 * the pieces may not exceed what the shipment holds of it. All or nothing.
 *
 * Events: a matched RMA announces its receipt (`return.received`, `credit_note.created`); a new
 * return `return.created` (as made: approved, nothing received yet), `return.received`, and then
 * `credit_note.created` or, in `alert_if_no_rma`, `alert.created`.
 */
export async function createAdHocReturn(
  deps: { uow: UnitOfWork<CreateAdHocReturnRepositories>; clock: Clock },
  input: { brandId: number; userId: number | null; shipmentNumber: number; lines: AdHocReturnLineInput[] },
): Promise<AdHocReturnOutcome> {
  return deps.uow.run(async (tx) => {
    const mode = (await loadSettings(tx, input.brandId)).adHocReturnMode;
    if (mode === null) {
      throw new DomainError('validation_failed', 'ad hoc returns are off: set ad_hoc_return_mode', {
        violations: [
          {
            pointer: '/return',
            detail: 'ad hoc returns are off: set ad_hoc_return_mode in the settings (PATCH /v10/settings)',
          },
        ],
        data: { setting: 'ad_hoc_return_mode' },
      });
    }
    const shipment = await shipmentOrFail(tx, input.brandId, input.shipmentNumber);
    const [order] = await tx.orders.findByIds(input.brandId, [shipment.orderId]);
    if (!order) throw new Error(`shipment ${shipment.id} refers to order ${shipment.orderId}, which is missing`);
    const violations = new ViolationList();
    const resolved = await resolveVariantLines(
      input.lines,
      LINES_POINTER,
      lookupInLines(shipment.lines, `is not on shipment ${shipment.shipmentNumber}`),
      violations,
    );
    input.lines.forEach((line, i) => checkClaimType(line.claimType, `${LINES_POINTER}/${i}/claim_type`, violations));
    const causeIds = await resolveClaimCauseCodes(
      tx,
      input.brandId,
      input.lines.map((l, i) => ({
        claimCauseCode: l.claimCauseCode,
        pointer: `${LINES_POINTER}/${i}/claim_cause_code`,
      })),
      violations,
    );
    const asked = new Map<number, number>();
    for (const r of resolved) {
      const total = (asked.get(r.variantId) ?? 0) + r.quantity;
      asked.set(r.variantId, total);
      const shipped = shipment.lines.filter((l) => l.variantId === r.variantId).reduce((sum, l) => sum + l.quantity, 0);
      if (total > shipped)
        violations.add(
          r.quantityPointer,
          `SKU ${r.sku}: ${total} pieces reported, but shipment ${shipment.shipmentNumber} holds ${shipped}`,
        );
    }
    violations.throwIfAny();

    const at = deps.clock.now();
    const reported = quantitiesByVariant(resolved);
    if (mode !== 'always_credit_note') {
      const rma = await matchingRma(tx, order, reported);
      if (rma) {
        const received = new Map<number, number>();
        for (const [variantId, pieces] of reported) {
          const candidates = rma.lines
            .filter((l) => l.variantId === variantId)
            .map((line) => ({ line, room: line.expectedQuantity }));
          for (const share of spreadOverLines(pieces, candidates)) received.set(share.line.id, share.pieces);
        }
        const { ret, creditNote } = await receiveReturnPieces(tx, { ret: rma, received, userId: input.userId, at });
        await tx.timeline.append([
          {
            brandId: input.brandId,
            documentType: 'return',
            documentId: ret.id,
            kind: 'ad_hoc_matched',
            note: `reported by the warehouse as an ad hoc return of shipment ${shipment.shipmentNumber}`,
            systemId: null,
            userId: input.userId,
            createdAt: at,
          },
        ]);
        return { ret, matchedRma: true, creditNote, alert: null };
      }
    }
    return newAdHocReturn(tx, { input, mode, shipment, order, resolved, causeIds, at });
  });
}

/** The brand's shipment by number, else a 422 at `/return/shipment_number`. */
async function shipmentOrFail(
  tx: Pick<Repositories, 'shipments'>,
  brandId: number,
  shipmentNumber: number,
): Promise<Shipment> {
  const [shipment] = await tx.shipments.findByNumbers(brandId, [shipmentNumber]);
  if (!shipment) throw refusal(SHIPMENT_POINTER, `${shipmentNumber} is not a shipment of this brand`);
  return shipment;
}

/**
 * The first (by id) approved return of the order expecting every reported variant with at least
 * the reported pieces; a return that expects fewer is not this parcel's RMA.
 */
async function matchingRma(
  tx: Pick<Repositories, 'returns'>,
  order: Order,
  reported: ReadonlyMap<number, number>,
): Promise<Return | null> {
  const candidates = (await tx.returns.findByOrderIds(order.brandId, [order.id]))
    .filter((r) => r.status === 'approved')
    .sort((a, b) => a.id - b.id);
  return (
    candidates.find((r) =>
      [...reported].every(
        ([variantId, pieces]) =>
          r.lines.filter((l) => l.variantId === variantId).reduce((sum, l) => sum + l.expectedQuantity, 0) >= pieces,
      ),
    ) ?? null
  );
}

type NewAdHocReturnRepositories = Pick<
  Repositories,
  | 'alerts'
  | 'creditNotes'
  | 'documentNumbers'
  | 'events'
  | 'ids'
  | 'inventoryLocations'
  | 'products'
  | 'returns'
  | 'stock'
  | 'timeline'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

async function newAdHocReturn(
  tx: NewAdHocReturnRepositories,
  args: {
    input: { brandId: number; userId: number | null; lines: AdHocReturnLineInput[] };
    mode: AdHocReturnMode;
    shipment: Shipment;
    order: Order;
    resolved: ResolvedLine<Shipment['lines'][number]>[];
    causeIds: Array<number | null>;
    at: string;
  },
): Promise<AdHocReturnOutcome> {
  const { input, mode, shipment, order, resolved, causeIds, at } = args;
  const [id] = await tx.ids.next('returns');
  // Pieces of a variant are spread over the shipment's lines of it, each priced as its order line.
  const room = new Map(shipment.lines.map((l) => [l.id, l.quantity]));
  const orderLines = new Map(order.lines.map((l) => [l.id, l]));
  const shares = resolved.flatMap((r) => {
    const candidates = shipment.lines
      .filter((l) => l.variantId === r.variantId)
      .map((line) => ({ line, room: room.get(line.id)! }));
    const spread = spreadOverLines(r.quantity, candidates);
    for (const share of spread) room.set(share.line.id, room.get(share.line.id)! - share.pieces);
    return spread.map((share) => ({ ...share, request: input.lines[r.index]!, causeId: causeIds[r.index] ?? null }));
  });
  const lineIds = await tx.ids.next('return_lines', shares.length);
  const lines: ReturnLine[] = shares.map((share, i) => {
    const orderLine = orderLines.get(share.line.orderLineId);
    if (!orderLine)
      throw new Error(
        `shipment line ${share.line.id} refers to order line ${share.line.orderLineId}, which its order does not have`,
      );
    return returnLineFromOrderLine(orderLine, {
      id: lineIds[i]!,
      returnId: id!,
      expectedQuantity: share.pieces,
      claimType: share.request.claimType as ClaimType,
      claimCauseId: share.causeId,
      regulateInventory: share.request.returnToInventory,
      refundStorefront: share.request.shouldRefundStorefront ?? true,
    });
  });
  const returnNumber = await tx.documentNumbers.next(input.brandId, 'return');
  // Built approved, then received by the one receipt path, so stock and credit note follow the same rules as an RMA's.
  const approved: Return = {
    id: id!,
    brandId: input.brandId,
    returnNumber,
    rma: String(returnNumber),
    rmaNumber: returnNumber,
    status: 'approved',
    source: 'ad_hoc',
    returnPortalId: null,
    orderId: order.id,
    orderNumber: order.orderNumber,
    shipmentId: shipment.id,
    customerId: order.customerId,
    currency: order.currency,
    vatRateBasisPoints: order.vatRateBasisPoints,
    pricesIncludeVat: order.pricesIncludeVat,
    notes: null,
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
    approvedAt: at,
    receivedAt: null,
    creditedAt: null,
    createdByUserId: input.userId,
    createdAt: at,
    updatedAt: at,
    lines,
  };
  const withAlert = mode === 'alert_if_no_rma';
  const received = new Map(lines.map((l) => [l.id, l.expectedQuantity]));
  const { ret, creditNote } = await receiveReturnPieces(tx, {
    ret: approved,
    received,
    userId: input.userId,
    at,
    issueCreditNote: !withAlert,
    created: {
      note: `ad hoc return of shipment ${shipment.shipmentNumber} (order ${order.orderNumber}), reported by the warehouse`,
    },
  });
  if (!withAlert) return { ret, matchedRma: false, creditNote, alert: null };
  const [alertId] = await tx.ids.next('alerts');
  const alert: Alert = {
    id: alertId!,
    brandId: input.brandId,
    kind: 'ad_hoc_return_without_rma',
    returnId: ret.id,
    message: `Ad hoc return ${ret.rma} of shipment ${shipment.shipmentNumber} (order ${order.orderNumber}) matched no RMA: issue its credit note if it is due`,
    status: 'open',
    creditNoteId: null,
    resolvedAt: null,
    createdAt: at,
    updatedAt: at,
  };
  await tx.alerts.save(alert);
  await recordEvents(tx, input.brandId, at, [{ type: 'alert.created', object: alert }]);
  return { ret, matchedRma: false, creditNote: null, alert };
}
