import { recordEvents } from '../events/record-events';
import { bookCreditNoteInTx } from '../finance/credit-note-booking';
import { CreditNote } from '../finance/finance.entities';
import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { PortalCaller, findCallerPortal } from './portal-access';
import { Return } from './return.entities';
import { returnLifecycle } from './return.lifecycle';

/** How far refund + exchange may be from the credited total: one cent (the spec's ±0.01). */
export const FINALIZE_TOLERANCE_MINOR = 1;

/**
 * What `finalizePortalReturn` is asked: the calling app and portal, the RMA, and how much the
 * portal refunded and settled in replacement goods.
 */
export interface FinalizePortalReturnInput extends PortalCaller {
  userId: number | null;
  publicId: string;
  rma: string;
  /** Minor units of the return's currency, ≥ 0: what the portal refunded. */
  refundTotal: number;
  /** Minor units, ≥ 0: the part settled in replacement goods. */
  exchangeTotal: number;
}

/** Minor units as the decimal the error shows (1999 → "19.99"). */
const amount = (minor: number): string =>
  `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`;

type FinalizePortalReturnRepositories = Pick<
  Repositories,
  | 'accountingEntries'
  | 'creditNotes'
  | 'documentNumbers'
  | 'events'
  | 'ids'
  | 'returnPortals'
  | 'returns'
  | 'timeline'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/**
 * `POST /v10/external-return-portals/{publicId}/returns/finalize`: the portal settled the return
 * (refund, replacement goods or both), so its credit notes are booked and it is `credited`.
 *
 * Refused (422, nothing written) when the rma is not a return of this portal, the return is not
 * received or credited, it has no credit note, refund + exchange is more than 0.01 away from the
 * total of its credit notes (the detail shows the three amounts), or the exchange exceeds that
 * total. The credited total counts every credit note of the return, booked or draft, so a second
 * call once credited passes the same checks, books nothing more and succeeds.
 *
 * Events: each booking announces `credit_note.booked` (`bookCreditNoteInTx`), then the move to
 * credited `return.credited`; a call on a return credited already announces nothing.
 */
export async function finalizePortalReturn(
  deps: { uow: UnitOfWork<FinalizePortalReturnRepositories>; clock: Clock },
  input: FinalizePortalReturnInput,
): Promise<{ ret: Return; booked: CreditNote[] }> {
  return deps.uow.run(async (tx) => {
    const { brandId } = input;
    const portal = await findCallerPortal(tx, input, input.publicId);
    const violations = new ViolationList();
    if (!Number.isSafeInteger(input.refundTotal) || input.refundTotal < 0)
      violations.add('/refund_total_price_after_vat', 'must be an amount of at least 0 with at most 2 decimals');
    if (!Number.isSafeInteger(input.exchangeTotal) || input.exchangeTotal < 0)
      violations.add('/exchange_total_price_after_vat', 'must be an amount of at least 0 with at most 2 decimals');
    violations.throwIfAny();

    const rma = input.rma.trim();
    const ret = await tx.returns.findByPortalRma(brandId, portal.id, rma);
    if (!ret) violations.add('/rma', `${JSON.stringify(rma)} is not a return of this return portal`);
    else if (ret.status !== 'received' && ret.status !== 'credited') {
      violations.add('/rma', `return ${rma} is ${ret.status}: only received or credited returns can be finalized`);
    }
    violations.throwIfAny();
    const r = ret!;
    const creditNotes = await tx.creditNotes.findByReturnIds(brandId, [r.id]);
    if (creditNotes.length === 0) {
      violations.add('/rma', `return ${rma} has no credit note yet: it is issued when the return is received`);
      violations.throwIfAny();
    }
    const credited = creditNotes.reduce((sum, note) => sum + note.total, 0);
    const settled = input.refundTotal + input.exchangeTotal;
    if (Math.abs(settled - credited) > FINALIZE_TOLERANCE_MINOR) {
      violations.add(
        '/refund_total_price_after_vat',
        `plus exchange_total_price_after_vat must equal the credited total within 0.01: refund ${amount(input.refundTotal)} + exchange ${amount(input.exchangeTotal)} = ${amount(settled)}, credited ${amount(credited)} ${r.currency}`,
      );
    }
    if (input.exchangeTotal > credited) {
      violations.add(
        '/exchange_total_price_after_vat',
        `${amount(input.exchangeTotal)} exceeds the credited total of ${amount(credited)} ${r.currency}`,
      );
    }
    violations.throwIfAny();

    const at = deps.clock.now();
    const booked: CreditNote[] = [];
    for (const note of creditNotes.filter((n) => n.status === 'draft'))
      booked.push((await bookCreditNoteInTx(tx, note, input.userId, at)).creditNote);
    if (r.status === 'credited') return { ret: r, booked };

    returnLifecycle.assertTransition(r.status, 'credited');
    const creditedReturn: Return = { ...r, status: 'credited', creditedAt: at, updatedAt: at };
    await tx.returns.save(creditedReturn);
    await recordEvents(tx, brandId, at, [
      {
        type: 'return.credited',
        object: creditedReturn,
        timeline: {
          note:
            `finalized through return portal ${portal.name}: refund ${amount(input.refundTotal)}, exchange ${amount(input.exchangeTotal)} ${r.currency}; ` +
            `${booked.length} credit ${booked.length === 1 ? 'note' : 'notes'} booked`,
          userId: input.userId,
        },
      },
    ]);
    return { ret: creditedReturn, booked };
  });
}
