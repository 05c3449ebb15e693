// @slow: among the longest files of the suite; started first (tooling/config/jest-sequencer.js).
import request from 'supertest';
import {
  DatabaseSnapshots,
  Snapshot,
  openInspectableTestStorage,
  snapshotChanges,
  testDialects,
} from '@brand/persistence-kysely/testing';
import { MAX_AMOUNT, MAX_ID, MAX_INT32 } from '../src/dtos/decorators';
import { MAX_JSON_DEPTH } from '../src/http/input-guard';
import { getOk } from './support/orders';
import { EMAIL, PortalShop, anOrderByEmail, line, seedPortalShop } from './support/return-portals';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
type Method = 'get' | 'post' | 'put' | 'patch';

/** `[[[…]]]` nested `levels` deep (the outermost array counts as one level). */
const nestedArrays = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

/** A JSON text as it goes over the wire; kept as text so that `__proto__` keys and exact numbers (1e308) survive. */
const raw = (text: string): string => text;

for (const dialect of testDialects()) {
  describe(`hostile input is answered with a 4xx and writes nothing [${dialect}]`, () => {
    const t = useTestApp(dialect, {}, openInspectableTestStorage);
    let shop: PortalShop;
    let shipmentNumber: number;
    let snapshots: DatabaseSnapshots;

    beforeAll(async () => {
      shop = await seedPortalShop(t);
      const shipments = (await getOk(t, shop.brand, '/3pl/shipments?limit=1'))['shipments'] as Body[];
      shipmentNumber = shipments[0]!['shipment_number'] as number;
      snapshots = await DatabaseSnapshots.open(t.storage);
    });
    afterAll(() => snapshots?.close());

    const send = (method: Method, path: string, body?: string | Body) => {
      const call = request(t.server)[method](path).set(shop.brand.headers);
      return body === undefined
        ? call
        : call.set('Content-Type', 'application/json').send(typeof body === 'string' ? body : JSON.stringify(body));
    };

    /**
     * What a refused request must leave as it was: every row of every business table (read over a
     * second connection; the rate-limit counters and the request log are the only tables a
     * refused request may write).
     */
    const state = (): Promise<Snapshot> => snapshots.take();
    const expectUnchangedSince = async (before: Snapshot): Promise<void> => {
      expect(snapshotChanges(before, await state())).toEqual([]);
    };

    /** Sends the request, expects the refusal (status, code, pointer), and that nothing changed. */
    const expectRefused = async (
      method: Method,
      path: string,
      body: string | Body,
      expected: { status: number; code: string; pointer: string },
    ): Promise<void> => {
      const before = await state();
      const response = await send(method, path, body);
      expect({ status: response.status, errors: response.body.errors }).toEqual({
        status: expected.status,
        errors: expect.arrayContaining([
          expect.objectContaining({
            status: expected.status,
            code: expected.code,
            source: expect.objectContaining({ pointer: expected.pointer }),
          }),
        ]),
      });
      await expectUnchangedSince(before);
    };

    describe('nesting', () => {
      const tooDeepAt = `/junk${'/0'.repeat(MAX_JSON_DEPTH - 1)}`;
      const deepBody = raw(`{"code":"DEEP","name":"Deep","junk":${nestedArrays(3000)}}`);

      it.each<[string, Method, () => string]>([
        ['a drop', 'post', () => '/v10/drops'],
        ['a customer sync', 'post', () => '/customers/sync'],
        ['a product sync', 'post', () => '/products/sync'],
        ['the settings', 'patch', () => '/v10/settings'],
        ['a mark-as-exported', 'post', () => '/v10/orders/mark-as-exported'],
        ['a 3PL delivery', 'post', () => '/3pl/shipments/deliver'],
        ['a portal return', 'put', () => `/v10/external-return-portals/${shop.portal}/returns`],
        ['an order', 'post', () => `/v10/order-channels/${shop.channels.b2b}/orders`],
      ])(
        'refuses %s nested 3,000 levels deep with 400 body_too_deep at the first level too many',
        async (_what, method, path) => {
          await expectRefused(method, path(), deepBody, { status: 400, code: 'body_too_deep', pointer: tooDeepAt });
        },
      );

      it('refuses a body nested 500,000 levels deep, just under the 1 MB limit', async () => {
        await expectRefused('post', '/v10/drops', raw(`{"junk":${nestedArrays(500_000)}}`), {
          status: 400,
          code: 'body_too_deep',
          pointer: tooDeepAt,
        });
      });

      it(`takes a body nested exactly ${MAX_JSON_DEPTH} levels deep`, async () => {
        const response = await send(
          'post',
          '/v10/drops',
          raw(`{"code":"AT-LIMIT","name":"At the limit","junk":${nestedArrays(MAX_JSON_DEPTH - 1)}}`),
        );
        expect(response.status).toBe(201);
      });
    });

    describe('free-form objects', () => {
      it('takes a constructor key in the tracking link templates as a carrier code and shows it back', async () => {
        const templates = {
          constructor: 'https://track.example/{track_trace}',
          prototype: 'https://parcels.example/{track_trace}',
        };
        const response = await send('patch', '/v10/settings', { tracking_link_templates: templates });
        expect(response.status).toBe(200);
        expect(
          ((await getOk(t, shop.brand, '/v10/settings'))['settings'] as Body)['tracking_link_templates'],
        ).toMatchObject(templates);
      });

      it('refuses an object where a template belongs, even under a constructor key, naming the key', async () => {
        await expectRefused(
          'patch',
          '/v10/settings',
          { tracking_link_templates: { constructor: { prototype: { x: 1 } } } },
          {
            status: 422,
            code: 'validation_failed',
            pointer: '/tracking_link_templates/constructor',
          },
        );
      });

      it('keeps constructor and prototype keys of product attributes and custom fields as the data sent', async () => {
        const meta = { constructor: { prototype: { x: 1 } }, prototype: 'p', nested: { constructor: 'c' } };
        const attributes = { size: 'M', constructor: 'plain' };
        const synced = await send('post', '/products/sync', {
          products: [
            { item_number: 'CTOR', name: 'Constructor', meta, variants: [{ sku: 'CTOR-M', attributes, meta }] },
          ],
        });
        expect(synced.status).toBe(200);

        const products = (await getOk(t, shop.brand, '/v10/products?limit=100&includes[]=variants'))[
          'products'
        ] as Body[];
        const product = products.find((p) => p['item_number'] === 'CTOR')!;
        expect(product['meta']).toEqual(meta);
        expect((product['variants'] as Body[])[0]).toMatchObject({ sku: 'CTOR-M', attributes, meta });
      });

      /** Delivers a new approved webshop order's shipment with one colli tracked as T-1; the answer as it came. */
      const deliverWithCarrier = async (carrier: string) => {
        await anOrderByEmail(t, shop);
        const [shipment] = (
          await getOk(t, shop.brand, '/3pl/shipments?sort[0][key]=id&sort[0][direction]=DESC&limit=1')
        )['shipments'] as Body[];
        return send('post', '/3pl/shipments/deliver', {
          delivery_note: {
            shipment_number: shipment!['shipment_number'],
            order_type: 'b2c',
            carrier,
            colli: [
              {
                track_trace: 'T-1',
                lines: [
                  { sku: 'TEE-S', quantity: 2 },
                  { sku: 'CAP-ONE', quantity: 1 },
                ],
              },
            ],
          },
        });
      };

      it.each(['__proto__', 'toString', 'hasOwnProperty'])(
        'delivers with a carrier named %s, which has no template, and builds no tracking link',
        async (carrier) => {
          const response = await deliverWithCarrier(carrier);
          expect(response.status).toBe(200);
          expect(response.body.shipment.colli[0]).toMatchObject({ track_trace: 'T-1', track_trace_link: null });
        },
      );

      it("builds the link of a carrier named constructor from the brand's template for it", async () => {
        expect(
          (
            await send('patch', '/v10/settings', {
              tracking_link_templates: { constructor: 'https://track.example/{track_trace}' },
            })
          ).status,
        ).toBe(200);
        const response = await deliverWithCarrier('constructor');
        expect(response.status).toBe(200);
        expect(response.body.shipment.colli[0]).toMatchObject({
          track_trace: 'T-1',
          track_trace_link: 'https://track.example/T-1',
        });
      });

      it('ignores a constructor key among the properties a body may carry but the API does not know', async () => {
        const response = await send('post', '/v10/drops', {
          code: 'CTOR',
          name: 'Constructor',
          constructor: { prototype: { x: 1 } },
          extra: { constructor: { prototype: {} } },
        });
        expect(response.status).toBe(201);
        expect(response.body.drop).toMatchObject({ code: 'CTOR', name: 'Constructor' });
      });

      it.each([
        [
          'inside a free-form object',
          raw('{"tracking_link_templates":{"__proto__":{"x":1}}}'),
          '/tracking_link_templates/__proto__',
        ],
        ['at the top of the body', raw('{"__proto__":{"invoicing":"in_service"}}'), '/__proto__'],
      ])('refuses a __proto__ key %s, so no object gains a prototype from a body', async (_where, body, pointer) => {
        await expectRefused('patch', '/v10/settings', body, { status: 422, code: 'validation_failed', pointer });
        expect(({} as Body)['x']).toBeUndefined();
        expect(({} as Body)['invoicing']).toBeUndefined();
      });
    });

    describe('nested objects', () => {
      it.each<[string, Method, () => string, () => Body, string]>([
        ['a customer', 'post', () => '/customers/sync', () => ({ customers: [[]] }), '/customers/0'],
        [
          'a customer group',
          'post',
          () => '/customers/sync',
          () => ({ customers: [{ customer_number: 'C-NEW', name: 'New', currency: 'EUR', customer_group: [] }] }),
          '/customers/0/customer_group',
        ],
        ['a supplier', 'post', () => '/production/suppliers/sync', () => ({ suppliers: [[]] }), '/suppliers/0'],
        ['a product', 'post', () => '/products/sync', () => ({ products: [[]] }), '/products/0'],
        [
          'a variant',
          'post',
          () => '/products/sync',
          () => ({ products: [{ item_number: 'ARR', name: 'Arrays', variants: [[{ sku: 'ARR-M' }]] }] }),
          '/products/0/variants/0',
        ],
        [
          'a colli',
          'post',
          () => '/3pl/shipments/deliver',
          () => ({
            delivery_note: { shipment_number: shipmentNumber, order_type: 'b2c', carrier: 'gls', colli: [[]] },
          }),
          '/delivery_note/colli/0',
        ],
        ['an order', 'post', () => `/v10/order-channels/${shop.channels.b2b}/orders`, () => ({ order: [] }), '/order'],
        [
          'an order line',
          'post',
          () => `/v10/order-channels/${shop.channels.b2b}/orders`,
          () => ({ order: { customer_number: 'C-B2B', lines: [[]] } }),
          '/order/lines/0',
        ],
        ['a mark', 'post', () => '/v10/orders/mark-as-exported', () => ({ orders: [[]] }), '/orders/0'],
        [
          'a portal return',
          'put',
          () => `/v10/external-return-portals/${shop.portal}/returns`,
          () => ({ email: EMAIL, return: [] }),
          '/return',
        ],
      ])('refuses an array where %s belongs, naming it', async (_what, method, path, body, pointer) => {
        await expectRefused(method, path(), body(), { status: 422, code: 'validation_failed', pointer });
      });
    });

    describe('the NUL character', () => {
      it.each<[string, Method, () => string, string, string]>([
        ['a text field', 'post', () => '/v10/drops', raw('{"code":"a\\u0000b","name":"x"}'), '/code'],
        [
          'a nested text field',
          'post',
          () => '/customers/sync',
          raw('{"customers":[{"customer_number":"C-NUL","name":"a\\u0000","currency":"EUR"}]}'),
          '/customers/0/name',
        ],
        [
          'a key',
          'post',
          () => '/products/sync',
          raw(
            '{"products":[{"item_number":"NUL","name":"x","variants":[{"sku":"NUL-M","attributes":{"si\\u0000ze":"M"}}]}]}',
          ),
          '/products/0/variants/0/attributes/si\u0000ze',
        ],
        [
          'the rma of a portal return',
          'put',
          () => `/v10/external-return-portals/${shop.portal}/returns`,
          raw('{"return":{"rma":"RMA-\\u0000","lines":[]}}'),
          '/return/rma',
        ],
      ])('is refused in %s of a body, naming it', async (_where, method, path, body, pointer) => {
        await expectRefused(method, path(), body, { status: 422, code: 'validation_failed', pointer });
      });

      it.each([
        [
          'a list filter value',
          '/v10/customers?filter_groups[0][filters][0][key]=customer_number&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=a%00b',
          'filter_groups[0][filters][0][value]',
        ],
        [
          'a list filter key',
          '/v10/drops?filter_groups[0][filters][0][key]=co%00de&filter_groups[0][filters][0][value]=x',
          'filter_groups[0][filters][0][key]',
        ],
        ['a query parameter of an export', '/v10/orders/export?system_id=erp%00', 'system_id'],
      ])('is refused in %s, naming the parameter', async (_where, path, parameter) => {
        const response = await send('get', path);
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          expect.objectContaining({ code: 'invalid_query_parameters', source: { parameter } }),
        ]);
      });

      it.each<[string, Method, () => string, Body | undefined]>([
        [
          'an order channel',
          'post',
          () => '/v10/order-channels/ab%00cd/orders',
          { order: { customer_number: 'C-B2B', lines: [{ sku: 'TEE-S', quantity: 1 }] } },
        ],
        [
          'a return portal',
          'put',
          () => '/v10/external-return-portals/ab%00cd/returns',
          { email: EMAIL, order_number: 1, return: { rma: 'RMA-NUL', lines: [line('TEE-S')] } },
        ],
        ['an order', 'get', () => '/v10/orders/1%00', undefined],
      ])('in the path of %s names no record: 404', async (_what, method, path, body) => {
        const before = await state();
        const response = await send(method, path(), body);
        expect(response.status).toBe(404);
        expect(response.body.errors[0]).toMatchObject({ status: 404, code: 'not_found' });
        await expectUnchangedSince(before);
      });
    });

    describe('paths', () => {
      it.each<[string, Method, string]>([
        ['an order to approve', 'post', '/v10/orders/%FF/approve'],
        ['an order channel', 'post', '/v10/order-channels/%FF/orders'],
        ['a product', 'get', '/v10/products/%E0%A4%A'],
      ])('refuses a path naming %s in broken percent-encoding with 400 invalid_path', async (_what, method, path) => {
        const before = await state();
        const response = await send(method, path, method === 'get' ? undefined : {});
        expect(response.status).toBe(400);
        expect(response.body.errors).toEqual([expect.objectContaining({ status: 400, code: 'invalid_path' })]);
        await expectUnchangedSince(before);
      });
    });

    describe('numbers', () => {
      it.each<[string, Method, () => string, () => string, string]>([
        [
          'an order to mark',
          'post',
          () => '/v10/orders/mark-as-exported',
          () => '{"orders":[{"order_id":1e308,"system_id":"erp","regulate_inventory":false}]}',
          '/orders/0/order_id',
        ],
        [
          'a shipment to mark',
          'post',
          () => '/3pl/shipments/mark-as-exported',
          () => '{"shipments":[{"shipment_id":1e308,"system_id":"wms"}]}',
          '/shipments/0/shipment_id',
        ],
        ['a shipment to cancel', 'post', () => '/3pl/shipments/cancel', () => '{"shipment_id":1e308}', '/shipment_id'],
        [
          'a channel drop',
          'post',
          () => '/v10/order-channels',
          () => '{"name":"Huge","order_type":"b2b","drop_id":1e308}',
          '/drop_id',
        ],
        [
          'an order customer',
          'post',
          () => `/v10/order-channels/${shop.channels.b2b}/orders`,
          () => '{"order":{"customer_id":1e308,"lines":[{"sku":"TEE-S","quantity":1}]}}',
          '/order/customer_id',
        ],
        [
          'a portal variant',
          'put',
          () => `/v10/external-return-portals/${shop.portal}/returns`,
          () =>
            JSON.stringify({
              email: EMAIL,
              order_number: shop.order.order_number,
              return: { rma: 'RMA-BIG', lines: [line('TEE-S', { variant_id: 'ID' })] },
            }).replace('"ID"', '1e308'),
          '/return/lines/0/variant_id',
        ],
        [
          'a portal claim cause',
          'put',
          () => `/v10/external-return-portals/${shop.portal}/returns`,
          () =>
            JSON.stringify({
              email: EMAIL,
              order_number: shop.order.order_number,
              return: { rma: 'RMA-BIG', lines: [line('TEE-S', { claim_cause_id: 'ID' })] },
            }).replace('"ID"', '1e308'),
          '/return/lines/0/claim_cause_id',
        ],
        [
          'an id just past the exact integers',
          'post',
          () => '/v10/orders/mark-as-exported',
          () => `{"orders":[{"order_id":${MAX_ID + 2},"system_id":"erp","regulate_inventory":false}]}`,
          '/orders/0/order_id',
        ],
        [
          'an order quantity',
          'post',
          () => `/v10/order-channels/${shop.channels.b2b}/orders`,
          () => `{"order":{"customer_number":"C-B2B","lines":[{"sku":"TEE-S","quantity":${MAX_INT32 + 1}}]}}`,
          '/order/lines/0/quantity',
        ],
        [
          'a stock quantity',
          'post',
          () => '/products/sync',
          () =>
            `{"products":[{"item_number":"BIG","name":"x","variants":[{"sku":"BIG-M","attributes":{"size":"M"},"inventory":[{"quantity":${MAX_INT32 + 1}}]}]}]}`,
          '/products/0/variants/0/inventory/0/quantity',
        ],
        [
          'a shipping cost',
          'post',
          () => `/v10/order-channels/${shop.channels.b2b}/orders`,
          () => '{"order":{"customer_number":"C-B2B","shipping_cost":1e300,"lines":[{"sku":"TEE-S","quantity":1}]}}',
          '/order/shipping_cost',
        ],
        [
          'a portal unit price',
          'put',
          () => `/v10/external-return-portals/${shop.portal}/returns`,
          () =>
            JSON.stringify({
              email: EMAIL,
              order_number: shop.order.order_number,
              return: { rma: 'RMA-BIG', lines: [line('TEE-S', { unit_price_incl_vat: MAX_AMOUNT + 1 })] },
            }),
          '/return/lines/0/unit_price_incl_vat',
        ],
      ])('refuses %s beyond what its column holds, naming the field', async (_what, method, path, body, pointer) => {
        await expectRefused(method, path(), body(), { status: 422, code: 'validation_failed', pointer });
      });

      // 1e-7 has no "." in its text, so counting decimals in the text took it for a whole number.
      it.each<[string, Method, () => string, () => string, string]>([
        [
          'a shipping cost',
          'post',
          () => `/v10/order-channels/${shop.channels.b2b}/orders`,
          () => '{"order":{"customer_number":"C-B2B","shipping_cost":1e-7,"lines":[{"sku":"TEE-S","quantity":1}]}}',
          '/order/shipping_cost',
        ],
        ['a VAT rate', 'patch', () => '/v10/settings', () => '{"default_vat_rate":1e-7}', '/default_vat_rate'],
        [
          'a gift card bonus',
          'put',
          () => `/v10/external-return-portals/${shop.portal}/returns`,
          () =>
            JSON.stringify({
              email: EMAIL,
              order_number: shop.order.order_number,
              return: { rma: 'RMA-TINY', lines: [line('TEE-S')], storefront_refund_gift_card_bonus_value: 'TINY' },
            }).replace('"TINY"', '1e-7'),
          '/return/storefront_refund_gift_card_bonus_value',
        ],
      ])(
        'refuses %s with more decimals than it keeps, written with an exponent',
        async (_what, method, path, body, pointer) => {
          await expectRefused(method, path(), body(), { status: 422, code: 'validation_failed', pointer });
        },
      );

      it('takes the largest exact id and answers that no such order exists, never a 500', async () => {
        const before = await state();
        const response = await send(
          'post',
          '/v10/orders/mark-as-exported',
          `{"orders":[{"order_id":${MAX_ID},"system_id":"erp","regulate_inventory":false}]}`,
        );
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        await expectUnchangedSince(before);
      });

      it('answers 404 to a path id beyond the exact integers', async () => {
        const response = await send('get', '/v10/orders/99999999999999999999');
        expect(response.status).toBe(404);
      });

      it('matches no row, rather than failing, for a list filter beyond an integer column', async () => {
        const response = await send(
          'get',
          `/v10/inventory-available?filter_groups[0][filters][0][key]=in_stock&filter_groups[0][filters][0][operator]=gt&filter_groups[0][filters][0][value]=${MAX_INT32 * 1000}`,
        );
        expect(response.status).toBe(200);
        expect(response.body.inventory).toEqual([]);
      });

      it('states the bounds in the OpenAPI document', async () => {
        const schemas = (await request(t.server).get('/openapi.json')).body.components.schemas as Record<
          string,
          { properties: Record<string, Body> }
        >;
        expect(schemas['OrderMarkItemDto']?.properties['order_id']).toMatchObject({
          type: 'integer',
          minimum: 1,
          maximum: MAX_ID,
        });
        expect(schemas['ArticleQuantityDto']?.properties['quantity']).toMatchObject({
          type: 'integer',
          minimum: 1,
          maximum: MAX_INT32,
        });
      });
    });
  });
}
