import { BulkOperationType, Scope, ScopeArea } from '@brand/core';

/** The area of the resource each type of operation syncs: its scopes are that area's, as the sync endpoint's are. */
const AREA_OF_TYPE: Record<BulkOperationType, ScopeArea> = {
  'products.sync': 'catalog',
  'customers.sync': 'customers',
  'suppliers.sync': 'production',
};

/** The scope an operation of `type` needs to be submitted or cancelled (`write`) or read (`read`). */
export function bulkScopeOf(type: BulkOperationType, access: 'read' | 'write'): Scope {
  return `${AREA_OF_TYPE[type]}:${access}`;
}

/** How the routes' documentation states the scopes. */
export const BULK_SCOPES_NOTE =
  'Scopes by the type of the operation, those of its sync: catalog (products.sync), customers (customers.sync), ' +
  'production (suppliers.sync); write to submit or cancel, read to read.';
