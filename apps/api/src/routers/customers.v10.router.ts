import {
  createCustomerGroup,
  createPaymentTerms,
  customerGroupListDefinition,
  customerListDefinition,
  listCustomerGroups,
  listCustomers,
  listPaymentTerms,
  paymentTermsListDefinition,
} from '@brand/core';
import { CreateCustomerGroupDto } from '../dtos/customer-group.dto';
import { CreatePaymentTermsDto } from '../dtos/payment-terms.dto';
import { Surface } from '../http/route';
import { listRequest, listResponse } from '../listing/list-request';
import { listOf, wrapped } from '../http/wire-schema';
import { CustomerGroupSchema, presentCustomerGroup } from '../presenters/customer-group.presenter';
import { CustomerSchema, presentCustomer } from '../presenters/customer.presenter';
import { PaymentTermsSchema, presentPaymentTerms } from '../presenters/payment-terms.presenter';
import { RouterDeps } from './router-deps';

/** Customers, customer groups and payment terms under /v10. */
export function customersV10Router(deps: RouterDeps): Surface<'current'> {
  return new Surface('v10-customers', 'current', ['/v10'])
    .route({
      method: 'get',
      path: '/v10/customers',
      summary: 'List customers',
      tag: 'Customers',
      scopes: ['customers:read'],
      list: customerListDefinition,
      status: 200,
      response: { description: 'A page of customers', schema: listOf('customers', CustomerSchema) },
      handler: async ({ principal, req }) => {
        const result = await listCustomers(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('customers', result, customerListDefinition, deps.cursors, (customer) =>
          presentCustomer(customer, {
            includes: result.query.includes,
            customerGroups: result.customerGroups,
            paymentTerms: result.paymentTerms,
          }),
        );
      },
    })
    .route({
      method: 'get',
      path: '/v10/customer-groups',
      summary: 'List customer groups',
      tag: 'Customers',
      scopes: ['customers:read'],
      list: customerGroupListDefinition,
      status: 200,
      response: {
        description: 'A page of customer groups',
        schema: listOf('customer_groups', CustomerGroupSchema),
      },
      handler: async ({ principal, req }) => {
        const result = await listCustomerGroups(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('customer_groups', result, customerGroupListDefinition, deps.cursors, presentCustomerGroup);
      },
    })
    .route({
      method: 'post',
      path: '/v10/customer-groups',
      summary: 'Create a customer group',
      tag: 'Customers',
      scopes: ['customers:write'],
      body: CreateCustomerGroupDto,
      status: 201,
      response: {
        description: 'The new customer group',
        schema: wrapped('customer_group', CustomerGroupSchema),
      },
      handler: async ({ principal, body }) => {
        const group = await createCustomerGroup(deps, { brandId: principal.brandId, code: body.code, name: body.name });
        return { customer_group: presentCustomerGroup(group) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/payment-terms',
      summary: 'List payment terms',
      tag: 'Customers',
      scopes: ['customers:read'],
      list: paymentTermsListDefinition,
      status: 200,
      response: { description: 'A page of payment terms', schema: listOf('payment_terms', PaymentTermsSchema) },
      handler: async ({ principal, req }) => {
        const result = await listPaymentTerms(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('payment_terms', result, paymentTermsListDefinition, deps.cursors, presentPaymentTerms);
      },
    })
    .route({
      method: 'post',
      path: '/v10/payment-terms',
      summary: 'Create payment terms',
      tag: 'Customers',
      scopes: ['customers:write'],
      body: CreatePaymentTermsDto,
      status: 201,
      response: { description: 'The new payment terms', schema: wrapped('payment_terms', PaymentTermsSchema) },
      handler: async ({ principal, body }) => {
        const terms = await createPaymentTerms(deps, {
          brandId: principal.brandId,
          code: body.code,
          name: body.name,
          days: body.days,
        });
        return { payment_terms: presentPaymentTerms(terms) };
      },
    });
}
