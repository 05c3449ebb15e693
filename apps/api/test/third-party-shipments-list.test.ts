import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { syncCustomers, newCustomer, address } from './support/customers';
import { createIntegrator } from './support/integrator';
import { OrderingBrand, approveOrder, getOk, placeOrder, seedOrderingBrand } from './support/orders';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
const MINUTE = 60_000;
const filter = (key: string, value: string, operator = 'eq', group = 0) =>
  `filter_groups[${group}][filters][0][key]=${key}&filter_groups[${group}][filters][0][operator]=${operator}&filter_groups[${group}][filters][0][value]=${encodeURIComponent(value)}`;

for (const dialect of testDialects()) {
  describe(`3PL shipments: list, warehouse form and export [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
    });

    const post = (path: string, body: Body) => request(t.server).post(path).set(shop.brand.headers).send(body);
    const get = (path: string) => request(t.server).get(path).set(shop.brand.headers);
    /** Places a B2B order for C-B2B and approves it (one shipment of every piece). */
    const approvedOrder = async (lines: { sku: string; quantity: number }[], extra: Body = {}, customer = 'C-B2B') => {
      const order = await placeOrder(t, shop.brand, shop.channels.b2b, { customer_number: customer, lines, ...extra });
      return approveOrder(t, shop.brand, order['id'] as number);
    };
    const thirdPartyShipments = async (query = '') =>
      (await getOk(t, shop.brand, `/3pl/shipments${query ? `?${query}` : ''}`)) as {
        shipments: Body[];
        total?: number;
        has_more: boolean;
        next_cursor: string | null;
      };

    it('shows a shipment in the warehouse form: every field, defaults where the order names nothing', async () => {
      const order = await approvedOrder(
        [
          { sku: 'TEE-S', quantity: 3 },
          { sku: 'CAP-ONE', quantity: 1 },
        ],
        { shipping_cost: 7.5 },
      );
      const listed = await thirdPartyShipments();
      expect(listed.total).toBe(1);
      expect(listed.has_more).toBe(false);
      expect(listed.next_cursor).toBeNull();
      const customerAddress = {
        name: 'Main receiving',
        att: null,
        address: 'Keizersgracht 1',
        zip: '1015 CJ',
        region: '',
        city: 'Amsterdam',
        country: 'NL',
      };
      expect(listed.shipments).toEqual([
        {
          id: expect.any(Number),
          shipment_number: expect.any(Number),
          order_number: order['order_number'],
          order_type: 'b2b',
          status: 'open',
          notes: null,
          reference: null,
          currency: 'EUR',
          customer_number: 'C-B2B',
          shipping_code: { code: 'default', drop_point_id: null },
          invoice_address: customerAddress,
          delivery_address: customerAddress,
          orders: [{ order_number: order['order_number'], order_meta: {}, payment_term: null, shipping: 7.5 }],
          responsible_person: null,
          // The order has no e-mail of its own: the customer's.
          email: 'buyer@wholesale.example',
          telephone: null,
          vat_number: null,
          eori_number: null,
          carrier: null,
          colli: [],
          lines: [
            {
              product_name: 'T-shirt',
              item_number: 'TEE',
              attributes: { size: 'S' },
              full_name: 'T-shirt - S',
              sku: 'TEE-S',
              ean: '5700000000011',
              country_of_origin: null,
              composition: null,
              hs_tariff_code: null,
              quantity: 3,
              // 10.00 less the customer's 10 %.
              unit_price: 9,
              total_price: 27,
            },
            {
              product_name: 'Cap',
              item_number: 'CAP',
              attributes: { size: 'One size' },
              full_name: 'Cap - One size',
              sku: 'CAP-ONE',
              ean: '5700000000035',
              country_of_origin: 'PT',
              composition: '100% cotton',
              hs_tariff_code: '650500',
              quantity: 1,
              unit_price: 4.95,
              total_price: 4.95,
            },
          ],
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
          exports: [],
        },
      ]);
    });

    it("shows the order's own contact, shipping code and responsible person, the customer's tax numbers and payment terms, and shipping on the first shipment only", async () => {
      expect((await post('/v10/payment-terms', { code: 'NET30', name: '30 days net', days: 30 })).status).toBe(201);
      await syncCustomers(t.app, shop.brand, [
        newCustomer('C-EU', {
          name: 'Boutique SARL',
          email: 'orders@boutique.example',
          telephone: '+33 1 23 45 67 89',
          vat_number: 'FR12345678901',
          eori_number: 'FR1234567890123',
          payment_terms: { payment_terms_code: 'NET30' },
          addresses_sync_mode: 'replace',
          addresses_sync_key: 'address_title',
          addresses: [address('Paris', { city: 'Paris', zip: '75001', country: 'FR', region: 'IDF' })],
        }),
      ]);
      const delivery = {
        name: 'Boutique SARL',
        att: 'Goods in',
        address: 'Rue de Rivoli 1',
        zip: '75001',
        region: 'IDF',
        city: 'Paris',
        country: 'FR',
      };
      const order = await placeOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-EU',
        lines: [{ sku: 'TEE-M', quantity: 4 }],
        reference: 'PO-7781',
        notes: 'Pack on hangers',
        email: 'store@boutique.example',
        delivery_address: delivery,
        shipping_code: { code: 'dpd_pickup', drop_point_id: 'DP-123' },
        shipping_cost: 12.5,
        responsible_person: { email: 'anna@boutique.example', first_name: 'Anna' },
        order_meta: { season: 'SS26' },
      });
      await approveOrder(t, shop.brand, order['id'] as number, { create_shipment: false });
      expect(
        (await post(`/v10/orders/${order['id']}/shipments`, { lines: [{ sku: 'TEE-M', quantity: 1 }] })).status,
      ).toBe(201);
      t.clock.advance(MINUTE);
      expect(
        (await post(`/v10/orders/${order['id']}/shipments`, { lines: [{ sku: 'TEE-M', quantity: 3 }] })).status,
      ).toBe(201);

      const [first, second] = (await thirdPartyShipments()).shipments;
      expect(first).toMatchObject({
        order_number: order['order_number'],
        notes: 'Pack on hangers',
        reference: 'PO-7781',
        customer_number: 'C-EU',
        shipping_code: { code: 'dpd_pickup', drop_point_id: 'DP-123' },
        invoice_address: {
          name: 'Paris receiving',
          att: null,
          address: 'Keizersgracht 1',
          zip: '75001',
          region: 'IDF',
          city: 'Paris',
          country: 'FR',
        },
        delivery_address: delivery,
        orders: [
          {
            order_number: order['order_number'],
            order_meta: { season: 'SS26' },
            payment_term: { name: '30 days net', erp_code: 'NET30' },
            shipping: 12.5,
          },
        ],
        responsible_person: { email: 'anna@boutique.example', first_name: 'Anna', last_name: null },
        email: 'store@boutique.example',
        telephone: '+33 1 23 45 67 89',
        vat_number: 'FR12345678901',
        eori_number: 'FR1234567890123',
        // TEE-M: the offer price 8.00, less no discount.
        lines: [
          expect.objectContaining({
            sku: 'TEE-M',
            full_name: 'T-shirt - M',
            quantity: 1,
            unit_price: 8,
            total_price: 8,
          }),
        ],
      });
      expect(second).toMatchObject({
        orders: [
          {
            order_number: order['order_number'],
            order_meta: { season: 'SS26' },
            payment_term: { name: '30 days net', erp_code: 'NET30' },
            shipping: null,
          },
        ],
        lines: [expect.objectContaining({ sku: 'TEE-M', quantity: 3, unit_price: 8, total_price: 24 })],
      });
    });

    it('filters on customer_id, created_at and updated_at, counts the matches, and pages by page or by cursor', async () => {
      const [two] = (await syncCustomers(t.app, shop.brand, [newCustomer('C-TWO', { name: 'Second shop' })])).customers;
      const early = await approvedOrder([{ sku: 'TEE-S', quantity: 1 }]);
      t.clock.advance(MINUTE);
      const middle = t.clock.now();
      await approvedOrder([{ sku: 'TEE-S', quantity: 1 }], {}, 'C-TWO');
      t.clock.advance(MINUTE);
      await approvedOrder([{ sku: 'TEE-M', quantity: 1 }]);
      t.clock.advance(MINUTE);
      // Cancelling the first order's shipment moves its updated_at.
      const firstShipment = (await thirdPartyShipments(filter('customer_id', String(shop.customers['C-B2B']!.id))))
        .shipments[0]!;
      expect(firstShipment['order_number']).toBe(early['order_number']);
      expect((await post('/3pl/shipments/cancel', { shipment_id: firstShipment['id'] })).status).toBe(200);
      const cancelledAt = t.clock.now();

      const all = await thirdPartyShipments();
      expect(all.total).toBe(3);
      const byCustomer = await thirdPartyShipments(filter('customer_id', String(two!.id)));
      expect(byCustomer.total).toBe(1);
      expect(byCustomer.shipments.map((s) => s['customer_number'])).toEqual(['C-TWO']);
      const createdSince = await thirdPartyShipments(filter('created_at', middle, 'gte'));
      expect(createdSince.total).toBe(2);
      expect(createdSince.shipments.map((s) => s['created_at'])).toEqual(
        all.shipments.slice(1).map((s) => s['created_at']),
      );
      const updatedSince = await thirdPartyShipments(filter('updated_at', cancelledAt, 'gte'));
      expect(updatedSince.shipments.map((s) => [s['id'], s['status']])).toEqual([[firstShipment['id'], 'cancelled']]);

      const page1 = await thirdPartyShipments('limit=2&page=1');
      expect(page1).toMatchObject({ total: 3, has_more: false });
      expect(page1.shipments.map((s) => s['id'])).toEqual([all.shipments[2]!['id']]);

      const first = await thirdPartyShipments('limit=2');
      expect(first).toMatchObject({ total: 3, has_more: true });
      const next = await thirdPartyShipments(`limit=2&cursor=${encodeURIComponent(first.next_cursor!)}`);
      expect(next.total).toBeUndefined();
      expect(next).toMatchObject({ has_more: false, next_cursor: null });
      expect([...first.shipments, ...next.shipments].map((s) => s['id'])).toEqual(all.shipments.map((s) => s['id']));

      const unknownKey = await get(`/3pl/shipments?${filter('order_number', '1')}`);
      expect(unknownKey.status).toBe(422);
      expect(unknownKey.body.errors[0].source).toMatchObject({ parameter: 'filter_groups[0][filters][0][key]' });
    });

    it('documents every field of the warehouse form, and the export parameters', async () => {
      await approvedOrder([{ sku: 'CAP-ONE', quantity: 1 }], { shipping_cost: 3 });
      const [shipment] = (await thirdPartyShipments()).shipments;
      const document = (await request(t.server).get('/openapi.json')).body as {
        components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
        paths: Record<string, Record<string, { parameters: { name: string; required?: boolean; schema: Body }[] }>>;
      };
      const { schemas } = document.components;
      const keys = (value: unknown) => Object.keys(value as Body).sort();
      expect(keys(schemas['ThirdPartyShipment']!.properties)).toEqual(keys(shipment));
      expect(schemas['ThirdPartyShipment']!.required!.sort()).toEqual(keys(shipment));
      expect(keys(schemas['ThirdPartyShipmentLine']!.properties)).toEqual(keys((shipment!['lines'] as Body[])[0]));
      expect(keys(schemas['ThirdPartyShipmentOrder']!.properties)).toEqual(keys((shipment!['orders'] as Body[])[0]));
      const parameters = document.paths['/3pl/shipments/export']!['get']!.parameters;
      expect(parameters.find((p) => p.name === 'system_id')).toMatchObject({
        required: true,
        schema: { type: 'string' },
      });
      expect(parameters.find((p) => p.name === 'include_completed')).toMatchObject({
        required: false,
        schema: { type: 'integer', enum: [0, 1], default: 0 },
      });
      expect(parameters.find((p) => p.name === 'not_exported_since')).toMatchObject({
        required: false,
        schema: { format: 'date-time' },
      });
      expect(parameters.map((p) => p.name)).not.toContain('page');
    });

    it("keeps another brand's shipments out of sight", async () => {
      await approvedOrder([{ sku: 'TEE-S', quantity: 1 }]);
      const other = await seedOrderingBrand(t);
      expect((await getOk(t, other.brand, '/3pl/shipments'))['total']).toBe(0);
    });

    describe('export', () => {
      const exported = async (query: string) =>
        (await getOk(t, shop.brand, `/3pl/shipments/export?${query}`)) as {
          shipments: Body[];
          has_more: boolean;
          next_cursor: string | null;
          total?: number;
        };
      const ids = (page: { shipments: Body[] }) => page.shipments.map((s) => s['id']);

      it('exports open shipments in the warehouse form until the system marks them, and never hides them from another system', async () => {
        await approvedOrder([{ sku: 'TEE-S', quantity: 2 }], { shipping_cost: 4.95 });
        await approvedOrder([{ sku: 'CAP-ONE', quantity: 1 }]);
        const [listedFirst, listedSecond] = (await thirdPartyShipments()).shipments;

        const before = await exported('system_id=wms');
        expect(before).toEqual({ shipments: [listedFirst, listedSecond], has_more: false, next_cursor: null });

        t.clock.advance(MINUTE);
        const markedAt = t.clock.now();
        const marked = await post('/3pl/shipments/mark-as-exported', {
          shipments: [{ shipment_id: listedFirst!['id'], system_id: 'wms', note: 'picked up by WMS' }],
        });
        expect(marked.status).toBe(200);
        expect(marked.body).toEqual({
          shipments: [
            { ...listedFirst, exports: [{ system_id: 'wms', exported_at: markedAt, note: 'picked up by WMS' }] },
          ],
        });

        expect(ids(await exported('system_id=wms'))).toEqual([listedSecond!['id']]);
        expect(ids(await exported('system_id=erp'))).toEqual([listedFirst!['id'], listedSecond!['id']]);
        // The v10 export of the same system shares the marks.
        expect(
          ((await getOk(t, shop.brand, '/v10/shipments/export?system_id=wms'))['shipments'] as Body[]).map(
            (s) => s['id'],
          ),
        ).toEqual([listedSecond!['id']]);
        // An instant before the mark re-exports what was marked after it.
        expect(
          ids(await exported(`system_id=wms&not_exported_since=${encodeURIComponent('2026-01-01T00:00:00Z')}`)),
        ).toEqual([listedFirst!['id'], listedSecond!['id']]);
        const timeline = (
          (await getOk(t, shop.brand, `/v10/shipments/${listedFirst!['id']}`))['shipment'] as { timeline: Body[] }
        ).timeline;
        expect(timeline).toContainEqual({
          kind: 'exported',
          note: 'picked up by WMS',
          system_id: 'wms',
          user_id: shop.brand.userId,
          created_at: markedAt,
        });
      });

      it('adds cancelled and completed shipments only on request (flags 0 or 1), and walks pages by cursor', async () => {
        for (let i = 0; i < 4; i += 1) {
          await approvedOrder([{ sku: 'TEE-S', quantity: 1 }]);
          t.clock.advance(MINUTE);
        }
        const all = (await thirdPartyShipments()).shipments;
        expect((await post('/3pl/shipments/cancel', { shipment_id: all[0]!['id'] })).status).toBe(200);
        const deliver = await post('/3pl/shipments/deliver', {
          delivery_note: {
            shipment_number: all[1]!['shipment_number'],
            order_type: 'b2b',
            carrier: 'dhl',
            colli: [{ track_trace: 'JD01', lines: [{ sku: 'TEE-S', quantity: 1 }] }],
          },
        });
        expect(deliver.status).toBe(200);

        expect(ids(await exported('system_id=wms'))).toEqual([all[2]!['id'], all[3]!['id']]);
        expect(ids(await exported('system_id=wms&include_cancelled=1'))).toEqual([
          all[0]!['id'],
          all[2]!['id'],
          all[3]!['id'],
        ]);
        expect(ids(await exported('system_id=wms&include_completed=1&include_cancelled=0'))).toEqual([
          all[1]!['id'],
          all[2]!['id'],
          all[3]!['id'],
        ]);

        const walked: unknown[] = [];
        let page = await exported('system_id=wms&include_cancelled=1&include_completed=1&limit=3');
        expect(page.total).toBeUndefined();
        walked.push(...ids(page));
        while (page.has_more) {
          page = await exported(
            `system_id=wms&include_cancelled=1&include_completed=1&limit=3&cursor=${encodeURIComponent(page.next_cursor!)}`,
          );
          walked.push(...ids(page));
        }
        expect(walked).toEqual(all.map((s) => s['id']));

        const created = await exported(
          `system_id=wms&include_cancelled=1&include_completed=1&${filter('created_at', String(all[2]!['created_at']), 'gte')}`,
        );
        expect(ids(created)).toEqual([all[2]!['id'], all[3]!['id']]);
      });

      it('refuses an export without system_id, with a flag other than 0 or 1, a bad not_exported_since, or a page number', async () => {
        const missing = await get('/3pl/shipments/export');
        expect(missing.status).toBe(422);
        expect(missing.body.errors).toEqual([
          expect.objectContaining({
            code: 'invalid_query_parameters',
            source: { parameter: 'system_id' },
            detail: expect.stringContaining('system_id is required'),
          }),
        ]);
        const blank = await get('/3pl/shipments/export?system_id=%20');
        expect(blank.status).toBe(422);
        expect(blank.body.errors[0].source).toEqual({ parameter: 'system_id' });
        for (const value of ['true', '2', '', 'yes']) {
          const response = await get(`/3pl/shipments/export?system_id=wms&include_completed=${value}`);
          expect(response.status).toBe(422);
          expect(response.body.errors).toEqual([
            expect.objectContaining({
              source: { parameter: 'include_completed' },
              detail: 'include_completed must be 0 or 1',
            }),
          ]);
        }
        const since = await get('/3pl/shipments/export?system_id=wms&not_exported_since=yesterday');
        expect(since.status).toBe(422);
        expect(since.body.errors[0].source).toEqual({ parameter: 'not_exported_since' });
        const paged = await get('/3pl/shipments/export?system_id=wms&page=1');
        expect(paged.status).toBe(422);
        expect(paged.body.errors[0].source).toMatchObject({ parameter: 'page' });
      });

      it('refuses more than 10 shipments or an unknown one in a mark, marking nothing of the call', async () => {
        await approvedOrder([{ sku: 'TEE-S', quantity: 1 }]);
        const [shipment] = (await thirdPartyShipments()).shipments;
        const eleven = Array.from({ length: 11 }, () => ({ shipment_id: shipment!['id'], system_id: 'wms' }));
        const tooMany = await post('/3pl/shipments/mark-as-exported', { shipments: eleven });
        expect(tooMany.status).toBe(422);
        expect(tooMany.body.errors[0]).toMatchObject({
          source: { pointer: '/shipments' },
          detail: 'shipments must contain at most 10 documents',
        });

        const other = await seedOrderingBrand(t);
        const foreignOrder = await placeOrder(t, other.brand, other.channels.b2b, {
          customer_number: 'C-B2B',
          lines: [{ sku: 'TEE-S', quantity: 1 }],
        });
        await approveOrder(t, other.brand, foreignOrder['id'] as number);
        const foreign = ((await getOk(t, other.brand, '/3pl/shipments'))['shipments'] as Body[])[0]!;
        const unknown = await post('/3pl/shipments/mark-as-exported', {
          shipments: [
            { shipment_id: shipment!['id'], system_id: 'wms' },
            { shipment_id: foreign['id'], system_id: 'wms' },
          ],
        });
        expect(unknown.status).toBe(422);
        expect(unknown.body.errors).toEqual([
          expect.objectContaining({ source: { pointer: '/shipments/1/shipment_id' } }),
        ]);
        expect(ids(await exported('system_id=wms'))).toEqual([shipment!['id']]);
        expect(
          ids((await getOk(t, other.brand, '/3pl/shipments/export?system_id=wms')) as { shipments: Body[] }),
        ).toEqual([foreign['id']]);

        const shape = await post('/3pl/shipments/mark-as-exported', { shipments: [{ shipment_id: '1', note: 5 }] });
        expect(shape.status).toBe(422);
        expect(shape.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
          '/shipments/0/note',
          '/shipments/0/shipment_id',
          '/shipments/0/system_id',
        ]);
      });

      it('marks twice harmlessly: one mark per system, with the latest time and note', async () => {
        await approvedOrder([{ sku: 'TEE-S', quantity: 1 }]);
        const [shipment] = (await thirdPartyShipments()).shipments;
        expect(
          (
            await post('/3pl/shipments/mark-as-exported', {
              shipments: [{ shipment_id: shipment!['id'], system_id: 'wms', note: 'first' }],
            })
          ).status,
        ).toBe(200);
        t.clock.advance(MINUTE);
        const again = await post('/3pl/shipments/mark-as-exported', {
          shipments: [{ shipment_id: shipment!['id'], system_id: 'wms', note: 'again' }],
        });
        expect(again.status).toBe(200);
        expect(again.body.shipments[0].exports).toEqual([
          { system_id: 'wms', exported_at: t.clock.now(), note: 'again' },
        ]);
        expect(ids(await exported('system_id=wms'))).toEqual([]);
      });
    });

    it('needs fulfilment scopes: read to list and export, write to report and mark', async () => {
      const ordersOnly = await createIntegrator(t.storage, t.clock, { scopes: ['orders:read', 'orders:write'] });
      for (const path of ['/3pl/shipments', '/3pl/shipments/export?system_id=wms']) {
        const response = await request(t.server).get(path).set(ordersOnly.headers);
        expect(response.status).toBe(403);
        expect(response.body.errors[0].meta).toEqual({ missing_scopes: ['fulfilment:read'] });
      }
      for (const path of ['/3pl/shipments/deliver', '/3pl/shipments/cancel', '/3pl/shipments/mark-as-exported']) {
        const response = await request(t.server).post(path).set(ordersOnly.headers).send({});
        expect(response.status).toBe(403);
        expect(response.body.errors[0].meta).toEqual({ missing_scopes: ['fulfilment:write'] });
      }
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['fulfilment:read'] });
      expect((await request(t.server).get('/3pl/shipments').set(reader.headers)).status).toBe(200);
      expect(
        (await request(t.server).post('/3pl/shipments/cancel').set(reader.headers).send({ shipment_id: 1 })).status,
      ).toBe(403);
    });
  });
}
