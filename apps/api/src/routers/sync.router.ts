import { syncCustomers, syncSuppliers } from '@brand/core';
import { CustomerSyncRequestDto, toCustomerSyncItem } from '../dtos/customer-sync.dto';
import { SupplierSyncRequestDto, toSupplierSyncItem } from '../dtos/supplier-sync.dto';
import { Surface } from '../http/route';
import { presentSyncOutcome, syncOutcomesOf } from '../presenters/sync-outcome.presenter';
import { RouterDeps } from './router-deps';

/** The unversioned sync interface: create, update or delete by natural key, one request a batch. */
export function syncRouter(deps: RouterDeps): Surface<'current'> {
  const surface = new Surface('sync', 'current', [
    '/customers/sync',
    '/products/sync',
    '/products/images/sync',
    '/production',
  ]);

  // The spec names the path /customers/sync and its sample request /production/customers/sync: both are served, alike.
  for (const path of ['/customers/sync', '/production/customers/sync']) {
    surface.route({
      method: 'post',
      path,
      summary: 'Sync customers',
      description:
        'Creates or updates customers matched by customer_number, or deletes them (delete: true). The request is all or nothing: ' +
        'if any item is invalid nothing is written and every problem is reported with its item index.',
      tag: 'Sync',
      scopes: ['customers:write'],
      body: CustomerSyncRequestDto,
      status: 200,
      response: {
        description: 'What happened to each customer, in request order',
        schema: syncOutcomesOf('customers', 'customer_number'),
      },
      handler: async ({ principal, body }) => {
        const outcomes = await syncCustomers(deps, {
          brandId: principal.brandId,
          customers: body.customers.map(toCustomerSyncItem),
        });
        return { customers: outcomes.map((outcome) => presentSyncOutcome('customer_number', outcome)) };
      },
    });
  }

  return surface.route({
    method: 'post',
    path: '/production/suppliers/sync',
    summary: 'Sync suppliers',
    description:
      'Creates or updates suppliers matched by supplier_number, or deletes them (delete: true); all or nothing, like the customer sync.',
    tag: 'Sync',
    scopes: ['production:write'],
    body: SupplierSyncRequestDto,
    status: 200,
    response: {
      description: 'What happened to each supplier, in request order',
      schema: syncOutcomesOf('suppliers', 'supplier_number'),
    },
    handler: async ({ principal, body }) => {
      const outcomes = await syncSuppliers(deps, {
        brandId: principal.brandId,
        suppliers: body.suppliers.map(toSupplierSyncItem),
      });
      return { suppliers: outcomes.map((outcome) => presentSyncOutcome('supplier_number', outcome)) };
    },
  });
}
