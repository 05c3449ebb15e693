import { AccountingEntry } from '../finance/finance.entities';
import { accountingEntryExportListDefinition } from '../finance/finance.list-definitions';
import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ExportRequest, ExportResult, exportScopeOf, runExport } from './export-documents';

/** `GET /v10/accounting-entries/export`: every entry the system has not exported yet (entries have no status). */
export async function exportAccountingEntries(
  deps: { uow: UnitOfWork<Pick<Repositories, 'accountingEntries' | 'exportMarks'>>; clock: Clock },
  input: ExportRequest,
): Promise<ExportResult<AccountingEntry>> {
  const scope = exportScopeOf(input, deps.clock);
  return deps.uow.read((repos) =>
    runExport(repos, 'accounting_entry', accountingEntryExportListDefinition, input, (q) =>
      repos.accountingEntries.listForExport(input.list.brandId, q, scope),
    ),
  );
}
