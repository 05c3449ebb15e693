import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DEFAULT_LOCATION_NAME } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { DEFAULT_CONFIG } from '../src/config';
import { ImageServer, startImageServer } from './images/support/image-server';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

interface ProductOutcome {
  item_number: string;
  id: number | null;
  action: string;
  variants: { sku: string; id: number | null; action: string }[];
}

for (const dialect of testDialects()) {
  describe(`POST /products/sync: inventory and images [${dialect}]`, () => {
    const blobDir = join(tmpdir(), `product-sync-test-${process.pid}-${dialect}`);
    // 127.0.0.1 is where the test image server listens; real deployments allowlist nothing.
    const images = {
      ...DEFAULT_CONFIG.images,
      allowedHosts: ['127.0.0.1'],
      blobDir,
      fetchTimeoutMs: 2000,
      maxBytes: 256 * 1024,
    };
    const t = useTestApp(dialect, { images });
    let server: ImageServer;
    let brand: Integrator;

    beforeAll(async () => {
      server = await startImageServer();
    });
    afterAll(async () => {
      await server.close();
      await rm(blobDir, { recursive: true, force: true });
    });
    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
    });

    /** A unique image path on the test server, so hit counts are per test. */
    let names = 0;
    const png = (label: string) => `/png/${dialect}-${label}-${(names += 1)}.png`;

    const post = (products: unknown[]) =>
      request(t.server).post('/products/sync').set(brand.headers).send({ products });
    async function sync(products: unknown[]): Promise<ProductOutcome[]> {
      const response = await post(products);
      if (response.status !== 200) throw new Error(`sync failed: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body.products as ProductOutcome[];
    }
    const ledger = (variantId: number) => t.storage.uow.read((r) => r.stock.movements(brand.brandId, variantId, 20));
    const balances = (variantId: number) => t.storage.uow.read((r) => r.stock.balances(brand.brandId, [variantId]));

    describe('inventory', () => {
      it('sets stock with quantity and moves it with adjustment, one ledger row per change, at the default location', async () => {
        const [created] = await sync([
          {
            item_number: 'A',
            name: 'A',
            variants: [{ sku: 'A-M', attributes: { size: 'M' }, inventory: [{ quantity: 10, text: 'initial count' }] }],
          },
        ]);
        const variantId = created!.variants[0]!.id!;
        const location = await t.storage.uow.read((r) => r.inventoryLocations.findDefault(brand.brandId));
        expect(location).toMatchObject({ name: DEFAULT_LOCATION_NAME, isDefault: true });

        t.clock.advance(1000);
        const [updated] = await sync([
          {
            item_number: 'A',
            variants: [{ sku: 'A-M', inventory: [{ quantity: 7 }, { adjustment: 5, text: 'found' }] }],
          },
        ]);
        expect(updated).toMatchObject({ action: 'updated', variants: [{ sku: 'A-M', action: 'updated' }] });

        expect(await balances(variantId)).toEqual([
          expect.objectContaining({ locationId: location!.id, inStock: 12, reserved: 0 }),
        ]);
        expect((await ledger(variantId)).map((m) => [m.inStockDelta, m.reason, m.note, m.userId])).toEqual([
          [5, 'sync_adjustment', 'found', brand.userId],
          [-3, 'sync_quantity', null, brand.userId],
          [10, 'sync_quantity', 'initial count', brand.userId],
        ]);
        const available = await request(t.server).get('/v10/inventory-available').set(brand.headers);
        expect(available.body.inventory).toEqual(
          expect.arrayContaining([expect.objectContaining({ sku: 'A-M', in_stock: 12, available: 12 })]),
        );

        // The same quantity again moves nothing.
        const [replay] = await sync([{ item_number: 'A', variants: [{ sku: 'A-M', inventory: [{ quantity: 12 }] }] }]);
        expect(replay).toMatchObject({ action: 'unchanged', variants: [{ action: 'unchanged' }] });
        expect(await ledger(variantId)).toHaveLength(3);
      });

      it('books at a named location, and refuses a stock below 0, an unknown location and no_inventory products, writing nothing', async () => {
        const shop = await request(t.server).post('/v10/inventory-locations').set(brand.headers).send({ name: 'Shop' });
        expect(shop.status).toBe(201);
        const shopId = shop.body.inventory_location.id as number;
        const [created] = await sync([
          {
            item_number: 'A',
            name: 'A',
            variants: [
              { sku: 'A-M', attributes: { size: 'M' }, inventory: [{ quantity: 2, inventory_location_id: shopId }] },
            ],
          },
          {
            item_number: 'GIFT',
            name: 'Gift card',
            no_inventory: true,
            variants: [{ sku: 'GIFT-50', attributes: { value: '50' } }],
          },
        ]);
        const variantId = created!.variants[0]!.id!;
        expect(await balances(variantId)).toEqual([expect.objectContaining({ locationId: shopId, inStock: 2 })]);

        const refused = await post([
          {
            item_number: 'A',
            name: 'Renamed',
            variants: [
              {
                sku: 'A-M',
                inventory: [
                  { adjustment: -3, inventory_location_id: shopId },
                  { quantity: 1, inventory_location_id: 999999 },
                  { quantity: 1, adjustment: 1 },
                ],
              },
            ],
          },
          { item_number: 'GIFT', variants: [{ sku: 'GIFT-50', inventory: [{ quantity: 1 }] }] },
        ]);
        expect(refused.status).toBe(422);
        expect(
          refused.body.errors.map((e: { source: { pointer: string }; detail: string }) => [e.source.pointer, e.detail]),
        ).toEqual([
          [
            '/products/0/variants/0/inventory/1/inventory_location_id',
            'products[0].variants[0].inventory[1].inventory_location_id names inventory location 999999, which does not exist',
          ],
          [
            '/products/0/variants/0/inventory/2',
            'products[0].variants[0].inventory[2] must give exactly one of quantity (sets the stock) and adjustment (changes it)',
          ],
          [
            '/products/0/variants/0/inventory/0/adjustment',
            'products[0].variants[0].inventory[0].adjustment would take the stock below 0 (in stock 2, adjustment -3)',
          ],
          [
            '/products/1/variants/0/inventory',
            'products[1].variants[0].inventory cannot be sent: product "GIFT" has no_inventory, so no stock is kept for it',
          ],
        ]);
        expect(await balances(variantId)).toEqual([expect.objectContaining({ inStock: 2 })]);
        expect(
          (await t.storage.uow.read((r) => r.products.findByItemNumbers(brand.brandId, ['A'])))[0]!.product.name,
        ).toBe('A');
      });
    });

    describe('images', () => {
      it('downloads each URL once, attaches the image to the variants, and does not download a known URL again', async () => {
        const front = png('front');
        const back = png('back');
        const [created] = await sync([
          {
            item_number: 'A',
            name: 'A',
            variants: [
              {
                sku: 'A-S',
                attributes: { size: 'S' },
                images: [{ url: server.url(front), alt: 'Front' }, { url: server.url(back) }],
              },
              { sku: 'A-M', attributes: { size: 'M' }, images: [{ url: server.url(front) }] },
            ],
          },
        ]);
        expect(server.hits(front)).toBe(1);
        expect(server.hits(back)).toBe(1);
        const [small, medium] = created!.variants.map((v) => v.id!);

        const detail = await request(t.server).get(`/v10/products/${created!.id}?includes[]=images`).set(brand.headers);
        expect(detail.status).toBe(200);
        expect(detail.body.product.images).toEqual([
          expect.objectContaining({
            source_url: server.url(front),
            alt: 'Front',
            sort: 1,
            variant_ids: [small, medium].sort((a, b) => a! - b!),
          }),
          expect.objectContaining({ source_url: server.url(back), alt: null, sort: 2, variant_ids: [small] }),
        ]);
        const media = await request(t.server).get(new URL(detail.body.product.images[0].url, 'http://x').pathname);
        expect(media.status).toBe(200);
        expect(
          Buffer.from(media.body as Buffer).equals(server.pngBytes(front.slice('/png/'.length, -'.png'.length))),
        ).toBe(true);

        // Another product with the same URL: no new download, the bytes are shared.
        const [other] = await sync([
          {
            item_number: 'B',
            name: 'B',
            variants: [{ sku: 'B-M', attributes: { size: 'M' }, images: [{ url: server.url(front) }] }],
          },
        ]);
        expect(server.hits(front)).toBe(1);
        const otherImages = await t.storage.uow.read((r) =>
          r.productImages.findByProductIds(brand.brandId, [other!.id!]),
        );
        expect(otherImages).toEqual([
          expect.objectContaining({ sourceUrl: server.url(front), variantIds: [other!.variants[0]!.id] }),
        ]);

        const [replay] = await sync([
          { item_number: 'A', variants: [{ sku: 'A-M', images: [{ url: server.url(front) }] }] },
        ]);
        expect(replay).toMatchObject({ action: 'unchanged', variants: [{ action: 'unchanged' }] });
      });

      it('reports an image that cannot be downloaded at its pointer, and writes nothing', async () => {
        const response = await post([
          {
            item_number: 'A',
            name: 'A',
            variants: [
              {
                sku: 'A-M',
                attributes: { size: 'M' },
                images: [{ url: server.url(png('ok')) }, { url: server.url('/missing.png') }],
              },
            ],
          },
        ]);
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          expect.objectContaining({
            code: 'validation_failed',
            source: { pointer: '/products/0/variants/0/images/1/url' },
            detail: expect.stringContaining('could not be downloaded'),
          }),
        ]);
        expect(await t.storage.uow.read((r) => r.products.findByItemNumbers(brand.brandId, ['A']))).toEqual([]);
      });
    });
  });
}
