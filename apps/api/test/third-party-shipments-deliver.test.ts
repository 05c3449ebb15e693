import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import {
  OrderingBrand,
  approveOrder,
  changeSettings,
  getOk,
  placeOrder,
  seedOrderingBrand,
  stockOf,
} from './support/orders';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
interface OrderLineView {
  sku: string;
  quantity: number;
  reserved_quantity: number;
  shipped_quantity: number;
  delivered_quantity: number;
}
const MINUTE = 60_000;

for (const dialect of testDialects()) {
  describe(`3PL shipments: deliver and cancel [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
    });

    const post = (path: string, body: Body) => request(t.server).post(path).set(shop.brand.headers).send(body);
    /** A B2B order of C-B2B, approved, with its one open shipment (3PL form). */
    const orderWithShipment = async (lines: { sku: string; quantity: number }[], channel: 'b2b' | 'b2c' = 'b2b') => {
      const placed = await placeOrder(t, shop.brand, shop.channels[channel], {
        customer_number: channel === 'b2b' ? 'C-B2B' : 'C-SHOP',
        lines,
      });
      const order = await approveOrder(t, shop.brand, placed['id'] as number);
      const shipments = (
        await getOk(
          t,
          shop.brand,
          `/3pl/shipments?filter_groups[0][filters][0][key]=id&filter_groups[0][filters][0][operator]=gte&filter_groups[0][filters][0][value]=0&sort[0][key]=id&sort[0][direction]=DESC&limit=1`,
        )
      )['shipments'] as Body[];
      return { order, shipment: shipments[0]! };
    };
    const orderLines = async (orderId: unknown) =>
      (await getOk(t, shop.brand, `/v10/orders/${orderId}`))['order'] as { status: string; lines: OrderLineView[] };
    const shipmentStatus = async (id: unknown) =>
      ((await getOk(t, shop.brand, `/v10/shipments/${id}`))['shipment'] as Body)['status'];
    const deliveryNote = (shipment: Body, colli: Body[], extra: Body = {}) => ({
      delivery_note: {
        shipment_number: shipment['shipment_number'],
        order_type: 'b2b',
        carrier: 'gls',
        colli,
        ...extra,
      },
    });

    it('reports a shipment delivered once: carrier and colli recorded, lines by sku or ean, the order counting the delivered pieces', async () => {
      const { order, shipment } = await orderWithShipment([
        { sku: 'TEE-S', quantity: 3 },
        { sku: 'CAP-ONE', quantity: 1 },
      ]);
      t.clock.advance(MINUTE);
      const response = await post('/3pl/shipments/deliver', {
        delivery_note: {
          // A string of digits names the shipment as well as the integer.
          shipment_number: String(shipment['shipment_number']),
          order_type: 'b2b',
          carrier: 'gls',
          colli: [
            { track_trace: 'GLS0001', lines: [{ sku: 'TEE-S', quantity: 2 }] },
            {
              track_trace: 'GLS0002',
              track_trace_link: 'https://track.example/GLS0002',
              sscc_number: '003123456789012345',
              lines: [
                { ean: '5700000000011', quantity: 1 },
                { sku: 'CAP-ONE', quantity: 1 },
              ],
            },
          ],
        },
      });
      expect(response.status).toBe(200);
      expect(response.body.shipment).toEqual({
        ...shipment,
        status: 'completed',
        carrier: 'gls',
        colli: [
          // No link sent: built from the carrier's template.
          {
            track_trace: 'GLS0001',
            track_trace_link: 'https://gls-group.eu/track/GLS0001',
            sscc_number: null,
            lines: [{ sku: 'TEE-S', quantity: 2 }],
          },
          // A link sent is kept.
          {
            track_trace: 'GLS0002',
            track_trace_link: 'https://track.example/GLS0002',
            sscc_number: '003123456789012345',
            lines: [
              { sku: 'TEE-S', quantity: 1 },
              { sku: 'CAP-ONE', quantity: 1 },
            ],
          },
        ],
        updated_at: t.clock.now(),
      });
      expect(
        (await orderLines(order['id'])).lines.map((l) => [l.sku, l.shipped_quantity, l.delivered_quantity]),
      ).toEqual([
        ['TEE-S', 3, 3],
        ['CAP-ONE', 1, 1],
      ]);
      expect(await shipmentStatus(shipment['id'])).toBe('completed');

      const again = await post(
        '/3pl/shipments/deliver',
        deliveryNote(shipment, [{ track_trace: 'GLS0003', lines: [{ sku: 'TEE-S', quantity: 1 }] }]),
      );
      expect(again.status).toBe(422);
      expect(again.body.errors[0]).toMatchObject({
        code: 'invalid_state_transition',
        detail: 'shipment cannot move from completed to completed',
      });
      expect((await orderLines(order['id'])).lines.map((l) => l.delivered_quantity)).toEqual([3, 1]);
    });

    it('takes fewer pieces than the shipment holds: the rest is open on the order again and can be shipped later', async () => {
      const { order, shipment } = await orderWithShipment([
        { sku: 'TEE-S', quantity: 3 },
        { sku: 'CAP-ONE', quantity: 1 },
      ]);
      const response = await post(
        '/3pl/shipments/deliver',
        deliveryNote(shipment, [{ lines: [{ sku: 'TEE-S', quantity: 1 }] }]),
      );
      expect(response.status).toBe(200);
      // Without track_trace there is nothing to link to.
      expect(response.body.shipment.colli).toEqual([
        { track_trace: null, track_trace_link: null, sscc_number: null, lines: [{ sku: 'TEE-S', quantity: 1 }] },
      ]);
      const after = await orderLines(order['id']);
      expect(after.status).toBe('approved');
      expect(after.lines.map((l) => [l.sku, l.shipped_quantity, l.delivered_quantity])).toEqual([
        ['TEE-S', 1, 1],
        ['CAP-ONE', 0, 0],
      ]);
      const rest = await post(`/v10/orders/${order['id']}/shipments`, {
        lines: [
          { sku: 'TEE-S', quantity: 2 },
          { sku: 'CAP-ONE', quantity: 1 },
        ],
      });
      expect(rest.status).toBe(201);
    });

    it("builds the tracking link from the brand's own template for a carrier", async () => {
      await changeSettings(t, shop.brand, {
        tracking_link_templates: { acme: 'https://acme.example/t/{track_trace}' },
      });
      const { shipment } = await orderWithShipment([{ sku: 'TEE-S', quantity: 1 }]);
      const response = await post(
        '/3pl/shipments/deliver',
        deliveryNote(shipment, [{ track_trace: 'A 1', lines: [{ sku: 'TEE-S', quantity: 1 }] }], { carrier: 'acme' }),
      );
      expect(response.status).toBe(200);
      expect(response.body.shipment).toMatchObject({
        carrier: 'acme',
        colli: [{ track_trace: 'A 1', track_trace_link: 'https://acme.example/t/A%201' }],
      });
    });

    it('refuses more pieces than the shipment holds, a line not on it, another order type or an unknown number, delivering nothing', async () => {
      const { order, shipment } = await orderWithShipment([{ sku: 'TEE-S', quantity: 2 }]);
      const tooMany = await post(
        '/3pl/shipments/deliver',
        deliveryNote(shipment, [
          { lines: [{ sku: 'TEE-S', quantity: 2 }] },
          { lines: [{ ean: '5700000000011', quantity: 1 }] },
        ]),
      );
      expect(tooMany.status).toBe(422);
      expect(tooMany.body.errors).toEqual([
        expect.objectContaining({
          code: 'validation_failed',
          source: { pointer: '/delivery_note/colli/0/lines/0/quantity' },
          detail: expect.stringContaining('3 pieces delivered'),
        }),
      ]);
      const notOnShipment = await post(
        '/3pl/shipments/deliver',
        deliveryNote(shipment, [{ lines: [{ sku: 'CAP-ONE', quantity: 1 }] }]),
      );
      expect(notOnShipment.status).toBe(422);
      expect(notOnShipment.body.errors[0].source).toEqual({ pointer: '/delivery_note/colli/0/lines/0/sku' });
      const otherType = await post(
        '/3pl/shipments/deliver',
        deliveryNote(shipment, [{ lines: [{ sku: 'TEE-S', quantity: 1 }] }], { order_type: 'b2c' }),
      );
      expect(otherType.status).toBe(422);
      expect(otherType.body.errors[0].source).toEqual({ pointer: '/delivery_note/order_type' });
      const unknown = await post(
        '/3pl/shipments/deliver',
        deliveryNote(shipment, [{ lines: [{ sku: 'TEE-S', quantity: 1 }] }], { shipment_number: 999999 }),
      );
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0].source).toEqual({ pointer: '/delivery_note/shipment_number' });

      expect(await shipmentStatus(shipment['id'])).toBe('open');
      expect((await orderLines(order['id'])).lines.map((l) => [l.shipped_quantity, l.delivered_quantity])).toEqual([
        [2, 0],
      ]);
    });

    it('refuses a delivery note of the wrong shape, naming each field', async () => {
      const { shipment } = await orderWithShipment([{ sku: 'TEE-S', quantity: 1 }]);
      const missing = await post('/3pl/shipments/deliver', {});
      expect(missing.status).toBe(422);
      expect(missing.body.errors[0].source).toEqual({ pointer: '/delivery_note' });
      const wrong = await post('/3pl/shipments/deliver', {
        delivery_note: {
          shipment_number: 'S-1',
          order_type: 'retail',
          colli: [{ track_trace: 5, lines: [{ sku: 'TEE-S', ean: '5700000000011', quantity: 1 }, { quantity: 0 }] }],
        },
      });
      expect(wrong.status).toBe(422);
      expect(wrong.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
        '/delivery_note/carrier',
        '/delivery_note/colli/0/lines/0/ean',
        '/delivery_note/colli/0/lines/1/quantity',
        '/delivery_note/colli/0/lines/1/sku',
        '/delivery_note/colli/0/track_trace',
        '/delivery_note/order_type',
        '/delivery_note/shipment_number',
      ]);
      const noColli = await post('/3pl/shipments/deliver', deliveryNote(shipment, []));
      expect(noColli.status).toBe(422);
      expect(noColli.body.errors[0]).toMatchObject({
        source: { pointer: '/delivery_note/colli' },
        detail: 'delivery_note.colli must contain at least one colli',
      });
      expect(await shipmentStatus(shipment['id'])).toBe('open');
    });

    it('drafts an invoice of the delivered pieces when the brand invoices in the service', async () => {
      await changeSettings(t, shop.brand, { invoicing: 'in_service' });
      const { order, shipment } = await orderWithShipment([{ sku: 'TEE-S', quantity: 2 }]);
      expect(
        (await post('/3pl/shipments/deliver', deliveryNote(shipment, [{ lines: [{ sku: 'TEE-S', quantity: 1 }] }])))
          .status,
      ).toBe(200);
      const invoices = (await getOk(t, shop.brand, '/v10/invoices?includes[]=lines'))['invoices'] as Body[];
      expect(invoices).toEqual([
        expect.objectContaining({
          status: 'draft',
          order_id: order['id'],
          shipment_id: shipment['id'],
          lines: [expect.objectContaining({ sku: 'TEE-S', quantity: 1 })],
        }),
      ]);
    });

    describe('cancel', () => {
      it('cancels a shipment by id: the order keeps its status and reservations, its pieces are open again', async () => {
        const { order, shipment } = await orderWithShipment([{ sku: 'TEE-S', quantity: 3 }]);
        t.clock.advance(MINUTE);
        const response = await post('/3pl/shipments/cancel', { shipment_id: shipment['id'] });
        expect(response.status).toBe(200);
        expect(response.body.shipment).toEqual({ ...shipment, status: 'cancelled', updated_at: t.clock.now() });
        const after = await orderLines(order['id']);
        expect(after.status).toBe('approved');
        expect(after.lines.map((l) => [l.reserved_quantity, l.shipped_quantity])).toEqual([[3, 0]]);
        expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 7 });
        const cancelledShipment = (await getOk(t, shop.brand, `/v10/shipments/${shipment['id']}`))['shipment'] as Body;
        expect(cancelledShipment).toMatchObject({ status: 'cancelled', cancelled_at: t.clock.now() });

        const twice = await post('/3pl/shipments/cancel', { shipment_id: shipment['id'] });
        expect(twice.status).toBe(422);
        expect(twice.body.errors[0]).toMatchObject({
          code: 'invalid_state_transition',
          detail: 'shipment cannot move from cancelled to cancelled',
        });
        // The pieces can be shipped again.
        expect(
          (await post(`/v10/orders/${order['id']}/shipments`, { lines: [{ sku: 'TEE-S', quantity: 3 }] })).status,
        ).toBe(201);
      });

      it('cancels a shipment by number (integer or string of digits), but not a delivered one', async () => {
        const { shipment } = await orderWithShipment([{ sku: 'TEE-S', quantity: 1 }], 'b2c');
        const byNumber = await post('/3pl/shipments/cancel', { shipment_number: String(shipment['shipment_number']) });
        expect(byNumber.status).toBe(200);
        expect(byNumber.body.shipment).toMatchObject({ id: shipment['id'], status: 'cancelled', order_type: 'b2c' });

        const { shipment: delivered } = await orderWithShipment([{ sku: 'TEE-M', quantity: 1 }]);
        expect(
          (await post('/3pl/shipments/deliver', deliveryNote(delivered, [{ lines: [{ sku: 'TEE-M', quantity: 1 }] }])))
            .status,
        ).toBe(200);
        const refused = await post('/3pl/shipments/cancel', { shipment_number: delivered['shipment_number'] });
        expect(refused.status).toBe(422);
        expect(refused.body.errors[0]).toMatchObject({
          code: 'invalid_state_transition',
          detail: 'shipment cannot move from completed to cancelled',
        });
        expect(await shipmentStatus(delivered['id'])).toBe('completed');
      });

      it('refuses a cancel naming no shipment, an unknown one, or an id and a number of different shipments', async () => {
        const { shipment } = await orderWithShipment([{ sku: 'TEE-S', quantity: 1 }]);
        const neither = await post('/3pl/shipments/cancel', {});
        expect(neither.status).toBe(422);
        expect(neither.body.errors[0]).toMatchObject({
          source: { pointer: '/shipment_id' },
          detail: 'shipment_id must be an integer; send shipment_id or shipment_number',
        });
        const badNumber = await post('/3pl/shipments/cancel', { shipment_number: 'S-1' });
        expect(badNumber.status).toBe(422);
        expect(badNumber.body.errors[0].source).toEqual({ pointer: '/shipment_number' });
        const unknownId = await post('/3pl/shipments/cancel', { shipment_id: 999999 });
        expect(unknownId.status).toBe(422);
        expect(unknownId.body.errors[0].source).toEqual({ pointer: '/shipment_id' });
        const unknownNumber = await post('/3pl/shipments/cancel', { shipment_number: 999999 });
        expect(unknownNumber.status).toBe(422);
        expect(unknownNumber.body.errors[0].source).toEqual({ pointer: '/shipment_number' });
        const mismatch = await post('/3pl/shipments/cancel', {
          shipment_id: shipment['id'],
          shipment_number: (shipment['shipment_number'] as number) + 1,
        });
        expect(mismatch.status).toBe(422);
        expect(mismatch.body.errors[0].source).toEqual({ pointer: '/shipment_number' });

        const other = await seedOrderingBrand(t);
        const foreign = await request(t.server)
          .post('/3pl/shipments/cancel')
          .set(other.brand.headers)
          .send({ shipment_id: shipment['id'] });
        expect(foreign.status).toBe(422);
        expect(await shipmentStatus(shipment['id'])).toBe('open');
      });
    });
  });
}
