import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { DeliveryNote } from './production.entities';
import { deliveryNoteListDefinition } from './production.list-definitions';

/** `GET /v10/production-order-delivery-notes`: a page of the brand's delivery notes with their lines. */
export async function listDeliveryNotes(
  deps: { uow: UnitOfWork<Pick<Repositories, 'deliveryNotes'>> },
  request: ListRequest,
): Promise<{ page: Page<DeliveryNote>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(deliveryNoteListDefinition, request, (q) => repos.deliveryNotes.list(request.brandId, q)),
  );
}
