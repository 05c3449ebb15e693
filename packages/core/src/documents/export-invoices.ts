import { FinancialDocumentStatus, Invoice } from '../finance/finance.entities';
import { invoiceExportListDefinition } from '../finance/finance.list-definitions';
import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ExportRequest, ExportResult, exportScopeOf, exportStatuses, runExport } from './export-documents';

/** `GET /v10/invoices/export`: booked invoices not yet exported by the system; drafts with `includeNonBooked`. */
export async function exportInvoices(
  deps: { uow: UnitOfWork<Pick<Repositories, 'exportMarks' | 'invoices'>>; clock: Clock },
  input: ExportRequest & { includeNonBooked?: boolean },
): Promise<ExportResult<Invoice>> {
  const scope = exportScopeOf(
    input,
    deps.clock,
    exportStatuses<FinancialDocumentStatus>(['booked'], [[input.includeNonBooked, 'draft']]),
  );
  return deps.uow.read((repos) =>
    runExport(repos, 'invoice', invoiceExportListDefinition, input, (q) =>
      repos.invoices.listForExport(input.list.brandId, q, scope),
    ),
  );
}
