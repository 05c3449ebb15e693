import {
  createCustomer,
  createCustomerGroup,
  createPaymentTerms,
  customerGroupListDefinition,
  customerListDefinition,
  getCustomer,
  listCustomerGroups,
  listCustomers,
  listPaymentTerms,
  paymentTermsListDefinition,
  updateCustomer,
} from '@brand/core';
import { CreateCustomerDto, UpdateCustomerDto, toCustomerChanges, toNewCustomer } from '../dtos/customer.dto';
import { CreateCustomerGroupDto } from '../dtos/customer-group.dto';
import { CreatePaymentTermsDto } from '../dtos/payment-terms.dto';
import { pathId } from '../http/path-id';
import { Surface } from '../http/route';
import { listRequest, listResponse } from '../listing/list-request';
import { listOf, wrapped } from '../http/wire-schema';
import { CustomerGroupSchema, presentCustomerGroup } from '../presenters/customer-group.presenter';
import { CustomerSchema, presentCustomer, presentCustomerWithoutIncludes } from '../presenters/customer.presenter';
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
      method: 'post',
      path: '/v10/customers',
      summary: 'Create a customer',
      description:
        'The fields of a customer sync item (without delete), checked by the same rules; name and currency are required. ' +
        'Never updates: a customer_number the brand already uses is refused (422 naming /customer_number). ' +
        'Answers the customer as GET /v10/customers/{id} shows it without includes (the URL is in Location) and announces customer.created.',
      tag: 'Customers',
      scopes: ['customers:write'],
      body: CreateCustomerDto,
      status: 201,
      response: {
        description: 'The new customer',
        schema: wrapped('customer', CustomerSchema),
        location: 'The new customer: /v10/customers/{id}',
      },
      handler: async ({ principal, body, res }) => {
        const customer = await createCustomer(deps, { brandId: principal.brandId, customer: toNewCustomer(body) });
        res.location(`/v10/customers/${customer.id}`);
        return { customer: presentCustomerWithoutIncludes(customer) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/customers/:id',
      summary: 'Get a customer',
      description: 'The customer as GET /v10/customers lists it; includes[]=addresses, customer_group, payment_terms.',
      tag: 'Customers',
      scopes: ['customers:read'],
      includes: { resource: customerListDefinition.resource, allowed: customerListDefinition.includes },
      status: 200,
      response: { description: 'The customer', schema: wrapped('customer', CustomerSchema) },
      handler: async ({ principal, params, includes }) => {
        const detail = await getCustomer(deps, {
          brandId: principal.brandId,
          id: pathId(params['id'], 'customer'),
          includes,
        });
        return { customer: presentCustomer(detail.customer, detail) };
      },
    })
    .route({
      method: 'patch',
      path: '/v10/customers/:id',
      summary: 'Change a customer',
      description:
        'Fields not sent keep their value; the fields sent are checked as a customer sync checks them, addresses merged by ' +
        'addresses_sync_mode and addresses_sync_key alike. customer_number may change, but not to one another customer holds (422). ' +
        'Announces customer.updated when something changed; a body that changes nothing writes nothing and keeps updated_at.',
      tag: 'Customers',
      scopes: ['customers:write'],
      body: UpdateCustomerDto,
      status: 200,
      response: { description: 'The customer after the change', schema: wrapped('customer', CustomerSchema) },
      handler: async ({ principal, params, body }) => {
        const customer = await updateCustomer(deps, {
          brandId: principal.brandId,
          id: pathId(params['id'], 'customer'),
          changes: toCustomerChanges(body),
        });
        return { customer: presentCustomerWithoutIncludes(customer) };
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
