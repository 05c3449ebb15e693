import { exportListDefinition } from '../documents/export-list-definition';
import { ListDefinition } from '../listing/list-query';
import { Order, OrderChannel } from './order.entities';

/** `GET /v10/orders`. */
export const orderListDefinition: ListDefinition<Order> = {
  resource: 'orders',
  fields: {
    id: { type: 'integer', get: (o) => o.id },
    order_number: { type: 'integer', get: (o) => o.orderNumber },
    status: { type: 'string', get: (o) => o.status },
    order_type: { type: 'string', get: (o) => o.orderType },
    order_channel_id: { type: 'integer', get: (o) => o.orderChannelId },
    customer_id: { type: 'integer', get: (o) => o.customerId },
    customer_number: { type: 'string', get: (o) => o.customerNumber },
    drop_id: { type: 'integer', get: (o) => o.dropId },
    currency: { type: 'string', get: (o) => o.currency },
    reference: { type: 'string', get: (o) => o.reference },
    email: { type: 'string', get: (o) => o.email },
    total: { type: 'decimal', scale: 2, get: (o) => o.total },
    created_at: { type: 'datetime', get: (o) => o.createdAt },
    updated_at: { type: 'datetime', get: (o) => o.updatedAt },
  },
  sortKeys: ['id', 'updated_at'],
  filterKeys: [
    'id',
    'order_number',
    'status',
    'order_type',
    'order_channel_id',
    'customer_id',
    'customer_number',
    'drop_id',
    'currency',
    'reference',
    'email',
    'total',
    'created_at',
    'updated_at',
  ],
  includes: ['lines'],
};

/** `GET /v10/orders/export`. */
export const orderExportListDefinition = exportListDefinition(orderListDefinition);

/** `GET /v10/order-channels`. */
export const orderChannelListDefinition: ListDefinition<OrderChannel> = {
  resource: 'order_channels',
  fields: {
    id: { type: 'integer', get: (c) => c.id },
    public_id: { type: 'string', get: (c) => c.publicId },
    name: { type: 'string', get: (c) => c.name },
    order_type: { type: 'string', get: (c) => c.orderType },
    created_at: { type: 'datetime', get: (c) => c.createdAt },
    updated_at: { type: 'datetime', get: (c) => c.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['id', 'public_id', 'name', 'order_type', 'created_at', 'updated_at'],
  includes: [],
};
