import { ExportScope } from '../documents/document.entities';
import { ListQuery, ListRows } from '../listing/list-query';
import { Shipment } from './shipment.entities';

/** Shipments with their lines; reads inside a Postgres write transaction lock the rows, as orders do. */
export interface ShipmentRepository {
  save(shipment: Shipment): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<Shipment[]>;
  findByNumbers(brandId: number, numbers: number[]): Promise<Shipment[]>;
  findByOrderIds(brandId: number, orderIds: number[]): Promise<Shipment[]>;
  /** `GET /v10/shipments` and `GET /3pl/shipments`; lines are always loaded. */
  list(brandId: number, query: ListQuery): Promise<ListRows<Shipment>>;
  listForExport(brandId: number, query: ListQuery, scope: ExportScope): Promise<ListRows<Shipment>>;
}

/** The fulfilment module's repositories; the declaration below adds them to `Repositories`. */
export interface ShipmentRepositories {
  shipments: ShipmentRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends ShipmentRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The fulfilment module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    shipments: true;
    shipment_lines: true;
  }
}
