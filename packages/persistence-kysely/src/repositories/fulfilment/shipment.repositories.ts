import { Colli, Shipment, ShipmentLine, ShipmentRepositories, ShipmentRepository, ShipmentStatus } from '@brand/core';
import { Insertable, Selectable } from 'kysely';
import { ListColumns } from '../../listing/list-sql';
import { ShipmentLinesTable, ShipmentsTable } from '../../tables/orders.tables';
import { Executor, RepositoryFactories } from '../executor';
import { fromJson, toJson, toNullableNumber } from '../json-columns';
import { documentStore } from '../documents/document-store';

/** The list keys of `shipmentListDefinition` and `thirdPartyShipmentListDefinition`. */
const SHIPMENT_COLUMNS: ListColumns = {
  id: { column: 'shipments.id', type: 'integer' },
  shipment_number: { column: 'shipments.shipment_number', type: 'integer' },
  order_id: { column: 'shipments.order_id', type: 'integer' },
  order_number: { column: 'shipments.order_number', type: 'integer' },
  customer_id: { column: 'shipments.customer_id', type: 'integer' },
  status: { column: 'shipments.status', type: 'string' },
  created_at: { column: 'shipments.created_at', type: 'datetime' },
  updated_at: { column: 'shipments.updated_at', type: 'datetime' },
};

const SHIPMENT_UPDATE_COLUMNS = [
  'order_id',
  'order_number',
  'customer_id',
  'status',
  'shipping_cost',
  'carrier',
  'colli',
  'delivered_at',
  'cancelled_at',
  'updated_at',
] as const satisfies readonly (keyof ShipmentsTable)[];

const SHIPMENT_LINE_UPDATE_COLUMNS = [
  'order_line_id',
  'variant_id',
  'sku',
  'ean',
  'quantity',
  'delivered_quantity',
] as const satisfies readonly (keyof ShipmentLinesTable)[];

const shipmentToRow = (s: Shipment): Insertable<ShipmentsTable> => ({
  id: s.id,
  brand_id: s.brandId,
  shipment_number: s.shipmentNumber,
  order_id: s.orderId,
  order_number: s.orderNumber,
  customer_id: s.customerId,
  status: s.status,
  shipping_cost: s.shippingCost,
  carrier: s.carrier,
  colli: toJson(s.colli),
  delivered_at: s.deliveredAt,
  cancelled_at: s.cancelledAt,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
});

const lineToRow = (s: Shipment, l: ShipmentLine): Insertable<ShipmentLinesTable> => ({
  id: l.id,
  brand_id: s.brandId,
  shipment_id: s.id,
  order_line_id: l.orderLineId,
  variant_id: l.variantId,
  sku: l.sku,
  ean: l.ean,
  quantity: l.quantity,
  delivered_quantity: l.deliveredQuantity,
});

const rowToLine = (r: Selectable<ShipmentLinesTable>): ShipmentLine => ({
  id: Number(r.id),
  shipmentId: Number(r.shipment_id),
  orderLineId: Number(r.order_line_id),
  variantId: Number(r.variant_id),
  sku: r.sku,
  ean: r.ean,
  quantity: Number(r.quantity),
  deliveredQuantity: Number(r.delivered_quantity),
});

const rowToShipment = (r: Selectable<ShipmentsTable>, lines: Selectable<ShipmentLinesTable>[]): Shipment => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  shipmentNumber: Number(r.shipment_number),
  orderId: Number(r.order_id),
  orderNumber: Number(r.order_number),
  customerId: Number(r.customer_id),
  status: r.status as ShipmentStatus,
  shippingCost: toNullableNumber(r.shipping_cost),
  carrier: r.carrier,
  colli: fromJson<Colli[]>(r.colli, []),
  deliveredAt: r.delivered_at,
  cancelledAt: r.cancelled_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  lines: lines.map(rowToLine),
});

export function shipmentRepository(executor: Executor): ShipmentRepository {
  const store = documentStore(executor, {
    table: 'shipments',
    linesTable: 'shipment_lines',
    parentColumn: 'shipment_id',
    documentType: 'shipment',
    columns: SHIPMENT_COLUMNS,
    updateColumns: SHIPMENT_UPDATE_COLUMNS,
    lineUpdateColumns: SHIPMENT_LINE_UPDATE_COLUMNS,
    toRow: shipmentToRow,
    linesToRows: (s: Shipment) => s.lines.map((l) => lineToRow(s, l)),
    fromRows: rowToShipment,
  });
  return {
    save: (shipment) => store.save(shipment),
    findByIds: (brandId, ids) => store.find(brandId, 'id', ids),
    findByNumbers: (brandId, numbers) => store.find(brandId, 'shipment_number', numbers),
    findByOrderIds: (brandId, orderIds) => store.find(brandId, 'order_id', orderIds),
    list: (brandId, query) => store.list(brandId, query, true),
    listForExport: (brandId, query, scope) => store.listForExport(brandId, query, scope, true),
  };
}

/** The fulfilment module's repositories, as the unit of work makes them. */
export const shipmentRepositoryFactories: RepositoryFactories<ShipmentRepositories> = {
  shipments: (executor) => shipmentRepository(executor),
};
