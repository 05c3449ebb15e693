import { ListDefinition } from '../listing/list-query';
import { BulkOperation } from './bulk-operation.entities';

/** `GET /v10/bulk-operations`. */
export const bulkOperationListDefinition: ListDefinition<BulkOperation> = {
  resource: 'bulk_operations',
  fields: {
    id: { type: 'integer', get: (o) => o.id },
    type: { type: 'string', get: (o) => o.type },
    status: { type: 'string', get: (o) => o.status },
    created_at: { type: 'datetime', get: (o) => o.createdAt },
    finished_at: { type: 'datetime', get: (o) => o.finishedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['id', 'type', 'status', 'created_at', 'finished_at'],
  includes: [],
};
