import { recordEvents } from '../events/record-events';
import { Repositories } from '../shared/unit-of-work.ports';
import { writeAccountingEntry } from './accounting-entry-for';
import { AccountingEntry, CreditNote } from './finance.entities';
import { financialDocumentLifecycle } from './finance.lifecycle';

/** What booking a credit note writes to: the note, its accounting entry, timelines and its event. */
export type BookCreditNoteRepositories = Pick<
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
