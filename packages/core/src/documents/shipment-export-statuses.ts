import { ShipmentStatus } from '../fulfilment/shipment.entities';
import { exportStatuses } from './export-documents';

/** Open, plus cancelled and completed when flagged (shared by the v10 and the 3PL export). */
export function shipmentExportStatuses(flags: {
  includeCancelled?: boolean;
  includeCompleted?: boolean;
}): ShipmentStatus[] {
  return exportStatuses<ShipmentStatus>(
    ['open'],
    [
      [flags.includeCancelled, 'cancelled'],
      [flags.includeCompleted, 'completed'],
    ],
  );
}
