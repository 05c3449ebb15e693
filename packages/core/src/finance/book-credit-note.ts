import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { writeAccountingEntry } from './accounting-entry-for';
import { AccountingEntry, CreditNote } from './finance.entities';
import { financialDocumentLifecycle } from './finance.lifecycle';

/** What booking a credit note writes to: the note, its accounting entry, timelines and its event. */
type BookCreditNoteRepositories = Pick<
  Repositories,
  | 'accountingEntries'
  | 'creditNotes'
  | 'documentNumbers'
  | 'events'
  | 'ids'
  | 'timeline'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/**
 * `POST /v10/credit-notes/{id}/book`: books a draft credit note (final; booking twice is an
 * `invalid_state_transition`) and writes its accounting entry, the invoice's entry reversed
 * (revenue and VAT debited, the receivable credited). Stock is not touched: pieces coming back
 * are the returns module's business.
 */
export async function bookCreditNote(
  deps: { uow: UnitOfWork<BookCreditNoteRepositories>; clock: Clock },
  input: { brandId: number; userId: number | null; creditNoteId: number },
): Promise<{ creditNote: CreditNote; accountingEntry: AccountingEntry }> {
  return deps.uow.run(async (tx) => {
    const [draft] = await tx.creditNotes.findByIds(input.brandId, [input.creditNoteId]);
    if (!draft) throw DomainError.notFound('credit note', input.creditNoteId);
    return bookCreditNoteInTx(tx, draft, input.userId, deps.clock.now());
  });
}

/**
 * Books a draft credit note inside the caller's transaction: the one booking every path shares
 * (the back office's book call, a portal finalizing its return), so a credit note is booked the
 * same way whoever books it. Saves the note as booked, writes its accounting entry and the
 * timeline events (the note's, and its invoice's when it credits one), and announces
 * `credit_note.booked` with the note as saved.
 */
export async function bookCreditNoteInTx(
  tx: BookCreditNoteRepositories,
  draft: CreditNote,
  userId: number | null,
  at: string,
): Promise<{ creditNote: CreditNote; accountingEntry: AccountingEntry }> {
  financialDocumentLifecycle.assertTransition(draft.status, 'booked');
  const creditNote: CreditNote = { ...draft, status: 'booked', bookedAt: at, updatedAt: at };
  await tx.creditNotes.save(creditNote);
  const accountingEntry = await writeAccountingEntry(tx, { type: 'credit_note', creditNote }, at);
  await recordEvents(tx, creditNote.brandId, at, [
    {
      type: 'credit_note.booked',
      object: creditNote,
      timeline: { note: `booked as accounting entry ${accountingEntry.entryNumber}`, userId },
    },
  ]);
  // The invoice it credits announces nothing of it: its entry is written here.
  if (creditNote.invoiceId !== null)
    await tx.timeline.append([
      {
        brandId: creditNote.brandId,
        documentType: 'invoice',
        documentId: creditNote.invoiceId,
        kind: 'credited',
        note: `credit note ${creditNote.creditNoteNumber} booked`,
        systemId: null,
        userId,
        createdAt: at,
      },
    ]);
  return { creditNote, accountingEntry };
}
