import { ExportMark, TimelineEvent } from '../documents/document.entities';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findShipmentOrFail } from './find-shipment';
import { Shipment } from './shipment.entities';
import { settleAll } from '../shared/settle-all';

/** One shipment of the brand with its lines, export marks and timeline (`GET /v10/shipments/{id}`); 404 otherwise. */
export async function getShipment(
  deps: { uow: UnitOfWork<Pick<Repositories, 'exportMarks' | 'shipments' | 'timeline'>> },
  input: { brandId: number; shipmentId: number },
): Promise<{ shipment: Shipment; exports: ExportMark[]; timeline: TimelineEvent[] }> {
  return deps.uow.read(async (repos) => {
    const shipment = await findShipmentOrFail(repos, input.brandId, input.shipmentId);
    const [exports, timeline] = await settleAll([
      repos.exportMarks.marksOf(input.brandId, 'shipment', [shipment.id]),
      repos.timeline.eventsOf(input.brandId, 'shipment', shipment.id),
    ]);
    return { shipment, exports, timeline };
  });
}
