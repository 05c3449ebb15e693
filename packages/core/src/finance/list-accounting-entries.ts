import { marksByDocument } from '../orders/marks-by-document';
import { ExportMark } from '../documents/document.entities';
import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { AccountingEntry } from './finance.entities';
import { accountingEntryListDefinition } from './finance.list-definitions';

/** `GET /v10/accounting-entries`: the brand's entries (lines always come with them), with the export marks of the page. */
export async function listAccountingEntries(
  deps: { uow: UnitOfWork<Pick<Repositories, 'accountingEntries' | 'exportMarks'>> },
  request: ListRequest,
): Promise<{ page: Page<AccountingEntry>; query: ListQuery; exports: Map<number, ExportMark[]> }> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(accountingEntryListDefinition, request, (q) =>
      repos.accountingEntries.list(request.brandId, q),
    );
    const exports = await marksByDocument(
      repos,
      request.brandId,
      'accounting_entry',
      page.items.map((e) => e.id),
    );
    return { page, query, exports };
  });
}
