import { DEFAULT_LOCATION_NAME, UnitOfWork, createBrand, createInventoryLocation } from '../src';
import { aProduct, aVariant, setUp, violationsOf } from './sync-products.support';

describe('syncing products: inventory', () => {
  it('sets stock with quantity and changes it with adjustment, writing one ledger row per change', async () => {
    const { sync, find, read, brand, clock } = await setUp();
    await sync(
      [aProduct('A', { variants: [aVariant('A-M', { inventory: [{ quantity: 10, text: 'initial count' }] })] })],
      { userId: 42 },
    );
    const variantId = (await find('A'))!.variants[0]!.variant.id;
    const location = await read((r) => r.inventoryLocations.findDefault(brand.id));
    expect(location).toMatchObject({ name: DEFAULT_LOCATION_NAME, isDefault: true });

    clock.advance(1000);
    const [outcome] = await sync([
      {
        itemNumber: 'A',
        variants: [{ sku: 'A-M', inventory: [{ quantity: 7 }, { adjustment: 5, text: 'found in back room' }] }],
      },
    ]);
    expect(outcome).toMatchObject({ action: 'updated', variants: [{ sku: 'A-M', action: 'updated' }] });

    expect(await read((r) => r.stock.balances(brand.id, [variantId]))).toEqual([
      expect.objectContaining({ variantId, locationId: location!.id, inStock: 12, reserved: 0 }),
    ]);
    const ledger = await read((r) => r.stock.movements(brand.id, variantId, 10));
    expect(ledger.map((m) => [m.inStockDelta, m.reason, m.note])).toEqual([
      [5, 'sync_adjustment', 'found in back room'],
      [-3, 'sync_quantity', null],
      [10, 'sync_quantity', 'initial count'],
    ]);
    expect(ledger[2]).toMatchObject({ userId: 42, reservedDelta: 0, locationId: location!.id });
  });

  it('writes nothing and reports unchanged when the quantity sent is what is in stock', async () => {
    const { sync, find, read, brand } = await setUp();
    await sync([aProduct('A', { variants: [aVariant('A-M', { inventory: [{ quantity: 3 }] })] })]);
    const [outcome] = await sync([
      { itemNumber: 'A', variants: [{ sku: 'A-M', inventory: [{ quantity: 3 }, { adjustment: 0 }] }] },
    ]);
    expect(outcome).toMatchObject({ action: 'unchanged', variants: [{ action: 'unchanged' }] });
    const variantId = (await find('A'))!.variants[0]!.variant.id;
    expect(await read((r) => r.stock.movements(brand.id, variantId, 10))).toHaveLength(1);
  });

  it('books stock at a named location of the brand, and refuses unknown or foreign locations', async () => {
    const { sync, find, read, brand, uow, clock } = await setUp();
    const main = await createInventoryLocation({ uow, clock }, { brandId: brand.id, name: 'Main' });
    const shop = await createInventoryLocation({ uow, clock }, { brandId: brand.id, name: 'Shop' });
    const other = await createBrand({ uow, clock }, { name: 'Other', currency: 'EUR' });
    const foreign = await createInventoryLocation({ uow, clock }, { brandId: other.id, name: 'Theirs' });

    await sync([
      aProduct('A', {
        variants: [
          aVariant('A-M', {
            inventory: [
              { quantity: 2 },
              { quantity: 4, inventoryLocationId: shop.id },
              { adjustment: 1, inventoryLocationId: main.id },
            ],
          }),
        ],
      }),
    ]);
    const variantId = (await find('A'))!.variants[0]!.variant.id;
    const balances = await read((r) => r.stock.balances(brand.id, [variantId]));
    expect(balances.map((b) => [b.locationId, b.inStock]).sort()).toEqual(
      [
        [main.id, 3],
        [shop.id, 4],
      ].sort(),
    );

    expect(
      await violationsOf(
        sync([
          {
            itemNumber: 'A',
            variants: [
              {
                sku: 'A-M',
                inventory: [
                  { quantity: 1, inventoryLocationId: 999 },
                  { quantity: 1, inventoryLocationId: foreign.id },
                ],
              },
            ],
          },
        ]),
      ),
    ).toEqual({
      '/products/0/variants/0/inventory/0/inventory_location_id':
        'products[0].variants[0].inventory[0].inventory_location_id names inventory location 999, which does not exist',
      '/products/0/variants/0/inventory/1/inventory_location_id': `products[0].variants[0].inventory[1].inventory_location_id names inventory location ${foreign.id}, which does not exist`,
    });
  });

  it('refuses to take stock below 0, and changes nothing of the request', async () => {
    const { sync, find, read, brand } = await setUp();
    await sync([aProduct('A', { variants: [aVariant('A-M', { inventory: [{ quantity: 2 }] })] })]);
    expect(
      await violationsOf(
        sync([
          {
            itemNumber: 'A',
            name: 'Renamed',
            variants: [{ sku: 'A-M', inventory: [{ adjustment: -1 }, { adjustment: -2 }] }],
          },
        ]),
      ),
    ).toEqual({
      '/products/0/variants/0/inventory/1/adjustment':
        'products[0].variants[0].inventory[1].adjustment would take the stock below 0 (in stock 1, adjustment -2)',
    });
    expect(
      await violationsOf(sync([aProduct('B', { variants: [aVariant('B-M', { inventory: [{ adjustment: -1 }] })] })])),
    ).toEqual({
      '/products/0/variants/0/inventory/0/adjustment':
        'products[0].variants[0].inventory[0].adjustment would take the stock below 0 (in stock 0, adjustment -1)',
    });
    const stored = await find('A');
    expect(stored!.product.name).toBe('Product A');
    expect((await read((r) => r.stock.balances(brand.id, [stored!.variants[0]!.variant.id])))[0]!.inStock).toBe(2);
  });

  it('refuses inventory for a product with no_inventory, also when the same request sets the flag', async () => {
    const { sync } = await setUp();
    await sync([aProduct('GIFT', { noInventory: true })]);
    expect(
      await violationsOf(
        sync([
          { itemNumber: 'GIFT', variants: [{ sku: 'GIFT-M', inventory: [{ quantity: 1 }] }] },
          aProduct('B', { noInventory: true, variants: [aVariant('B-M', { inventory: [{ adjustment: 1 }] })] }),
        ]),
      ),
    ).toEqual({
      '/products/0/variants/0/inventory':
        'products[0].variants[0].inventory cannot be sent: product "GIFT" has no_inventory, so no stock is kept for it',
      '/products/1/variants/0/inventory':
        'products[1].variants[0].inventory cannot be sent: product "B" has no_inventory, so no stock is kept for it',
    });
  });

  it('fails as a conflict, writing nothing, when the stock moved between reading and writing', async () => {
    const { sync, uow, find, read, brand } = await setUp();
    await sync([aProduct('A', { variants: [aVariant('A-M', { inventory: [{ quantity: 5 }] })] })]);
    // Storage that reports another transaction's move in the balances `apply` returns.
    const racing: UnitOfWork = {
      run: (work) =>
        uow.run((tx) =>
          work({
            ...tx,
            stock: {
              ...tx.stock,
              applyWithVariants: async (...args) =>
                (await tx.stock.applyWithVariants(...args)).map((b) => ({ ...b, inStock: b.inStock - 1 })),
            },
          }),
        ),
      read: (work) => uow.read(work),
    };
    await expect(
      sync([{ itemNumber: 'A', variants: [{ sku: 'A-M', inventory: [{ quantity: 9 }] }] }], { via: racing }),
    ).rejects.toMatchObject({ code: 'concurrency_conflict' });
    const variantId = (await find('A'))!.variants[0]!.variant.id;
    expect((await read((r) => r.stock.balances(brand.id, [variantId])))[0]!.inStock).toBe(5);
  });
});

describe('syncing products: images', () => {
  it('downloads each URL once and attaches the image to every variant that sent it', async () => {
    const { sync, find, read, brand, fetcher, blobs } = await setUp();
    fetcher.serve('https://cdn.example/front.jpg').serve('https://cdn.example/back.jpg', 'back', 'image/png');
    const [outcome] = await sync([
      aProduct('A', {
        variants: [
          aVariant('A-S', {
            attributes: { size: 'S' },
            images: [{ url: 'https://cdn.example/front.jpg', alt: 'Front' }, { url: 'https://cdn.example/back.jpg' }],
          }),
          aVariant('A-M', { images: [{ url: 'https://cdn.example/front.jpg' }] }),
        ],
      }),
    ]);
    expect(fetcher.fetched).toEqual(['https://cdn.example/front.jpg', 'https://cdn.example/back.jpg']);
    const product = await find('A');
    const [small, medium] = product!.variants.map((r) => r.variant.id);
    const images = await read((r) => r.productImages.findByProductIds(brand.id, [product!.product.id]));
    expect(images).toEqual([
      expect.objectContaining({
        productId: product!.product.id,
        sourceUrl: 'https://cdn.example/front.jpg',
        alt: 'Front',
        sort: 1,
        contentType: 'image/jpeg',
        variantIds: [small, medium].sort((a, b) => a! - b!),
      }),
      expect.objectContaining({
        sourceUrl: 'https://cdn.example/back.jpg',
        alt: null,
        sort: 2,
        contentType: 'image/png',
        sizeBytes: 4,
        variantIds: [small],
      }),
    ]);
    expect(blobs.blobs.size).toBe(2);
    expect(outcome!.variants.map((v) => v.action)).toEqual(['created', 'created']);
  });

  it('does not download a URL the brand already has, and attaching a known image is an update', async () => {
    const { sync, read, find, brand, fetcher } = await setUp();
    fetcher.serve('https://cdn.example/front.jpg');
    await sync([
      aProduct('A', {
        variants: [
          aVariant('A-S', { attributes: { size: 'S' }, images: [{ url: 'https://cdn.example/front.jpg' }] }),
          aVariant('A-M'),
        ],
      }),
    ]);
    fetcher.fetched.length = 0;

    const [outcome] = await sync([
      { itemNumber: 'A', variants: [{ sku: 'A-M', images: [{ url: 'https://cdn.example/front.jpg' }] }] },
      aProduct('B', { variants: [aVariant('B-M', { images: [{ url: 'https://cdn.example/front.jpg' }] })] }),
    ]);
    expect(fetcher.fetched).toEqual([]);
    expect(outcome).toMatchObject({ action: 'updated', variants: [{ sku: 'A-M', action: 'updated' }] });
    const a = await find('A');
    const b = await find('B');
    const images = await read((r) => r.productImages.findByProductIds(brand.id, [a!.product.id, b!.product.id]));
    expect(images).toHaveLength(2);
    expect(images[0]!.variantIds).toEqual(a!.variants.map((r) => r.variant.id).sort((x, y) => x - y));
    expect(images[1]!.blobKey).toBe(images[0]!.blobKey);

    // Sending the same again changes nothing.
    const [replay] = await sync([
      { itemNumber: 'A', variants: [{ sku: 'A-M', images: [{ url: 'https://cdn.example/front.jpg' }] }] },
    ]);
    expect(replay).toMatchObject({ action: 'unchanged', variants: [{ action: 'unchanged' }] });
  });

  it('reports a failed download at its pointer together with the other problems, and writes nothing', async () => {
    const { sync, find, fetcher } = await setUp();
    fetcher.serve('https://cdn.example/ok.jpg');
    const violations = await violationsOf(
      sync([
        aProduct('A', {
          variants: [
            aVariant('A-M', {
              images: [{ url: 'https://cdn.example/ok.jpg' }, { url: 'https://cdn.example/missing.jpg' }],
            }),
          ],
        }),
        aProduct('B', { weight: -1 }),
      ]),
    );
    expect(violations).toEqual({
      '/products/0/variants/0/images/1/url':
        'products[0].variants[0].images[1].url could not be downloaded: the server answered 404',
      '/products/1/weight': 'products[1].weight must be a number of at least 0 with at most 3 decimals',
    });
    expect(await find('A')).toBeNull();
  });

  it('lets unexpected fetcher failures through rather than reporting them as the caller’s fault', async () => {
    const { sync, fetcher } = await setUp();
    fetcher.fetch = async () => {
      throw new Error('disk full');
    };
    await expect(
      sync([aProduct('A', { variants: [aVariant('A-M', { images: [{ url: 'https://cdn.example/x.jpg' }] })] })]),
    ).rejects.toThrow('disk full');
  });
});
