import { NewDomainEvent } from '../events/event.entities';
import { recordEvents } from '../events/record-events';
import { CreditNote } from '../finance/finance.entities';
import { applyStockMovements } from '../inventory/apply-stock-movements';
import { ensureDefaultLocation } from '../inventory/ensure-default-location';
import { NewStockMovement } from '../inventory/inventory.entities';
import { Repositories } from '../shared/unit-of-work.ports';
import { draftReturnCreditNote, saveReturnCreditNote } from './issue-return-credit-note';
import { Return, ReturnLine } from './return.entities';
import { returnLifecycle } from './return.lifecycle';

/** What receiving returned pieces uses: the return, the restock and the credit note it may issue. */
export type ReturnReceiptRepositories = Pick<
  Repositories,
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

/**
 * Records the warehouse's count of an approved return inside the caller's transaction, the one
 * place every receipt goes through (3PL receive, ad hoc returns, a portal moving a return to
 * `received`):
 * - each line's `receivedQuantity` becomes its pieces in `received` (return line id → pieces;
 *   lines left out received 0), the return moves approved → received (else
 *   `invalid_state_transition`) and is saved;
 * - pieces of claim type `return` on lines with `regulateInventory` go back In stock at the
 *   brand's default location (reason `return_received`), except products kept without inventory;
 * - unless `issueCreditNote` is false (ad hoc returns in `alert_if_no_rma` mode, whose credit
 *   note waits for staff), a draft credit note refunds the received pieces (`issueReturnCreditNote`).
 * The caller checks the pieces (whole, ≥ 0, at most expected) and saves nothing else of the return.
 * A return not saved yet (an ad hoc return built as approved) is inserted by the save here; with
 * `created` the caller says so, and its `return.created` (the return as built, before receipt) is
 * announced here, before the receipt, its timeline saying `created.note`.
 *
 * Events, in the order of the changes: [`return.created`,] `return.received` (the return as
 * saved), then what restocking announces, then `credit_note.created` when a note is issued. The
 * return's `received` entry names the note, so the note is numbered before the receipt is
 * announced, and saved and announced after the restock.
 */
export async function receiveReturnPieces(
  tx: ReturnReceiptRepositories,
  input: {
    ret: Return;
    received: ReadonlyMap<number, number>;
    userId: number | null;
    at: string;
    issueCreditNote?: boolean;
    /** The return is new: announce `return.created` (with `ret` as given, and this timeline note) before its receipt. */
    created?: { note: string };
  },
): Promise<{ ret: Return; creditNote: CreditNote | null }> {
  const { ret: before, received, userId, at } = input;
  returnLifecycle.assertTransition(before.status, 'received');
  for (const [lineId, pieces] of received) {
    const line = before.lines.find((l) => l.id === lineId);
    // A bug in the caller, not the warehouse's input: callers validate pieces against the lines.
    if (!line || !Number.isSafeInteger(pieces) || pieces < 0 || pieces > line.expectedQuantity) {
      throw new Error(`return ${before.id}: cannot receive ${pieces} pieces on line ${lineId}`);
    }
  }
  const ret: Return = {
    ...before,
    status: 'received',
    receivedAt: at,
    updatedAt: at,
    lines: before.lines.map((l) => ({ ...l, receivedQuantity: received.get(l.id) ?? 0 })),
  };
  await tx.returns.save(ret);
  const creditNote = input.issueCreditNote === false ? null : await draftReturnCreditNote(tx, { ret, at });
  const pieces = ret.lines.reduce((sum, l) => sum + l.receivedQuantity, 0);
  const expected = ret.lines.reduce((sum, l) => sum + l.expectedQuantity, 0);
  const events: NewDomainEvent[] = [
    ...(input.created
      ? [{ type: 'return.created' as const, object: before, timeline: { note: input.created.note, userId } }]
      : []),
    {
      type: 'return.received',
      object: ret,
      timeline: {
        note:
          `${pieces} of ${expected} expected ${expected === 1 ? 'piece' : 'pieces'} received` +
          (creditNote ? `; credit note ${creditNote.creditNoteNumber} drafted` : '; no credit note issued'),
        userId,
      },
    },
  ];
  await recordEvents(tx, ret.brandId, at, events);
  await restock(tx, ret, userId, at);
  if (creditNote) await saveReturnCreditNote(tx, { ret, creditNote, userId, at });
  return { ret, creditNote };
}

/** Lines whose received pieces go back on the shelf: returned goods the brand said to restock. */
const restocks = (line: ReturnLine): boolean =>
  line.claimType === 'return' && line.regulateInventory && line.receivedQuantity > 0;

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
  ret: Return,
  userId: number | null,
  at: string,
): Promise<void> {
  const lines = ret.lines.filter(restocks);
  if (lines.length === 0) return;
  // Read without locks (saleable variants), so a receipt does not queue behind catalog writes;
  // only the product's no-inventory flag is needed. A variant no longer found is restocked.
  const skus = [...new Set(lines.map((l) => l.sku))];
  const variants = await tx.products.findSaleableVariants(ret.brandId, { skus });
  const untracked = new Set(variants.filter((v) => v.product.noInventory).map((v) => v.variant.id));
  const tracked = lines.filter((l) => !untracked.has(l.variantId));
  if (tracked.length === 0) return;
  const location = await ensureDefaultLocation(tx, { now: () => at }, ret.brandId);
  const movements: NewStockMovement[] = tracked.map((l) => ({
    brandId: ret.brandId,
    variantId: l.variantId,
    locationId: location.id,
    inStockDelta: l.receivedQuantity,
    reservedDelta: 0,
    reason: 'return_received',
    note: `return ${ret.rma}`,
    documentType: 'return',
    documentId: ret.id,
    userId,
  }));
  await applyStockMovements(tx, ret.brandId, movements, at);
}
