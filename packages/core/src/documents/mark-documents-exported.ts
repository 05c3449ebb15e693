import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { MarkRequest, checkMarkRequest, recordMarks } from './export-marks';

/** The documents `markDocumentsExported` confirms (orders have their own use case: they may regulate stock). */
export type MarkableDocumentType =
  | 'shipment'
  | 'invoice'
  | 'credit_note'
  | 'accounting_entry'
  | 'return'
  | 'production_order';

type MarkDocumentsExportedRepositories = Pick<
  Repositories,
  | 'accountingEntries'
  | 'creditNotes'
  | 'exportMarks'
  | 'invoices'
  | 'productionOrders'
  | 'returns'
  | 'shipments'
  | 'timeline'
>;

/**
 * `POST /v10/{shipments,invoices,credit-notes,accounting-entries}/mark-as-exported` and
 * `POST /3pl/{shipments,returns}/mark-as-exported`, `POST /v10/production-orders/mark-as-exported`: records that each item's system imported the document,
 * which hides it from that system's exports (not from other systems'), and notes it on the
 * document's timeline. All or nothing: an invalid item marks nothing. Marking again only moves
 * the mark's time and note.
 */
export async function markDocumentsExported(
  deps: { uow: UnitOfWork<MarkDocumentsExportedRepositories>; clock: Clock },
  input: MarkRequest & { documentType: MarkableDocumentType },
): Promise<void> {
  await deps.uow.run(async (tx) => {
    await checkMarkRequest(
      input,
      async (ids) => new Set((await findDocuments(tx, input.brandId, input.documentType, ids)).map((d) => d.id)),
    );
    await recordMarks(tx, input, deps.clock.now());
  });
}

type MarkableDocumentRepositories = Pick<
  Repositories,
  'accountingEntries' | 'creditNotes' | 'invoices' | 'productionOrders' | 'returns' | 'shipments'
>;

function findDocuments(
  tx: MarkableDocumentRepositories,
  brandId: number,
  documentType: MarkableDocumentType,
  ids: number[],
): Promise<Array<{ id: number }>> {
  switch (documentType) {
    case 'shipment':
      return tx.shipments.findByIds(brandId, ids);
    case 'invoice':
      return tx.invoices.findByIds(brandId, ids);
    case 'credit_note':
      return tx.creditNotes.findByIds(brandId, ids);
    case 'accounting_entry':
      return tx.accountingEntries.findByIds(brandId, ids);
    case 'return':
      return tx.returns.findByIds(brandId, ids);
    case 'production_order':
      return tx.productionOrders.findByIds(brandId, ids);
  }
}
