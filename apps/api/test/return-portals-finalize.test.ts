import { testDialects } from '@brand/persistence-kysely/testing';
import { seedProducts, seedStock } from './support/catalog-reads';
import { createIntegrator } from './support/integrator';
import { getOk } from './support/orders';
import { returnOf } from './support/returns';
import {
  PortalShop,
  aPortal,
  aPortalReturn,
  anOrderByEmail,
  finalize,
  line,
  pointers,
  seedPortalShop,
  upsert,
} from './support/return-portals';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;

/**
 * The spec's six finalize scenarios for an item bought at 100.00 (credit total; refund; exchange).
 * The credit note is issued net of the fees; refund + exchange must equal it.
 */
const SCENARIOS: Array<{ name: string; fees: Body; credit: number; refund: number; exchange: number }> = [
  { name: 'pure return', fees: {}, credit: 100, refund: 100, exchange: 0 },
  { name: 'return with a 25.00 return fee', fees: { return_fee_incl_vat: 25 }, credit: 75, refund: 75, exchange: 0 },
  { name: 'even exchange', fees: {}, credit: 100, refund: 0, exchange: 100 },
  {
    name: 'even exchange with a 50.00 exchange fee',
    fees: { exchange_fee_incl_vat: 50 },
    credit: 50,
    refund: 0,
    exchange: 50,
  },
  { name: 'exchange to a cheaper item of 80.00', fees: {}, credit: 100, refund: 20, exchange: 80 },
  { name: 'exchange to a pricier item', fees: {}, credit: 100, refund: 0, exchange: 100 },
];

for (const dialect of testDialects()) {
  describe(`external return portals: finalize [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: PortalShop;
    let coatOrder: { id: number; order_number: number };

    beforeEach(async () => {
      shop = await seedPortalShop(t);
      // A coat sold at 100.00 incl. VAT in the webshop, bought once by EMAIL.
      const [coat] = await seedProducts(t.storage, t.clock, shop.brand.brandId, [
        {
          itemNumber: 'COAT',
          product: { name: 'Coat' },
          variants: [{ sku: 'COAT-M', prices: { EUR: { sales: 5000, rec: 10000 } } }],
        },
      ]);
      await seedStock(t.storage, t.clock, shop.brand.brandId, [
        { variantId: coat!.variants[0]!.variant.id, inStock: 5 },
      ]);
      coatOrder = await anOrderByEmail(t, shop, { lines: [{ sku: 'COAT-M', quantity: 1 }] });
    });

    /** A portal return of the coat, received (its credit note drafted); returns its id. */
    async function aReceivedCoatReturn(rma: string, fees: Body = {}): Promise<number> {
      const ret = { rma, ...fees, lines: [line('COAT-M', { unit_price_incl_vat: 100 })] };
      const created = await aPortalReturn(t, shop, ret, { order: coatOrder });
      const received = await upsert(t, shop.brand, shop.portal, { return: { ...ret, status: 'received' } });
      if (received.status !== 200)
        throw new Error(`receipt answered ${received.status}: ${JSON.stringify(received.body)}`);
      return created.id;
    }

    const entries = async () => (await getOk(t, shop.brand, '/v10/accounting-entries'))['total'] as number;

    it.each(SCENARIOS)(
      'books the credit note and credits the return: $name (credit $credit; refund $refund; exchange $exchange)',
      async ({ fees, credit, refund, exchange }) => {
        const id = await aReceivedCoatReturn('COAT-1', fees);
        const before = await returnOf(t, shop.brand, id);
        expect(before.credit_notes).toEqual([expect.objectContaining({ status: 'draft', total: credit })]);

        const response = await finalize(t, shop.brand, shop.portal, {
          rma: 'COAT-1',
          refund_total_price_after_vat: refund,
          exchange_total_price_after_vat: exchange,
        });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ success: true, return_id: id, rma: 'COAT-1' });

        const after = await returnOf(t, shop.brand, id);
        expect(after.status).toBe('credited');
        expect(after.credited_at).toBe(t.clock.now());
        expect(after.credit_notes).toEqual([expect.objectContaining({ status: 'booked', total: credit })]);
        const note = (await getOk(t, shop.brand, `/v10/credit-notes/${(after.credit_notes[0] as { id: number }).id}`))[
          'credit_note'
        ] as Body;
        expect(note['accounting_entry']).toMatchObject({ document_type: 'credit_note' });
      },
    );

    it('succeeds again once credited and books nothing more', async () => {
      const id = await aReceivedCoatReturn('COAT-2');
      const body = { rma: 'COAT-2', refund_total_price_after_vat: 100 };
      expect((await finalize(t, shop.brand, shop.portal, body)).status).toBe(200);
      const booked = await entries();
      const credited = await returnOf(t, shop.brand, id);
      t.clock.advance(60_000);

      const again = await finalize(t, shop.brand, shop.portal, body);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ success: true, return_id: id, rma: 'COAT-2' });
      expect(await entries()).toBe(booked);
      const after = await returnOf(t, shop.brand, id);
      expect(after.updated_at).toBe(credited.updated_at);
      expect(after.timeline).toEqual(credited.timeline);
    });

    it('refuses refund + exchange more than 0.01 away from the credited total, showing the three amounts, and books nothing', async () => {
      const id = await aReceivedCoatReturn('COAT-3', { return_fee_incl_vat: 25 });
      const response = await finalize(t, shop.brand, shop.portal, {
        rma: 'COAT-3',
        refund_total_price_after_vat: 70,
        exchange_total_price_after_vat: 4.98,
      });
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          source: { pointer: '/refund_total_price_after_vat' },
          detail: expect.stringContaining('refund 70.00 + exchange 4.98 = 74.98, credited 75.00 EUR'),
        }),
      ]);
      expect((await returnOf(t, shop.brand, id)).status).toBe('received');
      expect(await entries()).toBe(0);

      // Within the tolerance of 0.01 it passes.
      const within = await finalize(t, shop.brand, shop.portal, { rma: 'COAT-3', refund_total_price_after_vat: 74.99 });
      expect(within.status).toBe(200);
    });

    it('refuses an exchange above the credited total even within the tolerance', async () => {
      await aReceivedCoatReturn('COAT-4');
      const response = await finalize(t, shop.brand, shop.portal, {
        rma: 'COAT-4',
        refund_total_price_after_vat: 0,
        exchange_total_price_after_vat: 100.01,
      });
      expect(response.status).toBe(422);
      expect(pointers(response.body)).toEqual(['/exchange_total_price_after_vat']);
    });

    it('refuses an unknown rma and a return not yet received, naming rma', async () => {
      const unknown = await finalize(t, shop.brand, shop.portal, { rma: 'NOPE-1', refund_total_price_after_vat: 1 });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors).toEqual([
        expect.objectContaining({
          source: { pointer: '/rma' },
          detail: expect.stringContaining('is not a return of this return portal'),
        }),
      ]);

      const approved = await aPortalReturn(
        t,
        shop,
        { rma: 'COAT-5', lines: [line('COAT-M', { unit_price_incl_vat: 100 })] },
        { order: coatOrder },
      );
      const early = await finalize(t, shop.brand, shop.portal, { rma: 'COAT-5', refund_total_price_after_vat: 100 });
      expect(early.status).toBe(422);
      expect(early.body.errors).toEqual([
        expect.objectContaining({
          source: { pointer: '/rma' },
          detail: expect.stringContaining('only received or credited returns'),
        }),
      ]);
      expect((await returnOf(t, shop.brand, approved.id)).status).toBe('approved');

      // A return of another portal of the brand is not this portal's.
      const other = await aPortal(t, shop.brand);
      await aReceivedCoatReturn('COAT-6');
      expect((await finalize(t, shop.brand, other, { rma: 'COAT-6', refund_total_price_after_vat: 100 })).status).toBe(
        422,
      );
    });

    it('answers 404 for a foreign portal and 422 for the service portal, and refuses malformed amounts naming the field', async () => {
      const stranger = await createIntegrator(t.storage, t.clock);
      const foreign = await aPortal(t, stranger);
      expect((await finalize(t, shop.brand, foreign, { rma: 'X1', refund_total_price_after_vat: 1 })).status).toBe(404);
      const service = await aPortal(t, shop.brand, { type: 'service' });
      expect((await finalize(t, shop.brand, service, { rma: 'X1', refund_total_price_after_vat: 1 })).status).toBe(422);

      const bad = await finalize(t, shop.brand, shop.portal, {
        rma: 'X1',
        refund_total_price_after_vat: -1,
        exchange_total_price_after_vat: 1.001,
      });
      expect(bad.status).toBe(422);
      expect(pointers(bad.body).sort()).toEqual(['/exchange_total_price_after_vat', '/refund_total_price_after_vat']);
      const missing = await finalize(t, shop.brand, shop.portal, { rma: 'X1' });
      expect(pointers(missing.body)).toEqual(['/refund_total_price_after_vat']);
    });
  });
}
