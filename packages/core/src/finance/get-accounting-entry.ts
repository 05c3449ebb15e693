import { ExportMark, TimelineEvent } from '../documents/document.entities';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { AccountingEntry } from './finance.entities';
import { settleAll } from '../shared/settle-all';

/**
 * What `getAccountingEntry` returns: the entry, the export marks of the systems that imported it
 * and its timeline.
 */
export interface AccountingEntryDetail {
  entry: AccountingEntry;
  exports: ExportMark[];
  /** Its own events: the marks of the systems that imported it, with their notes. */
  timeline: TimelineEvent[];
}

/**
 * `GET /v10/accounting-entries/{id}`: one entry with its marks and timeline, so a bookkeeping
 * system can fetch the entry a booked invoice or credit note names without walking the list.
 */
export async function getAccountingEntry(
  deps: { uow: UnitOfWork<Pick<Repositories, 'accountingEntries' | 'exportMarks' | 'timeline'>> },
  input: { brandId: number; accountingEntryId: number },
): Promise<AccountingEntryDetail> {
  return deps.uow.read(async (repos) => {
    const [entry] = await repos.accountingEntries.findByIds(input.brandId, [input.accountingEntryId]);
    if (!entry) throw DomainError.notFound('accounting entry', input.accountingEntryId);
    const [exports, timeline] = await settleAll([
      repos.exportMarks.marksOf(input.brandId, 'accounting_entry', [entry.id]),
      repos.timeline.eventsOf(input.brandId, 'accounting_entry', entry.id),
    ]);
    return { entry, exports, timeline };
  });
}
