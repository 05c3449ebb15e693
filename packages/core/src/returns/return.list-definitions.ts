import { exportListDefinition } from '../documents/export-list-definition';
import { ListDefinition } from '../listing/list-query';
import { Alert, ClaimCause, Return, ReturnPortal } from './return.entities';

/** Every listable field of a return; each list below opens the subset its endpoint documents. */
const returnFields: ListDefinition<Return>['fields'] = {
  id: { type: 'integer', get: (r) => r.id },
  return_number: { type: 'integer', get: (r) => r.returnNumber },
  rma: { type: 'string', get: (r) => r.rma },
  status: { type: 'string', get: (r) => r.status },
  source: { type: 'string', get: (r) => r.source },
  return_portal_id: { type: 'integer', get: (r) => r.returnPortalId },
  customer_id: { type: 'integer', get: (r) => r.customerId },
  order_id: { type: 'integer', get: (r) => r.orderId },
  order_number: { type: 'integer', get: (r) => r.orderNumber },
  created_at: { type: 'datetime', get: (r) => r.createdAt },
  updated_at: { type: 'datetime', get: (r) => r.updatedAt },
};

/** `GET /v10/returns` (lines always come with the return). */
export const returnListDefinition: ListDefinition<Return> = {
  resource: 'returns',
  fields: returnFields,
  sortKeys: ['id', 'updated_at'],
  filterKeys: ['id', 'status', 'customer_id', 'order_id', 'created_at', 'updated_at'],
  includes: [],
};

/** `GET /3pl/returns`: the warehouse's list, with the filters the spec gives it. */
export const thirdPartyReturnListDefinition: ListDefinition<Return> = {
  resource: '3pl_returns',
  fields: returnFields,
  sortKeys: ['id'],
  filterKeys: ['customer_id', 'created_at', 'updated_at'],
  includes: [],
};

/** `GET /3pl/returns/export`: own cursor namespace, cursor only, never counted. */
export const thirdPartyReturnExportListDefinition = exportListDefinition(thirdPartyReturnListDefinition);

/** `GET /v10/claim-causes`. */
export const claimCauseListDefinition: ListDefinition<ClaimCause> = {
  resource: 'claim_causes',
  fields: {
    id: { type: 'integer', get: (c) => c.id },
    code: { type: 'string', get: (c) => c.code },
    name: { type: 'string', get: (c) => c.name },
    created_at: { type: 'datetime', get: (c) => c.createdAt },
    updated_at: { type: 'datetime', get: (c) => c.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['id', 'code', 'name', 'created_at', 'updated_at'],
  includes: [],
};

/** `GET /v10/return-portals`. */
export const returnPortalListDefinition: ListDefinition<ReturnPortal> = {
  resource: 'return_portals',
  fields: {
    id: { type: 'integer', get: (p) => p.id },
    public_id: { type: 'string', get: (p) => p.publicId },
    name: { type: 'string', get: (p) => p.name },
    type: { type: 'string', get: (p) => p.type },
    requires_claim_causes: { type: 'boolean', get: (p) => p.requiresClaimCauses },
    created_at: { type: 'datetime', get: (p) => p.createdAt },
    updated_at: { type: 'datetime', get: (p) => p.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['id', 'public_id', 'name', 'type', 'requires_claim_causes', 'created_at', 'updated_at'],
  includes: [],
};

/** `GET /v10/alerts`. */
export const alertListDefinition: ListDefinition<Alert> = {
  resource: 'alerts',
  fields: {
    id: { type: 'integer', get: (a) => a.id },
    kind: { type: 'string', get: (a) => a.kind },
    status: { type: 'string', get: (a) => a.status },
    return_id: { type: 'integer', get: (a) => a.returnId },
    created_at: { type: 'datetime', get: (a) => a.createdAt },
    updated_at: { type: 'datetime', get: (a) => a.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['id', 'status', 'created_at'],
  includes: [],
};
