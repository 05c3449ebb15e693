import { ExportMark, TimelineEvent } from '../documents/document.entities';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { AccountingEntry, CreditNote } from './finance.entities';
import { settleAll } from '../shared/settle-all';

/**
 * What `getCreditNote` returns: the credit note, its export marks, its timeline and the accounting
 * entry that booked it.
 */
export interface CreditNoteDetail {
  creditNote: CreditNote;
  exports: ExportMark[];
  timeline: TimelineEvent[];
  /** The entry that booked it; null while it is a draft. */
  accountingEntry: AccountingEntry | null;
}

/** `GET /v10/credit-notes/{id}`: the credit note with its marks, timeline and accounting entry. */
export async function getCreditNote(
  deps: { uow: UnitOfWork<Pick<Repositories, 'accountingEntries' | 'creditNotes' | 'exportMarks' | 'timeline'>> },
  input: { brandId: number; creditNoteId: number },
): Promise<CreditNoteDetail> {
  return deps.uow.read(async (repos) => {
    const [creditNote] = await repos.creditNotes.findByIds(input.brandId, [input.creditNoteId]);
    if (!creditNote) throw DomainError.notFound('credit note', input.creditNoteId);
    const [exports, timeline, accountingEntry] = await settleAll([
      repos.exportMarks.marksOf(input.brandId, 'credit_note', [creditNote.id]),
      repos.timeline.eventsOf(input.brandId, 'credit_note', creditNote.id),
      repos.accountingEntries.findByDocument(input.brandId, 'credit_note', creditNote.id),
    ]);
    return { creditNote, exports, timeline, accountingEntry };
  });
}
