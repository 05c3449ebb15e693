import { CreditNote, FinancialDocumentStatus } from '../finance/finance.entities';
import { creditNoteExportListDefinition } from '../finance/finance.list-definitions';
import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ExportRequest, ExportResult, exportScopeOf, exportStatuses, runExport } from './export-documents';

/** `GET /v10/credit-notes/export`: booked credit notes not yet exported by the system; drafts with `includeNonBooked`. */
export async function exportCreditNotes(
  deps: { uow: UnitOfWork<Pick<Repositories, 'creditNotes' | 'exportMarks'>>; clock: Clock },
  input: ExportRequest & { includeNonBooked?: boolean },
): Promise<ExportResult<CreditNote>> {
  const scope = exportScopeOf(
    input,
    deps.clock,
    exportStatuses<FinancialDocumentStatus>(['booked'], [[input.includeNonBooked, 'draft']]),
  );
  return deps.uow.read((repos) =>
    runExport(repos, 'credit_note', creditNoteExportListDefinition, input, (q) =>
      repos.creditNotes.listForExport(input.list.brandId, q, scope),
    ),
  );
}
