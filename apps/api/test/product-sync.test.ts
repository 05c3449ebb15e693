import request from 'supertest';
import express from 'express';
import { createDrop, createProductLocale } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

interface VariantOutcome {
  sku: string;
  id: number | null;
  action: string;
}
interface ProductOutcome {
  item_number: string;
  id: number | null;
  action: string;
  variants: VariantOutcome[];
}

/** A new product as a sync item, with one variant `<item>-M`. */
function newProduct(itemNumber: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    item_number: itemNumber,
    name: `Product ${itemNumber}`,
    variants: [{ sku: `${itemNumber}-M`, attributes: { size: 'M' } }],
    ...extra,
  };
}

async function syncProducts(app: express.Application, who: Integrator, products: unknown[]): Promise<ProductOutcome[]> {
  const response = await request(app).post('/products/sync').set(who.headers).send({ products });
  if (response.status !== 200) throw new Error(`sync failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.products as ProductOutcome[];
}

const pointers = (body: { errors: { source: { pointer: string } }[] }) => body.errors.map((e) => e.source.pointer);

for (const dialect of testDialects()) {
  describe(`POST /products/sync [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    beforeEach(async () => {
      // A brand per test: every test starts from an empty catalog.
      brand = await createIntegrator(t.storage, t.clock);
    });

    async function getProduct(
      id: number,
      includes: string[] = ['variants.prices', 'variants.cost_prices', 'categories', 'suppliers', 'translations'],
    ) {
      const response = await request(t.server)
        .get(`/v10/products/${id}?${includes.map((i) => `includes[]=${i}`).join('&')}`)
        .set(brand.headers);
      expect(response.status).toBe(200);
      return response.body.product as Record<string, unknown> & {
        variants: { id: number; sku: string; attributes: unknown }[];
        categories: { top_category: string; sub_category: string | null }[];
        category_ids: number[];
      };
    }

    async function stored(itemNumber: string, who: Integrator = brand) {
      return (await t.storage.uow.read((r) => r.products.findByItemNumbers(who.brandId, [itemNumber])))[0] ?? null;
    }

    it('creates products with their variants and prices, and reports each with its id', async () => {
      const response = await request(t.server)
        .post('/products/sync')
        .set(brand.headers)
        .send({
          products: [
            {
              item_number: 'TEE-1',
              name: 'Organic tee',
              description: 'Soft cotton',
              weight: 0.25,
              weight_type: 'kg',
              release_date: '2026-08-01',
              colli: [6, 12],
              tags: ['basics', 'cotton'],
              meta: { fabric: 'cotton' },
              variants: [
                {
                  sku: 'TEE-1-S',
                  attributes: { color: 'Ecru', size: 'S' },
                  ean: '7350000000011',
                  prices: { EUR: { sales_price: 12.5, rec_sales_price: 29.95 }, SEK: { sales_price: 140 } },
                },
                { sku: 'TEE-1-M', attributes: { color: 'Ecru', size: 'M' }, noos: true, weight: 0.3 },
              ],
            },
            newProduct('CAP-1'),
          ],
        });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        products: [
          {
            item_number: 'TEE-1',
            id: expect.any(Number),
            action: 'created',
            variants: [
              { sku: 'TEE-1-S', id: expect.any(Number), action: 'created' },
              { sku: 'TEE-1-M', id: expect.any(Number), action: 'created' },
            ],
          },
          {
            item_number: 'CAP-1',
            id: expect.any(Number),
            action: 'created',
            variants: [{ sku: 'CAP-1-M', id: expect.any(Number), action: 'created' }],
          },
        ],
      });

      const [tee] = response.body.products as ProductOutcome[];
      const product = await getProduct(tee!.id!);
      expect(product).toMatchObject({
        id: tee!.id,
        item_number: 'TEE-1',
        name: 'Organic tee',
        description: 'Soft cotton',
        active: true,
        make_to_order_b2b: false,
        make_to_order_b2c: false,
        meta: { fabric: 'cotton' },
        weight: 0.25,
        weight_type: 'kg',
        no_inventory: false,
        release_date: '2026-08-01',
        noos: false,
        min_order_quantity: null,
        order_colli_only: false,
        colli: [6, 12],
        tags: expect.arrayContaining(['basics', 'cotton']),
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      });
      expect(product.variants.map((v) => [v.id, v.sku, v.attributes])).toEqual([
        [tee!.variants[0]!.id, 'TEE-1-S', { color: 'Ecru', size: 'S' }],
        [tee!.variants[1]!.id, 'TEE-1-M', { color: 'Ecru', size: 'M' }],
      ]);
      const record = await stored('TEE-1');
      expect(record!.variants[0]!.prices).toEqual([
        {
          variantId: tee!.variants[0]!.id,
          currency: 'EUR',
          salesPrice: 1250,
          recSalesPrice: 2995,
          offerPrice: null,
          b2cOfferPrice: null,
        },
        {
          variantId: tee!.variants[0]!.id,
          currency: 'SEK',
          salesPrice: 14000,
          recSalesPrice: 0,
          offerPrice: null,
          b2cOfferPrice: null,
        },
      ]);
      expect(record!.variants[1]!.variant).toMatchObject({
        noos: true,
        weight: 300,
        weightType: null,
        ean: null,
        archived: false,
        b2cAvailable: true,
      });
      expect(record!.variants[0]!.variant.ean).toBe('7350000000011');
    });

    it('updates only the fields sent, merges meta and attributes, and reports a replay as unchanged', async () => {
      const [created] = await syncProducts(t.app, brand, [
        newProduct('TEE', {
          meta: { fabric: 'cotton', care: '30C' },
          url: 'https://shop.example/tee',
          variants: [
            {
              sku: 'TEE-M',
              attributes: { color: 'Red', size: 'M' },
              prices: { EUR: { sales_price: 10, offer_price: 8 } },
            },
          ],
        }),
      ]);
      t.clock.advance(60_000);

      const update = {
        item_number: 'TEE',
        url: null,
        meta: { care: null, origin: 'PT' },
        variants: [{ sku: 'TEE-M', attributes: { color: 'Blue' }, prices: { EUR: { offer_price: null } } }],
      };
      const [updated] = await syncProducts(t.app, brand, [update]);
      expect(updated).toEqual({
        item_number: 'TEE',
        id: created!.id,
        action: 'updated',
        variants: [{ sku: 'TEE-M', id: created!.variants[0]!.id, action: 'updated' }],
      });
      const product = await getProduct(created!.id!);
      expect(product).toMatchObject({
        name: 'Product TEE',
        url: null,
        meta: { fabric: 'cotton', origin: 'PT' },
        updated_at: t.clock.now(),
      });
      expect(product.meta).not.toHaveProperty('care');
      expect(product.variants[0]).toMatchObject({ attributes: { color: 'Blue', size: 'M' } });
      expect((await stored('TEE'))!.variants[0]!.prices[0]).toMatchObject({ salesPrice: 1000, offerPrice: null });

      t.clock.advance(60_000);
      const [replayed] = await syncProducts(t.app, brand, [update]);
      expect(replayed).toMatchObject({ action: 'unchanged', variants: [{ action: 'unchanged' }] });
      expect((await getProduct(created!.id!)).updated_at).not.toBe(t.clock.now());
    });

    it('never changes an item number or SKU: a new value creates a new product or variant', async () => {
      const [first] = await syncProducts(t.app, brand, [newProduct('A')]);
      const [again] = await syncProducts(t.app, brand, [
        { item_number: 'A', variants: [{ sku: 'A-L', attributes: { size: 'L' } }] },
      ]);
      expect(again).toMatchObject({ id: first!.id, action: 'updated', variants: [{ sku: 'A-L', action: 'created' }] });
      expect((await stored('A'))!.variants.map((r) => r.variant.sku)).toEqual(['A-M', 'A-L']);
    });

    describe('refuses with 422 and a pointer per problem', () => {
      it('points at the JSON type problems of the DTO, down to a price in one currency', async () => {
        const response = await request(t.server)
          .post('/products/sync')
          .set(brand.headers)
          .send({
            products: [
              newProduct('A'),
              newProduct('B'),
              newProduct('C', {
                active: 'yes',
                colli: [1, 'two'],
                variants: [
                  {
                    sku: 'C-M',
                    attributes: { size: 'M' },
                    prices: { EUR: { sales_price: 10.005, rec_sales_price: '20' }, USD: 5 },
                  },
                ],
              }),
            ],
          });
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          expect.objectContaining({
            source: { pointer: '/products/2/active' },
            detail: 'products[2].active must be a boolean value',
          }),
          expect.objectContaining({ source: { pointer: '/products/2/colli' } }),
          {
            status: 422,
            code: 'validation_failed',
            title: 'Validation error',
            detail: 'products[2].variants[0].prices.EUR.sales_price must be a number with at most 2 decimals',
            source: { pointer: '/products/2/variants/0/prices/EUR/sales_price' },
          },
          expect.objectContaining({ source: { pointer: '/products/2/variants/0/prices/EUR/rec_sales_price' } }),
          expect.objectContaining({
            source: { pointer: '/products/2/variants/0/prices/USD' },
            detail: 'products[2].variants[0].prices.USD must be an object',
          }),
        ]);
        expect(await stored('A')).toBeNull();
      });

      it('writes nothing of items 0 and 1 when a business rule refuses item 2', async () => {
        const response = await request(t.server)
          .post('/products/sync')
          .set(brand.headers)
          .send({
            products: [
              newProduct('A'),
              newProduct('B'),
              newProduct('C', { suppliers_sync_mode: 'append', suppliers: [{ supplier_number: 'NOPE' }] }),
            ],
          });
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          expect.objectContaining({
            code: 'validation_failed',
            source: { pointer: '/products/2/suppliers/0/supplier_number' },
            detail: 'products[2].suppliers[0].supplier_number names supplier "NOPE", which does not exist',
          }),
        ]);
        expect(await stored('A')).toBeNull();
        expect(await stored('B')).toBeNull();
        const list = await request(t.server).get('/v10/products').set(brand.headers);
        expect(list.body.products).toEqual([]);
      });

      it('requires a name and variants for a new product, attributes for a new variant, and the sync modes with their lists', async () => {
        const response = await request(t.server)
          .post('/products/sync')
          .set(brand.headers)
          .send({
            products: [
              { item_number: 'A' },
              {
                item_number: 'B',
                name: 'B',
                variants: [{ sku: 'B-1' }],
                categories: [{ top_category: 'Men' }],
                suppliers: [],
                translations: [],
              },
              { item_number: 'C', name: 'C', variants: [{ sku: 'C-1', attributes: { size: 'S' }, drops: [] }] },
            ],
          });
        expect(response.status).toBe(422);
        expect(pointers(response.body)).toEqual([
          '/products/1/categories_sync_mode',
          '/products/1/suppliers_sync_mode',
          '/products/2/variants/0/drops_sync_mode',
        ]);
        const rules = await request(t.server)
          .post('/products/sync')
          .set(brand.headers)
          .send({ products: [{ item_number: 'A' }, { item_number: 'B', name: 'B', variants: [{ sku: 'B-1' }] }] });
        expect(pointers(rules.body)).toEqual([
          '/products/0/name',
          '/products/0/variants',
          '/products/1/variants/0/attributes',
        ]);
      });

      it('refuses an item number or SKU twice in one request, and a SKU of another product, naming it', async () => {
        await syncProducts(t.app, brand, [newProduct('A')]);
        const response = await request(t.server)
          .post('/products/sync')
          .set(brand.headers)
          .send({
            products: [
              newProduct('B', { variants: [{ sku: 'A-M', attributes: { size: 'M' } }] }),
              newProduct('C'),
              newProduct('C', {
                variants: [
                  { sku: 'X', attributes: { size: 'M' } },
                  { sku: 'X', attributes: { size: 'M' } },
                ],
              }),
            ],
          });
        expect(response.status).toBe(422);
        expect(
          response.body.errors.map((e: { source: { pointer: string }; detail: string }) => [
            e.source.pointer,
            e.detail,
          ]),
        ).toEqual([
          [
            '/products/0/variants/0/sku',
            'products[0].variants[0].sku belongs to product "A"; a SKU cannot move to another product',
          ],
          [
            '/products/2/item_number',
            'products[2].item_number repeats products[1]; send each product once per request',
          ],
          [
            '/products/2/variants/1/sku',
            'products[2].variants[1].sku repeats the SKU of products[2].variants[0]; send each variant once per request',
          ],
        ]);
      });

      it('requires a non-empty products array of at most 100 items', async () => {
        const missing = await request(t.server).post('/products/sync').set(brand.headers).send({});
        expect(missing.status).toBe(422);
        expect(missing.body.errors[0]).toMatchObject({
          source: { pointer: '/products' },
          detail: 'products must be an array',
        });
        const empty = await request(t.server).post('/products/sync').set(brand.headers).send({ products: [] });
        expect(empty.body.errors[0].detail).toBe('products must contain at least one item');
        const tooMany = await request(t.server)
          .post('/products/sync')
          .set(brand.headers)
          .send({ products: Array.from({ length: 101 }, (_, i) => newProduct(`P${i}`)) });
        expect(tooMany.status).toBe(422);
        expect(tooMany.body.errors).toEqual([
          expect.objectContaining({ source: { pointer: '/products' }, detail: expect.stringContaining('at most 100') }),
        ]);
      });

      it('needs the catalog:write scope', async () => {
        const reader = await createIntegrator(t.storage, t.clock, { scopes: ['catalog:read'] });
        const response = await request(t.server)
          .post('/products/sync')
          .set(reader.headers)
          .send({ products: [newProduct('A')] });
        expect(response.status).toBe(403);
        expect(response.body.errors[0]).toMatchObject({
          code: 'insufficient_scope',
          meta: { missing_scopes: ['catalog:write'] },
        });
      });
    });

    it('ignores properties it does not know (ERPs send their whole record)', async () => {
      const outcome = await syncProducts(t.app, brand, [
        newProduct('A', { erp_flag: 'x', variants: [{ sku: 'A-M', attributes: { size: 'M' }, erp_field: null }] }),
      ]);
      expect(outcome[0]!.action).toBe('created');
    });

    describe('categories', () => {
      it('refuses a missing category without create_if_missing and creates it with it, once for the whole request', async () => {
        const refused = await request(t.server)
          .post('/products/sync')
          .set(brand.headers)
          .send({
            products: [
              newProduct('A', {
                categories_sync_mode: 'replace',
                categories: [{ top_category: 'Women', sub_category: 'Knitwear' }],
              }),
            ],
          });
        expect(refused.status).toBe(422);
        expect(refused.body.errors[0]).toMatchObject({
          source: { pointer: '/products/0/categories/0' },
          detail: expect.stringContaining('create_if_missing'),
        });

        const [a, b] = await syncProducts(t.app, brand, [
          newProduct('A', {
            categories_sync_mode: 'replace',
            categories: [{ top_category: 'Women', sub_category: 'Knitwear', create_if_missing: true }],
          }),
          newProduct('B', {
            categories_sync_mode: 'replace',
            categories: [
              { top_category: 'women', sub_category: '', create_if_missing: true },
              { top_category: 'Women', sub_category: 'knitwear' },
            ],
          }),
        ]);
        const productA = await getProduct(a!.id!);
        expect(productA.categories).toEqual([
          expect.objectContaining({ top_category: 'Women', sub_category: 'Knitwear', name: 'Knitwear' }),
        ]);
        const productB = await getProduct(b!.id!);
        expect(productB.categories.map((c) => [c.top_category, c.sub_category]).sort()).toEqual([
          ['Women', null],
          ['Women', 'Knitwear'],
        ]);
        expect(productB.category_ids).toContain(productA.category_ids[0]);

        // append keeps the categories, replace sets them.
        await syncProducts(t.app, brand, [
          {
            item_number: 'A',
            categories_sync_mode: 'append',
            categories: [{ top_category: 'Sale', create_if_missing: true }],
          },
        ]);
        expect((await getProduct(a!.id!)).category_ids).toHaveLength(2);
        await syncProducts(t.app, brand, [
          { item_number: 'A', categories_sync_mode: 'replace', categories: [{ top_category: 'Sale' }] },
        ]);
        expect((await getProduct(a!.id!)).categories).toEqual([
          expect.objectContaining({ top_category: 'Sale', sub_category: null }),
        ]);
      });
    });

    describe('suppliers, translations, drops and cost prices', () => {
      it('links suppliers, translations and drops by their numbers and codes', async () => {
        const suppliers = await request(t.server)
          .post('/production/suppliers/sync')
          .set(brand.headers)
          .send({ suppliers: [{ supplier_number: 'S-1', name: 'Mill', currency: 'EUR' }] });
        expect(suppliers.status).toBe(200);
        const de = await createProductLocale(
          { uow: t.storage.uow },
          { brandId: brand.brandId, code: 'de', name: 'German' },
        );
        const drop = await createDrop(
          { uow: t.storage.uow, clock: t.clock },
          { brandId: brand.brandId, code: 'SS27', name: 'Spring' },
        );

        const [created] = await syncProducts(t.app, brand, [
          newProduct('A', {
            suppliers_sync_mode: 'replace',
            suppliers: [
              { supplier_number: 'S-1', primary: true, lead_time_type: 'days', lead_time_from: 5, lead_time_to: 10 },
            ],
            translations: [{ product_locale_code: 'de', name: 'Hemd', description: 'Aus Leinen' }],
            variants: [
              { sku: 'A-M', attributes: { size: 'M' }, drops_sync_mode: 'replace', drops: [{ drop_code: 'SS27' }] },
            ],
          }),
        ]);
        const product = await getProduct(created!.id!);
        expect(product.suppliers).toEqual([
          expect.objectContaining({
            supplier_number: 'S-1',
            primary: true,
            lead_time_type: 'days',
            lead_time_from: 5,
            lead_time_to: 10,
            cost_price_set_id: expect.any(Number),
          }),
        ]);
        expect(product.translations).toEqual([expect.objectContaining({ name: 'Hemd', description: 'Aus Leinen' })]);
        expect((await stored('A'))!.translations[0]).toMatchObject({ localeId: de.id });
        expect((await stored('A'))!.variants[0]!.variant.dropIds).toEqual([drop.id]);

        const unknown = await request(t.server)
          .post('/products/sync')
          .set(brand.headers)
          .send({
            products: [
              {
                item_number: 'A',
                translations: [{ product_locale_code: 'xx', name: 'X' }],
                variants: [{ sku: 'A-M', drops_sync_mode: 'append', drops: [{ drop_id: 999999 }] }],
              },
            ],
          });
        expect(pointers(unknown.body)).toEqual(['/products/0/translations/0', '/products/0/variants/0/drops/0']);
      });

      it('keeps cost prices in the currency’s default set, a set by label, or a set by id of the same currency', async () => {
        await syncProducts(t.app, brand, [
          newProduct('A', {
            variants: [
              {
                sku: 'A-M',
                attributes: { size: 'M' },
                cost_prices: [
                  { currency: 'EUR', cost_price: 4.5 },
                  { currency: 'USD', cost_price_set_label: 'Factory', cost_price: 5 },
                ],
              },
            ],
          }),
        ]);
        const sets = await t.storage.uow.read((r) => r.costPriceSets.all(brand.brandId));
        expect(sets.map((s) => [s.label, s.currency, s.isDefault]).sort()).toEqual([
          ['Default', 'EUR', true],
          ['Factory', 'USD', false],
        ]);
        const factory = sets.find((s) => s.label === 'Factory')!;
        await syncProducts(t.app, brand, [
          {
            item_number: 'A',
            variants: [
              { sku: 'A-M', cost_prices: [{ currency: 'USD', cost_price_set_id: factory.id, cost_price: 5.25 }] },
            ],
          },
        ]);
        const costs = (await stored('A'))!.variants[0]!.costPrices;
        expect(costs.map((c) => [c.costPriceSetId, c.costPrice]).sort()).toEqual(
          [
            [sets.find((s) => s.isDefault)!.id, 450],
            [factory.id, 525],
          ].sort(),
        );
        const wrongCurrency = await request(t.server)
          .post('/products/sync')
          .set(brand.headers)
          .send({
            products: [
              {
                item_number: 'A',
                variants: [
                  { sku: 'A-M', cost_prices: [{ currency: 'EUR', cost_price_set_id: factory.id, cost_price: 1 }] },
                ],
              },
            ],
          });
        expect(wrongCurrency.status).toBe(422);
        expect(wrongCurrency.body.errors[0]).toMatchObject({
          source: { pointer: '/products/0/variants/0/cost_prices/0/cost_price_set_id' },
          detail: 'products[0].variants[0].cost_prices[0].cost_price_set_id names a cost price set in USD, not in EUR',
        });
      });
    });

    it('deletes products and variants, and reports unknown ones as absent', async () => {
      const [a] = await syncProducts(t.app, brand, [
        newProduct('A', {
          variants: [
            { sku: 'A-S', attributes: { size: 'S' } },
            { sku: 'A-M', attributes: { size: 'M' } },
          ],
        }),
        newProduct('B', {
          variants: [
            { sku: 'B-S', attributes: { size: 'S' } },
            { sku: 'B-M', attributes: { size: 'M' } },
          ],
        }),
      ]);
      const outcome = await syncProducts(t.app, brand, [
        { item_number: 'A', delete: true },
        {
          item_number: 'B',
          variants: [
            { sku: 'B-S', delete: true },
            { sku: 'B-GONE', delete: true },
          ],
        },
        { item_number: 'NEVER', delete: true },
      ]);
      expect(outcome).toEqual([
        {
          item_number: 'A',
          id: a!.id,
          action: 'deleted',
          variants: a!.variants.map((v) => ({ ...v, action: 'deleted' })),
        },
        {
          item_number: 'B',
          id: expect.any(Number),
          action: 'updated',
          variants: [
            { sku: 'B-S', id: expect.any(Number), action: 'deleted' },
            { sku: 'B-GONE', id: null, action: 'absent' },
          ],
        },
        { item_number: 'NEVER', id: null, action: 'absent', variants: [] },
      ]);
      expect(await stored('A')).toBeNull();
      expect((await stored('B'))!.variants.map((r) => r.variant.sku)).toEqual(['B-M']);
      expect((await request(t.server).get(`/v10/products/${a!.id}`).set(brand.headers)).status).toBe(404);

      const last = await request(t.server)
        .post('/products/sync')
        .set(brand.headers)
        .send({ products: [{ item_number: 'B', variants: [{ sku: 'B-M', delete: true }] }] });
      expect(last.status).toBe(422);
      expect(last.body.errors[0].source.pointer).toBe('/products/0/variants/0/delete');
    });

    it("keeps brands apart: a brand neither sees nor changes another brand's products", async () => {
      const other = await createIntegrator(t.storage, t.clock);
      const [mine] = await syncProducts(t.app, brand, [newProduct('SHARED', { name: 'Mine' })]);
      const [theirs] = await syncProducts(t.app, other, [newProduct('SHARED', { name: 'Theirs' })]);
      expect(theirs).toMatchObject({ action: 'created', variants: [{ sku: 'SHARED-M', action: 'created' }] });
      expect(theirs!.id).not.toBe(mine!.id);
      expect((await getProduct(mine!.id!)).name).toBe('Mine');
      expect((await request(t.server).get(`/v10/products/${mine!.id}`).set(other.headers)).status).toBe(404);
      // A location of another brand is as unknown as a missing one.
      const theirLocation = await request(t.server)
        .post('/v10/inventory-locations')
        .set(other.headers)
        .send({ name: 'Their store' });
      expect(theirLocation.status).toBe(201);
      const foreign = await request(t.server)
        .post('/products/sync')
        .set(brand.headers)
        .send({
          products: [
            {
              item_number: 'SHARED',
              variants: [
                {
                  sku: 'SHARED-M',
                  inventory: [{ quantity: 1, inventory_location_id: theirLocation.body.inventory_location.id }],
                },
              ],
            },
          ],
        });
      expect(foreign.status).toBe(422);
      expect(foreign.body.errors[0].source.pointer).toBe('/products/0/variants/0/inventory/0/inventory_location_id');
    });

    it('ends in one product when two syncs create the same new product at once', async () => {
      const item = (name: string) =>
        newProduct('RACE', {
          name,
          variants: [{ sku: 'RACE-M', attributes: { size: 'M' }, prices: { EUR: { sales_price: 10 } } }],
        });
      const responses = await Promise.all([
        request(t.server)
          .post('/products/sync')
          .set(brand.headers)
          .send({ products: [item('First')] }),
        request(t.server)
          .post('/products/sync')
          .set(brand.headers)
          .send({ products: [item('Second')] }),
      ]);
      expect(responses.map((r) => r.status)).toEqual([200, 200]);
      expect(responses.map((r) => r.body.products[0].action).sort()).toEqual(['created', 'updated']);
      const ids = new Set(responses.map((r) => r.body.products[0].id));
      expect(ids.size).toBe(1);
      const list = await request(t.server).get('/v10/products?includes[]=variants').set(brand.headers);
      expect(list.body.products).toHaveLength(1);
      expect(list.body.products[0].variants).toHaveLength(1);
    });
  });
}
