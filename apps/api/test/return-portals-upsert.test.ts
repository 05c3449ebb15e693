import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { seedProducts } from './support/catalog-reads';
import { createIntegrator } from './support/integrator';
import { getOk, stockOf } from './support/orders';
import { aClaimCause, returnOf } from './support/returns';
import {
  EMAIL,
  PortalShop,
  aPartnerApp,
  aPortal,
  aPortalReturn,
  anOrderByEmail,
  line,
  pointers,
  seedPortalShop,
  upsert,
} from './support/return-portals';
import { useTestApp } from './support/test-app';

for (const dialect of testDialects()) {
  describe(`external return portals: upsert [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: PortalShop;

    beforeEach(async () => {
      shop = await seedPortalShop(t);
    });

    const put = (body: Record<string, unknown>, publicId = shop.portal, who = shop.brand) =>
      upsert(t, who, publicId, body);
    const first = (ret: Record<string, unknown>) => ({
      email: EMAIL,
      order_number: shop.order.order_number,
      return: ret,
    });

    it('creates an approved return for a new rma with 201 and created true, in the External-portal return shape', async () => {
      const response = await put(
        first({
          rma: 'WEB-2026-0042',
          notes: 'parcel shop drop-off',
          return_fee_incl_vat: 2.5,
          labelless_code: 'LBL-77',
          track_trace: '3SABC',
          track_trace_link: 'https://track.example/3SABC',
          storefront_refund_gift_card: true,
          storefront_refund_gift_card_bonus_type: 'percentage',
          storefront_refund_gift_card_bonus_value: 10,
          lines: [
            line('TEE-S', { quantity: 2, text: 'too small' }),
            line('CAP-ONE', { claim_type: 'claim', unit_price_incl_vat: 12.95, regulate_inventory: false }),
          ],
        }),
      );
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        created: true,
        return: {
          id: expect.any(Number),
          rma: 'WEB-2026-0042',
          rma_number: 20260042,
          return_status: 'approved',
          source: 'custom',
          notes: 'parcel shop drop-off',
          return_fee_incl_vat: 2.5,
          exchange_fee_incl_vat: null,
          labelless_code: 'LBL-77',
          track_trace: '3SABC',
          track_trace_link: 'https://track.example/3SABC',
          storefront_refund_gift_card: true,
          storefront_refund_gift_card_bonus_type: 'percentage',
          storefront_refund_gift_card_bonus_value: 10,
          storefront_refund_gift_card_free_shipping: false,
          total_price_after_vat: null,
          lines: [
            {
              id: expect.any(Number),
              variant_id: shop.variantIds['TEE-S'],
              quantity: 2,
              expected_return: 2,
              returned: null,
              claim_type: 'return',
              claim_cause_id: null,
              net_price: 20,
              unit_price_incl_vat: 25,
              text: 'too small',
              regulate_inventory: true,
            },
            {
              id: expect.any(Number),
              variant_id: shop.variantIds['CAP-ONE'],
              quantity: 1,
              expected_return: 1,
              returned: null,
              claim_type: 'claim',
              claim_cause_id: null,
              net_price: 10.36,
              unit_price_incl_vat: 12.95,
              text: null,
              regulate_inventory: false,
            },
          ],
        },
      });
      const stored = await returnOf(t, shop.brand, response.body.return.id);
      expect(stored).toMatchObject({
        status: 'approved',
        source: 'portal',
        order_id: shop.order.id,
        rma: 'WEB-2026-0042',
        prices_include_vat: true,
      });
    });

    it('answers a replay of the same body with the same return, the same ids and updated_at unchanged', async () => {
      const body = first({
        rma: 'R-1',
        notes: 'n',
        exchange_fee_incl_vat: 5,
        lines: [line('TEE-S'), line('TEE-S', { text: 'second' }), line('CAP-ONE')],
      });
      const created = await put(body);
      const before = await returnOf(t, shop.brand, created.body.return.id);
      t.clock.advance(3_600_000);
      const replay = await put(body);
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual({ created: false, return: created.body.return });
      const after = await returnOf(t, shop.brand, created.body.return.id);
      expect(after.updated_at).toBe(before.updated_at);
      expect(after.lines).toEqual(before.lines);
      expect(after.timeline).toEqual(before.timeline);
    });

    it('merges into an existing return: fields left out keep their value, email and order_number may be left out', async () => {
      const created = await aPortalReturn(t, shop, {
        rma: 'R-2',
        notes: 'keep me',
        track_trace: 'OLD',
        lines: [line('TEE-S')],
      });
      t.clock.advance(60_000);
      const merged = await put({ return: { rma: 'R-2', track_trace: 'NEW', lines: [line('TEE-S')] } });
      expect(merged.status).toBe(200);
      expect(merged.body.return).toMatchObject({ id: created.id, notes: 'keep me', track_trace: 'NEW' });
      expect((await returnOf(t, shop.brand, created.id)).updated_at).toBe(t.clock.now());
    });

    it('matches lines by variant, claim type, cause, text and price, then by variant, keeping ids, and deletes unclaimed lines', async () => {
      const created = await aPortalReturn(t, shop, {
        rma: 'R-3',
        lines: [line('TEE-S', { text: 'a' }), line('TEE-S', { text: 'b' }), line('CAP-ONE')],
      });
      const [a, b, cap] = created.lines;
      const updated = await put({
        return: {
          rma: 'R-3',
          lines: [line('TEE-S', { text: 'changed', quantity: 2 }), line('TEE-S', { text: 'a' }), line('TEE-M')],
        },
      });
      expect(updated.status).toBe(200);
      const lines = updated.body.return.lines as Array<{
        id: number;
        text: string | null;
        quantity: number;
        variant_id: number;
      }>;
      // Level a: "a" keeps line a; level b: "changed" takes the other TEE-S line (b); TEE-M is new; CAP-ONE is deleted.
      expect(lines.map((l) => [l.id, l.text, l.quantity])).toEqual([
        [a!.id, 'a', 1],
        [b!.id, 'changed', 2],
        [expect.any(Number), null, 1],
      ]);
      expect(lines[2]!.id).not.toBe(cap!.id);
      expect(lines[2]!.variant_id).toBe(shop.variantIds['TEE-M']);
      expect((await returnOf(t, shop.brand, created.id)).lines.map((l) => l['id'])).toEqual(lines.map((l) => l.id));
    });

    it('resolves lines by variant_id, sku or ean, and refuses unknown or ambiguous variants and quantities of 0 naming each line', async () => {
      const ok = await put(
        first({
          rma: 'R-4',
          lines: [
            { ...line('TEE-S'), sku: undefined, variant_id: shop.variantIds['TEE-S'] },
            { ...line('x'), sku: undefined, ean: '5700000000035' },
          ],
        }),
      );
      expect(ok.status).toBe(201);
      expect(ok.body.return.lines.map((l: { variant_id: number }) => l.variant_id)).toEqual([
        shop.variantIds['TEE-S'],
        shop.variantIds['CAP-ONE'],
      ]);

      // Two variants sharing an EAN: naming it is ambiguous.
      await seedProducts(t.storage, t.clock, shop.brand.brandId, [
        {
          itemNumber: 'DUO',
          product: { name: 'Duo' },
          variants: [
            { sku: 'DUO-1', ean: '5799999999990' },
            { sku: 'DUO-2', ean: '5799999999990' },
          ],
        },
      ]);
      const refused = await put(
        first({
          rma: 'R-5',
          lines: [
            line('NOPE'),
            { ...line('x'), sku: undefined, ean: '0000' },
            { ...line('x'), sku: undefined, ean: '5799999999990' },
            { ...line('x'), sku: undefined, variant_id: 999999 },
            { ...line('x'), sku: undefined },
          ],
        }),
      );
      expect(refused.status).toBe(422);
      expect(
        refused.body.errors.map((e: { source: { pointer: string }; detail: string }) => [e.source.pointer, e.detail]),
      ).toEqual(
        expect.arrayContaining([
          ['/return/lines/0/sku', expect.stringContaining('is not a variant of this brand')],
          ['/return/lines/1/ean', expect.stringContaining('is not a variant of this brand')],
          ['/return/lines/2/ean', expect.stringContaining('matches 2 variants')],
          ['/return/lines/3/variant_id', expect.stringContaining('is not a variant of this brand')],
          ['/return/lines/4/variant_id', expect.stringContaining('is required')],
        ]),
      );
      expect(refused.body.errors).toHaveLength(5);
      const zero = await put(first({ rma: 'R-5', lines: [line('TEE-S', { quantity: 0 })] }));
      expect(zero.status).toBe(422);
      expect(pointers(zero.body)).toEqual(['/return/lines/0/quantity']);
      expect((await put(first({ rma: 'R-5', lines: [line('TEE-S')] }))).status).toBe(201);
    });

    it('resolves claim causes by id or by code ignoring case, refusing shared codes, foreign causes and missing causes on a portal requiring them', async () => {
      const damaged = await aClaimCause(t, shop.brand, 'DAMAGED');
      await aClaimCause(t, shop.brand, 'dup');
      await aClaimCause(t, shop.brand, 'DUP');
      const stranger = await createIntegrator(t.storage, t.clock);
      const foreign = await aClaimCause(t, stranger, 'other');
      const strict = await aPortal(t, shop.brand, { requires_claim_causes: true });

      const ok = await put(
        first({
          rma: 'R-6',
          lines: [line('TEE-S', { claim_cause_code: 'damaged' }), line('CAP-ONE', { claim_cause_id: damaged.id })],
        }),
        strict,
      );
      expect(ok.status).toBe(201);
      expect(ok.body.return.lines.map((l: { claim_cause_id: number }) => l.claim_cause_id)).toEqual([
        damaged.id,
        damaged.id,
      ]);

      const refused = await put(
        first({
          rma: 'R-7',
          lines: [
            line('TEE-S', { claim_cause_code: 'Dup' }),
            line('TEE-S', { claim_cause_id: foreign.id }),
            line('CAP-ONE'),
          ],
        }),
        strict,
      );
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            source: { pointer: '/return/lines/0/claim_cause_code' },
            detail: expect.stringContaining('shared by 2 claim causes'),
          }),
          expect.objectContaining({
            source: { pointer: '/return/lines/1/claim_cause_id' },
            detail: expect.stringContaining('is not a claim cause of this brand'),
          }),
          expect.objectContaining({
            source: { pointer: '/return/lines/2/claim_cause_id' },
            detail: expect.stringContaining('requires a claim cause'),
          }),
        ]),
      );
    });

    it('refuses an rma without a digit, and derives rma_number from every digit of the rma', async () => {
      const refused = await put(first({ rma: 'RMA-ABC', lines: [line('TEE-S')] }));
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([
        expect.objectContaining({
          source: { pointer: '/return/rma' },
          detail: expect.stringContaining('at least one digit'),
        }),
      ]);
      const created = await put(first({ rma: 'A1-B02-C3', lines: [line('TEE-S')] }));
      expect(created.body.return.rma_number).toBe(1023);
    });

    it('requires email and order_number for a new return and checks them against the order; later they must match the bound order', async () => {
      const missing = await put({ return: { rma: 'R-8', lines: [line('TEE-S')] } });
      expect(missing.status).toBe(422);
      expect(pointers(missing.body).sort()).toEqual(['/email', '/order_number']);

      const wrongEmail = await put({
        email: 'bob@example.com',
        order_number: shop.order.order_number,
        return: { rma: 'R-8', lines: [line('TEE-S')] },
      });
      expect(wrongEmail.status).toBe(422);
      expect(pointers(wrongEmail.body)).toEqual(['/email']);
      const unknownOrder = await put({
        email: EMAIL,
        order_number: 999999,
        return: { rma: 'R-8', lines: [line('TEE-S')] },
      });
      expect(pointers(unknownOrder.body)).toEqual(['/order_number']);

      const created = await put({
        email: EMAIL.toUpperCase(),
        order_number: String(shop.order.order_number),
        return: { rma: 'R-8', lines: [line('TEE-S')] },
      });
      expect(created.status).toBe(201);
      const other = await anOrderByEmail(t, shop, { lines: [{ sku: 'TEE-M', quantity: 1 }] });
      const wrongOrder = await put({
        order_number: other.order_number,
        return: { rma: 'R-8', lines: [line('TEE-S')] },
      });
      expect(wrongOrder.status).toBe(422);
      expect(pointers(wrongOrder.body)).toEqual(['/order_number']);
      const wrongLater = await put({ email: 'bob@example.com', return: { rma: 'R-8', lines: [line('TEE-S')] } });
      expect(pointers(wrongLater.body)).toEqual(['/email']);
    });

    it('answers 404 for a missing or foreign portal, 422 for the internal service portal and 403 for a partner portal called by another app', async () => {
      const body = first({ rma: 'R-9', lines: [line('TEE-S')] });
      expect((await put(body, 'no-such-portal')).status).toBe(404);
      const stranger = await createIntegrator(t.storage, t.clock);
      const foreign = await aPortal(t, stranger);
      expect((await put(body, foreign)).status).toBe(404);

      const service = await aPortal(t, shop.brand, { type: 'service' });
      const internal = await put(body, service);
      expect(internal.status).toBe(422);
      expect(internal.body.errors[0].detail).toContain('internal (service) portal');

      const partnerPortal = await aPortal(t, shop.brand, { type: 'returnista' });
      const forbidden = await put(body, partnerPortal);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.errors[0].detail).toContain('internal code returnista');
      const partner = await aPartnerApp(t, shop.brand, 'returnista');
      expect((await put(body, partnerPortal, partner)).status).toBe(201);
      const otherPartner = await aPartnerApp(t, shop.brand, 'someone_else');
      expect((await put(body, partnerPortal, otherPartner)).status).toBe(403);
      expect((await request(t.server).get('/v10/returns').set(shop.brand.headers)).body.total).toBe(1);
    });

    it('moves approved to received when status received is sent: every expected piece received, stock back, a credit note net of the fee', async () => {
      const before = await stockOf(t, shop.brand, 'TEE-S');
      await aPortalReturn(t, shop, {
        rma: 'R-10',
        return_fee_incl_vat: 5,
        lines: [line('TEE-S', { quantity: 2 }), line('CAP-ONE', { claim_type: 'claim', unit_price_incl_vat: 12.95 })],
      });
      const received = await put({
        return: {
          rma: 'R-10',
          status: 'received',
          return_fee_incl_vat: 5,
          lines: [line('TEE-S', { quantity: 2 }), line('CAP-ONE', { claim_type: 'claim', unit_price_incl_vat: 12.95 })],
        },
      });
      expect(received.status).toBe(200);
      // 2 × 25.00 + 12.95 − 5.00 fee.
      expect(received.body.return).toMatchObject({ return_status: 'received', total_price_after_vat: 57.95 });
      expect(received.body.return.lines.map((l: { returned: number }) => l.returned)).toEqual([2, 1]);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({
        in_stock: before.in_stock + 2,
        available: before.available + 2,
      });
      const stored = await returnOf(t, shop.brand, received.body.return.id);
      expect(stored.credit_notes).toEqual([expect.objectContaining({ status: 'draft', total: 57.95 })]);
      const fee = (stored.credit_notes[0]!['lines'] as Array<{ description: string; total_price: number }>).find(
        (l) => l.description === 'Return fee',
      );
      expect(fee).toMatchObject({ total_price: -5 });
      // The fee lives on the credit note only: the order keeps its lines and total.
      const order = (await getOk(t, shop.brand, `/v10/orders/${shop.order.id}`))['order'] as {
        lines: unknown[];
        total: number;
      };
      expect(order.lines).toHaveLength((shop.order['lines'] as unknown[]).length);
      expect(order.total).toBe(shop.order['total']);

      // A replay changes nothing: no second receipt, no second credit note.
      const replay = await put({
        return: {
          rma: 'R-10',
          status: 'received',
          return_fee_incl_vat: 5,
          lines: [line('TEE-S', { quantity: 2 }), line('CAP-ONE', { claim_type: 'claim', unit_price_incl_vat: 12.95 })],
        },
      });
      expect(replay.body.return).toEqual(received.body.return);
      expect((await returnOf(t, shop.brand, received.body.return.id)).credit_notes).toHaveLength(1);
    });

    it('refuses status moves the state machine does not allow, and changes to lines or fees of a received return, writing nothing', async () => {
      const created = await aPortalReturn(t, shop, { rma: 'R-11', lines: [line('TEE-S')] });
      const toCredited = await put({ return: { rma: 'R-11', status: 'credited', lines: [line('TEE-S')] } });
      expect(toCredited.status).toBe(422);
      expect(toCredited.body.errors[0]).toMatchObject({
        code: 'invalid_state_transition',
        source: { pointer: '/return/status' },
      });
      const toOpen = await put({ return: { rma: 'R-11', status: 'open', lines: [line('TEE-S')] } });
      expect(toOpen.status).toBe(422);
      const bogus = await put({ return: { rma: 'R-11', status: 'lost', lines: [line('TEE-S')] } });
      expect(pointers(bogus.body)).toEqual(['/return/status']);

      await put({ return: { rma: 'R-11', status: 'received', lines: [line('TEE-S')] } });
      const back = await put({ return: { rma: 'R-11', status: 'approved', lines: [line('TEE-S')] } });
      expect(back.status).toBe(422);
      const moreLines = await put({ return: { rma: 'R-11', lines: [line('TEE-S', { quantity: 2 })] } });
      expect(moreLines.status).toBe(422);
      expect(pointers(moreLines.body)).toEqual(['/return/lines']);
      const fee = await put({ return: { rma: 'R-11', return_fee_incl_vat: 1, lines: [line('TEE-S')] } });
      expect(pointers(fee.body)).toEqual(['/return/return_fee_incl_vat']);
      const notes = await put({ return: { rma: 'R-11', notes: 'still fine', lines: [line('TEE-S')] } });
      expect(notes.status).toBe(200);
      const stored = await returnOf(t, shop.brand, created.id);
      expect(stored.lines.map((l) => l['expected_quantity'])).toEqual([1]);
      expect(stored.return_fee_incl_vat).toBeNull();
    });

    it('prices lines of a B2B order net of VAT from unit_price_incl_vat, so the credit note refunds the amount paid', async () => {
      const b2b = await anOrderByEmail(t, shop, { channel: 'b2b', lines: [{ sku: 'TEE-S', quantity: 1 }] });
      await aPortalReturn(
        t,
        shop,
        { rma: 'B2B-1', return_fee_incl_vat: 25, lines: [line('TEE-S', { unit_price_incl_vat: 125 })] },
        { order: b2b },
      );
      const received = await put({
        return: {
          rma: 'B2B-1',
          status: 'received',
          return_fee_incl_vat: 25,
          lines: [line('TEE-S', { unit_price_incl_vat: 125 })],
        },
      });
      expect(received.body.return).toMatchObject({
        total_price_after_vat: 100,
        lines: [expect.objectContaining({ net_price: 100, unit_price_incl_vat: 125 })],
      });
      const stored = await returnOf(t, shop.brand, received.body.return.id);
      expect(stored.credit_notes[0]).toMatchObject({ net_total: 80, vat_total: 20, total: 100 });
    });

    it('refuses malformed bodies with 422 naming the field', async () => {
      const response = await put({
        email: 42,
        return: { rma: '', lines: [], return_fee_incl_vat: 1.234, storefront_refund_gift_card_bonus_type: 'gift' },
      });
      expect(response.status).toBe(422);
      expect(pointers(response.body)).toEqual(
        expect.arrayContaining([
          '/email',
          '/return/rma',
          '/return/lines',
          '/return/return_fee_incl_vat',
          '/return/storefront_refund_gift_card_bonus_type',
        ]),
      );
      const noReturn = await put({ email: EMAIL });
      expect(pointers(noReturn.body)).toEqual(['/return']);
      expect((await getOk(t, shop.brand, '/v10/returns')).total).toBe(0);
    });

    it('needs returns:write', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['returns:read'] });
      const response = await upsert(t, reader, shop.portal, first({ rma: 'R-12', lines: [line('TEE-S')] }));
      expect(response.status).toBe(403);
      expect(response.body.errors[0].meta.missing_scopes).toEqual(['returns:write']);
    });
  });
}
