import { exportListDefinition } from '../documents/export-list-definition';
import { ListDefinition } from '../listing/list-query';
import { Shipment } from './shipment.entities';

const shipmentFields: ListDefinition<Shipment>['fields'] = {
  id: { type: 'integer', get: (s) => s.id },
  shipment_number: { type: 'integer', get: (s) => s.shipmentNumber },
  order_id: { type: 'integer', get: (s) => s.orderId },
  order_number: { type: 'integer', get: (s) => s.orderNumber },
  customer_id: { type: 'integer', get: (s) => s.customerId },
  status: { type: 'string', get: (s) => s.status },
  created_at: { type: 'datetime', get: (s) => s.createdAt },
  updated_at: { type: 'datetime', get: (s) => s.updatedAt },
};

/** `GET /v10/shipments`. */
export const shipmentListDefinition: ListDefinition<Shipment> = {
  resource: 'shipments',
  fields: shipmentFields,
  sortKeys: ['id', 'created_at'],
  filterKeys: [
    'id',
    'shipment_number',
    'order_id',
    'order_number',
    'customer_id',
    'status',
    'created_at',
    'updated_at',
  ],
  includes: ['lines'],
};

/** `GET /v10/shipments/export`. */
export const shipmentExportListDefinition = exportListDefinition(shipmentListDefinition);

/** `GET /3pl/shipments`: the warehouse's list (filters of the spec, plus id and status). */
export const thirdPartyShipmentListDefinition: ListDefinition<Shipment> = {
  resource: '3pl_shipments',
  fields: shipmentFields,
  sortKeys: ['id'],
  filterKeys: ['id', 'customer_id', 'status', 'created_at', 'updated_at'],
  includes: [],
};

/** `GET /3pl/shipments/export`. */
export const thirdPartyShipmentExportListDefinition = exportListDefinition(thirdPartyShipmentListDefinition);
