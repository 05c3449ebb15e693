import { recordEvents } from '../events/record-events';
import { CreditNote } from '../finance/finance.entities';
import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findReturnOrFail } from './find-return';
import { issueReturnCreditNote } from './issue-return-credit-note';
import { Alert } from './return.entities';
import { alertLifecycle } from './alert.lifecycle';

/**
 * `POST /v10/alerts/{id}/credit-note`: staff decided an ad hoc return without RMA is to be
 * refunded. Drafts the return's credit note for its received pieces (as a receipt would have) and
 * resolves the alert, recording the note on it. Once resolved, a second call is a 422
 * (`invalid_state_transition`): the credit note exists already. Announces `credit_note.created`,
 * then `alert.resolved` with the alert as saved (naming the note in `credit_note_id`). The return
 * itself does not change (its `credit_note_issued` entry is written by hand).
 */
export async function creditNoteFromAlert(
  deps: {
    uow: UnitOfWork<
      Pick<
        Repositories,
        | 'alerts'
        | 'creditNotes'
        | 'documentNumbers'
        | 'events'
        | 'ids'
        | 'returns'
        | 'timeline'
        | 'webhookDeliveries'
        | 'transaction'
        | 'webhookEndpoints'
      >
    >;
    clock: Clock;
  },
  input: { brandId: number; userId: number | null; alertId: number },
): Promise<{ alert: Alert; creditNote: CreditNote }> {
  return deps.uow.run(async (tx) => {
    const [found] = await tx.alerts.findByIds(input.brandId, [input.alertId]);
    if (!found) throw DomainError.notFound('alert', input.alertId);
    if (!alertLifecycle.canTransition(found.status, 'resolved')) {
      throw new DomainError(
        'invalid_state_transition',
        `alert ${found.id} is resolved already${found.creditNoteId !== null ? ` (credit note id ${found.creditNoteId})` : ''}`,
        {
          data: { status: found.status, required: 'open', credit_note_id: found.creditNoteId },
        },
      );
    }
    const ret = await findReturnOrFail(tx, input.brandId, found.returnId);
    const at = deps.clock.now();
    const creditNote = await issueReturnCreditNote(tx, { ret, userId: input.userId, at });
    const alert: Alert = { ...found, status: 'resolved', creditNoteId: creditNote.id, resolvedAt: at, updatedAt: at };
    await tx.alerts.save(alert);
    await recordEvents(tx, input.brandId, at, [{ type: 'alert.resolved', object: alert }]);
    await tx.timeline.append([
      {
        brandId: input.brandId,
        documentType: 'return',
        documentId: ret.id,
        kind: 'credit_note_issued',
        note: `credit note ${creditNote.creditNoteNumber} drafted from alert ${alert.id}`,
        systemId: null,
        userId: input.userId,
        createdAt: at,
      },
    ]);
    return { alert, creditNote };
  });
}
