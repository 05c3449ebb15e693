import request from 'supertest';
import { createInventoryLocation, createSubbrand } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from '../support/integrator';
import { useTestApp } from '../support/test-app';
import {
  LegacyClient,
  amendProduct,
  appWithOrders,
  createLegacyProduct,
  legacyClient,
  legacyHeaders,
  legacyProduct,
  legacyVariant,
} from './legacy-support';

for (const dialect of testDialects()) {
  describe(`older interface: products and variants [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;
    let api: LegacyClient;

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
      api = legacyClient(t.app, brand);
    });

    /** Every product of the brand, read through the list. */
    const allProducts = async () =>
      (await api.get('/api/products?limit=100')).body as {
        total: number;
        products: { item_number: string; variants: { sku: string }[] }[];
      };

    describe('creating a product', () => {
      it('creates a product with variants, prices and stock and answers with the product object', async () => {
        const collection = (await api.post('/api/collections', { collection: { title: 'Spring' } })).body;
        const response = await api.post('/api/products', {
          product: {
            item_number: 'JKT-1',
            name: 'Rain jacket',
            description: 'Waterproof',
            collection_id: collection.id,
            image: 'https://cdn.example/jkt-1.jpg',
            images: ['https://cdn.example/jkt-1-back.jpg'],
            active: false,
            colli: 6,
            variants: [
              legacyVariant(
                'JKT-1-RED-M',
                { color: 'Red', size: 'M' },
                {
                  ean: 5701234567890,
                  picture: 'https://cdn.example/red.jpg',
                  prices: {
                    EUR: { sales_price: 40, rec_sales_price: 99.95, offer_price: 35.5 },
                    SEK: { sales_price: 450, rec_sales_price: 1099 },
                  },
                  inventory: { stock: { quantity: 12, delivery: null } },
                },
              ),
              legacyVariant('JKT-1-RED-L', { size: 'L', color: 'Red' }),
            ],
          },
        });

        expect(response.status).toBe(201);
        const now = t.clock.now();
        const variantBase = {
          entity_id: brand.brandId,
          product_id: response.body.id,
          created_at: now,
          updated_at: now,
        };
        expect(response.body).toEqual({
          id: expect.any(Number),
          brand_id: brand.brandId,
          subbrand_id: null,
          collection_id: collection.id,
          item_number: 'JKT-1',
          name: 'Rain jacket',
          description: 'Waterproof',
          image: 'https://cdn.example/jkt-1.jpg',
          images: ['https://cdn.example/jkt-1-back.jpg'],
          active: false,
          colli: 6,
          attributes: ['color', 'size'],
          created_at: now,
          updated_at: now,
          variants: [
            {
              ...variantBase,
              id: expect.any(Number),
              sku: 'JKT-1-RED-M',
              picture: 'https://cdn.example/red.jpg',
              ean: 5701234567890,
              attributes: { color: 'Red', size: 'M' },
              prices: {
                EUR: { sales_price: 40, rec_sales_price: 99.95, offer_price: 35.5 },
                SEK: { sales_price: 450, rec_sales_price: 1099, offer_price: null },
              },
              inventory: { stock: { quantity: 12, available: 12 } },
            },
            {
              ...variantBase,
              id: expect.any(Number),
              sku: 'JKT-1-RED-L',
              picture: null,
              ean: null,
              attributes: { color: 'Red', size: 'L' },
              prices: { EUR: { sales_price: 20, rec_sales_price: 49.95, offer_price: null } },
              inventory: {},
            },
          ],
        });

        const read = await api.get(`/api/products/${response.body.id}?includes[]=variants.inventory`);
        expect(read.status).toBe(200);
        expect(read.body).toEqual({ product: response.body });
        const plain = await api.get(`/api/products/${response.body.id}`);
        expect(plain.body.product.variants[0]).not.toHaveProperty('inventory');
      });

      it('sets stock at a named inventory location and refuses stock types that name none', async () => {
        await createInventoryLocation(
          { uow: t.storage.uow, clock: t.clock },
          { brandId: brand.brandId, name: 'Main warehouse' },
        );
        await createInventoryLocation(
          { uow: t.storage.uow, clock: t.clock },
          { brandId: brand.brandId, name: 'Outlet' },
        );
        const created = await createLegacyProduct(
          api,
          legacyProduct('P-1', [
            legacyVariant('S-1', undefined, {
              inventory: { default: { quantity: 2 }, Outlet: { quantity: 5, delivery: '2026-04-01' } },
            }),
          ]),
        );
        expect(created.variants[0]).toMatchObject({
          inventory: { stock: { quantity: 2, available: 2 }, Outlet: { quantity: 5, available: 5 } },
        });

        const unknown = await api.post('/api/products', {
          product: legacyProduct('P-2', [
            legacyVariant('S-2', undefined, { inventory: { incoming: { quantity: 1, delivery: null } } }),
          ]),
        });
        expect(unknown.status).toBe(422);
        expect(unknown.body.errors).toEqual([
          expect.objectContaining({
            code: 'validation_failed',
            source: { pointer: '/product/variants/0/inventory/incoming' },
          }),
        ]);
        const negative = await api.post('/api/products', {
          product: legacyProduct('P-3', [legacyVariant('S-3', undefined, { inventory: { stock: { quantity: -1 } } })]),
        });
        expect(negative.body.errors[0].source).toEqual({ pointer: '/product/variants/0/inventory/stock/quantity' });
        expect((await allProducts()).total).toBe(1);
      });

      it('refuses variants whose attributes differ with code 1000001', async () => {
        const response = await api.post('/api/products', {
          product: legacyProduct('P-1', [
            legacyVariant('S-1', { color: 'Red' }),
            legacyVariant('S-2', { color: 'Red', size: 'M' }),
          ]),
        });
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          {
            status: 422,
            code: 1000001,
            title: 'Validation error',
            detail: expect.stringContaining('same attributes'),
            source: { pointer: '/product/variants/1/attributes' },
          },
        ]);
        expect((await allProducts()).total).toBe(0);
      });

      it('refuses an item number another product has with code 1000002', async () => {
        await createLegacyProduct(api, legacyProduct('P-1'));
        const response = await api.post('/api/products', { product: legacyProduct('P-1', [legacyVariant('S-9')]) });
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          expect.objectContaining({ code: 1000002, title: 'Duplicate', source: { pointer: '/product/item_number' } }),
        ]);
        expect((await allProducts()).products.map((p) => p.variants.map((v) => v.sku))).toEqual([['P-1-1']]);
      });

      it('refuses a SKU that exists, or repeats in the request, with code 1000003', async () => {
        await createLegacyProduct(api, legacyProduct('P-1'));
        const taken = await api.post('/api/products', { product: legacyProduct('P-2', [legacyVariant('P-1-1')]) });
        const repeated = await api.post('/api/products', {
          product: legacyProduct('P-3', [legacyVariant('S-3'), legacyVariant('S-3', { color: 'Blue', size: 'M' })]),
        });
        expect(taken.status).toBe(422);
        expect(taken.body.errors).toEqual([
          expect.objectContaining({ code: 1000003, source: { pointer: '/product/variants/0/sku' } }),
        ]);
        expect(repeated.body.errors).toEqual([
          expect.objectContaining({ code: 1000003, source: { pointer: '/product/variants/1/sku' } }),
        ]);
        expect((await allProducts()).total).toBe(1);
      });

      it('lets exactly one of several parallel creations with the same SKU win; the others get 1000003', async () => {
        const responses = await Promise.all(
          [1, 2, 3, 4].map((n) =>
            api.post('/api/products', { product: legacyProduct(`P-${n}`, [legacyVariant('SHARED-SKU')]) }),
          ),
        );
        expect(responses.map((r) => r.status).sort()).toEqual([201, 422, 422, 422]);
        expect(responses.filter((r) => r.status === 422).map((r) => r.body.errors[0].code)).toEqual([
          1000003, 1000003, 1000003,
        ]);
        expect((await allProducts()).total).toBe(1);
      });

      it("refuses a variant without a price in the brand's base currency, without attributes, or without variants", async () => {
        const noBase = await api.post('/api/products', {
          product: legacyProduct('P-1', [legacyVariant('S-1', undefined, { prices: { USD: { sales_price: 10 } } })]),
        });
        expect(noBase.status).toBe(422);
        expect(noBase.body.errors).toEqual([
          expect.objectContaining({
            code: 'validation_failed',
            source: { pointer: '/product/variants/0/prices' },
            detail: expect.stringContaining('base currency EUR'),
          }),
        ]);
        const noAttributes = await api.post('/api/products', {
          product: legacyProduct('P-1', [legacyVariant('S-1', {})]),
        });
        expect(noAttributes.body.errors[0].source).toEqual({ pointer: '/product/variants/0/attributes' });
        const noVariants = await api.post('/api/products', { product: legacyProduct('P-1', []) });
        expect(noVariants.body.errors[0].source).toEqual({ pointer: '/product/variants' });
        const wrongTypes = await api.post('/api/products', {
          product: legacyProduct('P-1', [
            legacyVariant('S-1', { color: 1 } as never, { prices: { EUR: { sales_price: '10' } } }),
          ]),
        });
        expect(wrongTypes.body.errors.map((e: { source: unknown }) => e.source)).toEqual([
          { pointer: '/product/variants/0/attributes' },
          { pointer: '/product/variants/0/prices' },
        ]);
        expect((await allProducts()).total).toBe(0);
      });

      it('refuses a collection or sub-brand of another brand', async () => {
        const other = legacyClient(t.app, await createIntegrator(t.storage, t.clock));
        const theirs = (await other.post('/api/collections', { collection: { title: 'Theirs' } })).body;
        const response = await api.post('/api/products', {
          product: legacyProduct('P-1', undefined, { collection_id: theirs.id, subbrand_id: 999_999 }),
        });
        expect(response.status).toBe(422);
        expect(response.body.errors.map((e: { source: unknown }) => e.source)).toEqual([
          { pointer: '/product/subbrand_id' },
          { pointer: '/product/collection_id' },
        ]);
      });
    });

    describe('changing a product', () => {
      it('updates only the root fields with PUT and leaves the variants alone', async () => {
        const created = await createLegacyProduct(
          api,
          legacyProduct('P-1', undefined, { colli: 6, image: 'a.jpg', images: ['b.jpg'] }),
        );
        t.clock.advance(60_000);

        const response = await api.put(`/api/products/${created.id}`, {
          product: {
            item_number: 'P-1B',
            name: 'Renamed',
            description: null,
            image: null,
            images: [],
            active: false,
            colli: 12,
            variants: [legacyVariant('IGNORED')],
          },
        });

        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          ...created,
          item_number: 'P-1B',
          name: 'Renamed',
          description: null,
          image: null,
          images: [],
          active: false,
          colli: 12,
          updated_at: t.clock.now(),
        });
        const read = await api.get(`/api/products/${created.id}?includes[]=variants.inventory`);
        expect(read.body.product).toEqual(response.body);
      });

      it('refuses the item number of another product with 1000002', async () => {
        await createLegacyProduct(api, legacyProduct('P-1'));
        const second = await createLegacyProduct(api, legacyProduct('P-2'));
        const response = await api.put(`/api/products/${second.id}`, { product: { item_number: 'P-1' } });
        expect(response.status).toBe(422);
        expect(response.body.errors[0]).toMatchObject({ code: 1000002, source: { pointer: '/product/item_number' } });
        expect((await api.get(`/api/products/${second.id}`)).body.product.item_number).toBe('P-2');
      });

      it('deletes a product without orders and keeps one with orders', async () => {
        const kept = await createLegacyProduct(api, legacyProduct('P-1'));
        const gone = await createLegacyProduct(api, legacyProduct('P-2'));

        const refused = await legacyClient(appWithOrders(t.storage, t.clock), brand).delete(`/api/products/${kept.id}`);
        expect(refused.status).toBe(422);
        expect(refused.body.errors[0]).toMatchObject({
          code: 'has_dependents',
          detail: expect.stringContaining('orders'),
        });

        const deleted = await api.delete(`/api/products/${gone.id}`);
        expect(deleted.status).toBe(204);
        expect((await api.get(`/api/products/${gone.id}`)).status).toBe(404);
        expect((await allProducts()).products.map((p) => p.item_number)).toEqual(['P-1']);
      });
    });

    describe('variants', () => {
      it('adds a variant with the product attributes and answers with the variant object', async () => {
        const product = await createLegacyProduct(api, legacyProduct('P-1'));
        t.clock.advance(60_000);
        const response = await api.post(`/api/products/${product.id}/variants`, {
          variant: legacyVariant(
            'P-1-2',
            { color: 'Blue', size: 'M' },
            { ean: '0012345678905', inventory: { stock: { quantity: 3 } } },
          ),
        });
        expect(response.status).toBe(201);
        expect(response.body).toEqual({
          id: expect.any(Number),
          entity_id: brand.brandId,
          product_id: product.id,
          sku: 'P-1-2',
          picture: null,
          ean: 12345678905,
          attributes: { color: 'Blue', size: 'M' },
          prices: { EUR: { sales_price: 20, rec_sales_price: 49.95, offer_price: null } },
          inventory: { stock: { quantity: 3, available: 3 } },
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
        });
        const read = (await api.get(`/api/products/${product.id}?includes[]=variants.inventory`)).body.product;
        expect(read.variants.map((v: { sku: string }) => v.sku)).toEqual(['P-1-1', 'P-1-2']);
        expect(read.variants[1]).toEqual(response.body);
        expect(read.updated_at).toBe(t.clock.now());
      });

      it('refuses a variant with other attribute names (1000001) or a taken SKU (1000003)', async () => {
        const product = await createLegacyProduct(api, legacyProduct('P-1'));
        const names = await api.post(`/api/products/${product.id}/variants`, {
          variant: legacyVariant('P-1-2', { colour: 'Blue', size: 'M' }),
        });
        const sku = await api.post(`/api/products/${product.id}/variants`, {
          variant: legacyVariant('P-1-1', { color: 'Blue', size: 'M' }),
        });
        expect([names.status, names.body.errors[0].code]).toEqual([422, 1000001]);
        expect([sku.status, sku.body.errors[0].code]).toEqual([422, 1000003]);
        expect((await api.get(`/api/products/${product.id}`)).body.product.variants).toHaveLength(1);
      });

      it('changes attribute values, SKU, prices and stock with PUT, but not attribute names', async () => {
        const product = await createLegacyProduct(
          api,
          legacyProduct('P-1', [legacyVariant('P-1-1', undefined, { inventory: { stock: { quantity: 4 } } })]),
        );
        const variantId = product.variants[0]!.id;
        t.clock.advance(60_000);

        const response = await api.put(`/api/products/${product.id}/variants/${variantId}`, {
          variant: {
            sku: 'P-1-RED',
            attributes: { color: 'Crimson', size: 'M' },
            ean: null,
            prices: { EUR: { offer_price: 15 } },
            inventory: { stock: { quantity: 9 } },
          },
        });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({
          id: variantId,
          sku: 'P-1-RED',
          ean: null,
          attributes: { color: 'Crimson', size: 'M' },
          prices: { EUR: { sales_price: 20, rec_sales_price: 49.95, offer_price: 15 } },
          inventory: { stock: { quantity: 9, available: 9 } },
          updated_at: t.clock.now(),
        });
        expect(
          (await api.get(`/api/products/${product.id}?includes[]=variants.inventory`)).body.product.variants,
        ).toEqual([response.body]);

        const renamed = await api.put(`/api/products/${product.id}/variants/${variantId}`, {
          variant: { attributes: { colour: 'Red', size: 'M' } },
        });
        expect(renamed.status).toBe(422);
        expect(renamed.body.errors[0]).toMatchObject({ code: 1000001, source: { pointer: '/variant/attributes' } });
      });

      it('refuses the SKU of another variant on PUT with 1000003', async () => {
        await createLegacyProduct(api, legacyProduct('P-1'));
        const second = await createLegacyProduct(api, legacyProduct('P-2'));
        const response = await api.put(`/api/products/${second.id}/variants/${second.variants[0]!.id}`, {
          variant: { sku: 'P-1-1' },
        });
        expect(response.status).toBe(422);
        expect(response.body.errors[0]).toMatchObject({ code: 1000003, source: { pointer: '/variant/sku' } });
      });

      it('deletes a variant, but not the last one (1000005) and not one with orders', async () => {
        const product = await createLegacyProduct(
          api,
          legacyProduct('P-1', [legacyVariant('P-1-1'), legacyVariant('P-1-2', { color: 'Blue', size: 'M' })]),
        );
        const [first, second] = product.variants.map((v) => v.id);

        const ordered = await legacyClient(appWithOrders(t.storage, t.clock), brand).delete(
          `/api/products/${product.id}/variants/${first}`,
        );
        expect(ordered.status).toBe(422);
        expect(ordered.body.errors[0].code).toBe('has_dependents');

        expect((await api.delete(`/api/products/${product.id}/variants/${first}`)).status).toBe(204);
        const last = await api.delete(`/api/products/${product.id}/variants/${second}`);
        expect(last.status).toBe(422);
        expect(last.body.errors).toEqual([
          { status: 422, code: 1000005, title: 'Validation error', detail: expect.stringContaining('last variant') },
        ]);
        expect(
          (await api.get(`/api/products/${product.id}`)).body.product.variants.map((v: { sku: string }) => v.sku),
        ).toEqual(['P-1-2']);
      });

      it('answers 404 for a variant of another product', async () => {
        const one = await createLegacyProduct(api, legacyProduct('P-1'));
        const two = await createLegacyProduct(api, legacyProduct('P-2'));
        const response = await api.put(`/api/products/${two.id}/variants/${one.variants[0]!.id}`, {
          variant: { sku: 'X' },
        });
        expect(response.status).toBe(404);
        expect((await api.delete(`/api/products/${two.id}/variants/${one.variants[0]!.id}`)).status).toBe(404);
      });
    });

    describe('listing products', () => {
      it('includes categories, collection, sub-brand, tags and inventory when asked', async () => {
        const collection = (await api.post('/api/collections', { collection: { title: 'Spring' } })).body;
        const shoes = (await api.post('/api/categories', { category: { name: 'Shoes' } })).body;
        const kids = await createSubbrand(
          { uow: t.storage.uow, clock: t.clock },
          { brandId: brand.brandId, name: 'Kids' },
        );
        const product = await createLegacyProduct(
          api,
          legacyProduct('P-1', [legacyVariant('P-1-1', undefined, { inventory: { stock: { quantity: 2 } } })], {
            collection_id: collection.id,
            subbrand_id: kids.id,
          }),
        );
        await createLegacyProduct(api, legacyProduct('P-2'));
        await amendProduct(t.storage, brand.brandId, product.id, (a) => ({
          ...a,
          product: { ...a.product, categoryIds: [shoes.id], tags: ['sale'] },
        }));

        const response = await api.get(
          '/api/products?includes[]=categories&includes[]=collection&includes[]=subbrand&includes[]=tags&includes[]=variants.inventory',
        );

        expect(response.status).toBe(200);
        expect(response.body.total).toBe(2);
        const [first, second] = response.body.products;
        expect(first).toEqual({
          ...product,
          categories: [shoes],
          collection,
          subbrand: {
            id: kids.id,
            brand_id: brand.brandId,
            name: 'Kids',
            created_at: t.clock.now(),
            updated_at: t.clock.now(),
          },
          tags: ['sale'],
        });
        expect(second).toMatchObject({
          item_number: 'P-2',
          categories: [],
          collection: null,
          subbrand: null,
          tags: [],
          variants: [expect.objectContaining({ inventory: {} })],
        });
      });

      it('filters, sorts and pages products and refuses unknown includes', async () => {
        for (const n of ['A', 'B', 'C']) await createLegacyProduct(api, legacyProduct(`P-${n}`));
        const page = await api.get(
          '/api/products?sort[0][key]=item_number&sort[0][direction]=DESC&limit=2&page=0&filter_groups[0][filters][0][key]=item_number&filter_groups[0][filters][0][operator]=in&filter_groups[0][filters][0][value][]=P-A&filter_groups[0][filters][0][value][]=P-C',
        );
        expect(page.body.total).toBe(2);
        expect(page.body.products.map((p: { item_number: string }) => p.item_number)).toEqual(['P-C', 'P-A']);
        const unknown = await api.get('/api/products?includes[]=suppliers');
        expect(unknown.status).toBe(422);
        expect(unknown.body.errors[0].source.parameter).toBe('includes[0]');
      });

      it('walks a list split by color from page 0 until an empty page, each product once per color', async () => {
        await createLegacyProduct(
          api,
          legacyProduct('P-1', [
            legacyVariant('P-1-RED-M', { color: 'Red', size: 'M' }),
            legacyVariant('P-1-BLUE-M', { color: 'Blue', size: 'M' }),
            legacyVariant('P-1-RED-L', { color: 'Red', size: 'L' }),
          ]),
        );
        await createLegacyProduct(
          api,
          legacyProduct('P-2', [legacyVariant('P-2-GREEN-M', { color: 'Green', size: 'M' })]),
        );
        await createLegacyProduct(
          api,
          legacyProduct('P-3', [
            legacyVariant('P-3-BLACK-S', { color: 'Black', size: 'S' }),
            legacyVariant('P-3-WHITE-S', { color: 'White', size: 'S' }),
          ]),
        );

        const pages: { item_number: string; variants: { sku: string }[] }[][] = [];
        for (let page = 0; page < 10; page += 1) {
          const response = await api.get(`/api/products?split_by_attribute=color&limit=2&page=${page}`);
          expect(response.status).toBe(200);
          expect(response.body.total).toBe(3);
          if (response.body.products.length === 0) break;
          pages.push(response.body.products);
        }

        expect(pages.map((entries) => entries.map((p) => [p.item_number, p.variants.map((v) => v.sku)]))).toEqual([
          [
            ['P-1', ['P-1-RED-M', 'P-1-RED-L']],
            ['P-1', ['P-1-BLUE-M']],
            ['P-2', ['P-2-GREEN-M']],
          ],
          [
            ['P-3', ['P-3-BLACK-S']],
            ['P-3', ['P-3-WHITE-S']],
          ],
        ]);
        const blank = await api.get('/api/products?split_by_attribute=%20');
        expect(blank.status).toBe(422);
        expect(blank.body.errors[0].source).toEqual({ parameter: 'split_by_attribute' });
      });
    });

    describe('boundaries', () => {
      it("answers 404 for another brand's product on every product route", async () => {
        const other = legacyClient(t.app, await createIntegrator(t.storage, t.clock));
        const theirs = await createLegacyProduct(other, legacyProduct('P-1'));
        const variantPath = `/api/products/${theirs.id}/variants/${theirs.variants[0]!.id}`;
        const responses = [
          await api.get(`/api/products/${theirs.id}`),
          await api.put(`/api/products/${theirs.id}`, { product: { name: 'Mine' } }),
          await api.delete(`/api/products/${theirs.id}`),
          await api.post(`/api/products/${theirs.id}/variants`, { variant: legacyVariant('X-1') }),
          await api.put(variantPath, { variant: { sku: 'X' } }),
          await api.delete(variantPath),
        ];
        expect(responses.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404]);
        expect((await allProducts()).total).toBe(0);
        // The same item number and SKU are free in this brand.
        expect((await api.post('/api/products', { product: legacyProduct('P-1') })).status).toBe(201);
        expect((await other.get(`/api/products/${theirs.id}`)).body.product.name).toBe('Product P-1');
      });

      it('answers 400 without X-ServiceAppIdentifier and 415 to a product body that is not JSON', async () => {
        const anonymous = await request(t.server)
          .post('/api/products')
          .set('Authorization', brand.headers.Authorization)
          .send({ product: legacyProduct('P-1') });
        expect(anonymous.status).toBe(400);
        const text = await request(t.server)
          .post('/api/products')
          .set(legacyHeaders(brand))
          .set('Content-Type', 'text/plain')
          .send(JSON.stringify({ product: legacyProduct('P-1') }));
        expect(text.status).toBe(415);
        expect((await allProducts()).total).toBe(0);
      });

      it('needs catalog:write to change products', async () => {
        const reader = legacyClient(t.app, await createIntegrator(t.storage, t.clock, { scopes: ['catalog:read'] }));
        const response = await reader.post('/api/products', { product: legacyProduct('P-1') });
        expect(response.status).toBe(403);
        expect(response.body.errors[0].meta.missing_scopes).toEqual(['catalog:write']);
      });
    });
  });
}
