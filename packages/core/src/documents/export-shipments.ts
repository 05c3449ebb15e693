import { Shipment } from '../fulfilment/shipment.entities';
import { shipmentExportListDefinition } from '../fulfilment/shipment.list-definitions';
import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ExportRequest, ExportResult, exportScopeOf, runExport } from './export-documents';
import { shipmentExportStatuses } from './shipment-export-statuses';

/** `GET /v10/shipments/export`: open shipments not yet exported by the system; cancelled and completed ones on request. */
export async function exportShipments(
  deps: { uow: UnitOfWork<Pick<Repositories, 'exportMarks' | 'shipments'>>; clock: Clock },
  input: ExportRequest & { includeCancelled?: boolean; includeCompleted?: boolean },
): Promise<ExportResult<Shipment>> {
  const scope = exportScopeOf(input, deps.clock, shipmentExportStatuses(input));
  return deps.uow.read((repos) =>
    runExport(repos, 'shipment', shipmentExportListDefinition, input, (q) =>
      repos.shipments.listForExport(input.list.brandId, q, scope),
    ),
  );
}
