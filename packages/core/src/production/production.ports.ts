import { ExportScope } from '../documents/document.entities';
import { ListQuery, ListRows } from '../listing/list-query';
import { DeliveryNote, ProductionOrder } from './production.entities';

/** Production orders with their lines; reads inside a Postgres write transaction lock the rows. */
export interface ProductionOrderRepository {
  save(order: ProductionOrder): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<ProductionOrder[]>;
  /** `GET /v10/production-orders`; lines always loaded. */
  list(brandId: number, query: ListQuery): Promise<ListRows<ProductionOrder>>;
  listForExport(brandId: number, query: ListQuery, scope: ExportScope): Promise<ListRows<ProductionOrder>>;
}

/** Delivery notes with their lines, by id, number or production order. */
export interface DeliveryNoteRepository {
  save(note: DeliveryNote): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<DeliveryNote[]>;
  findByNumbers(brandId: number, numbers: number[]): Promise<DeliveryNote[]>;
  findByProductionOrderIds(brandId: number, productionOrderIds: number[]): Promise<DeliveryNote[]>;
  /** `GET /v10/production-order-delivery-notes` and `GET /3pl/production/orders/delivery-notes`; lines always loaded. */
  list(brandId: number, query: ListQuery): Promise<ListRows<DeliveryNote>>;
}

/** The production module's repositories; the declaration below adds them to `Repositories`. */
export interface ProductionRepositories {
  productionOrders: ProductionOrderRepository;
  deliveryNotes: DeliveryNoteRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends ProductionRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The production module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    production_orders: true;
    production_order_lines: true;
    delivery_notes: true;
    delivery_note_lines: true;
  }
}
