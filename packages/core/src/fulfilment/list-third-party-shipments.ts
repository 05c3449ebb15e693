import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ShipmentView, loadShipmentViews } from './shipment-view';
import { thirdPartyShipmentListDefinition } from './shipment.list-definitions';

/** The warehouse's list (`GET /3pl/shipments`): shipments with their order, customer and payment terms, for the 3PL form. */
export async function listThirdPartyShipments(
  deps: { uow: UnitOfWork<Pick<Repositories, 'customers' | 'exportMarks' | 'orders' | 'paymentTerms' | 'shipments'>> },
  request: ListRequest,
): Promise<{ page: Page<ShipmentView>; query: ListQuery }> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(thirdPartyShipmentListDefinition, request, (q) =>
      repos.shipments.list(request.brandId, q),
    );
    const items = await loadShipmentViews(repos, request.brandId, page.items);
    return { page: { ...page, items }, query };
  });
}
