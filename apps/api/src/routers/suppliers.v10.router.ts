import { listSuppliers, supplierListDefinition } from '@brand/core';
import { Surface } from '../http/route';
import { listOf } from '../http/wire-schema';
import { listRequest, listResponse } from '../listing/list-request';
import { SupplierSchema, presentSupplier } from '../presenters/supplier.presenter';
import { RouterDeps } from './router-deps';

/** Suppliers under /v10. */
export function suppliersV10Router(deps: RouterDeps): Surface<'current'> {
  return new Surface('v10-suppliers', 'current', ['/v10']).route({
    method: 'get',
    path: '/v10/suppliers',
    summary: 'List suppliers',
    tag: 'Suppliers',
    scopes: ['production:read'],
    list: supplierListDefinition,
    status: 200,
    response: { description: 'A page of suppliers', schema: listOf('suppliers', SupplierSchema) },
    handler: async ({ principal, req }) => {
      const result = await listSuppliers(deps, await listRequest(req, principal.brandId, deps.cursors));
      return listResponse('suppliers', result, supplierListDefinition, deps.cursors, (supplier) =>
        presentSupplier(supplier, result.query.includes),
      );
    },
  });
}
