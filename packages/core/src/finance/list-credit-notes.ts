import { marksByDocument } from '../orders/marks-by-document';
import { ExportMark } from '../documents/document.entities';
import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { CreditNote } from './finance.entities';
import { creditNoteListDefinition } from './finance.list-definitions';

/** `GET /v10/credit-notes`: the brand's credit notes, with the export marks of the page by credit note id. */
export async function listCreditNotes(
  deps: { uow: UnitOfWork<Pick<Repositories, 'creditNotes' | 'exportMarks'>> },
  request: ListRequest,
): Promise<{ page: Page<CreditNote>; query: ListQuery; exports: Map<number, ExportMark[]> }> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(creditNoteListDefinition, request, (q) =>
      repos.creditNotes.list(request.brandId, q),
    );
    const exports = await marksByDocument(
      repos,
      request.brandId,
      'credit_note',
      page.items.map((c) => c.id),
    );
    return { page, query, exports };
  });
}
