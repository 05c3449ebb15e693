import {
  BlobStore,
  DomainError,
  FetchedImage,
  FixedClock,
  ImageFetcher,
  Product,
  ProductAggregate,
  ProductImage,
  ProductImagesSyncItem,
  UnitOfWork,
  Variant,
  createBrand,
  isDomainError,
  syncProductImages,
} from '../src';
import { variantsMatching } from '../src/catalog/product-images-matching';
import { InMemoryUnitOfWork } from '../src/testing';

const START = '2026-03-01T08:00:00.000Z';
const CDN = 'https://cdn.example.com';

// The core's compiler settings know no TextEncoder; the fake bytes are ASCII anyway.
const ascii = (value: string): Uint8Array => Uint8Array.from(value, (c) => c.charCodeAt(0));
const text = (bytes: Uint8Array): string => String.fromCharCode(...bytes);

/** Serves made-up image bytes for any URL except those it was told to fail, and counts requests per URL. */
class FakeFetcher implements ImageFetcher {
  readonly requests: string[] = [];
  private readonly failing = new Map<string, string>();

  failFor(url: string, reason: string): void {
    this.failing.set(url, reason);
  }

  timesFetched(url: string): number {
    return this.requests.filter((u) => u === url).length;
  }

  async fetch(url: string): Promise<FetchedImage> {
    this.requests.push(url);
    const reason = this.failing.get(url);
    if (reason) throw new DomainError('image_download_failed', reason);
    return { bytes: ascii(`bytes of ${url}`), contentType: 'image/png' };
  }
}

/** A blob store in memory, keyed by the bytes' text (content-addressed like the real one). */
class MemoryBlobStore implements BlobStore {
  readonly blobs = new Map<string, FetchedImage>();

  async put(bytes: Uint8Array, contentType: string): Promise<string> {
    const key = `mem/${text(bytes).replace(/[^\w.-]+/g, '_')}`;
    this.blobs.set(key, { bytes, contentType });
    return key;
  }

  async get(key: string): Promise<FetchedImage | null> {
    return this.blobs.get(key) ?? null;
  }

  async delete(key: string): Promise<void> {
    this.blobs.delete(key);
  }
}

function aProduct(id: number, brandId: number, itemNumber: string): Product {
  return {
    id,
    brandId,
    itemNumber,
    name: `Product ${itemNumber}`,
    description: null,
    active: true,
    makeToOrderB2b: false,
    makeToOrderB2c: false,
    meta: {},
    weight: null,
    weightType: 'g',
    noInventory: false,
    releaseDate: null,
    noos: false,
    minOrderQuantity: null,
    customSort: null,
    orderColliOnly: false,
    colli: [],
    url: null,
    metaTitle: null,
    metaDescription: null,
    tags: [],
    useSortB2c: false,
    subbrandId: null,
    collectionId: null,
    categoryIds: [],
    createdAt: START,
    updatedAt: START,
  };
}

function aVariant(
  id: number,
  product: Product,
  sku: string,
  attributes: Record<string, string>,
  position: number,
): Variant {
  return {
    id,
    brandId: product.brandId,
    productId: product.id,
    sku,
    ean: null,
    attributes,
    archived: false,
    b2cAvailable: true,
    makeToOrderB2b: null,
    makeToOrderB2c: null,
    noos: null,
    weight: null,
    weightType: null,
    releaseDate: null,
    meta: {},
    picture: null,
    position,
    dropIds: [],
    createdAt: START,
    updatedAt: START,
  };
}

async function setUp() {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock(START);
  const fetcher = new FakeFetcher();
  const blobs = new MemoryBlobStore();
  const brand = await createBrand({ uow, clock }, { name: 'North Knits', currency: 'EUR' });

  /** A product with variants of the given attributes (SKU `<item>-<n>`). */
  async function product(
    itemNumber: string,
    variants: Record<string, string>[] = [{ color: 'Black', size: 'M' }],
    brandId = brand.id,
  ): Promise<ProductAggregate> {
    return uow.run(async (tx) => {
      const [productId] = await tx.ids.next('products');
      const variantIds = await tx.ids.next('variants', variants.length);
      const p = aProduct(productId!, brandId, itemNumber);
      const aggregate: ProductAggregate = {
        product: p,
        variants: variants.map((attributes, i) => ({
          variant: aVariant(variantIds[i]!, p, `${itemNumber}-${i + 1}`, attributes, i),
          prices: [],
          costPrices: [],
        })),
        suppliers: [],
        translations: [],
      };
      await tx.products.saveAll(brandId, [aggregate]);
      return aggregate;
    });
  }

  const sync = (
    products: ProductImagesSyncItem[],
    options: { via?: UnitOfWork; listKey?: string; brandId?: number } = {},
  ) =>
    syncProductImages(
      { uow: options.via ?? uow, clock, fetcher, blobs },
      { brandId: options.brandId ?? brand.id, products, ...(options.listKey ? { listKey: options.listKey } : {}) },
    );
  const imagesOf = async (productId: number, brandId = brand.id): Promise<ProductImage[]> =>
    (await uow.read((r) => r.productImages.findByProductIds(brandId, [productId]))).sort(
      (a, b) => a.sort - b.sort || a.id - b.id,
    );
  const productOf = async (itemNumber: string) =>
    (await uow.read((r) => r.products.findByItemNumbers(brand.id, [itemNumber])))[0]!.product;
  return { uow, clock, fetcher, blobs, brand, product, sync, imagesOf, productOf };
}

/** The violations a refused sync names, as pointer → detail. */
async function violationsOf(outcome: Promise<unknown>): Promise<Record<string, string>> {
  try {
    await outcome;
  } catch (error) {
    if (isDomainError(error) && error.code === 'validation_failed')
      return Object.fromEntries(error.violations.map((v) => [v.pointer, v.detail]));
    throw error;
  }
  throw new Error('expected the sync to be refused');
}

describe('syncProductImages', () => {
  it('creates the images sent, downloading each URL and storing its bytes', async () => {
    const t = await setUp();
    const shirt = await t.product('TS-1');
    const [result] = await t.sync([
      {
        itemNumber: 'TS-1',
        images: [
          { url: `${CDN}/front.png`, sort: 1, alt: 'Front' },
          { url: `${CDN}/back.png`, sort: 2, sortB2c: 5, filename: 'back.png' },
        ],
      },
    ]);
    expect(result).toMatchObject({
      itemNumber: 'TS-1',
      productId: shirt.product.id,
      useSortB2c: false,
      deletedImageIds: [],
      skippedImages: [],
    });
    expect(result!.images.map((i) => [i.index, i.action, i.image.sourceUrl])).toEqual([
      [0, 'created', `${CDN}/front.png`],
      [1, 'created', `${CDN}/back.png`],
    ]);
    const stored = await t.imagesOf(shirt.product.id);
    expect(stored).toEqual([
      expect.objectContaining({
        sourceUrl: `${CDN}/front.png`,
        sort: 1,
        sortB2c: null,
        alt: 'Front',
        filename: null,
        existanceKey: null,
        variantIds: [],
        contentType: 'image/png',
        createdAt: START,
      }),
      expect.objectContaining({ sourceUrl: `${CDN}/back.png`, sort: 2, sortB2c: 5, alt: null, filename: 'back.png' }),
    ]);
    expect(text((await t.blobs.get(stored[0]!.blobKey))!.bytes)).toBe(`bytes of ${CDN}/front.png`);
    expect(stored[0]!.sizeBytes).toBe(`bytes of ${CDN}/front.png`.length);
  });

  it('replaces the full set: images not sent are deleted, sent ones are updated or left unchanged', async () => {
    const t = await setUp();
    const shirt = await t.product('TS-1');
    await t.sync([
      {
        itemNumber: 'TS-1',
        images: [
          { url: `${CDN}/a.png`, sort: 1 },
          { url: `${CDN}/b.png`, sort: 2 },
          { url: `${CDN}/c.png`, sort: 3 },
        ],
      },
    ]);
    const [a, b, c] = await t.imagesOf(shirt.product.id);
    t.clock.advance(1000);

    const [result] = await t.sync([
      {
        itemNumber: 'TS-1',
        images: [
          { url: `${CDN}/c.png`, sort: 3 },
          { url: `${CDN}/a.png`, sort: 10, alt: 'new alt' },
          { url: `${CDN}/d.png`, sort: 4 },
        ],
      },
    ]);
    expect(result!.images.map((i) => [i.image.sourceUrl, i.action])).toEqual([
      [`${CDN}/c.png`, 'unchanged'],
      [`${CDN}/a.png`, 'updated'],
      [`${CDN}/d.png`, 'created'],
    ]);
    expect(result!.images[0]!.image.id).toBe(c!.id);
    expect(result!.images[1]!.image.id).toBe(a!.id);
    expect(result!.deletedImageIds).toEqual([b!.id]);
    expect((await t.imagesOf(shirt.product.id)).map((i) => [i.sourceUrl, i.sort, i.alt])).toEqual([
      [`${CDN}/c.png`, 3, null],
      [`${CDN}/d.png`, 4, null],
      [`${CDN}/a.png`, 10, 'new alt'],
    ]);
  });

  it('deletes every image when an empty list is sent', async () => {
    const t = await setUp();
    const shirt = await t.product('TS-1');
    await t.sync([{ itemNumber: 'TS-1', images: [{ url: `${CDN}/a.png`, sort: 1 }] }]);
    const [result] = await t.sync([{ itemNumber: 'TS-1', images: [] }]);
    expect(result!.deletedImageIds).toHaveLength(1);
    expect(await t.imagesOf(shirt.product.id)).toEqual([]);
  });

  it('does not download a URL the product or the brand already has, but reuses its bytes', async () => {
    const t = await setUp();
    await t.product('TS-1');
    const dress = await t.product('DR-1');
    await t.sync([{ itemNumber: 'TS-1', images: [{ url: `${CDN}/shared.png`, sort: 1 }] }]);
    expect(t.fetcher.timesFetched(`${CDN}/shared.png`)).toBe(1);

    await t.sync([{ itemNumber: 'TS-1', images: [{ url: `${CDN}/shared.png`, sort: 1 }] }]);
    const [result] = await t.sync([{ itemNumber: 'DR-1', images: [{ url: `${CDN}/shared.png`, sort: 1 }] }]);
    expect(t.fetcher.timesFetched(`${CDN}/shared.png`)).toBe(1);
    expect(result!.images[0]!.action).toBe('created');
    const [shirtImage] = await t.imagesOf((await t.productOf('TS-1')).id);
    const [dressImage] = await t.imagesOf(dress.product.id);
    expect(dressImage!.blobKey).toBe(shirtImage!.blobKey);
    expect(dressImage!.id).not.toBe(shirtImage!.id);
  });

  it('downloads up to 4 images at a time and reports failures in request order', async () => {
    const t = await setUp();
    await t.product('TS-1');
    let inFlight = 0;
    let most = 0;
    const slow: ImageFetcher = {
      fetch: async (url) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        // Yield for a while (the core's compiler settings know no timers) so that lanes overlap.
        for (let tick = 0; tick < (url.includes('/0.png') ? 50 : 5); tick += 1) await Promise.resolve();
        inFlight -= 1;
        return t.fetcher.fetch(url);
      },
    };
    t.fetcher.failFor(`${CDN}/1.png`, 'first failure');
    t.fetcher.failFor(`${CDN}/4.png`, 'second failure');
    const images = Array.from({ length: 10 }, (_, i) => ({ url: `${CDN}/${i}.png`, sort: i }));
    const violations = await violationsOf(
      syncProductImages(
        { uow: t.uow, clock: t.clock, fetcher: slow, blobs: t.blobs },
        { brandId: t.brand.id, products: [{ itemNumber: 'TS-1', images }] },
      ),
    );
    expect(most).toBe(4);
    expect(Object.keys(violations)).toEqual(['/product_images/0/images/1/url', '/product_images/0/images/4/url']);
    expect(t.fetcher.requests).toHaveLength(10);
  });

  it('downloads a URL sent for several products of one request once', async () => {
    const t = await setUp();
    await t.product('TS-1');
    await t.product('TS-2');
    await t.sync([
      { itemNumber: 'TS-1', images: [{ url: `${CDN}/logo.png`, sort: 1 }] },
      { itemNumber: 'TS-2', images: [{ url: `${CDN}/logo.png`, sort: 1 }] },
    ]);
    expect(t.fetcher.timesFetched(`${CDN}/logo.png`)).toBe(1);
  });

  describe('existance_key', () => {
    it('decides instead of the URL: a known key is not downloaded again, even under a new URL', async () => {
      const t = await setUp();
      const shirt = await t.product('TS-1');
      await t.sync([
        { itemNumber: 'TS-1', images: [{ url: `${CDN}/a.png?signature=1`, existanceKey: 'img-a', sort: 1 }] },
      ]);
      const [before] = await t.imagesOf(shirt.product.id);

      const [result] = await t.sync([
        { itemNumber: 'TS-1', images: [{ url: `${CDN}/a.png?signature=2`, existanceKey: 'img-a', sort: 1 }] },
      ]);
      expect(t.fetcher.requests).toEqual([`${CDN}/a.png?signature=1`]);
      expect(result!.images[0]).toMatchObject({
        action: 'updated',
        image: { id: before!.id, sourceUrl: `${CDN}/a.png?signature=2`, blobKey: before!.blobKey },
      });
    });

    it("reuses the bytes of another product's image with the same key", async () => {
      const t = await setUp();
      await t.product('TS-1');
      const dress = await t.product('DR-1');
      await t.sync([{ itemNumber: 'TS-1', images: [{ url: `${CDN}/x.png?sig=1`, existanceKey: 'k-1', sort: 1 }] }]);
      await t.sync([{ itemNumber: 'DR-1', images: [{ url: `${CDN}/x.png?sig=2`, existanceKey: 'k-1', sort: 1 }] }]);
      expect(t.fetcher.requests).toEqual([`${CDN}/x.png?sig=1`]);
      expect((await t.imagesOf(dress.product.id))[0]).toMatchObject({
        existanceKey: 'k-1',
        sourceUrl: `${CDN}/x.png?sig=2`,
      });
    });

    it('downloads a known URL again under a new key: the key says the bytes changed', async () => {
      const t = await setUp();
      const shirt = await t.product('TS-1');
      await t.sync([{ itemNumber: 'TS-1', images: [{ url: `${CDN}/front.png`, existanceKey: 'v1', sort: 1 }] }]);
      const [old] = await t.imagesOf(shirt.product.id);
      const [result] = await t.sync([
        { itemNumber: 'TS-1', images: [{ url: `${CDN}/front.png`, existanceKey: 'v2', sort: 1 }] },
      ]);
      expect(t.fetcher.timesFetched(`${CDN}/front.png`)).toBe(2);
      expect(result!.images[0]!.action).toBe('created');
      expect(result!.deletedImageIds).toEqual([old!.id]);
    });
  });

  describe('attach_to_variants_matching_attribute_code', () => {
    const colours = [
      { color: 'Black', size: 'S' },
      { color: 'Black', size: 'M' },
      { color: 'Red', size: 'S' },
    ];

    it('attaches the image to every variant holding all pairs, comparing case-insensitively', async () => {
      const t = await setUp();
      const shirt = await t.product('TS-1', colours);
      const [black1, black2, red] = shirt.variants.map((v) => v.variant.id);
      const [result] = await t.sync([
        {
          itemNumber: 'TS-1',
          images: [
            { url: `${CDN}/black.png`, sort: 1, attachToVariantsMatching: { COLOR: 'black' } },
            { url: `${CDN}/red-s.png`, sort: 2, attachToVariantsMatching: { color: 'Red', size: 's' } },
            { url: `${CDN}/all.png`, sort: 3 },
            { url: `${CDN}/empty.png`, sort: 4, attachToVariantsMatching: {} },
          ],
        },
      ]);
      expect(result!.images.map((i) => i.image.variantIds)).toEqual([[black1, black2], [red], [], []]);
    });

    it('updates the attachments when the pairs change', async () => {
      const t = await setUp();
      const shirt = await t.product('TS-1', colours);
      const red = shirt.variants[2]!.variant.id;
      await t.sync([
        {
          itemNumber: 'TS-1',
          images: [{ url: `${CDN}/x.png`, sort: 1, attachToVariantsMatching: { color: 'Black' } }],
        },
      ]);
      const [result] = await t.sync([
        { itemNumber: 'TS-1', images: [{ url: `${CDN}/x.png`, sort: 1, attachToVariantsMatching: { color: 'Red' } }] },
      ]);
      expect(result!.images[0]).toMatchObject({ action: 'updated', image: { variantIds: [red] } });
    });

    it('without the skip flag, creates an image matching no variant for the whole product', async () => {
      const t = await setUp();
      await t.product('TS-1', colours);
      const [result] = await t.sync([
        {
          itemNumber: 'TS-1',
          images: [{ url: `${CDN}/green.png`, sort: 1, attachToVariantsMatching: { color: 'Green' } }],
        },
      ]);
      expect(result!.images[0]).toMatchObject({ action: 'created', image: { variantIds: [] } });
    });

    it('with the skip flag, does not create (or download) an image matching no variant', async () => {
      const t = await setUp();
      const shirt = await t.product('TS-1', colours);
      const [result] = await t.sync([
        {
          itemNumber: 'TS-1',
          images: [
            {
              url: `${CDN}/green.png`,
              sort: 1,
              attachToVariantsMatching: { color: 'Green' },
              skipIfNoVariantMatches: true,
            },
            {
              url: `${CDN}/black.png`,
              sort: 2,
              attachToVariantsMatching: { color: 'Black' },
              skipIfNoVariantMatches: true,
            },
          ],
        },
      ]);
      expect(result!.skippedImages).toEqual([{ index: 0, url: `${CDN}/green.png`, existanceKey: null }]);
      expect(result!.images.map((i) => [i.index, i.image.sourceUrl])).toEqual([[1, `${CDN}/black.png`]]);
      expect(t.fetcher.timesFetched(`${CDN}/green.png`)).toBe(0);
      expect(await t.imagesOf(shirt.product.id)).toHaveLength(1);
    });

    it('with the skip flag, keeps an existing image whose variants no longer match, with its attachments', async () => {
      const t = await setUp();
      const shirt = await t.product('TS-1', colours);
      const [black1, black2] = shirt.variants.map((v) => v.variant.id);
      await t.sync([
        {
          itemNumber: 'TS-1',
          images: [{ url: `${CDN}/black.png`, sort: 1, attachToVariantsMatching: { color: 'Black' } }],
        },
      ]);
      const [result] = await t.sync([
        {
          itemNumber: 'TS-1',
          images: [
            {
              url: `${CDN}/black.png`,
              sort: 7,
              attachToVariantsMatching: { color: 'Noir' },
              skipIfNoVariantMatches: true,
            },
          ],
        },
      ]);
      expect(result!.deletedImageIds).toEqual([]);
      expect(result!.skippedImages).toEqual([]);
      expect(result!.images[0]).toMatchObject({ action: 'updated', image: { sort: 7, variantIds: [black1, black2] } });
    });

    it('matches variants by attribute pairs (pure helper)', () => {
      const variant = (id: number, attributes: Record<string, string>, position = id): Variant =>
        aVariant(id, aProduct(1, 1, 'X'), `X-${id}`, attributes, position);
      const variants = [
        variant(3, { Color: ' Blue ', Size: 'L' }, 0),
        variant(1, { color: 'blue', size: 'M' }, 1),
        variant(2, { color: 'Red' }, 2),
      ];
      expect(variantsMatching(variants, { color: 'BLUE' })).toEqual([3, 1]);
      expect(variantsMatching(variants, { color: 'blue', size: 'm' })).toEqual([1]);
      expect(variantsMatching(variants, { fit: 'slim' })).toEqual([]);
    });
  });

  it('sets use_sort_b2c when sent and keeps it when not', async () => {
    const t = await setUp();
    await t.product('TS-1');
    const [first] = await t.sync([{ itemNumber: 'TS-1', useSortB2c: true, images: [] }]);
    expect(first!.useSortB2c).toBe(true);
    expect((await t.productOf('TS-1')).useSortB2c).toBe(true);
    const [second] = await t.sync([{ itemNumber: 'TS-1', images: [] }]);
    expect(second!.useSortB2c).toBe(true);
    await t.sync([{ itemNumber: 'TS-1', useSortB2c: false, images: [] }]);
    expect((await t.productOf('TS-1')).useSortB2c).toBe(false);
  });

  it('marks the product updated when its images change, and not when nothing changed', async () => {
    const t = await setUp();
    await t.product('TS-1');
    t.clock.advance(60_000);
    await t.sync([{ itemNumber: 'TS-1', images: [{ url: `${CDN}/a.png`, sort: 1 }] }]);
    const changedAt = (await t.productOf('TS-1')).updatedAt;
    expect(changedAt).not.toBe(START);
    t.clock.advance(60_000);
    const [replay] = await t.sync([{ itemNumber: 'TS-1', images: [{ url: `${CDN}/a.png`, sort: 1 }] }]);
    expect(replay!.images[0]!.action).toBe('unchanged');
    expect((await t.productOf('TS-1')).updatedAt).toBe(changedAt);
  });

  it('re-creates from its stored bytes an image deleted by a concurrent sync between the downloads and the transaction', async () => {
    const t = await setUp();
    const shirt = await t.product('TS-1');
    await t.sync([{ itemNumber: 'TS-1', images: [{ url: `${CDN}/a.png`, sort: 1 }] }]);
    const [before] = await t.imagesOf(shirt.product.id);
    const racing: UnitOfWork = {
      read: (work) => t.uow.read(work),
      run: async (work) => {
        await t.uow.run((tx) => tx.productImages.delete(t.brand.id, [before!.id]));
        return t.uow.run(work);
      },
    };
    const [result] = await t.sync([{ itemNumber: 'TS-1', images: [{ url: `${CDN}/a.png`, sort: 1 }] }], {
      via: racing,
    });
    expect(result!.images[0]).toMatchObject({ action: 'created', image: { blobKey: before!.blobKey } });
    expect(t.fetcher.timesFetched(`${CDN}/a.png`)).toBe(1);
  });

  describe('refusals (nothing is written)', () => {
    it('refuses an unknown item number, and does not download anything', async () => {
      const t = await setUp();
      await t.product('TS-1');
      const violations = await violationsOf(
        t.sync([
          { itemNumber: 'TS-1', images: [{ url: `${CDN}/a.png`, sort: 1 }] },
          { itemNumber: 'NOPE', images: [{ url: `${CDN}/b.png`, sort: 1 }] },
        ]),
      );
      expect(violations).toEqual({
        '/product_images/1/item_number':
          'product_images[1].item_number does not exist: no product has item number NOPE',
      });
      expect(t.fetcher.requests).toEqual([]);
    });

    it('refuses a product of another brand as unknown (tenancy)', async () => {
      const t = await setUp();
      const other = await createBrand({ uow: t.uow, clock: t.clock }, { name: 'Other', currency: 'EUR' });
      await t.product('THEIRS', [{ color: 'Black' }], other.id);
      const violations = await violationsOf(t.sync([{ itemNumber: 'THEIRS', images: [] }]));
      expect(Object.keys(violations)).toEqual(['/product_images/0/item_number']);
    });

    it('refuses the whole request when one download fails, naming its URL, and writes nothing', async () => {
      const t = await setUp();
      const shirt = await t.product('TS-1');
      await t.product('TS-2');
      await t.sync([{ itemNumber: 'TS-1', images: [{ url: `${CDN}/keep.png`, sort: 1 }] }]);
      t.fetcher.failFor(`${CDN}/broken.png`, 'the server answered 404 Not Found');
      const violations = await violationsOf(
        t.sync(
          [
            { itemNumber: 'TS-1', useSortB2c: true, images: [{ url: `${CDN}/new.png`, sort: 1 }] },
            {
              itemNumber: 'TS-2',
              images: [
                { url: `${CDN}/ok.png`, sort: 1 },
                { url: `${CDN}/broken.png`, sort: 2 },
              ],
            },
          ],
          { listKey: 'products' },
        ),
      );
      expect(violations).toEqual({
        '/products/1/images/1/url':
          'products[1].images[1].url could not be downloaded: the server answered 404 Not Found',
      });
      expect((await t.imagesOf(shirt.product.id)).map((i) => i.sourceUrl)).toEqual([`${CDN}/keep.png`]);
      expect((await t.productOf('TS-1')).useSortB2c).toBe(false);
      expect(await t.imagesOf((await t.productOf('TS-2')).id)).toEqual([]);
    });

    it('refuses more than 10 products, repeated products and repeated images', async () => {
      const t = await setUp();
      await t.product('TS-1');
      const eleven = Array.from({ length: 11 }, (_, i) => ({ itemNumber: `P-${i}`, images: [] }));
      expect(await violationsOf(t.sync(eleven))).toEqual({
        '/product_images': 'product_images must contain at most 10 products per request; split larger batches',
      });
      expect(
        await violationsOf(
          t.sync([
            { itemNumber: 'TS-1', images: [] },
            { itemNumber: 'TS-1', images: [] },
          ]),
        ),
      ).toEqual({
        '/product_images/1/item_number':
          'product_images[1].item_number repeats product_images[0]; send each product once per request',
      });
      expect(
        await violationsOf(
          t.sync([
            {
              itemNumber: 'TS-1',
              images: [
                { url: `${CDN}/a.png`, sort: 1 },
                { url: `${CDN}/b.png`, sort: 2, existanceKey: 'k' },
                { url: `${CDN}/a.png`, sort: 3 },
                { url: `${CDN}/c.png`, sort: 4, existanceKey: 'k' },
              ],
            },
          ]),
        ),
      ).toEqual({
        '/product_images/0/images/2/url':
          'product_images[0].images[2].url repeats images[0] (the same url); each image of a product is sent once',
        '/product_images/0/images/3/existance_key':
          'product_images[0].images[3].existance_key repeats images[1] (the same existance_key); each image of a product is sent once',
      });
    });

    it('refuses a URL that is not http(s) before downloading anything', async () => {
      const t = await setUp();
      await t.product('TS-1');
      const violations = await violationsOf(
        t.sync([
          {
            itemNumber: 'TS-1',
            images: [
              { url: 'ftp://cdn.example.com/a.png', sort: 1 },
              { url: `${CDN}/b.png`, sort: 2 },
            ],
          },
        ]),
      );
      expect(violations).toEqual({
        '/product_images/0/images/0/url': 'product_images[0].images[0].url must be an http or https URL',
      });
      expect(t.fetcher.requests).toEqual([]);
    });
  });
});
