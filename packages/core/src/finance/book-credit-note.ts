import { Clock } from '../shared/clock.port';
import { DomainError } from '../shared/errors';
import { UnitOfWork } from '../shared/unit-of-work.port';
import { writeAccountingEntry } from './accounting-entry-for';
import { AccountingEntry, CreditNote } from './finance.entities';
import { financialDocumentLifecycle } from './finance.lifecycle';

/**
 * `POST /v10/credit-notes/{id}/book`: books a draft credit note (final; booking twice is an
 * `invalid_state_transition`) and writes its accounting entry, the invoice's entry reversed
 * (revenue and VAT debited, the receivable credited). Stock is not touched: pieces coming back
 * are the returns module's business.
 */
export async function bookCreditNote(
  deps: { uow: UnitOfWork; clock: Clock },
  input: { brandId: number; userId: number | null; creditNoteId: number },
): Promise<{ creditNote: CreditNote; accountingEntry: AccountingEntry }> {
  return deps.uow.run(async (tx) => {
    const at = deps.clock.now();
    const [draft] = await tx.creditNotes.findByIds(input.brandId, [input.creditNoteId]);
    if (!draft) throw DomainError.notFound('credit note', input.creditNoteId);
    financialDocumentLifecycle.assertTransition(draft.status, 'booked');
    const creditNote: CreditNote = { ...draft, status: 'booked', bookedAt: at, updatedAt: at };
    await tx.creditNotes.save(creditNote);
    const accountingEntry = await writeAccountingEntry(tx, { type: 'credit_note', creditNote }, at);
    await tx.timeline.append([
      {
        brandId: input.brandId, documentType: 'credit_note', documentId: creditNote.id, kind: 'booked',
        note: `booked as accounting entry ${accountingEntry.entryNumber}`, systemId: null, userId: input.userId, createdAt: at,
      },
      ...(creditNote.invoiceId !== null
        ? [{
            brandId: input.brandId, documentType: 'invoice' as const, documentId: creditNote.invoiceId, kind: 'credited',
            note: `credit note ${creditNote.creditNoteNumber} booked`, systemId: null, userId: input.userId, createdAt: at,
          }]
        : []),
    ]);
    return { creditNote, accountingEntry };
  });
}
