import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

for (const dialect of testDialects()) {
  describe(`catalog back office [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    const get = (who: Integrator, path: string) => request(t.server).get(path).set(who.headers);
    const post = (who: Integrator, path: string, body: unknown) =>
      request(t.server)
        .post(path)
        .set(who.headers)
        .send(body as object);

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
    });

    describe('drops', () => {
      it('creates a drop and lists it', async () => {
        const created = await post(brand, '/v10/drops', { code: 'SS27', name: 'Spring/Summer 2027' });
        expect(created.status).toBe(201);
        expect(created.body).toEqual({
          drop: {
            id: expect.any(Number),
            code: 'SS27',
            name: 'Spring/Summer 2027',
            created_at: t.clock.now(),
            updated_at: t.clock.now(),
          },
        });
        const listed = await get(brand, '/v10/drops');
        expect(listed.body).toEqual({ drops: [created.body.drop], has_more: false, next_cursor: null, total: 1 });
      });

      it('refuses a code the brand already uses, and keeps the first drop only', async () => {
        const first = await post(brand, '/v10/drops', { code: 'AW26', name: 'Autumn' });
        const again = await post(brand, '/v10/drops', { code: 'AW26', name: 'Winter' });
        expect(again.status).toBe(422);
        expect(again.body.errors).toEqual([
          expect.objectContaining({ code: 'duplicate', source: { pointer: '/code' } }),
        ]);
        expect((await get(brand, '/v10/drops')).body.drops).toEqual([first.body.drop]);
        // Another brand may use the same code.
        const other = await createIntegrator(t.storage, t.clock);
        expect((await post(other, '/v10/drops', { code: 'AW26', name: 'Theirs' })).status).toBe(201);
        expect((await get(other, '/v10/drops')).body.drops.map((d: { name: string }) => d.name)).toEqual(['Theirs']);
      });

      it('creates one drop when the same code is sent concurrently, and refuses the others', async () => {
        const responses = await Promise.all(
          [1, 2, 3, 4].map((n) => post(brand, '/v10/drops', { code: 'RACE', name: `Attempt ${n}` })),
        );
        expect(responses.map((r) => r.status).sort()).toEqual([201, 422, 422, 422]);
        expect(responses.filter((r) => r.status === 422).map((r) => r.body.errors[0].code)).toEqual([
          'duplicate',
          'duplicate',
          'duplicate',
        ]);
        expect((await get(brand, '/v10/drops')).body.total).toBe(1);
      });

      it('refuses a drop without code and name, naming both', async () => {
        const response = await post(brand, '/v10/drops', { name: null });
        expect(response.status).toBe(422);
        expect(response.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
          '/code',
          '/name',
        ]);
      });

      it('filters drops by code', async () => {
        await post(brand, '/v10/drops', { code: 'SS27', name: 'Spring' });
        const aw = await post(brand, '/v10/drops', { code: 'AW27', name: 'Autumn' });
        const found = await get(
          brand,
          '/v10/drops?filter_groups[0][filters][0][key]=code&filter_groups[0][filters][0][operator]=sw&filter_groups[0][filters][0][value]=aw',
        );
        expect(found.body.drops).toEqual([aw.body.drop]);
      });
    });

    describe('product locales', () => {
      it('creates locales, lists them, and refuses a code twice', async () => {
        const german = await post(brand, '/v10/product-locales', { code: 'de', name: 'German' });
        expect(german.status).toBe(201);
        expect(german.body).toEqual({ product_locale: { id: expect.any(Number), code: 'de', name: 'German' } });
        const british = await post(brand, '/v10/product-locales', { code: 'en-GB', name: 'English (UK)' });
        const twice = await post(brand, '/v10/product-locales', { code: 'de', name: 'Deutsch' });
        expect(twice.status).toBe(422);
        expect(twice.body.errors[0]).toMatchObject({ code: 'duplicate', source: { pointer: '/code' } });

        const listed = await get(brand, '/v10/product-locales');
        expect(listed.body).toEqual({
          product_locales: [german.body.product_locale, british.body.product_locale],
          has_more: false,
          next_cursor: null,
          total: 2,
        });
        const first = await get(brand, '/v10/product-locales?limit=1');
        expect(first.body).toMatchObject({ product_locales: [german.body.product_locale], has_more: true, total: 2 });
        const second = await get(
          brand,
          `/v10/product-locales?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`,
        );
        expect(second.body).toEqual({
          product_locales: [british.body.product_locale],
          has_more: false,
          next_cursor: null,
        });
      });

      it('refuses a code with spaces', async () => {
        const response = await post(brand, '/v10/product-locales', { code: 'en GB', name: 'English' });
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([expect.objectContaining({ source: { pointer: '/code' } })]);
      });

      it("keeps another brand's locales out of sight", async () => {
        await post(brand, '/v10/product-locales', { code: 'sv', name: 'Swedish' });
        const other = await createIntegrator(t.storage, t.clock);
        expect((await get(other, '/v10/product-locales')).body).toEqual({
          product_locales: [],
          has_more: false,
          next_cursor: null,
          total: 0,
        });
      });
    });

    describe('sub-brands', () => {
      it('creates a sub-brand', async () => {
        const created = await post(brand, '/v10/subbrands', { name: 'Kids' });
        expect(created.status).toBe(201);
        expect(created.body).toEqual({
          subbrand: { id: expect.any(Number), name: 'Kids', created_at: t.clock.now(), updated_at: t.clock.now() },
        });
        const stored = await t.storage.uow.read((r) =>
          r.subbrands.findByIds(brand.brandId, [created.body.subbrand.id]),
        );
        expect(stored.map((s) => s.name)).toEqual(['Kids']);
      });

      it('refuses a sub-brand without a name', async () => {
        const response = await post(brand, '/v10/subbrands', {});
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([expect.objectContaining({ source: { pointer: '/name' } })]);
      });
    });

    it('needs catalog:write to create drops, locales and sub-brands, and catalog:read to list', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['catalog:read'] });
      for (const [path, body] of [
        ['/v10/drops', { code: 'X', name: 'X' }],
        ['/v10/product-locales', { code: 'x', name: 'X' }],
        ['/v10/subbrands', { name: 'X' }],
      ] as const) {
        const response = await post(reader, path, body);
        expect(response.status).toBe(403);
        expect(response.body.errors[0].meta.missing_scopes).toEqual(['catalog:write']);
      }
      const writer = await createIntegrator(t.storage, t.clock, { scopes: ['catalog:write'] });
      for (const path of ['/v10/drops', '/v10/product-locales']) expect((await get(writer, path)).status).toBe(403);
      expect((await get(reader, '/v10/drops')).status).toBe(200);
    });
  });
}
