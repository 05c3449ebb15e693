import { marksByDocument } from '../orders/marks-by-document';
import { ExportMark } from '../documents/document.entities';
import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Invoice } from './finance.entities';
import { invoiceListDefinition } from './finance.list-definitions';

/** `GET /v10/invoices`: the brand's invoices, with the export marks of the page by invoice id. */
export async function listInvoices(
  deps: { uow: UnitOfWork<Pick<Repositories, 'exportMarks' | 'invoices'>> },
  request: ListRequest,
): Promise<{ page: Page<Invoice>; query: ListQuery; exports: Map<number, ExportMark[]> }> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(invoiceListDefinition, request, (q) =>
      repos.invoices.list(request.brandId, q),
    );
    const exports = await marksByDocument(
      repos,
      request.brandId,
      'invoice',
      page.items.map((i) => i.id),
    );
    return { page, query, exports };
  });
}
