import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { listEvents } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { DEFAULT_CONFIG } from '../src/config';
import { address, newCustomer } from './support/customers';
import { storageFailingBeforeCommit } from './support/failing-storage';
import { Integrator, createIntegrator } from './support/integrator';
import { buildApp, closeServer, listenOnLoopback, useTestApp } from './support/test-app';
import { ImageServer, startImageServer } from './images/support/image-server';
import { legacyClient, legacyHeaders, legacyProduct, legacyVariant } from './legacy/legacy-support';

type Body = Record<string, unknown>;
/** A customer sync's addresses, matched by title, replacing the stored ones. */
const addresses = (...list: Body[]): Body => ({
  addresses_sync_mode: 'replace',
  addresses_sync_key: 'address_title',
  addresses: list,
});

type Event = { id: string; type: string; created_at: string; data: { object: Body } };

const MINUTE = 60_000;

/** A new product of the product sync, with one variant `<item>-M`. */
function syncedProduct(itemNumber: string, extra: Body = {}): Body {
  return {
    item_number: itemNumber,
    name: `Product ${itemNumber}`,
    variants: [{ sku: `${itemNumber}-M`, attributes: { size: 'M' } }],
    ...extra,
  };
}

for (const dialect of testDialects()) {
  describe(`customer and product events [${dialect}]`, () => {
    const blobDir = join(tmpdir(), `events-catalog-test-${process.pid}-${dialect}`);
    // 127.0.0.1 is where the test image server listens.
    const t = useTestApp(dialect, { images: { ...DEFAULT_CONFIG.images, allowedHosts: ['127.0.0.1'], blobDir } });
    let images: ImageServer;
    let brand: Integrator;

    beforeAll(async () => {
      images = await startImageServer();
    });
    afterAll(async () => {
      await images.close();
      await rm(blobDir, { recursive: true, force: true });
    });
    beforeEach(async () => {
      // A brand per test: every test starts with an empty feed.
      brand = await createIntegrator(t.storage, t.clock);
    });

    /** The brand's events whose type starts with `prefix` (`customer.`, `product.`), oldest first. */
    async function eventsOf(prefix: string): Promise<Event[]> {
      const response = await request(t.server).get('/v10/events?limit=100').set(brand.headers);
      expect(response.status).toBe(200);
      return (response.body.events as Event[]).filter((e) => e.type.startsWith(prefix));
    }

    /** The feed filtered by one type, as an integration asks for it. */
    async function eventsOfType(type: string): Promise<Event[]> {
      const response = await request(t.server)
        .get(
          `/v10/events?limit=100&filter_groups[0][filters][0][key]=type&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=${type}`,
        )
        .set(brand.headers);
      expect(response.status).toBe(200);
      return response.body.events as Event[];
    }

    /** A customer as `GET /v10/customers` shows it. */
    async function customerShown(id: number): Promise<Body> {
      const response = await request(t.server).get('/v10/customers?limit=100').set(brand.headers);
      expect(response.status).toBe(200);
      const found = (response.body.customers as Body[]).find((c) => c['id'] === id);
      if (!found) throw new Error(`customer ${id} is not listed`);
      return found;
    }

    /** A product as `GET /v10/products/{id}` shows it (with `includes`, if any). */
    async function productShown(id: number, includes: string[] = []): Promise<Body> {
      const query = includes.map((name) => `includes[]=${name}`).join('&');
      const response = await request(t.server)
        .get(`/v10/products/${id}${query ? `?${query}` : ''}`)
        .set(brand.headers);
      expect(response.status).toBe(200);
      return response.body.product as Body;
    }

    const syncCustomers = (customers: Body[]) =>
      request(t.server).post('/customers/sync').set(brand.headers).send({ customers });
    const syncProducts = (products: Body[]) =>
      request(t.server).post('/products/sync').set(brand.headers).send({ products });
    const syncImages = (products: Body[]) =>
      request(t.server).post('/products/images/sync').set(brand.headers).send({ product_images: products });

    const event = (type: string, object: Body, createdAt: string) => ({
      id: expect.stringMatching(/^evt_\d+$/),
      type,
      created_at: createdAt,
      data: { object },
    });

    it('announces customers a sync creates, changes or deletes as GET shows(ed) them, and nothing for unchanged, absent or refused ones', async () => {
      const created = await syncCustomers([
        newCustomer('C-1', addresses(address('Home'))),
        newCustomer('C-2', { discount_percentage: 12.5 }),
      ]);
      expect(created.status).toBe(200);
      const [c1, c2] = (created.body.customers as { id: number }[]).map((c) => c.id);
      const createdAt = t.clock.now();
      const shownCreated = [await customerShown(c1!), await customerShown(c2!)];

      t.clock.advance(MINUTE);
      const unchanged = await syncCustomers([newCustomer('C-1', addresses(address('Home')))]);
      expect(unchanged.body.customers[0].action).toBe('unchanged');
      t.clock.advance(MINUTE);
      const changed = await syncCustomers([
        { customer_number: 'C-2', name: 'Renamed', active: false },
        { customer_number: 'C-1', ...addresses(address('Home', { city: 'Utrecht' })) },
      ]);
      expect(changed.status).toBe(200);
      const shownChanged = [await customerShown(c2!), await customerShown(c1!)];
      expect(shownChanged[0]).toMatchObject({ name: 'Renamed', active: false, updated_at: t.clock.now() });

      t.clock.advance(MINUTE);
      const refused = await syncCustomers([
        { customer_number: 'C-1', name: 'Never' },
        { customer_number: 'C-3', name: 'No currency' },
      ]);
      expect(refused.status).toBe(422);
      const shownLast = await customerShown(c2!);
      const deleted = await syncCustomers([
        { customer_number: 'C-2', delete: true },
        { customer_number: 'C-9', delete: true },
      ]);
      expect((deleted.body.customers as Body[]).map((c) => c['action'])).toEqual(['deleted', 'absent']);
      await expect(customerShown(c2!)).rejects.toThrow('is not listed');

      expect(await eventsOf('customer.')).toEqual([
        event('customer.created', shownCreated[0]!, createdAt),
        event('customer.created', shownCreated[1]!, createdAt),
        event('customer.updated', shownChanged[0]!, new Date(Date.parse(createdAt) + 2 * MINUTE).toISOString()),
        event('customer.updated', shownChanged[1]!, new Date(Date.parse(createdAt) + 2 * MINUTE).toISOString()),
        event('customer.deleted', shownLast, t.clock.now()),
      ]);
      expect(shownLast).toEqual(shownChanged[0]);
      expect((await eventsOfType('customer.updated')).map((e) => e.data.object['id'])).toEqual([c2, c1]);
    });

    it('announces products the product sync creates or changes (a variant too) as GET shows them, not stock alone or a refused sync', async () => {
      const created = await syncProducts([
        syncedProduct('TEE', {
          tags: ['cotton', 'basics'],
          categories_sync_mode: 'replace',
          categories: [
            { top_category: 'Tops', sub_category: 'Tees', create_if_missing: true },
            { top_category: 'Basics', create_if_missing: true },
          ],
          variants: [
            { sku: 'TEE-M', attributes: { size: 'M' }, prices: { EUR: { sales_price: 10, rec_sales_price: 25 } } },
            { sku: 'TEE-L', attributes: { size: 'L' }, inventory: [{ quantity: 4 }] },
          ],
        }),
        syncedProduct('CAP'),
      ]);
      expect(created.status).toBe(200);
      const [tee, cap] = (created.body.products as { id: number }[]).map((p) => p.id);
      const createdAt = t.clock.now();
      const shownCreated = [await productShown(tee!), await productShown(cap!)];

      t.clock.advance(MINUTE);
      const changed = await syncProducts([
        { item_number: 'CAP', name: 'Product CAP' },
        { item_number: 'TEE', variants: [{ sku: 'TEE-M', prices: { EUR: { sales_price: 12 } } }] },
      ]);
      expect((changed.body.products as { action: string }[]).map((p) => p.action)).toEqual(['unchanged', 'updated']);
      const changedAt = t.clock.now();
      const shownChanged = await productShown(tee!);
      expect(shownChanged['updated_at']).toBe(changedAt);

      t.clock.advance(MINUTE);
      const stocked = await syncProducts([
        { item_number: 'CAP', variants: [{ sku: 'CAP-M', inventory: [{ quantity: 9 }] }] },
      ]);
      expect(stocked.status).toBe(200);
      const refused = await syncProducts([
        { item_number: 'TEE', name: 'Never' },
        { item_number: 'NEW', name: 'Without variants' },
      ]);
      expect(refused.status).toBe(422);

      expect(await eventsOf('product.')).toEqual([
        event('product.created', shownCreated[0]!, createdAt),
        event('product.created', shownCreated[1]!, createdAt),
        event('product.updated', shownChanged, changedAt),
      ]);
      expect(await productShown(cap!)).toEqual(shownCreated[1]);
      expect((await eventsOfType('product.created')).map((e) => e.data.object['id'])).toEqual([tee, cap]);

      // The stored object is the whole product (variants, prices, categories) as storage reads it back.
      const stored = (await listEvents(t.storage, { brandId: brand.brandId, query: { limit: '100' } })).page.items;
      const lastUpdate = stored.filter((e) => e.type === 'product.updated').at(-1)!;
      const [readBack] = await t.storage.uow.read((r) => r.products.findByIds(brand.brandId, [tee!]));
      expect(lastUpdate.object).toEqual(readBack);
    });

    it('announces a product whose images the image sync changes, as GET shows it, and not an unchanged one', async () => {
      const created = await syncProducts([syncedProduct('TEE')]);
      const [tee] = (created.body.products as { id: number }[]).map((p) => p.id);
      const url = images.url(`/png/${dialect}-events-tee.png`);

      t.clock.advance(MINUTE);
      const first = await syncImages([{ item_number: 'TEE', images: [{ url, sort: 1 }] }]);
      expect(first.status).toBe(200);
      const changedAt = t.clock.now();
      const shown = await productShown(tee!);
      t.clock.advance(MINUTE);
      const again = await syncImages([{ item_number: 'TEE', images: [{ url, sort: 1 }] }]);
      expect(again.status).toBe(200);
      const refused = await syncImages([{ item_number: 'NOPE', images: [] }]);
      expect(refused.status).toBe(422);

      expect(await eventsOfType('product.updated')).toEqual([event('product.updated', shown, changedAt)]);
    });

    it('announces products the older interface creates and changes (variants too) as GET /v10 shows them, and nothing for no-ops or refusals', async () => {
      const api = legacyClient(t.app, brand);
      const shown: Body[] = [];
      const at: string[] = [];
      const step = async (change: () => Promise<{ status: number }>, status: number, productId?: () => number) => {
        t.clock.advance(MINUTE);
        expect((await change()).status).toBe(status);
        shown.push(await productShown(productId ? productId() : id));
        at.push(t.clock.now());
      };

      const createdResponse = await api.post('/api/products', {
        product: legacyProduct('JKT', [legacyVariant('JKT-M', { size: 'M' }), legacyVariant('JKT-L', { size: 'L' })]),
      });
      expect(createdResponse.status).toBe(201);
      const id = createdResponse.body.id as number;
      shown.push(await productShown(id));
      at.push(t.clock.now());
      let added = 0;

      await step(() => api.put(`/api/products/${id}`, { product: { name: 'Rain jacket' } }), 200);
      await step(async () => {
        const response = await api.post(`/api/products/${id}/variants`, {
          variant: legacyVariant('JKT-XL', { size: 'XL' }),
        });
        added = response.body.id as number;
        return response;
      }, 201);
      await step(
        () => api.put(`/api/products/${id}/variants/${added}`, { variant: { prices: { EUR: { sales_price: 30 } } } }),
        200,
      );
      await step(() => api.delete(`/api/products/${id}/variants/${added}`), 204);

      t.clock.advance(MINUTE);
      expect((await api.put(`/api/products/${id}`, { product: { name: 'Rain jacket' } })).status).toBe(200);
      expect((await api.put(`/api/products/${id}`, { product: { name: '' } })).status).toBe(422);
      expect(
        (await api.post(`/api/products/${id}/variants`, { variant: legacyVariant('JKT-M', { size: 'M' }) })).status,
      ).toBe(422);

      expect(await eventsOf('product.')).toEqual([
        event('product.created', shown[0]!, at[0]!),
        ...shown.slice(1).map((object, i) => event('product.updated', object, at[i + 1]!)),
      ]);
      expect(shown.map((p) => p['name'])).toEqual([
        'Product JKT',
        'Rain jacket',
        'Rain jacket',
        'Rain jacket',
        'Rain jacket',
      ]);
      expect(new Set(shown.map((p) => p['updated_at'])).size).toBe(5);
    });

    it('announces a supplier a sync deletes as GET showed it last, and nothing for creates, changes, absent or refused deletes', async () => {
      const syncSuppliers = (suppliers: Body[]) =>
        request(t.server).post('/production/suppliers/sync').set(brand.headers).send({ suppliers });
      const created = await syncSuppliers([
        { supplier_number: 'S-1', name: 'Mill', currency: 'EUR', email: 'orders@mill.example' },
        { supplier_number: 'S-2', name: 'Dyer', currency: 'EUR' },
      ]);
      expect(created.status).toBe(200);
      const [s1] = (created.body.suppliers as { id: number }[]).map((s) => s.id);
      expect((await syncSuppliers([{ supplier_number: 'S-1', name: 'Mill & Co' }])).status).toBe(200);
      const shown = async (id: number) => request(t.server).get(`/v10/suppliers/${id}`).set(brand.headers);
      const shownLast = (await shown(s1!)).body.supplier as Body;

      t.clock.advance(MINUTE);
      const refused = await syncSuppliers([
        { supplier_number: 'S-1', delete: true },
        { supplier_number: 'S-3', name: 'No currency' },
      ]);
      expect(refused.status).toBe(422);
      expect(await eventsOf('supplier.')).toEqual([]);
      const deleted = await syncSuppliers([
        { supplier_number: 'S-1', delete: true },
        { supplier_number: 'S-9', delete: true },
      ]);
      expect((deleted.body.suppliers as Body[]).map((s) => s['action'])).toEqual(['deleted', 'absent']);
      expect((await shown(s1!)).status).toBe(404);

      expect(await eventsOf('supplier.')).toEqual([event('supplier.deleted', shownLast, t.clock.now())]);
      expect(shownLast).toMatchObject({ name: 'Mill & Co', email: 'orders@mill.example' });
    });

    it('announces a product deleted through the older interface or the product sync as GET /v10 showed it last; nothing for refused or rolled-back deletes', async () => {
      const api = legacyClient(t.app, brand);
      const created = await api.post('/api/products', {
        product: legacyProduct('JKT', [legacyVariant('JKT-M', { size: 'M' }), legacyVariant('JKT-L', { size: 'L' })]),
      });
      expect(created.status).toBe(201);
      const jacket = created.body.id as number;
      const synced = await syncProducts([syncedProduct('TEE'), syncedProduct('CAP')]);
      const [tee, cap] = (synced.body.products as { id: number }[]).map((p) => p.id);
      // As GET showed them last, with their variants (deleted with them).
      const [jacketShown, teeShown] = [
        await productShown(jacket, ['variants']),
        await productShown(tee!, ['variants']),
      ];

      t.clock.advance(MINUTE);
      expect((await api.delete('/api/products/999999')).status).toBe(404);
      const failing = storageFailingBeforeCommit(t.storage);
      const server = await listenOnLoopback(buildApp(failing.storage, t.clock));
      try {
        failing.failNext('products');
        const rolledBack = await request(server).delete(`/api/products/${jacket}`).set(legacyHeaders(brand));
        expect(rolledBack.status).toBe(500);
      } finally {
        await closeServer(server);
      }
      expect(await productShown(jacket, ['variants'])).toEqual(jacketShown);
      expect(await eventsOfType('product.deleted')).toEqual([]);

      expect((await api.delete(`/api/products/${jacket}`)).status).toBe(204);
      const deletedAt = t.clock.now();
      expect((await api.delete(`/api/products/${jacket}`)).status).toBe(404);
      t.clock.advance(MINUTE);
      const refused = await syncProducts([
        { item_number: 'TEE', delete: true },
        { item_number: 'NEW', name: 'Without variants' },
      ]);
      expect(refused.status).toBe(422);
      const deleted = await syncProducts([
        { item_number: 'TEE', delete: true },
        { item_number: 'NONE', delete: true },
      ]);
      expect((deleted.body.products as Body[]).map((p) => p['action'])).toEqual(['deleted', 'absent']);
      expect((await request(t.server).get(`/v10/products/${tee}`).set(brand.headers)).status).toBe(404);

      expect(await eventsOfType('product.deleted')).toEqual([
        event('product.deleted', jacketShown, deletedAt),
        event('product.deleted', teeShown, t.clock.now()),
      ]);
      expect((jacketShown['variants'] as Body[]).map((v) => v['sku'])).toEqual(['JKT-M', 'JKT-L']);
      expect(await productShown(cap!)).toMatchObject({ item_number: 'CAP' });
    });

    it('announces each product a deleted category detaches, as GET shows it afterwards', async () => {
      const api = legacyClient(t.app, brand);
      const created = await syncProducts([
        syncedProduct('TEE', {
          categories_sync_mode: 'replace',
          categories: [
            { top_category: 'Tops', sub_category: 'Tees', create_if_missing: true },
            { top_category: 'Basics', create_if_missing: true },
          ],
        }),
        syncedProduct('TOTE', {
          categories_sync_mode: 'replace',
          categories: [{ top_category: 'Basics', create_if_missing: true }],
        }),
      ]);
      const [tee, tote] = (created.body.products as { id: number }[]).map((p) => p.id);
      const before = await productShown(tee!);
      const tops = ((await api.get('/api/categories')).body.categories as Body[]).find((c) => c['name'] === 'Tops')!;

      t.clock.advance(MINUTE);
      expect((await api.delete(`/api/categories/${tops['id'] as number}`)).status).toBe(204);
      const after = await productShown(tee!);
      expect((after['category_ids'] as number[]).length).toBe((before['category_ids'] as number[]).length - 1);

      const updates = await eventsOfType('product.updated');
      expect(updates).toEqual([event('product.updated', after, t.clock.now())]);
      expect(updates.map((e) => e.data.object['id'])).not.toContain(tote);
    });
  });
}
