import { DomainError } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { Shipment } from './shipment.entities';

/** The brand's shipment by id (locked until the transaction ends on Postgres), or 404. */
export async function findShipmentOrFail(
  repos: Pick<Repositories, 'shipments'>,
  brandId: number,
  shipmentId: number,
): Promise<Shipment> {
  const [shipment] = await repos.shipments.findByIds(brandId, [shipmentId]);
  if (!shipment) throw DomainError.notFound('shipment', shipmentId);
  return shipment;
}
