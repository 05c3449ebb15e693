import { createSupplier, getSupplier, listSuppliers, supplierListDefinition, updateSupplier } from '@brand/core';
import { CreateSupplierDto, UpdateSupplierDto, toNewSupplier, toSupplierChanges } from '../dtos/supplier.dto';
import { pathId } from '../http/path-id';
import { Surface } from '../http/route';
import { listOf, wrapped } from '../http/wire-schema';
import { listRequest, listResponse } from '../listing/list-request';
import { SupplierSchema, presentSupplier } from '../presenters/supplier.presenter';
import { RouterDeps } from './router-deps';

/** Suppliers under /v10: the list, and one supplier to create, read and change. */
export function suppliersV10Router(deps: RouterDeps): Surface<'current'> {
  return new Surface('v10-suppliers', 'current', ['/v10'])
    .route({
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
    })
    .route({
      method: 'post',
      path: '/v10/suppliers',
      summary: 'Create a supplier',
      description:
        'The fields of a supplier sync item (without delete), checked by the same rules; name and currency are required. ' +
        'Never updates: a supplier_number the brand already uses is refused (422 naming /supplier_number). ' +
        'Answers the supplier as GET /v10/suppliers/{id} shows it without includes (the URL is in Location).',
      tag: 'Suppliers',
      scopes: ['production:write'],
      body: CreateSupplierDto,
      status: 201,
      response: {
        description: 'The new supplier',
        schema: wrapped('supplier', SupplierSchema),
        location: 'The new supplier: /v10/suppliers/{id}',
      },
      handler: async ({ principal, body, res }) => {
        const supplier = await createSupplier(deps, { brandId: principal.brandId, supplier: toNewSupplier(body) });
        res.location(`/v10/suppliers/${supplier.id}`);
        return { supplier: presentSupplier(supplier, []) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/suppliers/:id',
      summary: 'Get a supplier',
      description: 'The supplier as GET /v10/suppliers lists it; includes[]=addresses adds its addresses.',
      tag: 'Suppliers',
      scopes: ['production:read'],
      includes: { resource: supplierListDefinition.resource, allowed: supplierListDefinition.includes },
      status: 200,
      response: { description: 'The supplier', schema: wrapped('supplier', SupplierSchema) },
      handler: async ({ principal, params, includes }) => {
        const detail = await getSupplier(deps, {
          brandId: principal.brandId,
          id: pathId(params['id'], 'supplier'),
          includes,
        });
        return { supplier: presentSupplier(detail.supplier, detail.includes) };
      },
    })
    .route({
      method: 'patch',
      path: '/v10/suppliers/:id',
      summary: 'Change a supplier',
      description:
        'Fields not sent keep their value; the fields sent are checked as a supplier sync checks them, addresses merged by ' +
        'addresses_sync_mode and addresses_sync_key alike. supplier_number may change, but not to one another supplier holds (422). ' +
        'A body that changes nothing writes nothing and keeps updated_at.',
      tag: 'Suppliers',
      scopes: ['production:write'],
      body: UpdateSupplierDto,
      status: 200,
      response: { description: 'The supplier after the change', schema: wrapped('supplier', SupplierSchema) },
      handler: async ({ principal, params, body }) => {
        const supplier = await updateSupplier(deps, {
          brandId: principal.brandId,
          id: pathId(params['id'], 'supplier'),
          changes: toSupplierChanges(body),
        });
        return { supplier: presentSupplier(supplier, []) };
      },
    });
}
