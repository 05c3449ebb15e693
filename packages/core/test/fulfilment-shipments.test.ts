import {
  DeliveredColli,
  approveOrder,
  cancelShipment,
  createBrand,
  createPartialShipment,
  createPaymentTerms,
  deliverShipment,
  getShipment,
  listShipments,
  listThirdPartyShipments,
} from '../src';
import { BUILT_IN_TRACKING_LINK_TEMPLATES, trackingLinkFor } from '../src/fulfilment/tracking-links';
import { customer, errorOf, product, setUpShop, variant, violationsOf } from './orders-shop.support';

/** A shop with an approved B2B order (3 × TEE-S at 19.99, 2 × TEE-M, shipping 9.95, customer discount 10 %) and its open shipment. */
async function withOpenShipment() {
  const shop = await setUpShop();
  const terms = await createPaymentTerms(shop.deps, {
    brandId: shop.brand.id,
    code: 'NET30',
    name: 'Net 30 days',
    days: 30,
  });
  await shop.products([
    product('TEE', { variants: [variant('TEE-S', 10, { ean: '5701234567892' }), variant('TEE-M', 10)] }),
  ]);
  await shop.customers([
    customer('C-1', { discountPercentage: 10, email: 'shop@berg.example', paymentTerms: { code: 'NET30' } }),
  ]);
  const b2b = await shop.channel('b2b');
  const placed = await shop.place(b2b, {
    customerNumber: 'C-1',
    shippingCost: 995,
    lines: [
      { sku: 'TEE-S', quantity: 3 },
      { sku: 'TEE-M', quantity: 2 },
    ],
  });
  const { order, shipment } = await approveOrder(shop.deps, {
    brandId: shop.brand.id,
    userId: shop.user.id,
    orderId: placed.order.id,
  });
  const deliver = (
    colli: DeliveredColli[],
    extra: { carrier?: string; orderType?: 'b2b' | 'b2c'; shipmentNumber?: number; brandId?: number } = {},
  ) =>
    deliverShipment(shop.deps, {
      brandId: extra.brandId ?? shop.brand.id,
      userId: shop.user.id,
      delivery: {
        shipmentNumber: extra.shipmentNumber ?? shipment!.shipmentNumber,
        orderType: extra.orderType ?? 'b2b',
        carrier: extra.carrier ?? 'postnord',
        colli,
      },
    });
  return { ...shop, terms, b2b, order, shipment: shipment!, deliver };
}

const colli = (lines: DeliveredColli['lines'], extra: Partial<DeliveredColli> = {}): DeliveredColli => ({
  trackTrace: null,
  trackTraceLink: null,
  ssccNumber: null,
  lines,
  ...extra,
});

describe('delivering a shipment', () => {
  it('completes the shipment with carrier and colli, and counts the delivered pieces on the order', async () => {
    const shop = await withOpenShipment();
    shop.clock.advance(3_600_000);

    const { shipment: view, invoice } = await shop.deliver([
      colli(
        [
          { sku: 'TEE-S', quantity: 2 },
          { ean: '5701234567892', quantity: 1 },
        ],
        { trackTrace: '00370712345678901234', ssccNumber: '376543210000000018' },
      ),
      colli([{ sku: 'TEE-M', quantity: 2 }], { trackTrace: 'AB 12', trackTraceLink: 'https://track.example/AB12' }),
    ]);

    expect(invoice).toBeNull();
    expect(view.shipment).toMatchObject({ status: 'completed', carrier: 'postnord', deliveredAt: shop.clock.now() });
    expect(view.shipment.colli).toEqual([
      {
        trackTrace: '00370712345678901234',
        trackTraceLink: 'https://tracking.postnord.com/se/?id=00370712345678901234',
        ssccNumber: '376543210000000018',
        lines: [
          { variantId: await shop.variantId('TEE-S'), sku: 'TEE-S', quantity: 2 },
          { variantId: await shop.variantId('TEE-S'), sku: 'TEE-S', quantity: 1 },
        ],
      },
      {
        trackTrace: 'AB 12',
        trackTraceLink: 'https://track.example/AB12',
        ssccNumber: null,
        lines: [{ variantId: await shop.variantId('TEE-M'), sku: 'TEE-M', quantity: 2 }],
      },
    ]);
    expect(view.shipment.lines.map((l) => [l.sku, l.quantity, l.deliveredQuantity])).toEqual([
      ['TEE-S', 3, 3],
      ['TEE-M', 2, 2],
    ]);
    const stored = await shop.readOrder(shop.order.id);
    expect(stored.order.lines.map((l) => [l.shippedQuantity, l.deliveredQuantity])).toEqual([
      [3, 3],
      [2, 2],
    ]);
    expect(stored.order.status).toBe('approved');
    expect(stored.timeline.map((e) => e.kind)).toEqual(['created', 'approved', 'shipment_created', 'delivered']);
    expect(
      (await getShipment(shop.deps, { brandId: shop.brand.id, shipmentId: shop.shipment.id })).timeline.map(
        (e) => e.kind,
      ),
    ).toEqual(['created', 'delivered']);
    // Delivery moves no stock: pieces stay reserved until regulated.
    expect(await shop.stock('TEE-S')).toEqual({ inStock: 10, available: 7 });
  });

  it('delivers once: a second delivery is an invalid state transition', async () => {
    const shop = await withOpenShipment();
    await shop.deliver([colli([{ sku: 'TEE-S', quantity: 3 }])]);

    expect(await errorOf(shop.deliver([colli([{ sku: 'TEE-M', quantity: 2 }])]))).toMatchObject({
      code: 'invalid_state_transition',
      message: 'shipment cannot move from completed to completed',
    });
    expect((await shop.readOrder(shop.order.id)).order.lines.map((l) => l.deliveredQuantity)).toEqual([3, 0]);
  });

  it('gives the pieces not delivered back to the order, where a new shipment can take them', async () => {
    const shop = await withOpenShipment();

    const { shipment: view } = await shop.deliver([colli([{ sku: 'TEE-S', quantity: 1 }])]);

    expect(view.shipment.lines.map((l) => [l.sku, l.quantity, l.deliveredQuantity])).toEqual([
      ['TEE-S', 3, 1],
      ['TEE-M', 2, 0],
    ]);
    const { order } = await shop.readOrder(shop.order.id);
    expect(order.lines.map((l) => [l.shippedQuantity, l.deliveredQuantity])).toEqual([
      [1, 1],
      [0, 0],
    ]);
    const rest = await createPartialShipment(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      orderId: shop.order.id,
      lines: [
        { sku: 'TEE-S', quantity: 2 },
        { sku: 'TEE-M', quantity: 2 },
      ],
    });
    expect(rest).toMatchObject({ shipmentNumber: 2, shippingCost: null });
  });

  it('refuses more pieces than the shipment holds (summed over all colli), SKUs not on it, and the wrong order type', async () => {
    const shop = await withOpenShipment();
    await shop.products([product('CAP')]);

    expect(
      await violationsOf(
        shop.deliver(
          [
            colli([
              { sku: 'TEE-S', quantity: 2 },
              { sku: 'CAP-M', quantity: 1 },
            ]),
            colli([{ sku: 'TEE-S', quantity: 2 }]),
          ],
          { orderType: 'b2c', carrier: ' ' },
        ),
      ),
    ).toEqual({
      '/delivery_note/order_type': 'delivery_note.order_type is b2c, but shipment 1 belongs to a b2b order',
      '/delivery_note/carrier': 'delivery_note.carrier must not be empty',
      '/delivery_note/colli/0/lines/0/quantity':
        'delivery_note.colli[0].lines[0].quantity SKU TEE-S: 4 pieces delivered in all colli, but shipment 1 holds 3',
      '/delivery_note/colli/0/lines/1/sku': 'delivery_note.colli[0].lines[1].sku "CAP-M" is not on shipment 1',
    });
    expect(
      (await getShipment(shop.deps, { brandId: shop.brand.id, shipmentId: shop.shipment.id })).shipment.status,
    ).toBe('open');
  });

  it("refuses an unknown shipment number, and another brand's shipment number alike", async () => {
    const shop = await withOpenShipment();
    const other = await createBrand(shop.deps, { name: 'Other', currency: 'EUR' });

    expect(await violationsOf(shop.deliver([], { shipmentNumber: 99 }))).toEqual({
      '/delivery_note/shipment_number': 'delivery_note.shipment_number names shipment 99, which does not exist',
    });
    expect(await violationsOf(shop.deliver([], { brandId: other.id }))).toEqual({
      '/delivery_note/shipment_number': 'delivery_note.shipment_number names shipment 1, which does not exist',
    });
  });

  it("builds tracking links from the brand's templates before the built-in ones, and none without a tracking number or template", async () => {
    const shop = await withOpenShipment();
    await shop.settings({
      trackingLinkTemplates: {
        gls: 'https://brand.example/gls/{track_trace}?lang=en',
        airmee: 'https://airmee.example/t/{track_trace}',
      },
    });

    const { shipment: view } = await shop.deliver(
      [
        colli([{ sku: 'TEE-S', quantity: 1 }], { trackTrace: 'G 1/2' }),
        colli([{ sku: 'TEE-S', quantity: 1 }], { trackTrace: null }),
      ],
      { carrier: 'GLS' },
    );

    expect(view.shipment.colli.map((c) => c.trackTraceLink)).toEqual([
      'https://brand.example/gls/G%201%2F2?lang=en',
      null,
    ]);
    expect(view.shipment.carrier).toBe('GLS');
  });

  it('drafts an invoice of the delivered pieces (and the shipping cost) when the brand invoices in the service', async () => {
    const shop = await withOpenShipment();
    await shop.settings({ invoicing: 'in_service' });

    const { invoice } = await shop.deliver([
      colli([
        { sku: 'TEE-S', quantity: 2 },
        { sku: 'TEE-M', quantity: 2 },
      ]),
    ]);

    // 2 × 19.99 − 10 % = 35.98; 2 × 19.99 − 10 % = 35.98; shipping 9.95: 81.91 net, VAT 20.48 (20.4775).
    expect(invoice).toMatchObject({
      status: 'draft',
      orderId: shop.order.id,
      shipmentId: shop.shipment.id,
      currency: 'EUR',
      netTotal: 8191,
      vatTotal: 2048,
      total: 10239,
    });
    expect(invoice!.lines.map((l) => [l.kind, l.sku, l.quantity, l.totalPrice])).toEqual([
      ['product', 'TEE-S', 2, 3598],
      ['product', 'TEE-M', 2, 3598],
      ['shipping', null, 1, 995],
    ]);
    const stored = await shop.readOrder(shop.order.id);
    expect(stored.invoices).toEqual([invoice]);
    expect(stored.order.lines.map((l) => l.invoicedQuantity)).toEqual([2, 2]);
  });

  it('drafts no invoice when the brand invoices externally', async () => {
    const shop = await withOpenShipment();

    const { invoice } = await shop.deliver([colli([{ sku: 'TEE-S', quantity: 3 }])]);

    expect(invoice).toBeNull();
    expect((await shop.readOrder(shop.order.id)).invoices).toEqual([]);
  });

  it("answers with the 3PL view: the order, the customer and the customer's payment terms", async () => {
    const shop = await withOpenShipment();

    const { shipment: view } = await shop.deliver([colli([{ sku: 'TEE-S', quantity: 3 }])]);

    expect(view.order).toMatchObject({ id: shop.order.id, orderNumber: 1 });
    expect(view.customer).toMatchObject({ customerNumber: 'C-1', email: 'shop@berg.example' });
    expect(view.paymentTerms).toEqual(shop.terms);
    expect(view.exports).toEqual([]);
  });
});

describe('cancelling a shipment', () => {
  it('cancels an open shipment by id: its pieces are open on the order again, which keeps its status and reservations', async () => {
    const shop = await withOpenShipment();
    shop.clock.advance(1000);

    const view = await cancelShipment(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      shipmentId: shop.shipment.id,
    });

    expect(view.shipment).toMatchObject({ status: 'cancelled', cancelledAt: shop.clock.now() });
    const { order } = await shop.readOrder(shop.order.id);
    expect(order.status).toBe('approved');
    expect(order.lines.map((l) => [l.shippedQuantity, l.reservations.reduce((sum, r) => sum + r.quantity, 0)])).toEqual(
      [
        [0, 3],
        [0, 2],
      ],
    );
    expect(await shop.stock('TEE-S')).toEqual({ inStock: 10, available: 7 });
    expect(
      (await getShipment(shop.deps, { brandId: shop.brand.id, shipmentId: shop.shipment.id })).timeline.map(
        (e) => e.kind,
      ),
    ).toEqual(['created', 'cancelled']);
  });

  it('cancels by shipment number, and refuses a delivered or already cancelled shipment', async () => {
    const shop = await withOpenShipment();
    await cancelShipment(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      shipmentNumber: shop.shipment.shipmentNumber,
    });

    expect(
      await errorOf(
        cancelShipment(shop.deps, { brandId: shop.brand.id, userId: shop.user.id, shipmentId: shop.shipment.id }),
      ),
    ).toMatchObject({
      code: 'invalid_state_transition',
      message: 'shipment cannot move from cancelled to cancelled',
    });
    const next = await createPartialShipment(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      orderId: shop.order.id,
      lines: [{ sku: 'TEE-S', quantity: 1 }],
    });
    await shop.deliver([colli([{ sku: 'TEE-S', quantity: 1 }])], { shipmentNumber: next.shipmentNumber });
    expect(
      await errorOf(cancelShipment(shop.deps, { brandId: shop.brand.id, userId: shop.user.id, shipmentId: next.id })),
    ).toMatchObject({
      code: 'invalid_state_transition',
      message: 'shipment cannot move from completed to cancelled',
    });
  });

  it('refuses an unknown or foreign shipment at the field that named it', async () => {
    const shop = await withOpenShipment();
    const other = await createBrand(shop.deps, { name: 'Other', currency: 'EUR' });
    const by = (ids: { shipmentId?: number; shipmentNumber?: number }, brandId = shop.brand.id) =>
      cancelShipment(shop.deps, { brandId, userId: shop.user.id, ...ids });

    expect(await violationsOf(by({ shipmentId: 99 }))).toEqual({
      '/shipment_id': 'shipment_id names shipment id 99, which does not exist',
    });
    expect(await violationsOf(by({ shipmentNumber: 99 }))).toEqual({
      '/shipment_number': 'shipment_number names shipment 99, which does not exist',
    });
    expect(await violationsOf(by({ shipmentId: shop.shipment.id }, other.id))).toEqual({
      '/shipment_id': `shipment_id names shipment id ${shop.shipment.id}, which does not exist`,
    });
    expect(await violationsOf(by({}))).toEqual({
      '/shipment_id': 'shipment_id is required when shipment_number is not given',
    });
    expect(
      (await getShipment(shop.deps, { brandId: shop.brand.id, shipmentId: shop.shipment.id })).shipment.status,
    ).toBe('open');
  });
});

describe('listing shipments', () => {
  it("lists the brand's shipments with their export marks, and the 3PL list with order, customer and terms", async () => {
    const shop = await withOpenShipment();
    const second = await shop.place(shop.b2b, { customerNumber: 'C-1', lines: [{ sku: 'TEE-M', quantity: 1 }] });
    const approved = await approveOrder(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      orderId: second.order.id,
    });
    await shop.uow.run((tx) =>
      tx.exportMarks.mark([
        {
          brandId: shop.brand.id,
          documentType: 'shipment',
          documentId: shop.shipment.id,
          systemId: 'wms',
          exportedAt: shop.clock.now(),
          note: 'picked up',
        },
      ]),
    );
    const other = await createBrand(shop.deps, { name: 'Other', currency: 'EUR' });

    const { page, exports } = await listShipments(shop.deps, { brandId: shop.brand.id, query: {} });
    const thirdParty = await listThirdPartyShipments(shop.deps, { brandId: shop.brand.id, query: { limit: '1' } });

    expect(page.items.map((s) => [s.shipmentNumber, s.orderNumber, s.lines.length])).toEqual([
      [1, 1, 2],
      [2, 2, 1],
    ]);
    expect(exports.get(shop.shipment.id)).toEqual([expect.objectContaining({ systemId: 'wms', note: 'picked up' })]);
    expect(exports.get(approved.shipment!.id)).toEqual([]);
    expect(thirdParty.page).toMatchObject({ hasMore: true, total: 2 });
    expect(thirdParty.page.items).toEqual([
      {
        shipment: shop.shipment,
        order: expect.objectContaining({ id: shop.order.id }),
        customer: expect.objectContaining({ customerNumber: 'C-1' }),
        paymentTerms: shop.terms,
        exports: [expect.objectContaining({ systemId: 'wms' })],
      },
    ]);
    expect((await listThirdPartyShipments(shop.deps, { brandId: other.id, query: {} })).page.items).toEqual([]);
  });
});

describe('tracking links', () => {
  it('fills the built-in template of common carriers, whatever the case of the carrier code', () => {
    expect(trackingLinkFor('UPS', '1Z999AA10123456784', {})).toBe(
      'https://www.ups.com/track?tracknum=1Z999AA10123456784',
    );
    expect(trackingLinkFor('dhl_express', '1234567890', {})).toBe(
      'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=1234567890',
    );
    for (const carrier of ['postnord', 'gls', 'dhl', 'dhl_express', 'ups', 'dpd', 'bring', 'dao', 'fedex', 'usps']) {
      expect(BUILT_IN_TRACKING_LINK_TEMPLATES[carrier]).toMatch(/^https:\/\/[^ ]+\{track_trace\}/);
    }
  });

  it("prefers the brand's template, and gives null without a tracking number or a known carrier", () => {
    expect(trackingLinkFor('dpd', 'X1', { dpd: 'https://dpd.example/{track_trace}/{track_trace}' })).toBe(
      'https://dpd.example/X1/X1',
    );
    expect(trackingLinkFor('Airmee', 'A7', { airmee: 'https://airmee.example/{track_trace}' })).toBe(
      'https://airmee.example/A7',
    );
    expect(trackingLinkFor('gls', null, {})).toBeNull();
    expect(trackingLinkFor('gls', '  ', {})).toBeNull();
    expect(trackingLinkFor('pigeon', '123', {})).toBeNull();
  });
});
