import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { thirdPartyDeliveryNoteListDefinition } from './production.list-definitions';
import { DeliveryNoteView, loadDeliveryNoteViews } from './production-view';

/** The warehouse's list (`GET /3pl/production/orders/delivery-notes`): delivery notes with their production order and supplier, for the 3PL form. */
export async function listThirdPartyDeliveryNotes(
  deps: { uow: UnitOfWork<Pick<Repositories, 'deliveryNotes' | 'productionOrders' | 'suppliers'>> },
  request: ListRequest,
): Promise<{ page: Page<DeliveryNoteView>; query: ListQuery }> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(thirdPartyDeliveryNoteListDefinition, request, (q) =>
      repos.deliveryNotes.list(request.brandId, q),
    );
    return { page: { ...page, items: await loadDeliveryNoteViews(repos, request.brandId, page.items) }, query };
  });
}
