import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { createIntegrator } from './support/integrator';
import {
  OrderingBrand,
  approveOrder,
  changeSettings,
  deliverThroughCore,
  getOk,
  placeOrder,
  seedOrderingBrand,
  stockOf,
} from './support/orders';
import { useTestApp } from './support/test-app';

type Json = Record<string, unknown>;
interface Entry {
  lines: { account: string; debit: number; credit: number }[];
}

const sum = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100;
const balanced = (entry: Entry) => sum(entry.lines.map((l) => l.debit)) === sum(entry.lines.map((l) => l.credit));

for (const dialect of testDialects()) {
  describe(`invoices, credit notes and accounting entries [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
    });

    const post = (path: string, body?: Json) => {
      const call = request(t.server).post(path).set(shop.brand.headers);
      return body === undefined ? call : call.send(body);
    };

    /** A B2B order (3 × TEE-S, 1 × CAP-ONE, 7.50 shipping) approved and delivered in full; returns the order and the shipment. */
    async function deliveredOrder(): Promise<{
      order: Json;
      shipment: { id: number; shipment_number: number; lines: { sku: string; quantity: number }[] };
    }> {
      const order = await placeOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-B2B',
        shipping_cost: 7.5,
        lines: [
          { sku: 'TEE-S', quantity: 3 },
          { sku: 'CAP-ONE', quantity: 1 },
        ],
      });
      await approveOrder(t, shop.brand, order['id'] as number);
      const shipment = ((await getOk(t, shop.brand, '/v10/shipments?includes[]=lines'))['shipments'] as never[])[0]!;
      await deliverThroughCore(t, shop.brand, shipment);
      return { order, shipment };
    }

    describe('with in-service invoicing', () => {
      beforeEach(async () => {
        await changeSettings(t, shop.brand, { invoicing: 'in_service' });
      });

      it('drafts an invoice on delivery and books it: balanced entry, pieces out of In stock and reserved, order archived', async () => {
        const { order, shipment } = await deliveredOrder();
        const listed = await getOk(t, shop.brand, '/v10/invoices?includes[]=lines');
        expect(listed['total']).toBe(1);
        const [invoice] = listed['invoices'] as Json[];
        // 27.00 + 4.95 + 7.50 shipping = 39.45 net; 25 % VAT 9.8625 → 9.86.
        expect(invoice).toEqual({
          id: expect.any(Number),
          invoice_number: expect.any(Number),
          status: 'draft',
          order_id: order['id'],
          shipment_id: shipment.id,
          customer_id: shop.customers['C-B2B']!.id,
          currency: 'EUR',
          vat_rate: 25,
          prices_include_vat: false,
          net_total: 39.45,
          vat_total: 9.86,
          total: 49.31,
          booked_at: null,
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
          exports: [],
          lines: [
            {
              id: expect.any(Number),
              kind: 'product',
              order_line_id: expect.any(Number),
              variant_id: shop.variantIds['TEE-S'],
              sku: 'TEE-S',
              description: 'T-shirt',
              quantity: 3,
              unit_price: 10,
              discount_percentage: 10,
              total_price: 27,
            },
            {
              id: expect.any(Number),
              kind: 'product',
              order_line_id: expect.any(Number),
              variant_id: shop.variantIds['CAP-ONE'],
              sku: 'CAP-ONE',
              description: 'Cap',
              quantity: 1,
              unit_price: 5.5,
              discount_percentage: 10,
              total_price: 4.95,
            },
            {
              id: expect.any(Number),
              kind: 'shipping',
              order_line_id: null,
              variant_id: null,
              sku: null,
              description: 'Shipping',
              quantity: 1,
              unit_price: 7.5,
              discount_percentage: 0,
              total_price: 7.5,
            },
          ],
        });
        // Delivered but not invoiced yet: the pieces are still reserved and in stock.
        expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 7 });

        t.clock.advance(60_000);
        const booked = await post(`/v10/invoices/${invoice!['id']}/book`);
        expect(booked.status).toBe(200);
        const entry = {
          id: expect.any(Number),
          entry_number: expect.any(Number),
          document_type: 'invoice',
          document_id: invoice!['id'],
          date: t.clock.now().slice(0, 10),
          currency: 'EUR',
          lines: [
            { account: 'accounts_receivable', debit: 49.31, credit: 0 },
            { account: 'revenue', debit: 0, credit: 39.45 },
            { account: 'vat_payable', debit: 0, credit: 9.86 },
          ],
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
        };
        expect(booked.body.invoice).toMatchObject({
          status: 'booked',
          booked_at: t.clock.now(),
          total: 49.31,
          accounting_entry: entry,
          credit_notes: [],
        });
        expect(booked.body.invoice.timeline.map((e: Json) => e['kind'])).toEqual(['created', 'booked', 'regulated']);

        const entries = await getOk(t, shop.brand, '/v10/accounting-entries');
        expect(entries).toMatchObject({ total: 1, accounting_entries: [{ ...entry, exports: [] }] });
        expect(balanced((entries['accounting_entries'] as Entry[])[0]!)).toBe(true);

        // The entry on its own, and again once a bookkeeping system has imported it.
        const entryId = (entries['accounting_entries'] as Json[])[0]!['id'];
        expect((await getOk(t, shop.brand, `/v10/accounting-entries/${entryId}`))['accounting_entry']).toEqual({
          ...entry,
          exports: [],
          timeline: [],
        });
        const marked = await post('/v10/accounting-entries/mark-as-exported', {
          accounting_entries: [{ accounting_entry_id: entryId, system_id: 'ledger', note: 'journal 12' }],
        });
        expect(marked.status).toBe(200);
        const single = (await getOk(t, shop.brand, `/v10/accounting-entries/${entryId}`))['accounting_entry'] as Json;
        expect(single['exports']).toEqual([expect.objectContaining({ system_id: 'ledger', note: 'journal 12' })]);
        expect(single['timeline']).toEqual([expect.objectContaining({ kind: 'exported', note: 'journal 12' })]);

        // Regulated: In stock and reserved both drop, so Available stays.
        expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 7, available: 7 });
        expect(await stockOf(t, shop.brand, 'CAP-ONE')).toEqual({ in_stock: 4, available: 4 });
        const after = (await getOk(t, shop.brand, `/v10/orders/${order['id']}?includes[]=invoices`))['order'] as Json;
        expect(after).toMatchObject({
          status: 'archived',
          archived_at: t.clock.now(),
          invoices: [expect.objectContaining({ id: invoice!['id'], status: 'booked' })],
        });
        expect(
          (after['lines'] as Json[]).map((l) => [
            l['sku'],
            l['invoiced_quantity'],
            l['regulated_quantity'],
            l['reserved_quantity'],
          ]),
        ).toEqual([
          ['TEE-S', 3, 3, 0],
          ['CAP-ONE', 1, 1, 0],
        ]);

        const again = await post(`/v10/invoices/${invoice!['id']}/book`);
        expect(again.status).toBe(422);
        expect(again.body.errors[0]).toMatchObject({ code: 'invalid_state_transition' });
        expect((await getOk(t, shop.brand, '/v10/accounting-entries'))['total']).toBe(1);
        expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 7, available: 7 });
      });

      it('credits a booked invoice in parts, never beyond what it billed, and books the credit notes as reversed entries', async () => {
        await deliveredOrder();
        const invoice = ((await getOk(t, shop.brand, '/v10/invoices'))['invoices'] as Json[])[0]!;
        const draftCredit = await post(`/v10/invoices/${invoice['id']}/credit-notes`, {});
        expect(draftCredit.status).toBe(422);
        expect(draftCredit.body.errors[0].code).toBe('invalid_state_transition');
        await post(`/v10/invoices/${invoice['id']}/book`);

        const first = await post(`/v10/invoices/${invoice['id']}/credit-notes`, {
          lines: [{ sku: 'TEE-S', quantity: 1 }],
        });
        expect(first.status).toBe(201);
        expect(first.body.credit_note).toEqual({
          id: expect.any(Number),
          credit_note_number: expect.any(Number),
          status: 'draft',
          order_id: invoice['order_id'],
          invoice_id: invoice['id'],
          return_id: null,
          customer_id: invoice['customer_id'],
          currency: 'EUR',
          vat_rate: 25,
          prices_include_vat: false,
          net_total: 9,
          vat_total: 2.25,
          total: 11.25,
          booked_at: null,
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
          exports: [],
          lines: [
            expect.objectContaining({
              kind: 'product',
              sku: 'TEE-S',
              quantity: 1,
              unit_price: 10,
              discount_percentage: 10,
              total_price: 9,
            }),
          ],
        });

        const tooMany = await post(`/v10/invoices/${invoice['id']}/credit-notes`, {
          lines: [{ sku: 'TEE-S', quantity: 3 }],
        });
        expect(tooMany.status).toBe(422);
        expect(tooMany.body.errors[0]).toMatchObject({
          source: { pointer: '/lines/0/quantity' },
          detail: expect.stringContaining('only 2 of the 3 invoiced are left'),
        });
        const unknown = await post(`/v10/invoices/${invoice['id']}/credit-notes`, {
          lines: [{ sku: 'TEE-M', quantity: 1 }],
        });
        expect(unknown.status).toBe(422);
        expect(unknown.body.errors[0].source).toEqual({ pointer: '/lines/0/sku' });
        const empty = await post(`/v10/invoices/${invoice['id']}/credit-notes`, { lines: [] });
        expect(empty.status).toBe(422);
        expect(empty.body.errors[0].source).toEqual({ pointer: '/lines' });

        // Without lines: everything left, shipping included; the parts add up to the invoice to the cent.
        const rest = await post(`/v10/invoices/${invoice['id']}/credit-notes`);
        expect(rest.status).toBe(201);
        expect(rest.body.credit_note).toMatchObject({ net_total: 30.45, vat_total: 7.61, total: 38.06 });
        expect(rest.body.credit_note.lines.map((l: Json) => [l['kind'], l['sku'], l['quantity']])).toEqual([
          ['product', 'TEE-S', 2],
          ['product', 'CAP-ONE', 1],
          ['shipping', null, 1],
        ]);
        const nothingLeft = await post(`/v10/invoices/${invoice['id']}/credit-notes`);
        expect(nothingLeft.status).toBe(422);

        t.clock.advance(60_000);
        const booked = await post(`/v10/credit-notes/${first.body.credit_note.id}/book`);
        expect(booked.status).toBe(200);
        expect(booked.body.credit_note).toMatchObject({
          status: 'booked',
          booked_at: t.clock.now(),
          accounting_entry: {
            document_type: 'credit_note',
            document_id: first.body.credit_note.id,
            lines: [
              { account: 'accounts_receivable', debit: 0, credit: 11.25 },
              { account: 'revenue', debit: 9, credit: 0 },
              { account: 'vat_payable', debit: 2.25, credit: 0 },
            ],
          },
        });
        expect(booked.body.credit_note.timeline.map((e: Json) => e['kind'])).toEqual(['created', 'booked']);
        expect((await post(`/v10/credit-notes/${first.body.credit_note.id}/book`)).status).toBe(422);

        const entries = (
          await getOk(
            t,
            shop.brand,
            '/v10/accounting-entries?filter_groups[0][filters][0][key]=document_type&filter_groups[0][filters][0][value]=credit_note',
          )
        )['accounting_entries'] as Entry[];
        expect(entries).toHaveLength(1);
        expect(balanced(entries[0]!)).toBe(true);
        const creditNotes = await getOk(t, shop.brand, '/v10/credit-notes?sort[0][key]=id');
        expect((creditNotes['credit_notes'] as Json[]).map((c) => c['status'])).toEqual(['booked', 'draft']);
        expect((creditNotes['credit_notes'] as Json[])[0]!['lines']).toBeUndefined();
        const single = (await getOk(t, shop.brand, `/v10/credit-notes/${rest.body.credit_note.id}`))[
          'credit_note'
        ] as Json;
        expect(single).toMatchObject({
          status: 'draft',
          accounting_entry: null,
          timeline: [expect.objectContaining({ kind: 'created' })],
          lines: rest.body.credit_note.lines,
        });
        const fetchedInvoice = (await getOk(t, shop.brand, `/v10/invoices/${invoice['id']}`))['invoice'] as Json;
        expect((fetchedInvoice['credit_notes'] as Json[]).map((c) => c['id'])).toEqual([
          first.body.credit_note.id,
          rest.body.credit_note.id,
        ]);
        expect((fetchedInvoice['timeline'] as Json[]).map((e) => e['kind'])).toEqual([
          'created',
          'booked',
          'regulated',
          'credited',
          'credited',
          'credited',
        ]);
        // Crediting money moves no stock (returns do).
        expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 7, available: 7 });
      });
    });

    it('drafts no invoice on delivery when an external ERP invoices', async () => {
      await deliveredOrder();
      expect(await getOk(t, shop.brand, '/v10/invoices')).toMatchObject({ invoices: [], total: 0 });
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 7 });
    });

    it('answers 404 for unknown, foreign or non-numeric invoice, credit note and accounting entry ids', async () => {
      await changeSettings(t, shop.brand, { invoicing: 'in_service' });
      await deliveredOrder();
      const invoice = ((await getOk(t, shop.brand, '/v10/invoices'))['invoices'] as Json[])[0]!;
      const other = await createIntegrator(t.storage, t.clock);
      const notFoundFor = async (calls: readonly (readonly ['get' | 'post', string])[]) => {
        for (const [method, path] of calls)
          expect([path, (await request(t.server)[method](path).set(other.headers)).status]).toEqual([path, 404]);
      };
      await notFoundFor([
        ['get', `/v10/invoices/${invoice['id']}`],
        ['post', `/v10/invoices/${invoice['id']}/book`],
        ['post', `/v10/invoices/${invoice['id']}/credit-notes`],
        ['get', '/v10/invoices/abc'],
        ['get', '/v10/credit-notes/999999'],
        ['post', '/v10/credit-notes/999999/book'],
      ]);
      expect(((await getOk(t, shop.brand, `/v10/invoices/${invoice['id']}`))['invoice'] as Json)['status']).toBe(
        'draft',
      );

      await post(`/v10/invoices/${invoice['id']}/book`).expect(200);
      const entry = ((await getOk(t, shop.brand, '/v10/accounting-entries'))['accounting_entries'] as Json[])[0]!;
      await notFoundFor([
        ['get', `/v10/accounting-entries/${entry['id']}`],
        ['get', '/v10/accounting-entries/999999'],
        ['get', '/v10/accounting-entries/1e3'],
      ]);
      expect(
        ((await getOk(t, shop.brand, `/v10/accounting-entries/${entry['id']}`))['accounting_entry'] as Json)['id'],
      ).toBe(entry['id']);
    });

    it('needs finance:read to read and finance:write to book', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['finance:read'] });
      expect((await request(t.server).get('/v10/accounting-entries').set(reader.headers)).status).toBe(200);
      expect((await request(t.server).get('/v10/accounting-entries/1').set(reader.headers)).status).toBe(404);
      const book = await request(t.server).post('/v10/invoices/1/book').set(reader.headers);
      expect(book.status).toBe(403);
      expect(book.body.errors[0].meta.missing_scopes).toEqual(['finance:write']);
      const ordersOnly = await createIntegrator(t.storage, t.clock, { scopes: ['orders:read'] });
      expect((await request(t.server).get('/v10/invoices').set(ordersOnly.headers)).status).toBe(403);
    });
  });
}
