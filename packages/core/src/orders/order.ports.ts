import { ExportScope } from '../documents/document.entities';
import { ListQuery, ListRows } from '../listing/list-query';
import { Order, OrderChannel } from './order.entities';

/** Order channels, found by public id (within a brand or across brands) or by id. */
export interface OrderChannelRepository {
  insert(channel: OrderChannel): Promise<void>;
  findByPublicId(brandId: number, publicId: string): Promise<OrderChannel | null>;
  /** A channel by its public id across brands: `createOrderChannel` draws a public id no brand's channel holds. */
  findByPublicIdAnyBrand(publicId: string): Promise<OrderChannel | null>;
  findByIds(brandId: number, ids: number[]): Promise<OrderChannel[]>;
  list(brandId: number, query: ListQuery): Promise<ListRows<OrderChannel>>;
}

/**
 * Orders as aggregates with their lines. Inside a write transaction on Postgres, `findByIds` and
 * `findByNumbers` lock the orders they return until the transaction ends, so two requests that
 * change one order (two deliveries, a cancel and an approve) follow one another instead of one
 * overwriting the other.
 */
export interface OrderRepository {
  /** Inserts or updates the order and its lines (lines are never removed). */
  save(order: Order): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<Order[]>;
  findByNumbers(brandId: number, numbers: number[]): Promise<Order[]>;
  /** `GET /v10/orders`; lines only when `lines` is included. */
  list(brandId: number, query: ListQuery): Promise<ListRows<Order>>;
  /** `GET /v10/orders/export`: the list restricted to the export scope; never counted. */
  listForExport(brandId: number, query: ListQuery, scope: ExportScope): Promise<ListRows<Order>>;
}

/** The orders module's repositories; the declaration below adds them to `Repositories`. */
export interface OrderRepositories {
  orderChannels: OrderChannelRepository;
  orders: OrderRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends OrderRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The orders module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    order_channels: true;
    orders: true;
    order_lines: true;
  }
}
