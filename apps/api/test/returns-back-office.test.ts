import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { createIntegrator } from './support/integrator';
import { OrderingBrand, getOk, seedOrderingBrand } from './support/orders';
import { aClaimCause, aDeliveredOrder, anRma, returnOf } from './support/returns';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
const MINUTE = 60_000;

for (const dialect of testDialects()) {
  describe(`v10 returns: announcing and approving RMAs [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
    });

    const post = (path: string, body: Body = {}) => request(t.server).post(path).set(shop.brand.headers).send(body);
    const returnsTotal = async () => (await getOk(t, shop.brand, '/v10/returns'))['total'];

    it('announces an RMA for a delivered order, priced as its order lines, open until approved', async () => {
      const { order } = await aDeliveredOrder(t, shop);
      const cause = await aClaimCause(t, shop.brand, 'TOO_SMALL');
      t.clock.advance(MINUTE);

      const response = await post('/v10/returns', {
        order_number: String(order.order_number),
        notes: 'two shirts, one cap',
        lines: [
          { sku: 'TEE-S', quantity: 2, claim_type: 'return', claim_cause_code: 'too_small' },
          { ean: '5700000000035', quantity: 1, claim_type: 'claim' },
        ],
      });

      expect(response.status).toBe(201);
      const ret = response.body.return as Body & { id: number; lines: Body[] };
      expect(ret).toMatchObject({
        return_number: 1,
        rma: '1',
        rma_number: 1,
        status: 'open',
        source: 'back_office',
        order_id: order.id,
        order_number: order.order_number,
        customer_id: shop.customers['C-B2B']!.id,
        currency: 'EUR',
        vat_rate: 25,
        prices_include_vat: false,
        notes: 'two shirts, one cap',
        return_portal_id: null,
        shipment_id: null,
        return_fee_incl_vat: null,
        exchange_fee_incl_vat: null,
        approved_at: null,
        received_at: null,
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
        exports: [],
      });
      expect(
        ret.lines.map((l) => [
          l['sku'],
          l['expected_quantity'],
          l['received_quantity'],
          l['claim_type'],
          l['claim_cause_id'],
          l['unit_price'],
          l['discount_percentage'],
        ]),
      ).toEqual([
        ['TEE-S', 2, 0, 'return', cause.id, 10, 10],
        ['CAP-ONE', 1, 0, 'claim', null, 5.5, 10],
      ]);

      const read = await returnOf(t, shop.brand, ret.id);
      expect(read).toMatchObject({ id: ret.id, status: 'open', credit_notes: [], exports: [] });
      expect(read.timeline.map((e) => e['kind'])).toEqual(['created']);
      const listed = await getOk(t, shop.brand, '/v10/returns');
      expect(listed).toMatchObject({ total: 1, has_more: false });
      expect((listed['returns'] as Body[]).map((r) => r['id'])).toEqual([ret.id]);

      t.clock.advance(MINUTE);
      const approved = await post(`/v10/returns/${ret.id}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.body.return).toMatchObject({
        status: 'approved',
        approved_at: t.clock.now(),
        updated_at: t.clock.now(),
      });
      expect((await returnOf(t, shop.brand, ret.id)).timeline.map((e) => e['kind'])).toEqual(['created', 'approved']);
    });

    it('refuses more pieces than the order holds less what its other returns expect, naming the line, and writes nothing', async () => {
      const { order } = await aDeliveredOrder(t, shop);
      await anRma(t, shop.brand, order.order_number, [{ sku: 'TEE-S', quantity: 2 }]);

      const response = await post('/v10/returns', {
        order_number: order.order_number,
        lines: [{ sku: 'TEE-S', quantity: 2, claim_type: 'return' }],
      });

      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          code: 'validation_failed',
          source: { pointer: '/lines/0/quantity' },
          detail: expect.stringContaining('has 3 and other returns already expect 2'),
        }),
      ]);
      expect(await returnsTotal()).toBe(1);
    });

    it('names every bad field: unknown order, variant not on the order, bad claim type, ambiguous claim cause, missing lines', async () => {
      const { order } = await aDeliveredOrder(t, shop);
      await aClaimCause(t, shop.brand, 'damaged');
      await aClaimCause(t, shop.brand, 'DAMAGED');

      const unknownOrder = await post('/v10/returns', {
        order_number: 999999,
        lines: [{ sku: 'TEE-S', quantity: 1, claim_type: 'return' }],
      });
      expect(unknownOrder.status).toBe(422);
      expect(unknownOrder.body.errors.map((e: Body) => (e['source'] as Body)['pointer'])).toEqual(['/order_number']);

      const badLines = await post('/v10/returns', {
        order_number: order.order_number,
        lines: [
          { sku: 'SOCK-42', quantity: 1, claim_type: 'return' },
          { sku: 'TEE-S', quantity: 1, claim_type: 'claim', claim_cause_code: 'Damaged' },
        ],
      });
      expect(badLines.status).toBe(422);
      expect(badLines.body.errors.map((e: Body) => (e['source'] as Body)['pointer'])).toEqual([
        '/lines/0/sku',
        '/lines/1/claim_cause_code',
      ]);

      const badShape = await post('/v10/returns', {
        order_number: order.order_number,
        lines: [{ sku: 'TEE-S', quantity: 0, claim_type: 'refund' }],
      });
      expect(badShape.status).toBe(422);
      expect(badShape.body.errors.map((e: Body) => (e['source'] as Body)['pointer']).sort()).toEqual([
        '/lines/0/claim_type',
        '/lines/0/quantity',
      ]);
      expect((await post('/v10/returns', { order_number: order.order_number })).body.errors[0].source).toEqual({
        pointer: '/lines',
      });

      expect(await returnsTotal()).toBe(0);
    });

    it('approves only an open return: a second approval is a 422, an unknown or foreign return a 404', async () => {
      const { order } = await aDeliveredOrder(t, shop);
      const ret = await anRma(t, shop.brand, order.order_number, [{ sku: 'TEE-S', quantity: 1 }]);

      const again = await post(`/v10/returns/${ret.id}/approve`);
      expect(again.status).toBe(422);
      expect(again.body.errors[0]).toMatchObject({
        code: 'invalid_state_transition',
        detail: 'return cannot move from approved to approved',
      });
      expect((await post('/v10/returns/999999/approve')).status).toBe(404);

      const stranger = await createIntegrator(t.storage, t.clock);
      expect((await request(t.server).get(`/v10/returns/${ret.id}`).set(stranger.headers)).status).toBe(404);
      expect(
        (await request(t.server).post(`/v10/returns/${ret.id}/approve`).set(stranger.headers).send({})).status,
      ).toBe(404);
      expect((await returnOf(t, shop.brand, ret.id)).status).toBe('approved');
    });

    it('asks for the returns scopes', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['orders:read'] });
      const response = await request(t.server).get('/v10/returns').set(reader.headers);
      expect(response.status).toBe(403);
      expect(JSON.stringify(response.body)).toContain('returns:read');
    });
  });
}
