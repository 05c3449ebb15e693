import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { issueAccessToken } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { DEFAULT_CONFIG } from '../src/config';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { ImageServer, startImageServer } from './images/support/image-server';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
type Event = { id: string; type: string; created_at: string; data: { object: Body } };

const MINUTE = 60_000;

/** A new product for `POST /v10/products`: a name and one variant `<item>-M`, plus `extra`. */
function newProduct(itemNumber: string, extra: Body = {}): Body {
  return {
    item_number: itemNumber,
    name: `Product ${itemNumber}`,
    variants: [{ sku: `${itemNumber}-M`, attributes: { size: 'M' } }],
    ...extra,
  };
}

/** The pointers an error answer names, in order. */
const pointers = (body: { errors: { source?: { pointer: string } }[] }) =>
  body.errors.map((error) => error.source?.pointer);

for (const dialect of testDialects()) {
  describe(`products and variants written one at a time on /v10 [${dialect}]`, () => {
    const blobDir = join(tmpdir(), `products-v10-writes-${process.pid}-${dialect}`);
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
      // A brand per test: every test starts with an empty catalog and an empty feed.
      brand = await createIntegrator(t.storage, t.clock);
    });

    const post = (path: string, body: unknown, headers: Record<string, string> = brand.headers) =>
      request(t.server)
        .post(path)
        .set(headers)
        .send(body as object);
    const patch = (path: string, body: unknown, headers: Record<string, string> = brand.headers) =>
      request(t.server)
        .patch(path)
        .set(headers)
        .send(body as object);

    async function get(path: string): Promise<Body> {
      const response = await request(t.server).get(path).set(brand.headers);
      expect(response.status).toBe(200);
      return response.body as Body;
    }
    const productShown = async (id: number, query = '') =>
      (await get(`/v10/products/${id}${query}`))['product'] as Body;
    const variantShown = async (id: number, query = '') =>
      (await get(`/v10/variants/${id}${query}`))['variant'] as Body;
    const listedProducts = async () => (await get('/v10/products?limit=100&includes[]=variants'))['products'] as Body[];

    /** Creates a product through `POST /v10/products` and returns its id and its variants' ids by SKU. */
    async function created(body: Body): Promise<{ id: number; variants: Record<string, number> }> {
      const response = await post('/v10/products?includes[]=variants', body);
      expect(response.status).toBe(201);
      const product = response.body.product as { id: number; variants: { id: number; sku: string }[] };
      return { id: product.id, variants: Object.fromEntries(product.variants.map((v) => [v.sku, v.id])) };
    }

    describe('POST /v10/products', () => {
      it('creates a product with its variants: 201, its URL in Location, the product as GET shows it, and listed', async () => {
        const response = await post('/v10/products?includes[]=variants.prices', {
          item_number: 'TEE',
          name: ' Organic tee ',
          description: 'Soft',
          tags: ['cotton', 'basics', 'cotton'],
          meta: { fabric: 'cotton' },
          weight: 0.25,
          weight_type: 'kg',
          variants: [
            {
              sku: 'TEE-M',
              ean: '4006381333931',
              attributes: { size: 'M' },
              prices: { EUR: { sales_price: 12.5, rec_sales_price: 25 } },
            },
            { sku: 'TEE-L', attributes: { size: 'L' }, b2c_available: false },
          ],
        });

        expect(response.status).toBe(201);
        const product = response.body.product as Body & { id: number; variants: Body[] };
        expect(response.headers['location']).toBe(`/v10/products/${product.id}`);
        expect(product).toMatchObject({
          item_number: 'TEE',
          name: 'Organic tee',
          description: 'Soft',
          tags: ['cotton', 'basics'],
          meta: { fabric: 'cotton' },
          active: true,
          created_at: t.clock.now(),
          variants: [
            expect.objectContaining({
              sku: 'TEE-M',
              ean: '4006381333931',
              attributes: { size: 'M' },
              prices: [expect.objectContaining({ currency: 'EUR', sales_price: 12.5, rec_sales_price: 25 })],
            }),
            expect.objectContaining({ sku: 'TEE-L', b2c_available: false, prices: [] }),
          ],
        });
        expect(await productShown(product.id, '?includes[]=variants.prices')).toEqual(product);
        expect(await listedProducts()).toEqual([
          expect.objectContaining({ id: product.id, item_number: 'TEE', name: 'Organic tee' }),
        ]);
      });

      it('answers without includes as GET does without them: the product’s own fields', async () => {
        const response = await post('/v10/products', newProduct('CAP'));
        expect(response.status).toBe(201);
        expect(response.body.product).not.toHaveProperty('variants');
        expect(response.body.product).toEqual(await productShown(response.body.product.id));
      });

      it('downloads variant images as the sync does and attaches them', async () => {
        const url = images.url(`/png/${dialect}-v10-create.png`);
        const response = await post(
          '/v10/products?includes[]=images',
          newProduct('IMG', {
            variants: [{ sku: 'IMG-M', attributes: { size: 'M' }, images: [{ url, alt: 'Front' }] }],
          }),
        );
        expect(response.status).toBe(201);
        expect(response.body.product.images).toEqual([expect.objectContaining({ alt: 'Front' })]);
        expect(images.hits(`/png/${dialect}-v10-create.png`)).toBe(1);
        expect(await productShown(response.body.product.id, '?includes[]=images')).toEqual(response.body.product);
      });

      it('accepts an EAN another variant already has, as the sync does (EANs are not unique)', async () => {
        await created(newProduct('A', { variants: [{ sku: 'A-M', ean: '4006381333931', attributes: { size: 'M' } }] }));
        const response = await post(
          '/v10/products',
          newProduct('B', { variants: [{ sku: 'B-M', ean: '4006381333931', attributes: { size: 'M' } }] }),
        );
        expect(response.status).toBe(201);
      });

      it('refuses a body without name and variants, naming each missing field, and creates nothing', async () => {
        const response = await post('/v10/products', { item_number: 'BARE' });
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          expect.objectContaining({ source: { pointer: '/name' }, detail: 'name is required for a new product' }),
          expect.objectContaining({
            source: { pointer: '/variants' },
            detail: 'variants must contain at least one variant for a new product',
          }),
        ]);
        const missingKey = await post('/v10/products', { name: 'No item number', variants: [] });
        expect(missingKey.status).toBe(422);
        expect(pointers(missingKey.body)).toEqual(['/item_number']);
        expect(await listedProducts()).toEqual([]);
      });

      it('refuses fields of the wrong type and rules of the sync, pointing into the body', async () => {
        const wrongTypes = await post('/v10/products', {
          item_number: 'X',
          name: 5,
          variants: [{ sku: 'X-M', attributes: { size: 'M' }, prices: { EUR: { sales_price: 'a lot' } } }],
        });
        expect(wrongTypes.status).toBe(422);
        expect(pointers(wrongTypes.body)).toEqual(['/name', '/variants/0/prices/EUR/sales_price']);

        const rules = await post('/v10/products', {
          item_number: 'X',
          name: 'X',
          release_date: '2026-02-30',
          variants: [
            { sku: 'X-M', attributes: { size: 'M' } },
            { sku: 'X-M', attributes: { size: 'L' } },
            { sku: 'X-RED', attributes: { colour: 'red' } },
          ],
        });
        expect(rules.status).toBe(422);
        expect(rules.body.errors).toEqual([
          expect.objectContaining({
            source: { pointer: '/variants/1/sku' },
            detail: 'variants[1].sku repeats the SKU of variants[0]; send each variant once per request',
          }),
          expect.objectContaining({ source: { pointer: '/release_date' } }),
          expect.objectContaining({ source: { pointer: '/variants/2/attributes' } }),
        ]);
        expect(await listedProducts()).toEqual([]);
      });

      it('refuses delete by name (deletes go through the sync), and books no stock sent with it', async () => {
        const response = await post('/v10/products', {
          ...newProduct('X'),
          delete: false,
          variants: [{ sku: 'X-M', attributes: { size: 'M' }, inventory: [{ quantity: 5 }], delete: true }],
        });
        expect(response.status).toBe(422);
        expect(pointers(response.body).sort()).toEqual(['/delete', '/variants/0/delete']);
        expect(response.body.errors).toContainEqual(
          expect.objectContaining({
            source: { pointer: '/variants/0/delete' },
            detail: expect.stringMatching(
              /^variants\[0\]\.delete is not accepted here: products and variants are deleted/,
            ),
          }),
        );
        expect(await listedProducts()).toEqual([]);
        expect(await get('/v10/inventory-available?limit=100')).toMatchObject({ inventory: [] });
      });

      it('refuses an item number the brand already uses (never updates) and leaves that product as it was', async () => {
        const first = await created(newProduct('TEE'));
        const before = await productShown(first.id, '?includes[]=variants');
        t.clock.advance(MINUTE);
        const response = await post('/v10/products', newProduct('TEE', { name: 'Overwritten?' }));
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          expect.objectContaining({
            code: 'validation_failed',
            source: { pointer: '/item_number' },
            detail: `item_number is taken by product ${first.id}`,
          }),
        ]);
        expect(await productShown(first.id, '?includes[]=variants')).toEqual(before);
      });

      it('refuses a SKU of another product, naming the variant', async () => {
        await created(newProduct('TEE'));
        const response = await post(
          '/v10/products',
          newProduct('CAP', { variants: [{ sku: 'TEE-M', attributes: { size: 'M' } }] }),
        );
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          expect.objectContaining({
            source: { pointer: '/variants/0/sku' },
            detail: 'variants[0].sku belongs to product "TEE"; a SKU cannot move to another product',
          }),
        ]);
        expect((await listedProducts()).map((p) => p['item_number'])).toEqual(['TEE']);
      });

      it('makes one product of parallel creates with one item number: one 201, the others 422, never a 500', async () => {
        const responses = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            post(
              '/v10/products',
              newProduct('RACE', { variants: [{ sku: `RACE-${i}`, attributes: { size: `${i}` } }] }),
            ),
          ),
        );
        expect(responses.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
        for (const refused of responses.filter((r) => r.status === 422))
          expect(pointers(refused.body)).toEqual(['/item_number']);
        const winner = responses.find((r) => r.status === 201)!.body.product as { id: number };
        const listed = await listedProducts();
        expect(listed.map((p) => p['id'])).toEqual([winner.id]);
        expect((listed[0]!['variants'] as Body[]).length).toBe(1);
      });

      it('makes one product of parallel creates with one SKU: one 201, the others 422 naming the SKU', async () => {
        const responses = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            post(
              '/v10/products',
              newProduct(`SKU-RACE-${i}`, { variants: [{ sku: 'SHARED', attributes: { size: 'M' } }] }),
            ),
          ),
        );
        expect(responses.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
        for (const refused of responses.filter((r) => r.status === 422))
          expect(pointers(refused.body)).toEqual(['/variants/0/sku']);
        expect((await listedProducts()).length).toBe(1);
      });
    });

    describe('PATCH /v10/products/{id}', () => {
      it('changes the fields sent and keeps the others; GET and the list show the change', async () => {
        const { id } = await created(
          newProduct('TEE', { description: 'Soft', tags: ['cotton'], meta: { fabric: 'cotton', fit: 'slim' } }),
        );
        t.clock.advance(MINUTE);
        const response = await patch(`/v10/products/${id}`, {
          item_number: 'TEE',
          name: 'Organic tee',
          description: null,
          meta: { fit: null, origin: 'PT' },
          active: false,
        });
        expect(response.status).toBe(200);
        expect(response.body.product).toMatchObject({
          id,
          item_number: 'TEE',
          name: 'Organic tee',
          description: null,
          tags: ['cotton'],
          meta: { fabric: 'cotton', origin: 'PT' },
          active: false,
          updated_at: t.clock.now(),
        });
        expect(await productShown(id)).toEqual(response.body.product);
        expect(await listedProducts()).toEqual([expect.objectContaining({ id, name: 'Organic tee', active: false })]);
      });

      it('answers with the includes asked for, and leaves the variants as they were', async () => {
        const { id } = await created(newProduct('TEE'));
        const before = await productShown(id, '?includes[]=variants.prices');
        const response = await patch(`/v10/products/${id}?includes[]=variants.prices`, { name: 'Renamed' });
        expect(response.status).toBe(200);
        expect(response.body.product.variants).toEqual(before['variants']);
        expect(await productShown(id, '?includes[]=variants.prices')).toEqual(response.body.product);
      });

      it('refuses another item number, variants, delete and wrong types, and changes nothing', async () => {
        const { id } = await created(newProduct('TEE'));
        const before = await productShown(id, '?includes[]=variants');
        const response = await patch(`/v10/products/${id}`, {
          item_number: 'OTHER',
          name: 'Never',
          variants: [{ sku: 'TEE-M', ean: '1' }],
          delete: true,
          active: 'yes',
        });
        expect(response.status).toBe(422);
        expect(pointers(response.body).sort()).toEqual(['/active', '/delete', '/variants']);
        const renamed = await patch(`/v10/products/${id}`, { item_number: 'OTHER', name: 'Never' });
        expect(renamed.status).toBe(422);
        expect(renamed.body.errors).toEqual([
          expect.objectContaining({
            source: { pointer: '/item_number' },
            detail: 'item_number cannot be changed: it is the product\'s key in the product sync ("TEE")',
          }),
        ]);
        const blank = await patch(`/v10/products/${id}`, { name: ' ' });
        expect(blank.status).toBe(422);
        expect(pointers(blank.body)).toEqual(['/name']);
        expect(await productShown(id, '?includes[]=variants')).toEqual(before);
      });
    });

    describe('POST /v10/products/{id}/variants', () => {
      it('adds a variant: 201, its URL in Location, the variant as GET shows it, and the product lists it', async () => {
        const { id, variants } = await created(newProduct('TEE'));
        t.clock.advance(MINUTE);
        const response = await post(`/v10/products/${id}/variants?includes[]=prices`, {
          sku: 'TEE-L',
          ean: '4006381333948',
          attributes: { size: 'L' },
          prices: { EUR: { sales_price: 14, rec_sales_price: 28 } },
        });
        expect(response.status).toBe(201);
        const variant = response.body.variant as Body & { id: number };
        expect(response.headers['location']).toBe(`/v10/variants/${variant.id}`);
        expect(variant).toMatchObject({
          sku: 'TEE-L',
          item_number: 'TEE',
          product_id: id,
          attributes: { size: 'L' },
          prices: [expect.objectContaining({ currency: 'EUR', sales_price: 14, rec_sales_price: 28 })],
        });
        expect(await variantShown(variant.id, '?includes[]=prices')).toEqual(variant);
        const product = await productShown(id, '?includes[]=variants');
        expect((product['variants'] as Body[]).map((v) => v['id'])).toEqual([variants['TEE-M'], variant.id]);
        expect(product['updated_at']).toBe(t.clock.now());
      });

      it('refuses a SKU the brand already uses, on this product or another, and attributes of other names', async () => {
        const tee = await created(newProduct('TEE'));
        await created(newProduct('CAP'));
        const own = await post(`/v10/products/${tee.id}/variants`, { sku: 'TEE-M', attributes: { size: 'S' } });
        expect(own.status).toBe(422);
        expect(own.body.errors).toEqual([
          expect.objectContaining({
            source: { pointer: '/sku' },
            detail: `sku is taken by variant ${tee.variants['TEE-M']} of this product`,
          }),
        ]);
        const other = await post(`/v10/products/${tee.id}/variants`, { sku: 'CAP-M', attributes: { size: 'S' } });
        expect(other.status).toBe(422);
        expect(other.body.errors).toEqual([
          expect.objectContaining({
            source: { pointer: '/sku' },
            detail: 'sku belongs to product "CAP"; a SKU cannot move to another product',
          }),
        ]);
        const names = await post(`/v10/products/${tee.id}/variants`, { sku: 'TEE-RED', attributes: { colour: 'red' } });
        expect(names.status).toBe(422);
        expect(pointers(names.body)).toEqual(['/attributes']);
        const noAttributes = await post(`/v10/products/${tee.id}/variants`, { sku: 'TEE-S' });
        expect(noAttributes.status).toBe(422);
        expect(noAttributes.body.errors).toEqual([
          expect.objectContaining({
            source: { pointer: '/attributes' },
            detail: 'attributes is required for a new variant (at least one attribute, such as size or color)',
          }),
        ]);
        const product = await productShown(tee.id, '?includes[]=variants');
        expect((product['variants'] as Body[]).map((v) => v['sku'])).toEqual(['TEE-M']);
      });
    });

    describe('PATCH /v10/variants/{id}', () => {
      it('changes the fields sent as the sync merges them; GET of the variant and of the product show it', async () => {
        const { id, variants } = await created(
          newProduct('TEE', {
            variants: [
              {
                sku: 'TEE-M',
                attributes: { size: 'M', colour: 'white' },
                meta: { batch: '1' },
                prices: {
                  EUR: { sales_price: 10, rec_sales_price: 20 },
                  USD: { sales_price: 11, rec_sales_price: 22 },
                },
              },
            ],
          }),
        );
        const variantId = variants['TEE-M']!;
        t.clock.advance(MINUTE);
        const response = await patch(`/v10/variants/${variantId}?includes[]=prices`, {
          sku: 'TEE-M',
          ean: '4006381333931',
          attributes: { colour: 'black' },
          archived: true,
          make_to_order_b2b: true,
          prices: { EUR: { sales_price: 9 }, USD: null },
        });
        expect(response.status).toBe(200);
        expect(response.body.variant).toMatchObject({
          id: variantId,
          sku: 'TEE-M',
          ean: '4006381333931',
          attributes: { size: 'M', colour: 'black' },
          archived: true,
          make_to_order_b2b: true,
          meta: { batch: '1' },
          prices: [expect.objectContaining({ currency: 'EUR', sales_price: 9, rec_sales_price: 20 })],
          updated_at: t.clock.now(),
        });
        expect(await variantShown(variantId, '?includes[]=prices')).toEqual(response.body.variant);
        expect((await productShown(id))['updated_at']).toBe(t.clock.now());
        expect(await get('/v10/variants?limit=100')).toMatchObject({
          variants: [expect.objectContaining({ id: variantId, ean: '4006381333931', archived: true })],
        });
      });

      it('refuses another SKU, a new attribute name, inventory, delete and wrong types, and changes nothing', async () => {
        const { variants } = await created(
          newProduct('TEE', {
            variants: [
              { sku: 'TEE-M', attributes: { size: 'M' } },
              { sku: 'TEE-L', attributes: { size: 'L' } },
            ],
          }),
        );
        const variantId = variants['TEE-M']!;
        const before = await variantShown(variantId, '?includes[]=prices');
        const response = await patch(`/v10/variants/${variantId}`, {
          sku: 'TEE-XL',
          archived: 'yes',
          inventory: [{ quantity: 1 }],
          delete: true,
        });
        expect(response.status).toBe(422);
        expect(pointers(response.body).sort()).toEqual(['/archived', '/delete', '/inventory']);
        const rules = await patch(`/v10/variants/${variantId}`, {
          sku: 'TEE-XL',
          prices: { eur: { sales_price: 1 } },
        });
        expect(rules.status).toBe(422);
        expect(rules.body.errors).toEqual([
          expect.objectContaining({
            source: { pointer: '/sku' },
            detail: 'sku cannot be changed: it is the variant\'s key in the product sync ("TEE-M")',
          }),
          expect.objectContaining({ source: { pointer: '/prices/eur' } }),
        ]);
        const names = await patch(`/v10/variants/${variantId}`, { attributes: { colour: 'red' } });
        expect(names.status).toBe(422);
        expect(names.body.errors).toEqual([
          expect.objectContaining({
            source: { pointer: '/attributes' },
            detail:
              'attributes must have the same attribute names as the product\'s other variants (size); "TEE-M" would have colour, size',
          }),
        ]);
        expect(await variantShown(variantId, '?includes[]=prices')).toEqual(before);
      });
    });

    describe('ids and scopes', () => {
      it('answers 404 for another brand’s product and variant, exactly as for unknown ids, and changes nothing', async () => {
        const other = await createIntegrator(t.storage, t.clock);
        const theirs = await post('/v10/products?includes[]=variants', newProduct('THEIRS'), other.headers);
        expect(theirs.status).toBe(201);
        const productId = theirs.body.product.id as number;
        const variantId = theirs.body.product.variants[0].id as number;

        const attempts = [
          await patch(`/v10/products/${productId}`, { name: 'Mine now' }),
          await post(`/v10/products/${productId}/variants`, { sku: 'MINE-L', attributes: { size: 'L' } }),
          await patch(`/v10/variants/${variantId}`, { ean: '1' }),
          await patch('/v10/products/999999999', { name: 'Nobody' }),
          await post('/v10/products/999999999/variants', { sku: 'NOBODY', attributes: { size: 'L' } }),
          await patch('/v10/variants/999999999', { ean: '1' }),
          await patch('/v10/products/abc', { name: 'Nobody' }),
        ];
        for (const attempt of attempts) {
          expect(attempt.status).toBe(404);
          expect(attempt.body.errors[0]).toMatchObject({ status: 404, code: 'not_found' });
        }
        const seen = await request(t.server).get(`/v10/products/${productId}?includes[]=variants`).set(other.headers);
        expect(seen.body.product).toEqual(theirs.body.product);
        expect(await listedProducts()).toEqual([]);
      });

      it('answers 403 to a token without catalog:write and writes nothing', async () => {
        const { id, variants } = await created(newProduct('TEE'));
        const { accessToken } = await issueAccessToken(
          { uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher },
          { userId: brand.userId, appId: brand.appId, scopes: ['catalog:read'] },
        );
        const reader = { Authorization: `Bearer ${accessToken}`, 'X-Service-App-Key': brand.appKey };
        const before = await productShown(id, '?includes[]=variants');
        const attempts = [
          await post('/v10/products', newProduct('CAP'), reader),
          await patch(`/v10/products/${id}`, { name: 'Never' }, reader),
          await post(`/v10/products/${id}/variants`, { sku: 'TEE-L', attributes: { size: 'L' } }, reader),
          await patch(`/v10/variants/${variants['TEE-M']}`, { ean: '1' }, reader),
        ];
        for (const attempt of attempts) {
          expect(attempt.status).toBe(403);
          expect(attempt.body.errors[0].detail).toContain('catalog:write');
        }
        expect(await productShown(id, '?includes[]=variants')).toEqual(before);
        expect((await listedProducts()).length).toBe(1);
      });
    });

    describe('events', () => {
      /** The brand's product events, oldest first. */
      async function productEvents(): Promise<Event[]> {
        const events = (await get('/v10/events?limit=100'))['events'] as Event[];
        return events.filter((e) => e.type.startsWith('product.'));
      }
      const event = (type: string, object: Body, createdAt: string) => ({
        id: expect.stringMatching(/^evt_\d+$/),
        type,
        created_at: createdAt,
        data: { object },
      });

      it('announces a create, a product change and a variant added or changed, each with the product as GET shows it', async () => {
        const { id, variants } = await created(newProduct('TEE'));
        const createdAt = t.clock.now();
        const shownCreated = await productShown(id);

        t.clock.advance(MINUTE);
        expect((await patch(`/v10/products/${id}`, { name: 'Renamed' })).status).toBe(200);
        const renamedAt = t.clock.now();
        const shownRenamed = await productShown(id);

        t.clock.advance(MINUTE);
        expect((await post(`/v10/products/${id}/variants`, { sku: 'TEE-L', attributes: { size: 'L' } })).status).toBe(
          201,
        );
        const addedAt = t.clock.now();
        const shownAdded = await productShown(id);

        t.clock.advance(MINUTE);
        expect((await patch(`/v10/variants/${variants['TEE-M']}`, { ean: '4006381333931' })).status).toBe(200);
        const changedAt = t.clock.now();
        const shownChanged = await productShown(id);

        expect(await productEvents()).toEqual([
          event('product.created', shownCreated, createdAt),
          event('product.updated', shownRenamed, renamedAt),
          event('product.updated', shownAdded, addedAt),
          event('product.updated', shownChanged, changedAt),
        ]);
      });

      it('announces nothing for a PATCH that changes nothing, and nothing for refused writes', async () => {
        const { id, variants } = await created(
          newProduct('TEE', {
            meta: { fabric: 'cotton' },
            variants: [{ sku: 'TEE-M', attributes: { size: 'M' }, ean: '1' }],
          }),
        );
        const before = await productShown(id);
        t.clock.advance(MINUTE);

        const sameProduct = await patch(`/v10/products/${id}`, { name: 'Product TEE', meta: { fabric: 'cotton' } });
        expect(sameProduct.status).toBe(200);
        expect(sameProduct.body.product).toEqual(before);
        const sameVariant = await patch(`/v10/variants/${variants['TEE-M']}`, { ean: '1', attributes: { size: 'M' } });
        expect(sameVariant.status).toBe(200);
        const empty = await patch(`/v10/products/${id}`, {});
        expect(empty.status).toBe(200);

        expect((await post('/v10/products', newProduct('TEE'))).status).toBe(422);
        expect((await patch(`/v10/products/${id}`, { item_number: 'NEW' })).status).toBe(422);
        expect((await post(`/v10/products/${id}/variants`, { sku: 'TEE-M', attributes: { size: 'S' } })).status).toBe(
          422,
        );

        expect(await productShown(id)).toEqual(before);
        expect((await productEvents()).map((e) => e.type)).toEqual(['product.created']);
      });
    });
  });
}
