import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { UnitOfWork } from '../shared/unit-of-work.ports';
import { BookCreditNoteRepositories, bookCreditNoteInTx } from './credit-note-booking';
import { AccountingEntry, CreditNote } from './finance.entities';

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
