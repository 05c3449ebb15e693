import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from '../support/integrator';
import { useTestApp } from '../support/test-app';
import {
  APP_IDENTIFIER,
  LegacyClient,
  amendProduct,
  createLegacyProduct,
  legacyClient,
  legacyHeaders,
  legacyProduct,
} from './legacy-support';

for (const dialect of testDialects()) {
  describe(`older interface: categories [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;
    let api: LegacyClient;

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
      api = legacyClient(t.app, brand);
    });

    const category = (name: string, extra: Record<string, unknown> = {}) => ({
      id: expect.any(Number),
      brand_id: brand.brandId,
      parent: null,
      name,
      created_at: t.clock.now(),
      updated_at: t.clock.now(),
      ...extra,
    });

    it('creates a top category, answering with the bare object, and reads it back', async () => {
      const created = await api.post('/api/categories', { category: { name: 'Shoes' } });
      expect(created.status).toBe(201);
      expect(created.body).toEqual(category('Shoes'));

      const read = await api.get(`/api/categories/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ category: created.body });
    });

    it('creates a subcategory under a top category and shows it as a child', async () => {
      const shoes = (await api.post('/api/categories', { category: { name: 'Shoes' } })).body;
      const boots = await api.post(`/api/categories/${shoes.id}/categories`, { category: { name: 'Boots' } });
      expect(boots.status).toBe(201);
      expect(boots.body).toEqual(category('Boots', { parent: shoes.id }));

      const read = await api.get(`/api/categories/${shoes.id}?includes[]=children`);
      expect(read.body.category).toEqual({ ...shoes, children: [boots.body] });
      const tops = await api.get(
        '/api/categories?filter_groups[0][filters][0][key]=parent&filter_groups[0][filters][0][value]=null&includes[]=children',
      );
      expect(tops.body).toEqual({ total: 1, categories: [{ ...shoes, children: [boots.body] }] });
    });

    it('refuses a subcategory of a subcategory with 422', async () => {
      const shoes = (await api.post('/api/categories', { category: { name: 'Shoes' } })).body;
      const boots = (await api.post(`/api/categories/${shoes.id}/categories`, { category: { name: 'Boots' } })).body;
      const response = await api.post(`/api/categories/${boots.id}/categories`, { category: { name: 'Chelsea' } });
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          status: 422,
          code: 'validation_failed',
          detail: expect.stringContaining('subcategories cannot have subcategories'),
        }),
      ]);
      expect((await api.get('/api/categories')).body.total).toBe(2);
    });

    it('refuses a name and parent combination that exists, in any letter case, with code 40001', async () => {
      const shoes = (await api.post('/api/categories', { category: { name: 'Shoes' } })).body;
      await api.post(`/api/categories/${shoes.id}/categories`, { category: { name: 'Boots' } });

      const top = await api.post('/api/categories', { category: { name: 'sHOES' } });
      const sub = await api.post(`/api/categories/${shoes.id}/categories`, { category: { name: 'BOOTS' } });

      for (const response of [top, sub]) {
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          {
            status: 422,
            code: 40001,
            title: 'Duplicate',
            detail: expect.stringContaining('already exists'),
            source: { pointer: '/category/name' },
          },
        ]);
      }
      expect((await api.get('/api/categories')).body.total).toBe(2);
      // Another parent makes another combination.
      expect((await api.post(`/api/categories/${shoes.id}/categories`, { category: { name: 'Shoes' } })).status).toBe(
        201,
      );
    });

    it('lets exactly one of several parallel creations of the same name win; the others get 40001', async () => {
      const responses = await Promise.all(
        ['Shoes', 'SHOES', 'shoes', 'Shoes', 'sHoEs'].map((name) =>
          api.post('/api/categories', { category: { name } }),
        ),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422]);
      expect(responses.filter((r) => r.status === 422).map((r) => r.body.errors[0].code)).toEqual([
        40001, 40001, 40001, 40001,
      ]);
      expect((await api.get('/api/categories')).body.total).toBe(1);
    });

    it('renames a category with PUT and refuses a name taken under the same parent with 40001', async () => {
      const shoes = (await api.post('/api/categories', { category: { name: 'Shoes' } })).body;
      await api.post('/api/categories', { category: { name: 'Bags' } });
      t.clock.advance(60_000);

      const renamed = await api.put(`/api/categories/${shoes.id}`, { category: { name: 'Footwear' } });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ ...shoes, name: 'Footwear', updated_at: t.clock.now() });
      expect((await api.get(`/api/categories/${shoes.id}`)).body.category).toEqual(renamed.body);

      const taken = await api.put(`/api/categories/${shoes.id}`, { category: { name: 'BAGS' } });
      expect(taken.status).toBe(422);
      expect(taken.body.errors[0].code).toBe(40001);
      expect((await api.get(`/api/categories/${shoes.id}`)).body.category.name).toBe('Footwear');
    });

    it('deletes a category with its subcategories and detaches their products without deleting them', async () => {
      const shoes = (await api.post('/api/categories', { category: { name: 'Shoes' } })).body;
      const boots = (await api.post(`/api/categories/${shoes.id}/categories`, { category: { name: 'Boots' } })).body;
      const bags = (await api.post('/api/categories', { category: { name: 'Bags' } })).body;
      const product = await createLegacyProduct(api, legacyProduct('P-1'));
      await amendProduct(t.storage, brand.brandId, product.id, (a) => ({
        ...a,
        product: { ...a.product, categoryIds: [boots.id, bags.id] },
      }));

      const deleted = await api.delete(`/api/categories/${shoes.id}`);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');

      expect((await api.get(`/api/categories/${shoes.id}`)).status).toBe(404);
      expect((await api.get(`/api/categories/${boots.id}`)).status).toBe(404);
      expect((await api.get('/api/categories')).body).toEqual({ total: 1, categories: [bags] });
      const kept = await api.get(`/api/products/${product.id}?includes[]=categories`);
      expect(kept.status).toBe(200);
      expect(kept.body.product.categories).toEqual([{ ...bags }]);
    });

    it('includes the products of each category', async () => {
      const shoes = (await api.post('/api/categories', { category: { name: 'Shoes' } })).body;
      const bags = (await api.post('/api/categories', { category: { name: 'Bags' } })).body;
      const product = await createLegacyProduct(api, legacyProduct('P-1'));
      await amendProduct(t.storage, brand.brandId, product.id, (a) => ({
        ...a,
        product: { ...a.product, categoryIds: [shoes.id] },
      }));

      const listed = await api.get('/api/categories?includes[]=products');
      const { inventory: _inventory, ...variant } = (product.variants as Record<string, unknown>[])[0]!;
      expect(listed.body).toEqual({
        total: 2,
        categories: [
          { ...shoes, products: [{ ...product, variants: [variant] }] },
          { ...bags, products: [] },
        ],
      });
    });

    it('pages with page and limit, sorts, and refuses cursors and unknown includes', async () => {
      for (const name of ['A', 'B', 'C']) await api.post('/api/categories', { category: { name } });
      const page = await api.get('/api/categories?limit=2&page=1&sort[0][key]=name&sort[0][direction]=DESC');
      expect(page.status).toBe(200);
      expect(page.body).toEqual({ total: 3, categories: [category('A')] });

      const cursor = await api.get('/api/categories?starting_after=1');
      expect(cursor.status).toBe(422);
      expect(cursor.body.errors[0]).toMatchObject({
        code: 'invalid_list_query',
        source: { parameter: 'starting_after' },
      });
      const include = await api.get('/api/categories?includes[]=parent');
      expect(include.status).toBe(422);
      expect(include.body.errors[0].source).toEqual({ parameter: 'includes[0]', pointer: '/includes/0' });
    });

    it('refuses a body without a category name with 422 pointing at it', async () => {
      const missing = await api.post('/api/categories', { name: 'Shoes' });
      expect(missing.status).toBe(422);
      expect(missing.body.errors).toEqual([
        expect.objectContaining({ code: 'validation_failed', source: { pointer: '/category' } }),
      ]);
      const blank = await api.post('/api/categories', { category: { name: '  ' } });
      expect(blank.status).toBe(422);
      expect(blank.body.errors).toEqual([
        expect.objectContaining({ source: { pointer: '/category/name' }, detail: 'category.name must not be empty' }),
      ]);
      expect((await api.get('/api/categories')).body.total).toBe(0);
    });

    it("answers 404 for another brand's category on every category route", async () => {
      const other = legacyClient(t.app, await createIntegrator(t.storage, t.clock));
      const theirs = (await other.post('/api/categories', { category: { name: 'Shoes' } })).body;

      const responses = [
        await api.get(`/api/categories/${theirs.id}`),
        await api.put(`/api/categories/${theirs.id}`, { category: { name: 'Mine' } }),
        await api.delete(`/api/categories/${theirs.id}`),
        await api.post(`/api/categories/${theirs.id}/categories`, { category: { name: 'Boots' } }),
        await api.get('/api/categories/not-a-number'),
      ];
      expect(responses.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
      expect(responses[0]!.body.errors[0]).toMatchObject({ status: 404, code: 'not_found' });
      expect((await other.get(`/api/categories/${theirs.id}`)).body.category.name).toBe('Shoes');
      expect((await api.get('/api/categories')).body).toEqual({ total: 0, categories: [] });
    });

    it('needs catalog:read to read and catalog:write to write', async () => {
      const reader = legacyClient(t.app, await createIntegrator(t.storage, t.clock, { scopes: ['catalog:read'] }));
      const writer = legacyClient(t.app, await createIntegrator(t.storage, t.clock, { scopes: ['catalog:write'] }));
      const refused = await reader.post('/api/categories', { category: { name: 'Shoes' } });
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].meta.missing_scopes).toEqual(['catalog:write']);
      expect((await writer.get('/api/categories')).status).toBe(403);
      expect((await reader.get('/api/categories')).status).toBe(200);
    });

    it('answers 400 without X-ServiceAppIdentifier and 415 to a body that is not JSON', async () => {
      const anonymous = await request(t.server)
        .post('/api/categories')
        .set('Authorization', brand.headers.Authorization)
        .send({ category: { name: 'Shoes' } });
      expect(anonymous.status).toBe(400);
      expect(anonymous.body.errors[0]).toMatchObject({ code: 'missing_app_identifier' });
      const form = await request(t.server)
        .post('/api/categories')
        .set(legacyHeaders(brand))
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('category[name]=Shoes');
      expect(form.status).toBe(415);
      expect((await api.get('/api/categories')).body.total).toBe(0);
    });

    it('answers 405 with Allow for a method a category path does not have', async () => {
      const response = await request(t.server)
        .patch('/api/categories/1')
        .set(legacyHeaders(brand))
        .set('X-ServiceAppIdentifier', APP_IDENTIFIER)
        .send({});
      expect(response.status).toBe(405);
      expect(response.headers['allow']).toBe('GET, HEAD, PUT, DELETE, OPTIONS');
    });
  });
}
