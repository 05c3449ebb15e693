import {
  approveOrder,
  cancelOrder,
  cancelShipment,
  createBrand,
  createOrderChannel,
  createPartialShipment,
  deliverShipment,
  getOrder,
  getShipment,
  listOrderChannels,
  listOrders,
} from '../src';
import { customer, errorOf, product, setUpShop, variant, violationsOf } from './orders-shop.support';

/** A shop with one draft B2B order: 3 × TEE-S and 2 × TEE-M (10 of each in stock), shipping 9.95. */
async function withDraftOrder() {
  const shop = await setUpShop();
  await shop.products([
    product('TEE', { variants: [variant('TEE-S', 10, { ean: '5701234567892' }), variant('TEE-M', 10)] }),
  ]);
  await shop.customers([customer('C-1')]);
  const b2b = await shop.channel('b2b');
  const { order } = await shop.place(b2b, {
    customerNumber: 'C-1',
    shippingCost: 995,
    lines: [
      { sku: 'TEE-S', quantity: 3 },
      { sku: 'TEE-M', quantity: 2 },
    ],
  });
  const ids = { brandId: shop.brand.id, userId: shop.user.id, orderId: order.id };
  return { ...shop, b2b, order, ids };
}

describe('order channels', () => {
  it("creates a channel with a URL-safe public id of 24 characters and lists only the brand's channels", async () => {
    const shop = await setUpShop();
    const other = await createBrand(shop.deps, { name: 'Other', currency: 'EUR' });
    const secrets = ['Zx8_k2-PqR4sT6uV8wX0yZ1aB3cD5eF7gH9iJ0kL2mN', 'Yw7_j1-OpQ3rS5tU7vW9xY0zA2bC4dE6fG8hI9jK1lM'];
    const hasher = {
      hash: (s: string) => s,
      randomSecret: () => secrets.shift()!,
      randomKey: () => shop.hasher.randomKey(),
    };
    const channel = await createOrderChannel(
      { ...shop.deps, hasher },
      { brandId: shop.brand.id, name: ' Webshop ', orderType: 'b2c', autoApprove: true },
    );
    await createOrderChannel(
      { ...shop.deps, hasher: shop.hasher },
      { brandId: other.id, name: 'ERP', orderType: 'b2b' },
    );

    expect(channel).toMatchObject({ name: 'Webshop', orderType: 'b2c', autoApprove: true, dropId: null });
    expect(channel.publicId).toBe('Zx8_k2-PqR4sT6uV8wX0yZ1a');
    const { page } = await listOrderChannels(shop.deps, { brandId: shop.brand.id, query: {} });
    expect(page.items).toEqual([channel]);
  });

  it('refuses an empty name and a drop the brand does not have', async () => {
    const shop = await setUpShop();

    expect(
      await violationsOf(
        createOrderChannel(
          { ...shop.deps, hasher: shop.hasher },
          { brandId: shop.brand.id, name: ' ', orderType: 'b2b' },
        ),
      ),
    ).toEqual({ '/name': 'name must not be empty' });
    expect(
      await violationsOf(
        createOrderChannel(
          { ...shop.deps, hasher: shop.hasher },
          { brandId: shop.brand.id, name: 'ERP', orderType: 'b2b', dropId: 42 },
        ),
      ),
    ).toEqual({
      '/drop_id': 'drop_id names drop 42, which does not exist',
    });
  });
});

describe('approving an order', () => {
  it('approves a draft order and makes one shipment of all its open pieces, carrying the shipping cost', async () => {
    const shop = await withDraftOrder();
    shop.clock.advance(60_000);

    const { order, shipment } = await approveOrder(shop.deps, shop.ids);

    expect(order).toMatchObject({ status: 'approved', approvedAt: shop.clock.now(), updatedAt: shop.clock.now() });
    expect(shipment).toMatchObject({
      shipmentNumber: 1,
      status: 'open',
      shippingCost: 995,
      customerId: order.customerId,
    });
    expect(shipment!.lines.map((l) => [l.sku, l.ean, l.quantity])).toEqual([
      ['TEE-S', '5701234567892', 3],
      ['TEE-M', null, 2],
    ]);
    const stored = await shop.readOrder(order.id);
    expect(stored.order.lines.map((l) => l.shippedQuantity)).toEqual([3, 2]);
    expect(stored.shipments).toEqual([shipment]);
    expect(stored.timeline.map((e) => e.kind)).toEqual(['created', 'approved', 'shipment_created']);
    // Approving changes no stock: the pieces stay reserved.
    expect(await shop.stock('TEE-S')).toEqual({ inStock: 10, available: 7 });
  });

  it('refuses to approve twice, or a cancelled order', async () => {
    const shop = await withDraftOrder();
    await approveOrder(shop.deps, shop.ids);

    expect(await errorOf(approveOrder(shop.deps, shop.ids))).toMatchObject({
      code: 'invalid_state_transition',
      message: 'order cannot move from approved to approved',
    });
    const other = await shop.place(shop.b2b, { customerNumber: 'C-1', lines: [{ sku: 'TEE-M', quantity: 1 }] });
    await cancelOrder(shop.deps, { ...shop.ids, orderId: other.order.id });
    expect(await errorOf(approveOrder(shop.deps, { ...shop.ids, orderId: other.order.id }))).toMatchObject({
      code: 'invalid_state_transition',
    });
  });

  it('approves without a shipment when asked, and partial shipments then take some open pieces at a time', async () => {
    const shop = await withDraftOrder();
    const approved = await approveOrder(shop.deps, { ...shop.ids, createShipment: false });
    expect(approved.shipment).toBeNull();

    const first = await createPartialShipment(shop.deps, {
      ...shop.ids,
      lines: [{ ean: '5701234567892', quantity: 2 }],
    });
    const second = await createPartialShipment(shop.deps, {
      ...shop.ids,
      lines: [
        { sku: 'TEE-S', quantity: 1 },
        { sku: 'TEE-M', quantity: 2 },
      ],
    });

    expect(first).toMatchObject({
      shipmentNumber: 1,
      shippingCost: 995,
      lines: [expect.objectContaining({ sku: 'TEE-S', quantity: 2 })],
    });
    expect(second).toMatchObject({ shipmentNumber: 2, shippingCost: null });
    expect(second.lines.map((l) => [l.sku, l.quantity])).toEqual([
      ['TEE-S', 1],
      ['TEE-M', 2],
    ]);
    const { order, shipments } = await shop.readOrder(shop.order.id);
    expect(order.lines.map((l) => l.shippedQuantity)).toEqual([3, 2]);
    expect(shipments.map((s) => s.id)).toEqual([first.id, second.id]);
    expect(
      await violationsOf(createPartialShipment(shop.deps, { ...shop.ids, lines: [{ sku: 'TEE-M', quantity: 1 }] })),
    ).toEqual({
      '/lines/0/quantity': 'lines[0].quantity SKU TEE-M: 1 pieces asked, but only 0 are open on order 1',
    });
  });

  it('refuses a partial shipment beyond the open pieces (summed over the lines of a variant) or of a SKU not on the order', async () => {
    const shop = await withDraftOrder();
    await shop.products([product('CAP')]);
    await approveOrder(shop.deps, { ...shop.ids, createShipment: false });

    expect(
      await violationsOf(
        createPartialShipment(shop.deps, {
          ...shop.ids,
          lines: [
            { sku: 'TEE-S', quantity: 2 },
            { sku: 'TEE-S', quantity: 2 },
            { sku: 'CAP-M', quantity: 1 },
            { sku: 'TEE-M', quantity: 0 },
          ],
        }),
      ),
    ).toEqual({
      '/lines/0/quantity': 'lines[0].quantity SKU TEE-S: 4 pieces asked, but only 3 are open on order 1',
      '/lines/2/sku': 'lines[2].sku "CAP-M" is not on order 1',
      '/lines/3/quantity': 'lines[3].quantity must be a whole number above 0',
    });
    expect((await shop.readOrder(shop.order.id)).shipments).toEqual([]);
  });

  it('refuses partial shipments of an order that is not approved', async () => {
    const shop = await withDraftOrder();

    expect(
      await errorOf(createPartialShipment(shop.deps, { ...shop.ids, lines: [{ sku: 'TEE-S', quantity: 1 }] })),
    ).toMatchObject({
      code: 'invalid_state_transition',
      message: 'order 1 is draft; only approved orders get shipments',
    });
  });

  it('puts the shipping cost on the next shipment when the shipment carrying it was cancelled', async () => {
    const shop = await withDraftOrder();
    const { shipment } = await approveOrder(shop.deps, shop.ids);
    await cancelShipment(shop.deps, { brandId: shop.brand.id, userId: shop.user.id, shipmentId: shipment!.id });

    const again = await createPartialShipment(shop.deps, { ...shop.ids, lines: [{ sku: 'TEE-S', quantity: 3 }] });

    expect(again).toMatchObject({ shipmentNumber: 2, shippingCost: 995 });
  });
});

describe('cancelling an order', () => {
  it('releases what the order reserves and cancels its open shipments, whose pieces are no longer shipped', async () => {
    const shop = await withDraftOrder();
    const { shipment } = await approveOrder(shop.deps, shop.ids);
    expect(await shop.stock('TEE-S')).toEqual({ inStock: 10, available: 7 });
    shop.clock.advance(1000);

    const cancelled = await cancelOrder(shop.deps, shop.ids);

    expect(cancelled).toMatchObject({ status: 'cancelled', cancelledAt: shop.clock.now() });
    expect(await shop.stock('TEE-S')).toEqual({ inStock: 10, available: 10 });
    expect(await shop.stock('TEE-M')).toEqual({ inStock: 10, available: 10 });
    const stored = await shop.readOrder(shop.order.id);
    expect(stored.order.lines.map((l) => [l.reservations, l.shippedQuantity])).toEqual([
      [[], 0],
      [[], 0],
    ]);
    expect(stored.shipments).toEqual([
      expect.objectContaining({ id: shipment!.id, status: 'cancelled', cancelledAt: shop.clock.now() }),
    ]);
    expect(stored.timeline.map((e) => e.kind)).toEqual(['created', 'approved', 'shipment_created', 'cancelled']);
    const { timeline } = await getShipment(shop.deps, { brandId: shop.brand.id, shipmentId: shipment!.id });
    expect(timeline.map((e) => e.kind)).toEqual(['created', 'cancelled']);
  });

  it('cancels a draft order and refuses to cancel it twice', async () => {
    const shop = await withDraftOrder();

    await cancelOrder(shop.deps, shop.ids);

    expect(await shop.stock('TEE-S')).toEqual({ inStock: 10, available: 10 });
    expect(await errorOf(cancelOrder(shop.deps, shop.ids))).toMatchObject({
      code: 'invalid_state_transition',
      message: 'order cannot move from cancelled to cancelled',
    });
  });

  it('refuses to cancel an order once one of its shipments was delivered, changing nothing', async () => {
    const shop = await withDraftOrder();
    const { shipment } = await approveOrder(shop.deps, shop.ids);
    await deliverShipment(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      delivery: {
        shipmentNumber: shipment!.shipmentNumber,
        orderType: 'b2b',
        carrier: 'gls',
        colli: [{ trackTrace: null, trackTraceLink: null, ssccNumber: null, lines: [{ sku: 'TEE-S', quantity: 3 }] }],
      },
    });

    expect(await errorOf(cancelOrder(shop.deps, shop.ids))).toMatchObject({
      code: 'invalid_state_transition',
      message: 'order 1 cannot be cancelled: shipment 1 was delivered',
    });
    expect((await shop.readOrder(shop.order.id)).order.status).toBe('approved');
    expect(await shop.stock('TEE-S')).toEqual({ inStock: 10, available: 7 });
  });
});

describe('reading orders', () => {
  it("lists orders with lines when included and each order's export marks", async () => {
    const shop = await withDraftOrder();
    const second = await shop.place(shop.b2b, { customerNumber: 'C-1', lines: [{ sku: 'TEE-M', quantity: 1 }] });
    await shop.uow.run((tx) =>
      tx.exportMarks.mark([
        {
          brandId: shop.brand.id,
          documentType: 'order',
          documentId: second.order.id,
          systemId: 'erp',
          exportedAt: shop.clock.now(),
          note: null,
        },
      ]),
    );

    const { page, exports } = await listOrders(shop.deps, { brandId: shop.brand.id, query: { includes: ['lines'] } });

    expect(page.items.map((o) => [o.orderNumber, o.lines.length])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(page.total).toBe(2);
    expect(exports.get(shop.order.id)).toEqual([]);
    expect(exports.get(second.order.id)).toEqual([expect.objectContaining({ systemId: 'erp' })]);
  });

  it("treats another brand's order and shipment as not found", async () => {
    const shop = await withDraftOrder();
    const { shipment } = await approveOrder(shop.deps, shop.ids);
    const other = await createBrand(shop.deps, { name: 'Other', currency: 'EUR' });
    const foreign = { brandId: other.id, userId: shop.user.id, orderId: shop.order.id };

    for (const attempt of [
      getOrder(shop.deps, foreign),
      approveOrder(shop.deps, foreign),
      cancelOrder(shop.deps, foreign),
      createPartialShipment(shop.deps, { ...foreign, lines: [{ sku: 'TEE-S', quantity: 1 }] }),
    ]) {
      expect(await errorOf(attempt)).toMatchObject({
        code: 'not_found',
        data: { resource: 'order', id: shop.order.id },
      });
    }
    expect(await errorOf(getShipment(shop.deps, { brandId: other.id, shipmentId: shipment!.id }))).toMatchObject({
      code: 'not_found',
      data: { resource: 'shipment' },
    });
    expect((await listOrders(shop.deps, { brandId: other.id, query: {} })).page.items).toEqual([]);
    expect((await shop.readOrder(shop.order.id)).order.status).toBe('approved');
  });
});
