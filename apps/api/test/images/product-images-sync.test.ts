import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { DEFAULT_CONFIG } from '../../src/config';
import { Integrator, createIntegrator } from '../support/integrator';
import { buildApp, useTestApp } from '../support/test-app';
import { seedProduct, storedImages, storedProduct } from './support/catalog';
import { ImageServer, startImageServer } from './support/image-server';

interface ImageWire {
  id: number;
  url: string;
  source_url: string;
  existance_key: string | null;
  sort: number;
  sort_b2c: number | null;
  alt: string | null;
  filename: string | null;
  variant_ids: number[];
  action: string;
}
interface ProductWire {
  item_number: string;
  product_id: number;
  use_sort_b2c: boolean;
  images: ImageWire[];
  skipped_images: { index: number; url: string; existance_key: string | null }[];
  deleted_image_ids: number[];
}

/** The path of a public image URL (supertest serves every request on a new port, so hosts differ). */
const pathOf = (url: string): string => new URL(url).pathname;

for (const dialect of testDialects()) {
  describe(`POST /products/images/sync [${dialect}]`, () => {
    const blobDir = join(tmpdir(), `image-sync-test-${process.pid}-${dialect}`);
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
      // A brand per test: every test starts without products or images.
      brand = await createIntegrator(t.storage, t.clock);
    });

    /** A unique image path on the test server, so hit counts are per test. */
    let names = 0;
    const png = (label: string) => `/png/${dialect}-${label}-${(names += 1)}.png`;

    async function sync(body: unknown, who: Integrator = brand) {
      return request(t.server)
        .post('/products/images/sync')
        .set(who.headers)
        .send(body as object);
    }
    async function syncOk(products: unknown[], who: Integrator = brand): Promise<ProductWire[]> {
      const response = await sync({ product_images: products }, who);
      if (response.status !== 200) throw new Error(`sync failed: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body.products as ProductWire[];
    }

    it('downloads the images, stores them and answers with their public URLs', async () => {
      const shirt = await seedProduct(t.storage, t.clock, brand.brandId, 'TS-1');
      const front = png('front');
      const response = await sync({
        product_images: [
          {
            item_number: 'TS-1',
            images: [
              { url: server.url(front), sort: 1, alt: 'Front', filename: 'front.png' },
              { url: server.url('/jpeg/back.jpg'), sort: 2, sort_b2c: 1 },
            ],
          },
        ],
      });
      expect(response.status).toBe(200);
      const [product] = response.body.products as ProductWire[];
      expect(product).toEqual({
        item_number: 'TS-1',
        product_id: shirt.product.id,
        use_sort_b2c: false,
        images: [
          {
            id: expect.any(Number),
            url: expect.stringMatching(
              /^http:\/\/127\.0\.0\.1(:\d+)?\/media\/sha256\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png$/,
            ),
            source_url: server.url(front),
            existance_key: null,
            content_type: 'image/png',
            size_bytes: server.pngBytes(front.slice(5, -4)).length,
            sort: 1,
            sort_b2c: null,
            alt: 'Front',
            filename: 'front.png',
            variant_ids: [],
            created_at: t.clock.now(),
            updated_at: t.clock.now(),
            action: 'created',
          },
          expect.objectContaining({
            url: expect.stringMatching(/\.jpg$/),
            content_type: 'image/jpeg',
            sort: 2,
            sort_b2c: 1,
            action: 'created',
          }),
        ],
        skipped_images: [],
        deleted_image_ids: [],
      });

      // The public URL serves the downloaded bytes, to anyone, cacheably and without sniffing.
      const mediaPath = new URL(product!.images[0]!.url).pathname;
      const media = await request(t.server)
        .get(mediaPath)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(media.status).toBe(200);
      expect(Buffer.from(media.body as Buffer).equals(server.pngBytes(front.slice(5, -4)))).toBe(true);
      expect(media.headers).toMatchObject({
        'content-type': 'image/png',
        'x-content-type-options': 'nosniff',
        'cache-control': 'public, max-age=31536000, immutable',
        'content-security-policy': "default-src 'none'; sandbox",
      });
      const revalidated = await request(t.server)
        .get(mediaPath)
        .set('If-None-Match', media.headers['etag'] as string);
      expect(revalidated.status).toBe(304);
      expect((await request(t.server).head(mediaPath)).status).toBe(200);
    });

    it('uses MEDIA_BASE_URL for the public URLs when it is set', async () => {
      const app = buildApp(t.storage, t.clock, {
        config: { images: { ...images, mediaBaseUrl: 'https://media.brand.example' } },
      });
      await seedProduct(t.storage, t.clock, brand.brandId, 'TS-1');
      const response = await request(app)
        .post('/products/images/sync')
        .set(brand.headers)
        .send({ product_images: [{ item_number: 'TS-1', images: [{ url: server.url(png('a')), sort: 1 }] }] });
      expect(response.status).toBe(200);
      expect(response.body.products[0].images[0].url).toMatch(/^https:\/\/media\.brand\.example\/media\/sha256\//);
    });

    it('replaces the full set: images not sent are deleted, the rest kept or updated', async () => {
      const shirt = await seedProduct(t.storage, t.clock, brand.brandId, 'TS-1');
      const [a, b, c] = [png('a'), png('b'), png('c')];
      const [first] = await syncOk([
        {
          item_number: 'TS-1',
          images: [
            { url: server.url(a), sort: 1 },
            { url: server.url(b), sort: 2 },
            { url: server.url(c), sort: 3 },
          ],
        },
      ]);
      const idOf = (path: string) => first!.images.find((i) => i.source_url === server.url(path))!.id;

      const [second] = await syncOk([
        {
          item_number: 'TS-1',
          images: [
            { url: server.url(a), sort: 1 },
            { url: server.url(c), sort: 5, alt: 'Detail' },
          ],
        },
      ]);
      expect(second!.images.map((i) => [i.id, i.action])).toEqual([
        [idOf(a), 'unchanged'],
        [idOf(c), 'updated'],
      ]);
      expect(second!.deleted_image_ids).toEqual([idOf(b)]);
      expect(
        (await storedImages(t.storage, brand.brandId, shirt.product.id)).map((i) => [i.sourceUrl, i.sort, i.alt]),
      ).toEqual([
        [server.url(a), 1, null],
        [server.url(c), 5, 'Detail'],
      ]);
    });

    it('does not download a URL already received, for the same or another product', async () => {
      await seedProduct(t.storage, t.clock, brand.brandId, 'TS-1');
      await seedProduct(t.storage, t.clock, brand.brandId, 'TS-2');
      await seedProduct(t.storage, t.clock, brand.brandId, 'TS-3');
      const shared = png('shared');
      await syncOk([
        { item_number: 'TS-1', images: [{ url: server.url(shared), sort: 1 }] },
        { item_number: 'TS-2', images: [{ url: server.url(shared), sort: 1 }] },
      ]);
      expect(server.hits(shared)).toBe(1);

      const [again] = await syncOk([{ item_number: 'TS-1', images: [{ url: server.url(shared), sort: 1 }] }]);
      const [other] = await syncOk([{ item_number: 'TS-3', images: [{ url: server.url(shared), sort: 1 }] }]);
      expect(server.hits(shared)).toBe(1);
      expect(again!.images[0]!.action).toBe('unchanged');
      expect(other!.images[0]!.action).toBe('created');
      expect(pathOf(other!.images[0]!.url)).toBe(pathOf(again!.images[0]!.url));
    });

    it('decides by existance_key when sent: a known key is not downloaded again under a new URL', async () => {
      await seedProduct(t.storage, t.clock, brand.brandId, 'TS-1');
      const signed = png('signed');
      const [first] = await syncOk([
        { item_number: 'TS-1', images: [{ url: server.url(`${signed}?sig=1`), existance_key: 'asset-77', sort: 1 }] },
      ]);
      const [second] = await syncOk([
        { item_number: 'TS-1', images: [{ url: server.url(`${signed}?sig=2`), existance_key: 'asset-77', sort: 1 }] },
      ]);
      expect(server.hits(signed)).toBe(1);
      expect(second!.images[0]).toMatchObject({
        id: first!.images[0]!.id,
        source_url: server.url(`${signed}?sig=2`),
        existance_key: 'asset-77',
        action: 'updated',
      });
      expect(pathOf(second!.images[0]!.url)).toBe(pathOf(first!.images[0]!.url));
    });

    it('attaches images to the variants matching the attribute codes, and skips unmatched ones when asked', async () => {
      const shirt = await seedProduct(t.storage, t.clock, brand.brandId, 'TS-1', [
        { color: 'Black', size: 'S' },
        { color: 'Black', size: 'M' },
        { color: 'Red', size: 'S' },
      ]);
      const [blackS, blackM, redS] = shirt.variants.map((v) => v.variant.id);
      const [black, red, green, greenSkipped] = [png('black'), png('red'), png('green'), png('green-skipped')];
      const [result] = await syncOk([
        {
          item_number: 'TS-1',
          images: [
            { url: server.url(black), sort: 1, attach_to_variants_matching_attribute_code: { color: 'BLACK' } },
            { url: server.url(red), sort: 2, attach_to_variants_matching_attribute_code: { Color: 'Red', size: 'S' } },
            { url: server.url(green), sort: 3, attach_to_variants_matching_attribute_code: { color: 'Green' } },
            {
              url: server.url(greenSkipped),
              sort: 4,
              attach_to_variants_matching_attribute_code: { color: 'Green' },
              skip_if_no_variant_matches_attribute_code: true,
            },
          ],
        },
      ]);
      expect(result!.images.map((i) => [i.source_url, i.variant_ids])).toEqual([
        [server.url(black), [blackS, blackM]],
        [server.url(red), [redS]],
        [server.url(green), []],
      ]);
      expect(result!.skipped_images).toEqual([{ index: 3, url: server.url(greenSkipped), existance_key: null }]);
      expect(server.hits(greenSkipped)).toBe(0);
      expect((await storedImages(t.storage, brand.brandId, shirt.product.id)).map((i) => i.variantIds)).toEqual([
        [blackS, blackM],
        [redS],
        [],
      ]);

      // An existing image is kept under the skip flag although its variants no longer match.
      const [kept] = await syncOk([
        {
          item_number: 'TS-1',
          images: [
            {
              url: server.url(black),
              sort: 1,
              attach_to_variants_matching_attribute_code: { color: 'Navy' },
              skip_if_no_variant_matches_attribute_code: true,
            },
          ],
        },
      ]);
      expect(kept!.images).toEqual([
        expect.objectContaining({ source_url: server.url(black), variant_ids: [blackS, blackM], action: 'unchanged' }),
      ]);
      expect(kept!.deleted_image_ids).toHaveLength(2);
    });

    it('sets use_sort_b2c on the product', async () => {
      await seedProduct(t.storage, t.clock, brand.brandId, 'TS-1');
      const [result] = await syncOk([{ item_number: 'TS-1', use_sort_b2c: true, images: [] }]);
      expect(result!.use_sort_b2c).toBe(true);
      expect((await storedProduct(t.storage, brand.brandId, 'TS-1'))!.useSortB2c).toBe(true);
    });

    it('accepts the products under "products" (the sample body) as well as "product_images", not both', async () => {
      await seedProduct(t.storage, t.clock, brand.brandId, 'TS-1');
      const viaProducts = await sync({
        products: [{ item_number: 'TS-1', images: [{ url: server.url(png('p')), sort: 1 }] }],
      });
      expect(viaProducts.status).toBe(200);
      expect(viaProducts.body.products[0].images[0].action).toBe('created');

      const both = await sync({
        product_images: [{ item_number: 'TS-1', images: [] }],
        products: [{ item_number: 'TS-1', images: [] }],
      });
      expect(both.status).toBe(422);
      expect(both.body.errors).toEqual([
        expect.objectContaining({
          code: 'validation_failed',
          source: { pointer: '/products' },
          detail: expect.stringMatching(/cannot be sent together with product_images/),
        }),
      ]);

      const neither = await sync({});
      expect(neither.status).toBe(422);
      expect(neither.body.errors).toEqual([
        expect.objectContaining({
          source: { pointer: '/product_images' },
          detail: expect.stringMatching(/must be an array of products/),
        }),
      ]);
    });

    it('refuses more than 10 products per request', async () => {
      const eleven = Array.from({ length: 11 }, (_, i) => ({ item_number: `P-${i}`, images: [] }));
      for (const key of ['product_images', 'products']) {
        const response = await sync({ [key]: eleven });
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          expect.objectContaining({
            source: { pointer: `/${key}` },
            detail: `${key} must contain at most 10 products per request; split larger batches`,
          }),
        ]);
      }
    });

    it('refuses invalid images with one error per field', async () => {
      const response = await sync({
        product_images: [
          {
            item_number: 'TS-1',
            images: [{ sort: 1.5 }, { url: 'x', sort: 1, attach_to_variants_matching_attribute_code: ['color'] }],
          },
        ],
      });
      expect(response.status).toBe(422);
      expect(response.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
        '/product_images/0/images/0/sort',
        '/product_images/0/images/0/url',
        '/product_images/0/images/1/attach_to_variants_matching_attribute_code',
      ]);
    });

    it('refuses an unknown item number', async () => {
      const response = await sync({ product_images: [{ item_number: 'NOPE', images: [] }] });
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          source: { pointer: '/product_images/0/item_number' },
          detail: 'product_images[0].item_number does not exist: no product has item number NOPE',
        }),
      ]);
    });

    it('answers 422 naming the URL when a download fails, and writes nothing', async () => {
      const shirt = await seedProduct(t.storage, t.clock, brand.brandId, 'TS-1');
      await seedProduct(t.storage, t.clock, brand.brandId, 'TS-2');
      const kept = png('kept');
      await syncOk([{ item_number: 'TS-1', images: [{ url: server.url(kept), sort: 1 }] }]);
      const fresh = png('fresh');

      const response = await sync({
        product_images: [
          { item_number: 'TS-1', use_sort_b2c: true, images: [{ url: server.url(fresh), sort: 1 }] },
          {
            item_number: 'TS-2',
            images: [
              { url: server.url('/missing.png'), sort: 1 },
              { url: server.url('/html'), sort: 2 },
            ],
          },
        ],
      });
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          code: 'validation_failed',
          source: { pointer: '/product_images/1/images/0/url' },
          detail: 'product_images[1].images[0].url could not be downloaded: the server answered 404 Not Found',
        }),
        expect.objectContaining({
          source: { pointer: '/product_images/1/images/1/url' },
          detail: expect.stringMatching(/could not be downloaded: the server sent Content-Type "text\/html/),
        }),
      ]);
      expect((await storedImages(t.storage, brand.brandId, shirt.product.id)).map((i) => i.sourceUrl)).toEqual([
        server.url(kept),
      ]);
      expect((await storedProduct(t.storage, brand.brandId, 'TS-1'))!.useSortB2c).toBe(false);

      // Nothing of the failed request stays behind: sending it again downloads the good image again.
      await syncOk([{ item_number: 'TS-1', images: [{ url: server.url(fresh), sort: 1 }] }]);
      expect(server.hits(fresh)).toBe(2);
    });

    it('names the pointer under "products" when the products were sent under that key', async () => {
      const impatient = buildApp(t.storage, t.clock, { config: { images: { ...images, fetchTimeoutMs: 300 } } });
      await seedProduct(t.storage, t.clock, brand.brandId, 'TS-1');
      const response = await request(impatient)
        .post('/products/images/sync')
        .set(brand.headers)
        .send({ products: [{ item_number: 'TS-1', images: [{ url: server.url('/slow.png?ms=3000'), sort: 1 }] }] });
      expect(response.status).toBe(422);
      expect(response.body.errors[0]).toMatchObject({
        source: { pointer: '/products/0/images/0/url' },
        detail: expect.stringMatching(/did not finish within 300 ms/),
      });
    });

    it('refuses images on loopback and private addresses unless allowlisted', async () => {
      const strict = buildApp(t.storage, t.clock, { config: { images: { ...images, allowedHosts: [] } } });
      await seedProduct(t.storage, t.clock, brand.brandId, 'TS-1');
      const local = png('local');
      for (const url of [server.url(local), 'http://169.254.169.254/latest/meta-data/iam', 'http://[::1]/a.png']) {
        const response = await request(strict)
          .post('/products/images/sync')
          .set(brand.headers)
          .send({ product_images: [{ item_number: 'TS-1', images: [{ url, sort: 1 }] }] });
        expect(response.status).toBe(422);
        expect(response.body.errors[0].detail).toMatch(
          /could not be downloaded: its host resolves to .* which image downloads may not reach/,
        );
      }
      expect(server.hits(local)).toBe(0);
    });

    it("keeps brands apart: no syncing another brand's product, no reuse of another brand's downloads", async () => {
      await seedProduct(t.storage, t.clock, brand.brandId, 'TS-1');
      const other = await createIntegrator(t.storage, t.clock);
      await seedProduct(t.storage, t.clock, other.brandId, 'OTHER-1');
      const theirs = png('theirs');
      await syncOk([{ item_number: 'OTHER-1', images: [{ url: server.url(theirs), sort: 1 }] }], other);

      const foreign = await sync({ product_images: [{ item_number: 'OTHER-1', images: [] }] });
      expect(foreign.status).toBe(422);
      expect(foreign.body.errors[0].source).toEqual({ pointer: '/product_images/0/item_number' });

      const [mine] = await syncOk([{ item_number: 'TS-1', images: [{ url: server.url(theirs), sort: 1 }] }]);
      expect(mine!.images[0]!.action).toBe('created');
      expect(server.hits(theirs)).toBe(2);
      expect(
        await storedImages(t.storage, other.brandId, (await storedProduct(t.storage, other.brandId, 'OTHER-1'))!.id),
      ).toHaveLength(1);
    });

    it('needs the catalog:write scope', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['catalog:read'] });
      const response = await sync({ product_images: [{ item_number: 'TS-1', images: [] }] }, reader);
      expect(response.status).toBe(403);
      expect(response.body.errors[0]).toMatchObject({
        code: 'insufficient_scope',
        meta: { missing_scopes: ['catalog:write'] },
      });
    });

    it('needs a token', async () => {
      const response = await request(t.server).post('/products/images/sync').send({ product_images: [] });
      expect(response.status).toBe(401);
    });
  });

  describe(`GET /media/<key> [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it.each([
      ['/media/sha256/ab/cd/abcd' + '0'.repeat(60) + '.png'],
      ['/media/sha256/../../../etc/passwd'],
      ['/media/sha256/%2e%2e/%2e%2e/secret.png'],
      ['/media/..%2f..%2fpackage.json'],
      ['/media/anything'],
    ])('answers 404 for %s, a key it does not hold or that is not a key', async (path) => {
      const response = await request(t.server).get(path);
      expect(response.status).toBe(404);
      expect(response.body.errors[0].status).toBe(404);
    });

    it('answers 405 to other methods', async () => {
      const response = await request(t.server).delete(`/media/sha256/ab/cd/abcd${'0'.repeat(60)}.png`);
      expect(response.status).toBe(405);
      expect(response.headers['allow']).toBe('GET, HEAD, OPTIONS');
    });
  });
}
