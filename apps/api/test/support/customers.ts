import request from 'supertest';
import express from 'express';
import { Integrator } from './integrator';

/** A customer item of a sync request with the fields a new customer needs. */
export function newCustomer(customerNumber: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { customer_number: customerNumber, name: `Customer ${customerNumber}`, currency: 'EUR', ...extra };
}

/** A complete address of a sync request. */
export function address(title: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title,
    name: `${title} receiving`,
    address: 'Keizersgracht 1',
    zip: '1015 CJ',
    city: 'Amsterdam',
    country: 'NL',
    ...extra,
  };
}

/** POSTs a customer sync and expects it to succeed. */
export async function syncCustomers(app: express.Application, who: Integrator, customers: Record<string, unknown>[]) {
  const response = await request(app).post('/customers/sync').set(who.headers).send({ customers });
  if (response.status !== 200) throw new Error(`sync failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { customers: { customer_number: string; id: number; action: string }[] };
}

/** All customers of the integrator's brand (with addresses), read through the API. */
export async function listAllCustomers(
  app: express.Application,
  who: Integrator,
  query = 'limit=100&includes[]=addresses',
) {
  const response = await request(app).get(`/v10/customers?${query}`).set(who.headers);
  if (response.status !== 200) throw new Error(`list failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.customers as Record<string, unknown>[];
}
