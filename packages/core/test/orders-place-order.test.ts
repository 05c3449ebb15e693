import { createBrand, createDrop, createInventoryLocation } from '../src';
import { customer, errorOf, product, setUpShop, variant, violationsOf } from './orders-shop.support';

const anAddress = {
  title: 'HQ',
  name: 'Berg Retail AB',
  address: 'Storgatan 1',
  address2: null,
  zip: '11122',
  city: 'Stockholm',
  region: null,
  country: 'SE',
  remoteErpId: null,
};

describe('placing an order: pricing', () => {
  it('prices a B2B order at the sales price less the customer discount, with VAT added on top', async () => {
    const shop = await setUpShop();
    await shop.products([
      product('TEE', {
        meta: { country_of_origin: 'PT', composition: '100% cotton' },
        variants: [variant('TEE-M', 10, { meta: { hs_tariff_code: '610910' } })],
      }),
    ]);
    await shop.customers([
      customer('C-1', {
        discountPercentage: 12.5,
        addresses: { mode: 'replace', key: 'address_title', addresses: [anAddress] },
      }),
    ]);
    const b2b = await shop.channel('b2b');

    const { order, shipment } = await shop.place(b2b, {
      customerNumber: 'C-1',
      reference: 'PO-77',
      lines: [{ sku: 'TEE-M', quantity: 3 }],
    });

    // 3 × 19.99 = 59.97, less 12.5 % = 52.47375 → 52.47; VAT 25 % = 13.1175 → 13.12.
    expect(order).toMatchObject({
      orderNumber: 1,
      status: 'draft',
      orderType: 'b2b',
      currency: 'EUR',
      vatRateBasisPoints: 2500,
      pricesIncludeVat: false,
      customerNumber: 'C-1',
      reference: 'PO-77',
      shippingCost: null,
      netTotal: 5247,
      vatTotal: 1312,
      total: 6559,
      invoiceAddress: {
        name: 'Berg Retail AB',
        att: null,
        address: 'Storgatan 1',
        zip: '11122',
        region: '',
        city: 'Stockholm',
        country: 'SE',
      },
    });
    expect(order.deliveryAddress).toEqual(order.invoiceAddress);
    expect(order.lines).toEqual([
      expect.objectContaining({
        sku: 'TEE-M',
        itemNumber: 'TEE',
        productName: 'Product TEE',
        attributes: { size: 'M' },
        quantity: 3,
        unitPrice: 1999,
        discountBasisPoints: 1250,
        totalPrice: 5247,
        countryOfOrigin: 'PT',
        composition: '100% cotton',
        hsTariffCode: '610910',
        tracksInventory: true,
      }),
    ]);
    expect(shipment).toBeNull();
    const stored = await shop.readOrder(order.id);
    expect(stored.order).toEqual(order);
    expect(stored.timeline.map((e) => e.kind)).toEqual(['created']);
  });

  it('uses the B2B offer price when set and adds the shipping cost to the totals', async () => {
    const shop = await setUpShop();
    await shop.products([
      product('TEE', {
        variants: [
          variant('TEE-M', 10, {
            prices: { EUR: { salesPrice: '19.99', recSalesPrice: '49.95', offerPrice: '15.00' } },
          }),
        ],
      }),
    ]);
    await shop.customers([customer('C-1', { discountPercentage: 10 })]);

    const { order } = await shop.place(await shop.channel('b2b'), {
      customerNumber: 'C-1',
      shippingCost: 995,
      lines: [{ sku: 'TEE-M', quantity: 2 }],
    });

    // 2 × 15.00 − 10 % = 27.00; + 9.95 shipping = 36.95; VAT 9.2375 → 9.24.
    expect(order.lines[0]).toMatchObject({ unitPrice: 1500, discountBasisPoints: 1000, totalPrice: 2700 });
    expect(order).toMatchObject({ shippingCost: 995, netTotal: 3695, vatTotal: 924, total: 4619 });
  });

  it('prices a B2C order at retail (the B2C offer price when set), VAT included, without the customer discount, in the brand currency', async () => {
    const shop = await setUpShop();
    await shop.products([
      product('TEE', {
        variants: [
          variant('TEE-S', 10, {
            prices: { EUR: { salesPrice: '19.99', recSalesPrice: '49.95', b2cOfferPrice: '39.95' } },
          }),
          variant('TEE-M', 10),
        ],
      }),
    ]);
    await shop.customers([customer('WEB', { currency: 'SEK', discountPercentage: 20 })]);

    const { order } = await shop.place(await shop.channel('b2c'), {
      customerNumber: 'WEB',
      lines: [
        { sku: 'TEE-S', quantity: 2 },
        { sku: 'TEE-M', quantity: 1 },
      ],
    });

    // 2 × 39.95 + 49.95 = 129.85 gross; net = 129.85 / 1.25 = 103.88; VAT = 25.97.
    expect(order.lines.map((l) => [l.unitPrice, l.discountBasisPoints, l.totalPrice])).toEqual([
      [3995, 0, 7990],
      [4995, 0, 4995],
    ]);
    expect(order).toMatchObject({
      orderType: 'b2c',
      currency: 'EUR',
      pricesIncludeVat: true,
      netTotal: 10388,
      vatTotal: 2597,
      total: 12985,
    });
  });

  it('takes the currency from the body over the customer and prices in it', async () => {
    const shop = await setUpShop();
    await shop.products([
      product('TEE', {
        variants: [
          variant('TEE-M', 10, {
            prices: {
              EUR: { salesPrice: '19.99', recSalesPrice: '49.95' },
              SEK: { salesPrice: '229.00', recSalesPrice: '499.00' },
            },
          }),
        ],
      }),
    ]);
    await shop.customers([customer('C-1')]);

    const { order } = await shop.place(await shop.channel('b2b'), {
      customerNumber: 'C-1',
      currency: 'SEK',
      lines: [{ sku: 'TEE-M', quantity: 1 }],
    });

    expect(order).toMatchObject({ currency: 'SEK', netTotal: 22900, total: 28625 });
  });

  it('uses the brand default VAT rate and keeps addresses, contact and meta from the body', async () => {
    const shop = await setUpShop();
    await shop.settings({ defaultVatRateBasisPoints: 1200 });
    await shop.products([product('TEE')]);
    await shop.customers([
      customer('C-1', { addresses: { mode: 'replace', key: 'address_title', addresses: [anAddress] } }),
    ]);
    const delivery = {
      name: 'Warehouse',
      att: 'Goods in',
      address: 'Dock 4',
      zip: '2100',
      region: 'Capital',
      city: 'Copenhagen',
      country: 'DK',
    };

    const { order } = await shop.place(await shop.channel('b2b'), {
      customerId: (await shop.uow.read((r) => r.customers.findByNumbers(shop.brand.id, ['C-1'])))[0]!.id,
      deliveryAddress: delivery,
      email: 'buyer@berg.example',
      telephone: '+46 8 123',
      notes: 'Leave at the dock',
      shippingCode: { code: 'pn_parcel', dropPointId: null },
      responsiblePerson: { email: 'a@berg.example', firstName: 'Anna', lastName: null },
      orderMeta: { season: 'AW26' },
      lines: [{ sku: 'TEE-M', quantity: 1 }],
    });

    expect(order).toMatchObject({
      vatRateBasisPoints: 1200,
      netTotal: 1999,
      vatTotal: 240,
      total: 2239,
      deliveryAddress: delivery,
      email: 'buyer@berg.example',
      telephone: '+46 8 123',
      notes: 'Leave at the dock',
      shippingCode: { code: 'pn_parcel', dropPointId: null },
      orderMeta: { season: 'AW26' },
      responsiblePerson: { email: 'a@berg.example', firstName: 'Anna', lastName: null },
    });
    expect(order.invoiceAddress).toMatchObject({ name: 'Berg Retail AB', address: 'Storgatan 1' });
  });

  it('finds lines by EAN as well as by SKU and numbers orders per brand in sequence', async () => {
    const shop = await setUpShop();
    await shop.products([product('TEE', { variants: [variant('TEE-M', 10, { ean: '5701234567892' })] })]);
    await shop.customers([customer('C-1')]);
    const b2b = await shop.channel('b2b');

    const first = await shop.place(b2b, { customerNumber: 'C-1', lines: [{ ean: '5701234567892', quantity: 1 }] });
    const second = await shop.place(b2b, { customerNumber: 'C-1', lines: [{ sku: 'TEE-M', quantity: 1 }] });

    expect(first.order.lines[0]).toMatchObject({ sku: 'TEE-M', ean: '5701234567892' });
    expect([first.order.orderNumber, second.order.orderNumber]).toEqual([1, 2]);
  });
});

describe('placing an order: refusals', () => {
  async function shopWithCatalog() {
    const shop = await setUpShop();
    await shop.customers([customer('C-1'), customer('GONE', { active: false })]);
    return shop;
  }

  it("refuses an unknown channel, and another brand's channel, as not found", async () => {
    const shop = await shopWithCatalog();
    const other = await createBrand(shop.deps, { name: 'Other', currency: 'EUR' });
    const foreign = await shop.channel('b2b', { brandId: other.id });

    const unknown = await errorOf(
      shop.place(
        { ...foreign, publicId: 'nope', brandId: shop.brand.id },
        { customerNumber: 'C-1', lines: [{ sku: 'X', quantity: 1 }] },
      ),
    );
    const crossBrand = await errorOf(
      shop.place({ ...foreign, brandId: shop.brand.id }, { customerNumber: 'C-1', lines: [{ sku: 'X', quantity: 1 }] }),
    );

    expect(unknown).toMatchObject({ code: 'not_found', data: { resource: 'order channel' } });
    expect(crossBrand).toMatchObject({ code: 'not_found', data: { resource: 'order channel' } });
  });

  it('refuses an unknown customer (by id or number), an inactive one, and an order naming none', async () => {
    const shop = await shopWithCatalog();
    await shop.products([product('TEE')]);
    const b2b = await shop.channel('b2b');
    const lines = [{ sku: 'TEE-M', quantity: 1 }];

    expect(await violationsOf(shop.place(b2b, { customerId: 999, lines }))).toEqual({
      '/order/customer_id': 'order.customer_id names customer id 999, which does not exist',
    });
    expect(await violationsOf(shop.place(b2b, { customerNumber: 'NOPE', lines }))).toEqual({
      '/order/customer_number': 'order.customer_number names customer "NOPE", which does not exist',
    });
    expect(await violationsOf(shop.place(b2b, { customerNumber: 'GONE', lines }))).toEqual({
      '/order/customer_number': 'order.customer_number names customer "GONE", which is inactive and cannot order',
    });
    expect(await violationsOf(shop.place(b2b, { lines }))).toEqual({
      '/order/customer_id': 'order.customer_id is required when customer_number is not given',
    });
  });

  it("requires a drop on every order when the brand requires one, refuses an unknown drop, and uses the channel's fixed drop", async () => {
    const shop = await shopWithCatalog();
    await shop.products([product('TEE')]);
    await shop.settings({ requiresDrop: true });
    const spring = await createDrop(shop.deps, { brandId: shop.brand.id, code: 'SS27', name: 'Spring 27' });
    const autumn = await createDrop(shop.deps, { brandId: shop.brand.id, code: 'AW27', name: 'Autumn 27' });
    const b2b = await shop.channel('b2b');
    const fixed = await shop.channel('b2b', { dropId: spring.id });
    const lines = [{ sku: 'TEE-M', quantity: 1 }];

    expect(await violationsOf(shop.place(b2b, { customerNumber: 'C-1', lines }))).toEqual({
      '/order/drop_id':
        'order.drop_id is required: the brand requires a drop on every order (send drop_id or drop_code)',
    });
    expect(await violationsOf(shop.place(b2b, { customerNumber: 'C-1', dropCode: 'XX', lines }))).toEqual({
      '/order/drop_code': 'order.drop_code names drop "XX", which does not exist',
    });
    expect(await violationsOf(shop.place(b2b, { customerNumber: 'C-1', dropId: 999, lines }))).toEqual({
      '/order/drop_id': 'order.drop_id names drop id 999, which does not exist',
    });
    expect(await violationsOf(shop.place(fixed, { customerNumber: 'C-1', dropId: autumn.id, lines }))).toEqual({
      '/order/drop_id': `order.drop_id names drop ${autumn.id}, but orders of channel "b2b channel" belong to drop ${spring.id}`,
    });
    expect((await shop.place(b2b, { customerNumber: 'C-1', dropCode: 'AW27', lines })).order.dropId).toBe(autumn.id);
    expect((await shop.place(fixed, { customerNumber: 'C-1', lines })).order.dropId).toBe(spring.id);
    // The requirement binds B2C channels too (the spec names no exception but a channel's fixed drop).
    expect(await violationsOf(shop.place(await shop.channel('b2c'), { customerNumber: 'C-1', lines }))).toEqual({
      '/order/drop_id':
        'order.drop_id is required: the brand requires a drop on every order (send drop_id or drop_code)',
    });
    expect(
      (await shop.place(await shop.channel('b2c'), { customerNumber: 'C-1', dropCode: 'SS27', lines })).order.dropId,
    ).toBe(spring.id);
  });

  it('refuses lines naming no variant, both keys, an unknown SKU or EAN, or a quantity below 1', async () => {
    const shop = await shopWithCatalog();
    await shop.products([product('TEE')]);

    expect(
      await violationsOf(
        shop.place(await shop.channel('b2b'), {
          customerNumber: 'C-1',
          lines: [
            { sku: 'NOPE', quantity: 1 },
            { ean: '000', quantity: 1 },
            { quantity: 1 },
            { sku: 'TEE-M', ean: '1', quantity: 1 },
            { sku: 'TEE-M', quantity: 0 },
          ],
        }),
      ),
    ).toEqual({
      '/order/lines/0/sku': 'order.lines[0].sku "NOPE" is not a variant of this brand',
      '/order/lines/1/ean': 'order.lines[1].ean "000" is not a variant of this brand',
      '/order/lines/2/sku': 'order.lines[2].sku is required when ean is not given',
      '/order/lines/3': 'order.lines[3] must name the variant by sku or by ean, not both',
      '/order/lines/4/quantity': 'order.lines[4].quantity must be a whole number above 0',
    });
    expect(await violationsOf(shop.place(await shop.channel('b2b'), { customerNumber: 'C-1', lines: [] }))).toEqual({
      '/order/lines': 'order.lines must contain at least one line',
    });
  });

  it('refuses an inactive product, an archived variant on B2B and a variant not available to B2C, naming the SKU', async () => {
    const shop = await shopWithCatalog();
    await shop.products([
      product('OLD', { active: false }),
      product('TEE', {
        variants: [variant('TEE-S', 10, { archived: true }), variant('TEE-M', 10, { b2cAvailable: false })],
      }),
    ]);

    expect(
      await violationsOf(
        shop.place(await shop.channel('b2b'), {
          customerNumber: 'C-1',
          lines: [
            { sku: 'OLD-M', quantity: 1 },
            { sku: 'TEE-S', quantity: 1 },
            { sku: 'TEE-M', quantity: 1 },
          ],
        }),
      ),
    ).toEqual({
      '/order/lines/0/sku': 'order.lines[0].sku SKU OLD-M cannot be sold: product OLD is inactive',
      '/order/lines/1/sku': 'order.lines[1].sku SKU TEE-S cannot be sold on B2B: the variant is archived',
    });
    expect(
      await violationsOf(
        shop.place(await shop.channel('b2c'), {
          customerNumber: 'C-1',
          lines: [
            { sku: 'TEE-S', quantity: 1 },
            { sku: 'TEE-M', quantity: 1 },
          ],
        }),
      ),
    ).toEqual({
      '/order/lines/1/sku': 'order.lines[1].sku SKU TEE-M cannot be sold on B2C: the variant is not available to B2C',
    });
  });

  it('refuses a B2B order below the product minimum, counting every line of the product', async () => {
    const shop = await shopWithCatalog();
    await shop.products([product('TEE', { minOrderQuantity: 6, variants: [variant('TEE-S'), variant('TEE-M')] })]);
    const b2b = await shop.channel('b2b');

    expect(
      await violationsOf(
        shop.place(b2b, {
          customerNumber: 'C-1',
          lines: [
            { sku: 'TEE-S', quantity: 3 },
            { sku: 'TEE-M', quantity: 2 },
          ],
        }),
      ),
    ).toEqual({
      '/order/lines/0/quantity':
        'order.lines[0].quantity SKU TEE-S: product TEE is ordered 5 pieces in all, below its minimum order quantity of 6',
      '/order/lines/1/quantity':
        'order.lines[1].quantity SKU TEE-M: product TEE is ordered 5 pieces in all, below its minimum order quantity of 6',
    });
    expect(
      (
        await shop.place(b2b, {
          customerNumber: 'C-1',
          lines: [
            { sku: 'TEE-S', quantity: 3 },
            { sku: 'TEE-M', quantity: 3 },
          ],
        })
      ).order.status,
    ).toBe('draft');
    // The minimum is a wholesale term: B2C sells single pieces.
    expect(
      (await shop.place(await shop.channel('b2c'), { customerNumber: 'C-1', lines: [{ sku: 'TEE-S', quantity: 1 }] }))
        .order.status,
    ).toBe('draft');
  });

  it('refuses a B2B quantity of a colli-only product that no mix of its colli sizes makes', async () => {
    const shop = await shopWithCatalog();
    await shop.products([
      product('SOCK', { orderColliOnly: true, colli: [6, 10], variants: [variant('SOCK-M', 100)] }),
    ]);
    const b2b = await shop.channel('b2b');

    expect(
      await violationsOf(shop.place(b2b, { customerNumber: 'C-1', lines: [{ sku: 'SOCK-M', quantity: 14 }] })),
    ).toEqual({
      '/order/lines/0/quantity':
        'order.lines[0].quantity SKU SOCK-M is sold in colli of 6 or 10 pieces only; 14 is no sum of them',
    });
    const { order } = await shop.place(b2b, {
      customerNumber: 'C-1',
      lines: [
        { sku: 'SOCK-M', quantity: 16 },
        { sku: 'SOCK-M', quantity: 12 },
      ],
    });
    expect(order.lines.map((l) => l.quantity)).toEqual([16, 12]);
  });

  it('refuses a variant without a price in the order currency', async () => {
    const shop = await shopWithCatalog();
    await shop.products([product('TEE')]);
    await shop.customers([customer('DK', { currency: 'DKK' })]);

    expect(
      await violationsOf(
        shop.place(await shop.channel('b2b'), { customerNumber: 'DK', lines: [{ sku: 'TEE-M', quantity: 1 }] }),
      ),
    ).toEqual({
      '/order/lines/0/sku': 'order.lines[0].sku SKU TEE-M has no price in DKK',
    });
  });

  it('refuses short stock naming every short SKU, and writes nothing: no reservation, no order, no order number', async () => {
    const shop = await shopWithCatalog();
    await shop.products([
      product('TEE', { variants: [variant('TEE-S', 2), variant('TEE-M', 10), variant('TEE-L', 0)] }),
    ]);
    const b2b = await shop.channel('b2b');

    expect(
      await violationsOf(
        shop.place(b2b, {
          customerNumber: 'C-1',
          lines: [
            { sku: 'TEE-S', quantity: 3 },
            { sku: 'TEE-M', quantity: 6 },
            { sku: 'TEE-L', quantity: 1 },
            { sku: 'TEE-M', quantity: 5 },
          ],
        }),
      ),
    ).toEqual({
      '/order/lines/0/quantity': 'order.lines[0].quantity SKU TEE-S is short: 3 ordered, 2 available',
      '/order/lines/1/quantity': 'order.lines[1].quantity SKU TEE-M is short: 11 ordered (over 2 lines), 10 available',
      '/order/lines/2/quantity': 'order.lines[2].quantity SKU TEE-L is short: 1 ordered, 0 available',
      '/order/lines/3/quantity': 'order.lines[3].quantity SKU TEE-M is short: 11 ordered (over 2 lines), 10 available',
    });

    expect(await shop.stock('TEE-M')).toEqual({ inStock: 10, available: 10 });
    expect(await shop.uow.read((r) => r.orders.findByNumbers(shop.brand.id, [1]))).toEqual([]);
    const { order } = await shop.place(b2b, { customerNumber: 'C-1', lines: [{ sku: 'TEE-M', quantity: 10 }] });
    expect(order.orderNumber).toBe(1);
  });

  it('reports every problem of an order at once', async () => {
    const shop = await shopWithCatalog();
    await shop.products([product('TEE', { active: false, variants: [variant('TEE-M', 1)] })]);

    const violations = await violationsOf(
      shop.place(await shop.channel('b2b'), {
        customerNumber: 'GONE',
        currency: 'eur',
        shippingCost: -1,
        lines: [
          { sku: 'TEE-M', quantity: 2 },
          { sku: 'X', quantity: 1 },
        ],
      }),
    );

    expect(Object.keys(violations).sort()).toEqual([
      '/order/currency',
      '/order/customer_number',
      '/order/lines/0/quantity',
      '/order/lines/0/sku',
      '/order/lines/1/sku',
      '/order/shipping_cost',
    ]);
  });
});

describe('placing an order: reservations', () => {
  it('reserves the ordered pieces: Available drops, In stock does not, and the line records where', async () => {
    const shop = await setUpShop();
    await shop.products([product('TEE', { variants: [variant('TEE-M', 10)] })]);
    await shop.customers([customer('C-1')]);
    const main = await shop.defaultLocation();

    const { order } = await shop.place(await shop.channel('b2b'), {
      customerNumber: 'C-1',
      lines: [
        { sku: 'TEE-M', quantity: 3 },
        { sku: 'TEE-M', quantity: 7 },
      ],
    });

    expect(await shop.stock('TEE-M')).toEqual({ inStock: 10, available: 0 });
    expect(order.lines.map((l) => l.reservations)).toEqual([
      [{ locationId: main.id, quantity: 3 }],
      [{ locationId: main.id, quantity: 7 }],
    ]);
    const movements = await shop.uow.read((r) => r.stock.movements(shop.brand.id, order.lines[0]!.variantId, 10));
    expect(
      movements
        .filter((m) => m.reason === 'order_reserved')
        .map((m) => [m.reservedDelta, m.inStockDelta, m.documentType, m.documentId]),
    ).toEqual([
      [7, 0, 'order', order.id],
      [3, 0, 'order', order.id],
    ]);
  });

  it('reserves across locations: the default location first, then the others by id', async () => {
    const shop = await setUpShop();
    const main = await createInventoryLocation(shop.deps, { brandId: shop.brand.id, name: 'Main' });
    const outlet = await createInventoryLocation(shop.deps, { brandId: shop.brand.id, name: 'Outlet' });
    const store = await createInventoryLocation(shop.deps, { brandId: shop.brand.id, name: 'Store' });
    await shop.products([
      product('TEE', {
        variants: [
          variant('TEE-M', null, {
            inventory: [
              { quantity: 2, inventoryLocationId: store.id },
              { quantity: 3, inventoryLocationId: outlet.id },
              { quantity: 4, inventoryLocationId: main.id },
            ],
          }),
        ],
      }),
    ]);
    await shop.customers([customer('C-1')]);

    const { order } = await shop.place(await shop.channel('b2b'), {
      customerNumber: 'C-1',
      lines: [{ sku: 'TEE-M', quantity: 8 }],
    });

    expect(order.lines[0]!.reservations).toEqual([
      { locationId: main.id, quantity: 4 },
      { locationId: outlet.id, quantity: 3 },
      { locationId: store.id, quantity: 1 },
    ]);
    expect(await shop.stock('TEE-M', main.id)).toEqual({ inStock: 4, available: 0 });
    expect(await shop.stock('TEE-M', outlet.id)).toEqual({ inStock: 3, available: 0 });
    expect(await shop.stock('TEE-M', store.id)).toEqual({ inStock: 2, available: 1 });
  });

  it('sells make-to-order beyond stock, reserving only what is available, on the channel type it is set for', async () => {
    const shop = await setUpShop();
    await shop.products([
      product('TEE', {
        makeToOrderB2b: true,
        variants: [variant('TEE-M', 4), variant('TEE-S', 4, { makeToOrderB2b: false })],
      }),
    ]);
    await shop.customers([customer('C-1')]);

    const { order } = await shop.place(await shop.channel('b2b'), {
      customerNumber: 'C-1',
      lines: [{ sku: 'TEE-M', quantity: 9 }],
    });

    expect(order.lines[0]).toMatchObject({ quantity: 9, reservations: [expect.objectContaining({ quantity: 4 })] });
    expect(await shop.stock('TEE-M')).toEqual({ inStock: 4, available: 0 });
    // The variant's override wins over the product, and the B2B flag does not apply on B2C.
    expect(
      await violationsOf(
        shop.place(await shop.channel('b2b'), { customerNumber: 'C-1', lines: [{ sku: 'TEE-S', quantity: 5 }] }),
      ),
    ).toEqual({
      '/order/lines/0/quantity': 'order.lines[0].quantity SKU TEE-S is short: 5 ordered, 4 available',
    });
    expect(
      await violationsOf(
        shop.place(await shop.channel('b2c'), { customerNumber: 'C-1', lines: [{ sku: 'TEE-M', quantity: 1 }] }),
      ),
    ).toEqual({
      '/order/lines/0/quantity': 'order.lines[0].quantity SKU TEE-M is short: 1 ordered, 0 available',
    });
  });

  it('sells NOOS variants beyond stock, and a later normal order finds nothing available', async () => {
    const shop = await setUpShop();
    await shop.products([
      product('BASIC', { noos: true, variants: [variant('BASIC-M', 2), variant('BASIC-S', 2, { noos: false })] }),
    ]);
    await shop.customers([customer('C-1')]);
    const b2c = await shop.channel('b2c');

    const { order } = await shop.place(b2c, { customerNumber: 'C-1', lines: [{ sku: 'BASIC-M', quantity: 5 }] });

    expect(order.lines[0]!.reservations.map((r) => r.quantity)).toEqual([2]);
    expect(await shop.stock('BASIC-M')).toEqual({ inStock: 2, available: 0 });
    expect(
      await violationsOf(shop.place(b2c, { customerNumber: 'C-1', lines: [{ sku: 'BASIC-S', quantity: 3 }] })),
    ).toEqual({
      '/order/lines/0/quantity': 'order.lines[0].quantity SKU BASIC-S is short: 3 ordered, 2 available',
    });
  });

  it('neither checks nor reserves stock of no_inventory products', async () => {
    const shop = await setUpShop();
    await shop.products([product('GIFT', { noInventory: true, variants: [variant('GIFT-M', null)] })]);
    await shop.customers([customer('C-1')]);

    const { order } = await shop.place(await shop.channel('b2c'), {
      customerNumber: 'C-1',
      lines: [{ sku: 'GIFT-M', quantity: 50 }],
    });

    expect(order.lines[0]).toMatchObject({ quantity: 50, tracksInventory: false, reservations: [] });
    expect(await shop.stock('GIFT-M')).toEqual({ inStock: 0, available: 0 });
  });

  it('gives the last pieces to one of two concurrent orders and refuses the other as short', async () => {
    const shop = await setUpShop();
    await shop.products([product('TEE', { variants: [variant('TEE-M', 5)] })]);
    await shop.customers([customer('C-1'), customer('C-2')]);
    const b2b = await shop.channel('b2b');

    const outcomes = await Promise.allSettled([
      shop.place(b2b, { customerNumber: 'C-1', lines: [{ sku: 'TEE-M', quantity: 3 }] }),
      shop.place(b2b, { customerNumber: 'C-2', lines: [{ sku: 'TEE-M', quantity: 3 }] }),
    ]);

    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
    expect(await shop.stock('TEE-M')).toEqual({ inStock: 5, available: 2 });
    expect(
      (await shop.uow.read((r) => r.orders.findByNumbers(shop.brand.id, [1, 2]))).map((o) => o.customerNumber),
    ).toEqual(['C-1']);
  });

  it('counts what earlier orders reserved: Available never goes below 0', async () => {
    const shop = await setUpShop();
    await shop.products([
      product('TEE', { makeToOrderB2b: true, variants: [variant('TEE-M', 3)] }),
      product('CAP', { variants: [variant('CAP-M', 3)] }),
    ]);
    await shop.customers([customer('C-1')]);
    const b2b = await shop.channel('b2b');

    await shop.place(b2b, {
      customerNumber: 'C-1',
      lines: [
        { sku: 'TEE-M', quantity: 5 },
        { sku: 'CAP-M', quantity: 2 },
      ],
    });
    const second = await shop.place(b2b, { customerNumber: 'C-1', lines: [{ sku: 'TEE-M', quantity: 5 }] });

    expect(second.order.lines[0]!.reservations).toEqual([]);
    expect(await shop.stock('TEE-M')).toEqual({ inStock: 3, available: 0 });
    expect(
      await violationsOf(shop.place(b2b, { customerNumber: 'C-1', lines: [{ sku: 'CAP-M', quantity: 2 }] })),
    ).toEqual({
      '/order/lines/0/quantity': 'order.lines[0].quantity SKU CAP-M is short: 2 ordered, 1 available',
    });
  });
});

describe('placing an order on an auto-approving channel', () => {
  it('approves it at once and makes one shipment of every piece, carrying the shipping cost', async () => {
    const shop = await setUpShop();
    await shop.products([product('TEE', { variants: [variant('TEE-S'), variant('TEE-M')] })]);
    await shop.customers([customer('C-1')]);

    const { order, shipment } = await shop.place(await shop.channel('b2c', { autoApprove: true }), {
      customerNumber: 'C-1',
      shippingCost: 495,
      lines: [
        { sku: 'TEE-S', quantity: 1 },
        { sku: 'TEE-M', quantity: 2 },
      ],
    });

    expect(order).toMatchObject({ status: 'approved', approvedAt: order.createdAt });
    expect(order.lines.map((l) => l.shippedQuantity)).toEqual([1, 2]);
    expect(shipment).toMatchObject({
      shipmentNumber: 1,
      orderId: order.id,
      orderNumber: order.orderNumber,
      status: 'open',
      shippingCost: 495,
      lines: [
        expect.objectContaining({ sku: 'TEE-S', quantity: 1, deliveredQuantity: 0 }),
        expect.objectContaining({ sku: 'TEE-M', quantity: 2 }),
      ],
    });
    const stored = await shop.readOrder(order.id);
    expect(stored.order).toEqual(order);
    expect(stored.shipments).toEqual([shipment]);
    expect(stored.timeline.map((e) => e.kind)).toEqual(['created', 'approved', 'shipment_created']);
  });
});
