import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { OrderingBrand, changeSettings, getOk, seedOrderingBrand, stockOf } from './support/orders';
import { aClaimCause, aDeliveredOrder, anRma, creditNotesOf, returnOf } from './support/returns';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;

for (const dialect of testDialects()) {
  describe(`3PL ad hoc returns and dashboard alerts [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
    });

    const post = (path: string, body: Body = {}) => request(t.server).post(path).set(shop.brand.headers).send(body);
    const adHoc = (shipmentNumber: number | string, lines: Body[]) =>
      post('/3pl/returns/create-ad-hoc-return', {
        return: {
          shipment_number: shipmentNumber,
          lines: lines.map((l) => ({ claim_type: 'return', return_to_inventory: true, ...l })),
        },
      });
    const returnsTotal = async () => (await getOk(t, shop.brand, '/v10/returns'))['total'];

    it('is refused until the brand sets an ad hoc return mode', async () => {
      const { shipment } = await aDeliveredOrder(t, shop);
      const response = await adHoc(String(shipment.shipment_number), [{ sku: 'TEE-S', quantity: 1 }]);
      expect(response.status).toBe(422);
      expect(response.body.errors[0]).toMatchObject({
        code: 'validation_failed',
        detail: expect.stringContaining('ad hoc returns are off: set ad_hoc_return_mode'),
      });
      expect(await returnsTotal()).toBe(0);
    });

    it('always_credit_note: makes a received ad hoc return with a draft credit note, restocking only returned pieces sent back to inventory', async () => {
      await changeSettings(t, shop.brand, { ad_hoc_return_mode: 'always_credit_note' });
      const { order, shipment } = await aDeliveredOrder(t, shop);
      const cause = await aClaimCause(t, shop.brand, 'damaged');
      const before = { tee: await stockOf(t, shop.brand, 'TEE-S'), cap: await stockOf(t, shop.brand, 'CAP-ONE') };

      const response = await adHoc(String(shipment.shipment_number), [
        { sku: 'TEE-S', quantity: 2 },
        {
          ean: '5700000000035',
          quantity: 1,
          claim_type: 'claim',
          claim_cause_code: 'DAMAGED',
          should_refund_storefront: false,
        },
      ]);

      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        matched_rma: false,
        alert_id: null,
        return: { status: 'received', order_number: order.order_number, customer_number: 'C-B2B' },
      });
      expect(
        (response.body.return.lines as Body[]).map((l) => [l['sku'], l['expected_quantity'], l['returned']]),
      ).toEqual([
        ['TEE-S', 2, 2],
        ['CAP-ONE', 1, 1],
      ]);
      const read = await returnOf(t, shop.brand, response.body.return.id);
      expect(read).toMatchObject({ source: 'ad_hoc', shipment_id: shipment.id, status: 'received' });
      expect(read.lines.map((l) => [l['claim_cause_id'], l['refund_storefront'], l['regulate_inventory']])).toEqual([
        [null, true, true],
        [cause.id, false, true],
      ]);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({
        in_stock: before.tee.in_stock + 2,
        available: before.tee.available + 2,
      });
      expect(await stockOf(t, shop.brand, 'CAP-ONE')).toEqual(before.cap);
      const notes = await creditNotesOf(t, shop.brand);
      expect(notes).toEqual([expect.objectContaining({ return_id: read['id'], status: 'draft', net_total: 22.95 })]);
    });

    it('leaves stock alone for pieces the warehouse does not return to inventory', async () => {
      await changeSettings(t, shop.brand, { ad_hoc_return_mode: 'always_credit_note' });
      const { shipment } = await aDeliveredOrder(t, shop);
      const before = await stockOf(t, shop.brand, 'TEE-S');
      expect(
        (await adHoc(shipment.shipment_number, [{ sku: 'TEE-S', quantity: 1, return_to_inventory: false }])).status,
      ).toBe(201);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual(before);
    });

    it('credit_note_if_no_rma: receives the approved RMA that expects the pieces instead of making a new return', async () => {
      await changeSettings(t, shop.brand, { ad_hoc_return_mode: 'credit_note_if_no_rma' });
      const { order, shipment } = await aDeliveredOrder(t, shop);
      const rma = await anRma(t, shop.brand, order.order_number, [
        { sku: 'TEE-S', quantity: 2 },
        { sku: 'CAP-ONE', quantity: 1 },
      ]);

      const response = await adHoc(shipment.shipment_number, [{ sku: 'TEE-S', quantity: 2 }]);

      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        matched_rma: true,
        alert_id: null,
        return: { id: rma.id, rma: rma.rma, status: 'received' },
      });
      expect(await returnsTotal()).toBe(1);
      expect((await returnOf(t, shop.brand, rma.id)).timeline.map((e) => e['kind'])).toEqual([
        'created',
        'approved',
        'received',
        'ad_hoc_matched',
      ]);
      expect(await creditNotesOf(t, shop.brand)).toEqual([
        expect.objectContaining({ return_id: rma.id, net_total: 18 }),
      ]);
    });

    it('alert_if_no_rma: makes the return without a credit note and an open alert; the credit note is issued from the alert, once', async () => {
      await changeSettings(t, shop.brand, { ad_hoc_return_mode: 'alert_if_no_rma' });
      const { shipment } = await aDeliveredOrder(t, shop);

      const response = await adHoc(shipment.shipment_number, [{ sku: 'TEE-S', quantity: 1 }]);

      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        matched_rma: false,
        alert_id: expect.any(Number),
        return: { status: 'received' },
      });
      expect(await creditNotesOf(t, shop.brand)).toEqual([]);
      const alerts = (
        await getOk(
          t,
          shop.brand,
          '/v10/alerts?filter_groups[0][filters][0][key]=status&filter_groups[0][filters][0][value]=open',
        )
      )['alerts'] as Body[];
      expect(alerts).toEqual([
        expect.objectContaining({
          id: response.body.alert_id,
          kind: 'ad_hoc_return_without_rma',
          status: 'open',
          return_id: response.body.return.id,
          credit_note_id: null,
        }),
      ]);

      const issued = await post(`/v10/alerts/${response.body.alert_id}/credit-note`);

      expect(issued.status).toBe(201);
      expect(issued.body.alert).toMatchObject({ status: 'resolved', credit_note_id: issued.body.credit_note.id });
      expect(issued.body.credit_note).toMatchObject({
        status: 'draft',
        return_id: response.body.return.id,
        net_total: 9,
        total: 11.25,
      });
      expect((await creditNotesOf(t, shop.brand)).map((c) => c['id'])).toEqual([issued.body.credit_note.id]);
      expect((await getOk(t, shop.brand, '/v10/alerts'))['alerts']).toEqual([
        expect.objectContaining({ status: 'resolved' }),
      ]);

      const again = await post(`/v10/alerts/${response.body.alert_id}/credit-note`);
      expect(again.status).toBe(422);
      expect(again.body.errors[0]).toMatchObject({ code: 'invalid_state_transition' });
      expect(await creditNotesOf(t, shop.brand)).toHaveLength(1);
      expect((await post('/v10/alerts/999999/credit-note')).status).toBe(404);
    });

    it('refuses an unknown shipment, variants not on it and more pieces than it holds, naming each and writing nothing', async () => {
      await changeSettings(t, shop.brand, { ad_hoc_return_mode: 'always_credit_note' });
      const { shipment } = await aDeliveredOrder(t, shop);
      const before = await stockOf(t, shop.brand, 'TEE-S');

      const unknown = await adHoc('999999', [{ sku: 'TEE-S', quantity: 1 }]);
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0].source).toEqual({ pointer: '/return/shipment_number' });

      const lines = await adHoc(shipment.shipment_number, [
        { sku: 'TEE-S', quantity: 4 },
        { sku: 'SOCK-42', quantity: 1 },
        { sku: 'CAP-ONE', quantity: 1, claim_cause_code: 'nope' },
      ]);
      expect(lines.status).toBe(422);
      expect(lines.body.errors.map((e: Body) => (e['source'] as Body)['pointer'])).toEqual([
        '/return/lines/1/sku',
        '/return/lines/2/claim_cause_code',
        '/return/lines/0/quantity',
      ]);

      const shape = await post('/3pl/returns/create-ad-hoc-return', {
        return: { shipment_number: 'S-1', lines: [{ sku: 'TEE-S', quantity: 1, claim_type: 'return' }] },
      });
      expect(shape.status).toBe(422);
      expect(shape.body.errors.map((e: Body) => (e['source'] as Body)['pointer']).sort()).toEqual([
        '/return/lines/0/return_to_inventory',
        '/return/shipment_number',
      ]);

      expect(await returnsTotal()).toBe(0);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual(before);
      expect(await creditNotesOf(t, shop.brand)).toEqual([]);
    });
  });
}
