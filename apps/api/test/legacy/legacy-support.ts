import express from 'express';
import request from 'supertest';
import { FixedClock, ProductAggregate, UnitOfWork } from '@brand/core';
import { Storage } from '@brand/persistence-kysely';
import { Integrator } from '../support/integrator';
import { buildApp } from '../support/test-app';

/** The app identifier every older-interface call sends. */
export const APP_IDENTIFIER = 'Acme ERP 2.3 (ops@acme.example)';

/** Headers of the older interface: the token and X-ServiceAppIdentifier, no app key. */
export function legacyHeaders(who: Integrator): Record<string, string> {
  return { Authorization: who.headers.Authorization, 'X-ServiceAppIdentifier': APP_IDENTIFIER };
}

/** A thin client of the older interface for one integrator. */
export function legacyClient(app: express.Application, who: Integrator) {
  const headers = legacyHeaders(who);
  return {
    get: (path: string) => request(app).get(path).set(headers),
    post: (path: string, body: object) => request(app).post(path).set(headers).send(body),
    put: (path: string, body: object) => request(app).put(path).set(headers).send(body),
    delete: (path: string) => request(app).delete(path).set(headers),
  };
}
export type LegacyClient = ReturnType<typeof legacyClient>;

/** A variant of the older form with what a new variant needs. */
export function legacyVariant(
  sku: string,
  attributes: Record<string, string> = { color: 'Red', size: 'M' },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { sku, attributes, prices: { EUR: { sales_price: 20, rec_sales_price: 49.95, offer_price: null } }, ...extra };
}

/** A product of the older form with one variant unless told otherwise. */
export function legacyProduct(
  itemNumber: string,
  variants: Record<string, unknown>[] = [legacyVariant(`${itemNumber}-1`)],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { item_number: itemNumber, name: `Product ${itemNumber}`, variants, ...extra };
}

/** POSTs a product and expects it to be created. */
export async function createLegacyProduct(client: LegacyClient, product: Record<string, unknown>) {
  const response = await client.post('/api/products', { product });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { id: number; variants: { id: number; sku: string }[] } & Record<string, unknown>;
}

/** Changes a stored product directly (categories and tags are set by the product sync, which these tests do not need). */
export async function amendProduct(
  storage: Storage,
  brandId: number,
  productId: number,
  change: (aggregate: ProductAggregate) => ProductAggregate,
): Promise<void> {
  await storage.uow.run(async (tx) => {
    const [aggregate] = await tx.products.findByIds(brandId, [productId]);
    if (!aggregate) throw new Error(`product ${productId} not found`);
    await tx.products.saveAll(brandId, [change(aggregate)]);
  });
}

/** The same storage, except that orders refer to every product and variant. */
export function appWithOrders(storage: Storage, clock: FixedClock): express.Application {
  const uow: UnitOfWork = {
    run: (work) =>
      storage.uow.run((tx) =>
        work({
          ...tx,
          products: {
            ...tx.products,
            dependentsOfProduct: async () => ['orders'],
            dependentsOfVariant: async () => ['orders'],
          },
        }),
      ),
    read: (work) => storage.uow.read(work),
  };
  const wrapped: Storage = {
    dialect: storage.dialect,
    uow,
    rateLimits: storage.rateLimits,
    secrets: storage.secrets,
    migrate: () => storage.migrate(),
    ping: () => storage.ping(),
    pendingMigrations: () => storage.pendingMigrations(),
    bypassesRowSecurity: () => storage.bypassesRowSecurity(),
    backupTo: (file) => storage.backupTo(file),
    close: async () => undefined,
  };
  return buildApp(wrapped, clock);
}
