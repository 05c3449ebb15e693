import { NewTimelineEvent } from '../documents/document.entities';
import { recordEvents } from '../events/record-events';
import { CreditNote } from '../finance/finance.entities';
import { Order } from '../orders/order.entities';
import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { PortalCaller, findCallerPortal } from './portal-access';
import {
  PortalReturnLineInput,
  buildPortalLines,
  matchPortalLines,
  resolvePortalLines,
  sameLines,
} from './portal-return-lines';
import { receiveReturnPieces } from './receive-return-pieces';
import { GiftCardBonusType, Return, ReturnPortal, ReturnStatus } from './return.entities';
import { returnLifecycle } from './return.lifecycle';

/** The `return` object of a portal upsert. Fields left out (undefined) keep their stored value. */
export interface PortalReturnInput {
  rma: string;
  notes?: string | null;
  /** A move of the return state machine; only approved → received may be asked for here. */
  status?: string;
  /** Minor units incl. VAT. */
  returnFeeInclVat?: number | null;
  exchangeFeeInclVat?: number | null;
  labellessCode?: string | null;
  trackTrace?: string | null;
  trackTraceLink?: string | null;
  storefrontRefundGiftCard?: boolean;
  storefrontRefundGiftCardBonusType?: GiftCardBonusType | null;
  /** Decimal text, echoed as sent. */
  storefrontRefundGiftCardBonusValue?: string | null;
  storefrontRefundGiftCardFreeShipping?: boolean;
  /** The full desired set of lines. */
  lines: PortalReturnLineInput[];
}

/**
 * What `upsertPortalReturn` is asked: the calling app and portal, the order (for a new return) and
 * the return as the portal sends it.
 */
export interface UpsertPortalReturnInput extends PortalCaller {
  userId: number | null;
  publicId: string;
  /** Required for a new return; when sent for an existing one it must be its order's. */
  email?: string | null;
  orderNumber?: number;
  ret: PortalReturnInput;
}

/**
 * What `upsertPortalReturn` returns: the return, its portal, its credit notes and whether it was
 * created.
 */
export interface PortalReturnResult {
  ret: Return;
  portal: ReturnPortal;
  /** The return's credit notes (its refunded total), oldest first. */
  creditNotes: CreditNote[];
  created: boolean;
}

/** Orders whose goods can come back: those that went (or are going) out, as for back-office RMAs. */
const RETURNABLE_ORDER_STATUSES = ['approved', 'archived'];

/** The most digits an rma_number can hold and stay an exact integer. */
const MAX_RMA_DIGITS = 15;

const BONUS_TYPES: readonly GiftCardBonusType[] = ['percentage', 'fixed'];

/** The fields a portal sets besides the lines; equal in all of them (and the lines) means nothing changed. */
const PORTAL_FIELDS = [
  'notes',
  'returnFeeInclVat',
  'exchangeFeeInclVat',
  'labellessCode',
  'trackTrace',
  'trackTraceLink',
  'storefrontRefundGiftCard',
  'storefrontRefundGiftCardBonusType',
  'storefrontRefundGiftCardBonusValue',
  'storefrontRefundGiftCardFreeShipping',
] as const;

type UpsertPortalReturnRepositories = Pick<
  Repositories,
  | 'claimCauses'
  | 'creditNotes'
  | 'documentNumbers'
  | 'events'
  | 'ids'
  | 'inventoryLocations'
  | 'orders'
  | 'products'
  | 'returnPortals'
  | 'returns'
  | 'stock'
  | 'timeline'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/**
 * `PUT /v10/external-return-portals/{publicId}/returns`: creates or updates the portal's return
 * with this rma, idempotently.
 *
 * - New rma: `email` and `order_number` are required and must name an approved or archived order
 *   of the brand with that e-mail (ignoring case); the return starts `approved`, numbered from the
 *   brand's return series, its rma_number the digits of the rma.
 * - Existing rma: the body is merged (fields left out keep their value), `email`/`order_number`
 *   when sent must be the bound order's; lines are matched by the spec's three levels, unclaimed
 *   ones deleted. Once received, lines and fees are fixed (the credit note was issued from them);
 *   a body that changes nothing is fine.
 * - `status`: the same status is no move; approved → received receives every expected piece (a
 *   draft credit note, restock); anything else is `invalid_state_transition` (credited only by
 *   finalize).
 * - A body that changes nothing saves nothing: same ids, `updated_at` unchanged.
 * - Events: the first upsert announces `return.created` (the return exists from then on: the
 *   warehouse may receive it, exports list it; it starts approved, so there is no separate
 *   `return.approved`); a receipt here announces `return.received` (after `return.created` when
 *   both happen in one call) and the credit note's `credit_note.created`; a merge that changes an
 *   existing return's fields or lines without receiving it announces `return.updated` with the
 *   return as saved (a receipt's `return.received` already carries what the same call changed).
 *   A body that changes nothing announces nothing.
 *
 * Concurrency: a new rma locks its order before looking for the return again, so concurrent first
 * upserts queue on the order and the later ones merge into the first one's return; what still
 * races hits the unique (brand, portal, rma) index and the unit of work runs it again as a merge.
 */
export async function upsertPortalReturn(
  deps: { uow: UnitOfWork<UpsertPortalReturnRepositories>; clock: Clock },
  input: UpsertPortalReturnInput,
): Promise<PortalReturnResult> {
  // Portals resend their upserts, so a replay is the common case: it is answered from plain reads,
  // with no write transaction (on SQLite the one writer) and no locks. Anything else, or a body
  // that turns out to change something, runs (again) in a transaction.
  const replay = await deps.uow.read((repos) => upsertWith(repos, deps.clock, input, 'replay'));
  if (replay) return replay;
  return deps.uow.run(async (tx) => (await upsertWith(tx, deps.clock, input, 'write'))!);
}

/** The upsert in `tx`; in `replay` mode it writes nothing and answers null as soon as the body would change something. */
async function upsertWith(
  tx: UpsertPortalReturnRepositories,
  clock: Clock,
  input: UpsertPortalReturnInput,
  mode: 'replay' | 'write',
): Promise<PortalReturnResult | null> {
  const { brandId } = input;
  const portal = await findCallerPortal(tx, input, input.publicId);
  const violations = new ViolationList();
  const rma = input.ret.rma.trim();
  const rmaNumber = rmaNumberOf(rma, violations);
  violations.throwIfAny();

  let existing = await tx.returns.findByPortalRma(brandId, portal.id, rma);
  if (mode === 'replay' && !existing) return null;
  let orderByNumber: Order | null = null;
  if (input.orderNumber !== undefined) {
    [orderByNumber = null] = await tx.orders.findByNumbers(brandId, [input.orderNumber]);
    if (!existing) existing = await tx.returns.findByPortalRma(brandId, portal.id, rma);
  }
  // The order named by number is usually the bound one: no need to read it twice.
  const order = existing
    ? orderByNumber && orderByNumber.id === existing.orderId
      ? orderByNumber
      : await boundOrder(tx, existing)
    : orderByNumber;
  checkOrder(input, existing, order, violations);
  const desired = await resolvePortalLines(
    tx,
    { brandId, portal, lines: input.ret.lines, pointer: '/return/lines' },
    violations,
  );
  const fields = portalFields(input.ret, violations);
  const current: ReturnStatus = existing?.status ?? 'approved';
  const target = targetStatus(input.ret.status, violations);
  violations.throwIfAny();
  if (target !== null && target !== current && !(current === 'approved' && target === 'received')) {
    const allowed = current === 'approved' ? ['received'] : [];
    throw new DomainError(
      'invalid_state_transition',
      `return ${rma} cannot move from ${current} to ${target} here${current === 'received' ? ' (finalize credits it)' : ''}`,
      {
        violations: [
          {
            pointer: '/return/status',
            detail: `return.status cannot move the return from ${current} to ${target}${current === 'received' ? '; finalize moves it to credited' : ''}`,
          },
        ],
        data: { from: current, to: target, allowed },
      },
    );
  }

  const receiving = target === 'received' && current === 'approved';
  if (mode === 'replay' && (receiving || matchPortalLines(existing!.lines, desired).includes(null))) return null;

  const at = clock.now();
  const base = existing ?? (await newReturn(tx, { input, portal, order: order!, rma, rmaNumber, at }));
  const lines = await buildPortalLines(tx, { ret: base, order, desired });
  const next: Return = { ...base, ...fields, lines };
  // Lines and fees may change while the return can still be received; after that its credit note stands on them.
  if (existing && !returnLifecycle.canTransition(existing.status, 'received'))
    refuseChangesAfterReceipt(existing, next);

  if (existing && !receiving && sameReturn(existing, next)) {
    return {
      ret: existing,
      portal,
      creditNotes: await tx.creditNotes.findByReturnIds(brandId, [existing.id]),
      created: false,
    };
  }
  if (mode === 'replay') return null;
  const changed: Return = { ...next, updatedAt: at };
  let saved = changed;
  if (!existing) {
    // Drawn last: the number locks the brand's return series until commit.
    saved = { ...changed, returnNumber: await tx.documentNumbers.next(brandId, 'return') };
  }
  // The update (or the order's return_announced) comes first in the timeline; the return's
  // `created` is its `return.created` event's, and the receipt follows it. An update that no
  // receipt follows is its `return.updated` event's entry.
  if (!existing || (receiving && !sameReturn(existing, next)))
    await tx.timeline.append(timelineOf(saved, existing, portal, input.userId, at));
  const created = existing ? undefined : { note: createdNote(saved, portal) };
  if (receiving) {
    // The portal reports the return received in full: every expected piece arrived.
    saved = (
      await receiveReturnPieces(tx, {
        ret: saved,
        received: new Map(saved.lines.map((l) => [l.id, l.expectedQuantity])),
        userId: input.userId,
        at,
        created,
      })
    ).ret;
  } else {
    await tx.returns.save(saved);
    // Not receiving, an existing return got here only because the body changed it.
    await recordEvents(tx, brandId, at, [
      created
        ? { type: 'return.created', object: saved, timeline: { note: created.note, userId: input.userId } }
        : {
            type: 'return.updated',
            object: saved,
            timeline: { note: updatedNote(saved, portal), userId: input.userId },
          },
    ]);
  }
  return {
    ret: saved,
    portal,
    creditNotes: await tx.creditNotes.findByReturnIds(brandId, [saved.id]),
    created: !existing,
  };
}

/** The number in an rma: all its digits (`RMA-00123` → 123); an rma without a digit is refused. */
export function rmaNumberOf(rma: string, violations: ViolationList): number {
  const digits = rma.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  if (rma === '') violations.add('/return/rma', 'must not be empty');
  else if (digits === '')
    violations.add(
      '/return/rma',
      `${JSON.stringify(rma)} must contain at least one digit (its digits make the rma_number)`,
    );
  else if (digits.length > MAX_RMA_DIGITS)
    violations.add('/return/rma', `has more than ${MAX_RMA_DIGITS} significant digits; its digits make the rma_number`);
  return digits === '' || digits.length > MAX_RMA_DIGITS ? 0 : Number(digits);
}

async function boundOrder(tx: Pick<Repositories, 'orders'>, ret: Return): Promise<Order | null> {
  if (ret.orderId === null) return null;
  const [order] = await tx.orders.findByIds(ret.brandId, [ret.orderId]);
  return order ?? null;
}

const sameEmail = (a: string | null, b: string): boolean =>
  a !== null && a.trim().toLowerCase() === b.trim().toLowerCase();

/** A new return needs its order and the customer's e-mail; an existing one checks what is sent against its order. */
function checkOrder(
  input: UpsertPortalReturnInput,
  existing: Return | null,
  order: Order | null,
  violations: ViolationList,
): void {
  const email = input.email ?? undefined;
  if (existing) {
    if (input.orderNumber !== undefined && order?.orderNumber !== input.orderNumber) {
      violations.add(
        '/order_number',
        `${input.orderNumber} is not the order of return ${existing.rma}${existing.orderNumber !== null ? ` (order ${existing.orderNumber})` : ''}`,
      );
    }
    if (email !== undefined && !sameEmail(order?.email ?? null, email))
      violations.add('/email', `does not match the e-mail of the order of return ${existing.rma}`);
    return;
  }
  if (input.orderNumber === undefined) violations.add('/order_number', 'is required for a new return');
  else if (!order) violations.add('/order_number', `${input.orderNumber} is not an order of this brand`);
  else if (!RETURNABLE_ORDER_STATUSES.includes(order.status)) {
    violations.add(
      '/order_number',
      `order ${order.orderNumber} is ${order.status}: only approved or archived orders take returns`,
    );
  }
  if (email === undefined) violations.add('/email', 'is required for a new return');
  else if (order && !sameEmail(order.email, email))
    violations.add('/email', `does not match the e-mail of order ${order.orderNumber}`);
}

/** The sent fields besides the lines, checked; left-out fields are absent (they keep their value). */
function portalFields(ret: PortalReturnInput, violations: ViolationList): Partial<Return> {
  const fields: Partial<Return> = {};
  for (const [key, pointer] of [
    ['returnFeeInclVat', 'return_fee_incl_vat'],
    ['exchangeFeeInclVat', 'exchange_fee_incl_vat'],
  ] as const) {
    const fee = ret[key];
    if (fee === undefined) continue;
    if (fee !== null && (!Number.isSafeInteger(fee) || fee < 0))
      violations.add(`/return/${pointer}`, 'must be an amount of at least 0 with at most 2 decimals');
    fields[key] = fee;
  }
  const bonusType = ret.storefrontRefundGiftCardBonusType;
  if (bonusType !== undefined && bonusType !== null && !BONUS_TYPES.includes(bonusType)) {
    violations.add('/return/storefront_refund_gift_card_bonus_type', `must be one of ${BONUS_TYPES.join(', ')}`);
  }
  const copy = [
    'notes',
    'labellessCode',
    'trackTrace',
    'trackTraceLink',
    'storefrontRefundGiftCard',
    'storefrontRefundGiftCardBonusType',
    'storefrontRefundGiftCardBonusValue',
    'storefrontRefundGiftCardFreeShipping',
  ] as const;
  for (const key of copy) if (ret[key] !== undefined) (fields as Record<string, unknown>)[key] = ret[key];
  return fields;
}

function targetStatus(status: string | undefined, violations: ViolationList): ReturnStatus | null {
  if (status === undefined) return null;
  if (returnLifecycle.states.includes(status as ReturnStatus)) return status as ReturnStatus;
  violations.add('/return/status', `must be one of ${returnLifecycle.states.join(', ')}`);
  return null;
}

/** A return the portal announces now: approved, tied to its order, copying its customer, currency and VAT basis. */
async function newReturn(
  tx: Pick<Repositories, 'ids'>,
  ctx: {
    input: UpsertPortalReturnInput;
    portal: ReturnPortal;
    order: Order;
    rma: string;
    rmaNumber: number;
    at: string;
  },
): Promise<Return> {
  const { order: o, at } = ctx;
  const [id] = await tx.ids.next('returns');
  return {
    id: id!,
    brandId: o.brandId,
    returnNumber: 0,
    rma: ctx.rma,
    rmaNumber: ctx.rmaNumber,
    status: 'approved',
    source: 'portal',
    returnPortalId: ctx.portal.id,
    orderId: o.id,
    orderNumber: o.orderNumber,
    shipmentId: null,
    customerId: o.customerId,
    currency: o.currency,
    vatRateBasisPoints: o.vatRateBasisPoints,
    pricesIncludeVat: o.pricesIncludeVat,
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
    createdByUserId: ctx.input.userId,
    createdAt: at,
    updatedAt: at,
    lines: [],
  };
}

/** After receipt the credit note was issued from the lines and fees: changing them would make it wrong. */
function refuseChangesAfterReceipt(existing: Return, next: Return): void {
  const violations = new ViolationList();
  if (!sameLines(existing.lines, next.lines))
    violations.add(
      '/return/lines',
      `cannot change: return ${existing.rma} is ${existing.status} and its credit note was issued from these lines`,
    );
  if (existing.returnFeeInclVat !== next.returnFeeInclVat)
    violations.add(
      '/return/return_fee_incl_vat',
      `cannot change: return ${existing.rma} is ${existing.status} and its credit note was issued net of it`,
    );
  if (existing.exchangeFeeInclVat !== next.exchangeFeeInclVat)
    violations.add(
      '/return/exchange_fee_incl_vat',
      `cannot change: return ${existing.rma} is ${existing.status} and its credit note was issued net of it`,
    );
  violations.throwIfAny();
}

function sameReturn(a: Return, b: Return): boolean {
  return PORTAL_FIELDS.every((field) => a[field] === b[field]) && sameLines(a.lines, b.lines);
}

/** The timeline note of a portal's new return (its `return.created` event carries it). */
function createdNote(ret: Return, portal: ReturnPortal): string {
  const pieces = ret.lines.reduce((sum, l) => sum + l.expectedQuantity, 0);
  return `RMA ${ret.rma} announced through return portal ${portal.name}: ${pieces} ${pieces === 1 ? 'piece' : 'pieces'}`;
}

/** The timeline note of a portal's change of a return (`updated`). */
function updatedNote(ret: Return, portal: ReturnPortal): string {
  const pieces = ret.lines.reduce((sum, l) => sum + l.expectedQuantity, 0);
  return `updated through return portal ${portal.name} (${pieces} ${pieces === 1 ? 'piece' : 'pieces'} expected)`;
}

/**
 * The timeline entries of a portal's change that no event announces: `updated` on a return it
 * changed and received in one call (`return.received` announces both), `return_announced` on the
 * order of a return it announced.
 */
function timelineOf(
  ret: Return,
  existing: Return | null,
  portal: ReturnPortal,
  userId: number | null,
  at: string,
): NewTimelineEvent[] {
  const pieces = ret.lines.reduce((sum, l) => sum + l.expectedQuantity, 0);
  const entry = { brandId: ret.brandId, systemId: null, userId, createdAt: at };
  if (existing)
    return [
      {
        ...entry,
        documentType: 'return',
        documentId: ret.id,
        kind: 'updated',
        note: updatedNote(ret, portal),
      },
    ];
  if (ret.orderId === null) return [];
  return [
    {
      ...entry,
      documentType: 'order',
      documentId: ret.orderId,
      kind: 'return_announced',
      note: `RMA ${ret.rma}: ${pieces} ${pieces === 1 ? 'piece' : 'pieces'} (return portal ${portal.name})`,
    },
  ];
}
