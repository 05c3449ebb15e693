import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { listEvents } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely';
import { DEFAULT_CONFIG } from '../src/config';
import { address, newCustomer } from './support/customers';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';
import { ImageServer, startImageServer } from './images/support/image-server';
import { legacyClient, legacyProduct, legacyVariant } from './legacy/legacy-support';

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

    /** A product as `GET /v10/products/{id}` shows it. */
    async function productShown(id: number): Promise<Body> {
      const response = await request(t.server).get(`/v10/products/${id}`).set(brand.headers);
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

    it('announces customers a sync creates or changes as GET shows them, and nothing for unchanged, deleted or refused ones', async () => {
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
      const deleted = await syncCustomers([{ customer_number: 'C-2', delete: true }]);
      expect(deleted.body.customers[0].action).toBe('deleted');

      expect(await eventsOf('customer.')).toEqual([
        event('customer.created', shownCreated[0]!, createdAt),
        event('customer.created', shownCreated[1]!, createdAt),
        event('customer.updated', shownChanged[0]!, new Date(Date.parse(createdAt) + 2 * MINUTE).toISOString()),
        event('customer.updated', shownChanged[1]!, new Date(Date.parse(createdAt) + 2 * MINUTE).toISOString()),
      ]);
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
