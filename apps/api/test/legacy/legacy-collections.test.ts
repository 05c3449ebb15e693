import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { syncCustomers } from '../support/customers';
import { Integrator, createIntegrator } from '../support/integrator';
import { useTestApp } from '../support/test-app';
import { LegacyClient, legacyClient, legacyHeaders } from './legacy-support';

for (const dialect of testDialects()) {
  describe(`older interface: collections [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;
    let api: LegacyClient;

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
      api = legacyClient(t.app, brand);
    });

    it('creates a collection visible to every customer of the brand by default and reads it back', async () => {
      const created = await api.post('/api/collections', { collection: { title: 'Spring 2026' } });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        brand_id: brand.brandId,
        active: true,
        title: 'Spring 2026',
        visibility: 'own_entity',
        allowed_customers: [],
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      });
      expect((await api.get(`/api/collections/${created.body.id}`)).body).toEqual({ collection: created.body });
      expect((await api.get('/api/collections')).body).toEqual({ total: 1, collections: [created.body] });
    });

    it('creates a collection for chosen customers of the brand', async () => {
      const synced = await syncCustomers(t.app, brand, [{ customer_number: 'C-1', name: 'Shop', currency: 'EUR' }]);
      const customerId = synced.customers[0]!.id;
      const created = await api.post('/api/collections', {
        collection: { title: 'VIP', active: false, visibility: 'customers_custom', allowed_customers: [customerId] },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        title: 'VIP',
        active: false,
        visibility: 'customers_custom',
        allowed_customers: [customerId],
      });
      expect((await api.get(`/api/collections/${created.body.id}`)).body.collection).toEqual(created.body);
    });

    it('refuses customers of another brand, unknown visibilities and a missing title', async () => {
      const other = await createIntegrator(t.storage, t.clock);
      const theirs = (await syncCustomers(t.app, other, [{ customer_number: 'C-1', name: 'Shop', currency: 'EUR' }]))
        .customers[0]!.id;

      const foreign = await api.post('/api/collections', {
        collection: { title: 'VIP', visibility: 'customers_custom', allowed_customers: [theirs] },
      });
      expect(foreign.status).toBe(422);
      expect(foreign.body.errors).toEqual([
        expect.objectContaining({ code: 'validation_failed', source: { pointer: '/collection/allowed_customers/0' } }),
      ]);

      const visibility = await api.post('/api/collections', { collection: { title: 'X', visibility: 'everyone' } });
      expect(visibility.status).toBe(422);
      expect(visibility.body.errors[0].source).toEqual({ pointer: '/collection/visibility' });

      const untitled = await api.post('/api/collections', { collection: { active: true } });
      expect(untitled.status).toBe(422);
      expect(untitled.body.errors[0].source).toEqual({ pointer: '/collection/title' });
      expect((await api.get('/api/collections')).body.total).toBe(0);
    });

    it('filters and pages the collection list', async () => {
      for (const title of ['Spring', 'Summer', 'Winter']) await api.post('/api/collections', { collection: { title } });
      const filtered = await api.get(
        '/api/collections?filter_groups[0][filters][0][key]=title&filter_groups[0][filters][0][operator]=sw&filter_groups[0][filters][0][value]=s&limit=1&page=1',
      );
      expect(filtered.status).toBe(200);
      expect(filtered.body.total).toBe(2);
      expect(filtered.body.collections.map((c: { title: string }) => c.title)).toEqual(['Summer']);
    });

    it("answers 404 for another brand's collection", async () => {
      const other = legacyClient(t.app, await createIntegrator(t.storage, t.clock));
      const theirs = (await other.post('/api/collections', { collection: { title: 'Theirs' } })).body;
      expect((await api.get(`/api/collections/${theirs.id}`)).status).toBe(404);
      expect((await api.get('/api/collections')).body).toEqual({ total: 0, collections: [] });
    });

    it('has no collection update or delete (405)', async () => {
      const created = (await api.post('/api/collections', { collection: { title: 'Spring' } })).body;
      const response = await request(t.server).delete(`/api/collections/${created.id}`).set(legacyHeaders(brand));
      expect(response.status).toBe(405);
      expect(response.headers['allow']).toBe('GET, HEAD, OPTIONS');
    });
  });
}
