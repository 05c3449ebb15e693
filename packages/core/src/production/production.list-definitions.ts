import { exportListDefinition } from '../documents/export-list-definition';
import { ListDefinition } from '../listing/list-query';
import { DeliveryNote, ProductionOrder } from './production.entities';

/** `GET /v10/production-orders`. */
export const productionOrderListDefinition: ListDefinition<ProductionOrder> = {
  resource: 'production_orders',
  fields: {
    id: { type: 'integer', get: (o) => o.id },
    production_order_number: { type: 'integer', get: (o) => o.productionOrderNumber },
    status: { type: 'string', get: (o) => o.status },
    supplier_id: { type: 'integer', get: (o) => o.supplierId },
    created_at: { type: 'datetime', get: (o) => o.createdAt },
    updated_at: { type: 'datetime', get: (o) => o.updatedAt },
  },
  sortKeys: ['id', 'updated_at'],
  filterKeys: ['id', 'production_order_number', 'status', 'supplier_id', 'created_at', 'updated_at'],
  includes: ['lines', 'deliveryNotes', 'supplier'],
};

/**
 * `GET /v10/production-orders/export`: the export's includes reach into the sales orders the
 * production makes goods for (the spec's list).
 */
export const productionOrderExportListDefinition = exportListDefinition(productionOrderListDefinition, [
  'deliveryNotes',
  'lines',
  'lines.product',
  'lines.variant',
  'salesOrders',
  'salesOrders.delivery',
  'salesOrders.lines',
  'salesOrders.lines.product',
  'salesOrders.lines.variant',
  'salesOrders.shop',
  'supplier',
]);

const deliveryNoteFields: ListDefinition<DeliveryNote>['fields'] = {
  id: { type: 'integer', get: (n) => n.id },
  production_order_delivery_note_number: { type: 'integer', get: (n) => n.deliveryNoteNumber },
  production_order_id: { type: 'integer', get: (n) => n.productionOrderId },
  supplier_id: { type: 'integer', get: (n) => n.supplierId },
  status: { type: 'string', get: (n) => n.status },
  created_at: { type: 'datetime', get: (n) => n.createdAt },
  updated_at: { type: 'datetime', get: (n) => n.updatedAt },
};

/** `GET /v10/production-order-delivery-notes`. */
export const deliveryNoteListDefinition: ListDefinition<DeliveryNote> = {
  resource: 'delivery_notes',
  fields: deliveryNoteFields,
  sortKeys: ['id'],
  filterKeys: [
    'id',
    'production_order_delivery_note_number',
    'production_order_id',
    'supplier_id',
    'status',
    'created_at',
    'updated_at',
  ],
  includes: [],
};

/** `GET /3pl/production/orders/delivery-notes`: the warehouse's list (the spec's filters). */
export const thirdPartyDeliveryNoteListDefinition: ListDefinition<DeliveryNote> = {
  resource: '3pl_delivery_notes',
  fields: deliveryNoteFields,
  sortKeys: ['id'],
  filterKeys: ['supplier_id', 'created_at', 'updated_at'],
  includes: [],
};
