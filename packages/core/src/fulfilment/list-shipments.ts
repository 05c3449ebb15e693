import { ExportMark } from '../documents/document.entities';
import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { marksByDocument } from '../orders/marks-by-document';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Shipment } from './shipment.entities';
import { shipmentListDefinition } from './shipment.list-definitions';

/** Lists a brand's shipments (`GET /v10/shipments`) with each shipment's export marks. */
export async function listShipments(
  deps: { uow: UnitOfWork<Pick<Repositories, 'exportMarks' | 'shipments'>> },
  request: ListRequest,
): Promise<{ page: Page<Shipment>; query: ListQuery; exports: Map<number, ExportMark[]> }> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(shipmentListDefinition, request, (q) =>
      repos.shipments.list(request.brandId, q),
    );
    const exports = await marksByDocument(
      repos,
      request.brandId,
      'shipment',
      page.items.map((s) => s.id),
    );
    return { page, query, exports };
  });
}
