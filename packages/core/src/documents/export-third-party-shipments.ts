import { ShipmentView, loadShipmentViews } from '../fulfilment/shipment-view';
import { thirdPartyShipmentExportListDefinition } from '../fulfilment/shipment.list-definitions';
import { runList } from '../listing/run-list';
import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ExportRequest, ExportResult, exportScopeOf } from './export-documents';
import { shipmentExportStatuses } from './shipment-export-statuses';

/**
 * `GET /3pl/shipments/export`: the shipments of `exportShipments`, in the warehouse's form (each
 * with its order, customer, payment terms and marks, loaded for the whole page at once). The 3PL
 * export has its own cursor namespace, so a cursor of the v10 export is refused here.
 */
export async function exportThirdPartyShipments(
  deps: {
    uow: UnitOfWork<Pick<Repositories, 'customers' | 'exportMarks' | 'orders' | 'paymentTerms' | 'shipments'>>;
    clock: Clock;
  },
  input: ExportRequest & { includeCancelled?: boolean; includeCompleted?: boolean },
): Promise<ExportResult<ShipmentView>> {
  const scope = exportScopeOf(input, deps.clock, shipmentExportStatuses(input));
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(thirdPartyShipmentExportListDefinition, input.list, (q) =>
      repos.shipments.listForExport(input.list.brandId, q, scope),
    );
    // The views carry their marks already; the map repeats them by shipment id like every export.
    const views = await loadShipmentViews(repos, input.list.brandId, page.items);
    return { page: { ...page, items: views }, query, exports: new Map(views.map((v) => [v.shipment.id, v.exports])) };
  });
}
