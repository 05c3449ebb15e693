import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { createIntegrator } from './support/integrator';
import {
  OrderingBrand,
  changeSettings,
  getOk,
  listOrders,
  postOrder,
  seedOrderingBrand,
  stockOf,
} from './support/orders';
import { useTestApp } from './support/test-app';

const ADDRESS = {
  name: 'Main receiving',
  att: null,
  address: 'Keizersgracht 1',
  zip: '1015 CJ',
  region: '',
  city: 'Amsterdam',
  country: 'NL',
};

for (const dialect of testDialects()) {
  describe(`order creation [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
    });

    /** A refused order: 422 with exactly these (pointer, detail) pairs, and nothing written (no order, stock as before). */
    async function expectRefused(
      channel: string,
      order: Record<string, unknown>,
      errors: { pointer: string; detail: string | RegExp }[],
    ) {
      const before = await stockOf(t, shop.brand, 'TEE-S');
      const ordersBefore = (await listOrders(t, shop.brand)).total;
      const response = await postOrder(t, shop.brand, channel, order);
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual(
        errors.map((e) =>
          expect.objectContaining({
            status: 422,
            code: 'validation_failed',
            source: { pointer: e.pointer },
            detail: e.detail instanceof RegExp ? expect.stringMatching(e.detail) : e.detail,
          }),
        ),
      );
      expect((await listOrders(t, shop.brand)).total).toBe(ordersBefore);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual(before);
      return response.body.errors as { detail: string }[];
    }

    it('places a B2B order at the customer discount with exact totals, reserving stock', async () => {
      const response = await postOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-B2B',
        reference: 'PO-77',
        shipping_cost: 7.5,
        shipping_code: { code: 'postnl_standard' },
        order_meta: { season: 'SS26' },
        lines: [
          { sku: 'TEE-S', quantity: 3 },
          { sku: 'TEE-M', quantity: 2 },
          { ean: '5700000000035', quantity: 1 },
        ],
      });
      expect(response.status).toBe(201);
      const order = response.body.order;
      // 3 × 10.00 + 2 × 8.00 (offer) + 5.50, less 10 %: 27.00 + 14.40 + 4.95 = 46.35; + 7.50 shipping = 53.85 net; 25 % VAT 13.4625 → 13.46.
      expect(order).toEqual({
        id: expect.any(Number),
        order_number: expect.any(Number),
        status: 'draft',
        order_type: 'b2b',
        order_channel_id: expect.any(Number),
        customer_id: shop.customers['C-B2B']!.id,
        customer_number: 'C-B2B',
        drop_id: null,
        currency: 'EUR',
        vat_rate: 25,
        prices_include_vat: false,
        email: null,
        telephone: null,
        reference: 'PO-77',
        notes: null,
        invoice_address: ADDRESS,
        delivery_address: ADDRESS,
        shipping_code: { code: 'postnl_standard', drop_point_id: null },
        shipping_cost: 7.5,
        responsible_person: null,
        order_meta: { season: 'SS26' },
        net_total: 53.85,
        vat_total: 13.46,
        // The create answers the order as GET shows it, timeline included.
        timeline: [
          {
            kind: 'created',
            note: 'placed on channel ERP',
            system_id: null,
            user_id: expect.any(Number),
            created_at: t.clock.now(),
          },
        ],
        total: 67.31,
        approved_at: null,
        cancelled_at: null,
        archived_at: null,
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
        exports: [],
        lines: [
          expect.objectContaining({
            sku: 'TEE-S',
            ean: '5700000000011',
            item_number: 'TEE',
            product_name: 'T-shirt',
            attributes: { size: 'S' },
            quantity: 3,
            reserved_quantity: 3,
            unit_price: 10,
            discount_percentage: 10,
            total_price: 27,
          }),
          expect.objectContaining({
            sku: 'TEE-M',
            quantity: 2,
            reserved_quantity: 2,
            unit_price: 8,
            discount_percentage: 10,
            total_price: 14.4,
          }),
          expect.objectContaining({
            sku: 'CAP-ONE',
            quantity: 1,
            reserved_quantity: 1,
            unit_price: 5.5,
            discount_percentage: 10,
            total_price: 4.95,
          }),
        ],
      });
      expect(order.lines[0]).toEqual({
        id: expect.any(Number),
        variant_id: shop.variantIds['TEE-S'],
        product_id: shop.products[0]!.product.id,
        sku: 'TEE-S',
        ean: '5700000000011',
        item_number: 'TEE',
        product_name: 'T-shirt',
        attributes: { size: 'S' },
        quantity: 3,
        reserved_quantity: 3,
        shipped_quantity: 0,
        delivered_quantity: 0,
        invoiced_quantity: 0,
        regulated_quantity: 0,
        unit_price: 10,
        discount_percentage: 10,
        total_price: 27,
      });

      const fetched = await getOk(t, shop.brand, `/v10/orders/${order.id}`);
      expect(fetched['order']).toEqual({
        ...order,
        timeline: [
          {
            kind: 'created',
            note: expect.stringContaining('ERP'),
            system_id: null,
            user_id: shop.brand.userId,
            created_at: t.clock.now(),
          },
        ],
      });
      // Reserved: Available drops, In stock does not.
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 7 });
      expect(await stockOf(t, shop.brand, 'TEE-M')).toEqual({ in_stock: 10, available: 8 });
      expect(await stockOf(t, shop.brand, 'CAP-ONE')).toEqual({ in_stock: 5, available: 4 });
    });

    it('places a B2C order at retail prices including VAT, totals taken out of the gross amount', async () => {
      const order = (
        await postOrder(t, shop.brand, shop.channels.b2c, {
          customer_id: shop.customers['C-SHOP']!.id,
          email: 'shopper@example.com',
          telephone: '+31 20 123 4567',
          shipping_cost: 4.95,
          delivery_address: {
            name: 'Jane Shopper',
            address: 'Damrak 5',
            zip: '1012 LG',
            city: 'Amsterdam',
            country: 'NL',
          },
          responsible_person: { email: 'jane@example.com', first_name: 'Jane' },
          lines: [
            { sku: 'TEE-M', quantity: 1 },
            { sku: 'CAP-ONE', quantity: 2 },
          ],
        })
      ).body.order;
      // 20.00 (B2C offer) + 2 × 12.95 + 4.95 shipping = 50.85 gross; net 50.85 / 1.25 = 40.68, VAT 10.17.
      expect(order).toMatchObject({
        status: 'draft',
        order_type: 'b2c',
        currency: 'EUR',
        prices_include_vat: true,
        vat_rate: 25,
        email: 'shopper@example.com',
        telephone: '+31 20 123 4567',
        invoice_address: null,
        delivery_address: {
          name: 'Jane Shopper',
          att: null,
          address: 'Damrak 5',
          zip: '1012 LG',
          region: '',
          city: 'Amsterdam',
          country: 'NL',
        },
        responsible_person: { email: 'jane@example.com', first_name: 'Jane', last_name: null },
        net_total: 40.68,
        vat_total: 10.17,
        total: 50.85,
        shipping_cost: 4.95,
      });
      expect(
        order.lines.map((l: Record<string, unknown>) => [
          l['sku'],
          l['unit_price'],
          l['discount_percentage'],
          l['total_price'],
        ]),
      ).toEqual([
        ['TEE-M', 20, 0, 20],
        ['CAP-ONE', 12.95, 0, 25.9],
      ]);
      expect((await getOk(t, shop.brand, `/v10/orders/${order.id}`))['order']).toMatchObject({
        total: 50.85,
        lines: order.lines,
      });
      expect(await stockOf(t, shop.brand, 'CAP-ONE')).toEqual({ in_stock: 5, available: 3 });
    });

    it('checks stock on the sum of the lines of one variant', async () => {
      const order = (
        await postOrder(t, shop.brand, shop.channels.b2b, {
          customer_number: 'C-B2B',
          lines: [
            { sku: 'CAP-ONE', quantity: 2 },
            { ean: '5700000000035', quantity: 3 },
          ],
        })
      ).body.order;
      expect(order.lines.map((l: Record<string, unknown>) => [l['sku'], l['quantity']])).toEqual([
        ['CAP-ONE', 2],
        ['CAP-ONE', 3],
      ]);
      expect(await stockOf(t, shop.brand, 'CAP-ONE')).toEqual({ in_stock: 5, available: 0 });
      await expectRefused(shop.channels.b2b, { customer_number: 'C-B2B', lines: [{ sku: 'CAP-ONE', quantity: 1 }] }, [
        {
          pointer: '/order/lines/0/quantity',
          detail: 'order.lines[0].quantity SKU CAP-ONE is short: 1 ordered, 0 available',
        },
      ]);
    });

    describe('refusals (422 naming the field and the cause; nothing written)', () => {
      it('refuses an unknown SKU and an unknown EAN', async () => {
        await expectRefused(
          shop.channels.b2b,
          {
            customer_number: 'C-B2B',
            lines: [
              { sku: 'NOPE', quantity: 1 },
              { ean: '0000000000000', quantity: 1 },
              { sku: 'TEE-S', quantity: 1 },
            ],
          },
          [
            { pointer: '/order/lines/0/sku', detail: 'order.lines[0].sku "NOPE" is not a variant of this brand' },
            {
              pointer: '/order/lines/1/ean',
              detail: 'order.lines[1].ean "0000000000000" is not a variant of this brand',
            },
          ],
        );
      });

      it('refuses a product that is not active', async () => {
        shop = await seedOrderingBrand(t, {
          products: [
            {
              itemNumber: 'OLD',
              product: { active: false },
              variants: [{ sku: 'OLD-1', prices: { EUR: { sales: 100, rec: 200 } } }],
            },
          ],
          stock: { 'OLD-1': 5 },
        });
        await expectRefused(shop.channels.b2b, { customer_number: 'C-B2B', lines: [{ sku: 'OLD-1', quantity: 1 }] }, [
          { pointer: '/order/lines/0/sku', detail: /SKU OLD-1 cannot be sold: product OLD is inactive/ },
        ]);
      });

      it('refuses an archived variant on B2B, but sells it on B2C', async () => {
        shop = await seedOrderingBrand(t, {
          products: [
            {
              itemNumber: 'ARC',
              variants: [{ sku: 'ARC-1', overrides: { archived: true }, prices: { EUR: { sales: 100, rec: 200 } } }],
            },
          ],
          stock: { 'ARC-1': 5 },
        });
        await expectRefused(shop.channels.b2b, { customer_number: 'C-B2B', lines: [{ sku: 'ARC-1', quantity: 1 }] }, [
          { pointer: '/order/lines/0/sku', detail: /SKU ARC-1 cannot be sold on B2B: the variant is archived/ },
        ]);
        expect(
          (
            await postOrder(t, shop.brand, shop.channels.b2c, {
              customer_number: 'C-SHOP',
              lines: [{ sku: 'ARC-1', quantity: 1 }],
            })
          ).status,
        ).toBe(201);
      });

      it('refuses a variant not available to B2C on a B2C channel, but sells it on B2B', async () => {
        shop = await seedOrderingBrand(t, {
          products: [
            {
              itemNumber: 'WHL',
              variants: [
                { sku: 'WHL-1', overrides: { b2cAvailable: false }, prices: { EUR: { sales: 100, rec: 200 } } },
              ],
            },
          ],
          stock: { 'WHL-1': 5 },
        });
        await expectRefused(shop.channels.b2c, { customer_number: 'C-SHOP', lines: [{ sku: 'WHL-1', quantity: 1 }] }, [
          {
            pointer: '/order/lines/0/sku',
            detail: /SKU WHL-1 cannot be sold on B2C: the variant is not available to B2C/,
          },
        ]);
        expect(
          (
            await postOrder(t, shop.brand, shop.channels.b2b, {
              customer_number: 'C-B2B',
              lines: [{ sku: 'WHL-1', quantity: 1 }],
            })
          ).status,
        ).toBe(201);
      });

      it('refuses a B2B quantity below the minimum order quantity and one that is no sum of colli sizes', async () => {
        await expectRefused(shop.channels.b2b, { customer_number: 'C-B2B', lines: [{ sku: 'SOCK-42', quantity: 6 }] }, [
          {
            pointer: '/order/lines/0/quantity',
            detail: /SKU SOCK-42: product SOCK is ordered 6 pieces in all, below its minimum order quantity of 12/,
          },
        ]);
        await expectRefused(
          shop.channels.b2b,
          { customer_number: 'C-B2B', lines: [{ sku: 'SOCK-42', quantity: 13 }] },
          [
            {
              pointer: '/order/lines/0/quantity',
              detail: /SKU SOCK-42 is sold in colli of 6 or 12 pieces only; 13 is no sum of them/,
            },
          ],
        );
        // 18 = 6 + 12 passes both rules.
        expect(
          (
            await postOrder(t, shop.brand, shop.channels.b2b, {
              customer_number: 'C-B2B',
              lines: [{ sku: 'SOCK-42', quantity: 18 }],
            })
          ).status,
        ).toBe(201);
      });

      it('refuses an order without a drop when the brand requires one, and takes it with a drop', async () => {
        await changeSettings(t, shop.brand, { requires_drop: true });
        await expectRefused(shop.channels.b2b, { customer_number: 'C-B2B', lines: [{ sku: 'TEE-S', quantity: 1 }] }, [
          { pointer: '/order/drop_id', detail: /order\.drop_id is required/ },
        ]);
        await expectRefused(
          shop.channels.b2b,
          { customer_number: 'C-B2B', drop_code: 'NOPE', lines: [{ sku: 'TEE-S', quantity: 1 }] },
          [{ pointer: '/order/drop_code', detail: /NOPE/ }],
        );
        const drop = await request(t.server)
          .post('/v10/drops')
          .set(shop.brand.headers)
          .send({ code: 'SS26', name: 'Spring' });
        const placed = await postOrder(t, shop.brand, shop.channels.b2b, {
          customer_number: 'C-B2B',
          drop_code: 'SS26',
          lines: [{ sku: 'TEE-S', quantity: 1 }],
        });
        expect(placed.status).toBe(201);
        expect(placed.body.order.drop_id).toBe(drop.body.drop.id);
      });

      it('refuses an inactive customer and an unknown one', async () => {
        await expectRefused(
          shop.channels.b2b,
          { customer_number: 'C-INACTIVE', lines: [{ sku: 'TEE-S', quantity: 1 }] },
          [{ pointer: '/order/customer_number', detail: /C-INACTIVE.*inactive/ }],
        );
        await expectRefused(shop.channels.b2b, { customer_id: 999999, lines: [{ sku: 'TEE-S', quantity: 1 }] }, [
          { pointer: '/order/customer_id', detail: /999999.*does not exist/ },
        ]);
      });

      it('refuses a line without a price in the order currency', async () => {
        await expectRefused(
          shop.channels.b2b,
          { customer_number: 'C-B2B', currency: 'SEK', lines: [{ sku: 'TEE-S', quantity: 1 }] },
          [{ pointer: '/order/lines/0/sku', detail: 'order.lines[0].sku SKU TEE-S has no price in SEK' }],
        );
      });

      it('refuses short stock naming every short SKU, and reserves nothing of the lines that were in stock', async () => {
        const errors = await expectRefused(
          shop.channels.b2b,
          {
            customer_number: 'C-B2B',
            lines: [
              { sku: 'TEE-S', quantity: 11 },
              { sku: 'TEE-M', quantity: 1 },
              { sku: 'CAP-ONE', quantity: 6 },
            ],
          },
          [
            {
              pointer: '/order/lines/0/quantity',
              detail: 'order.lines[0].quantity SKU TEE-S is short: 11 ordered, 10 available',
            },
            {
              pointer: '/order/lines/2/quantity',
              detail: 'order.lines[2].quantity SKU CAP-ONE is short: 6 ordered, 5 available',
            },
          ],
        );
        expect(errors).toHaveLength(2);
        expect(await stockOf(t, shop.brand, 'TEE-M')).toEqual({ in_stock: 10, available: 10 });
      });

      it('refuses lines naming sku and ean together, or neither, before looking anything up', async () => {
        await expectRefused(
          shop.channels.b2b,
          {
            customer_number: 'C-B2B',
            lines: [
              { sku: 'TEE-S', ean: '5700000000011', quantity: 1 },
              { quantity: 1 },
              { sku: 'TEE-M', quantity: 0 },
            ],
          },
          [
            {
              pointer: '/order/lines/0/ean',
              detail: 'order.lines[0].ean cannot be sent together with sku; send one of them',
            },
            { pointer: '/order/lines/1/sku', detail: 'order.lines[1].sku is required when ean is not sent' },
            { pointer: '/order/lines/2/quantity', detail: 'order.lines[2].quantity must not be less than 1' },
          ],
        );
      });

      it('refuses a body without customer, without lines, or with fields of the wrong type', async () => {
        await expectRefused(shop.channels.b2b, { lines: [] }, [
          { pointer: '/order/customer_id', detail: 'order.customer_id is required when customer_number is not sent' },
          { pointer: '/order/lines', detail: 'order.lines must contain at least one line' },
        ]);
        await expectRefused(
          shop.channels.b2b,
          {
            customer_id: 'one',
            customer_number: 'C-B2B',
            shipping_cost: 1.234,
            currency: 'eur',
            lines: [{ sku: 'TEE-S', quantity: 1 }],
          },
          [
            { pointer: '/order/customer_id', detail: 'order.customer_id must be an integer number' },
            {
              pointer: '/order/customer_number',
              detail: 'order.customer_number cannot be sent together with customer_id; send one of them',
            },
            {
              pointer: '/order/currency',
              detail: 'order.currency must be a 3-letter ISO 4217 code in capitals, such as EUR',
            },
            { pointer: '/order/shipping_cost', detail: 'order.shipping_cost must be a number with at most 2 decimals' },
          ],
        );
        const missing = await request(t.server)
          .post(`/v10/order-channels/${shop.channels.b2b}/orders`)
          .set(shop.brand.headers)
          .send({});
        expect(missing.status).toBe(422);
        expect(missing.body.errors).toEqual([
          expect.objectContaining({ source: { pointer: '/order' }, detail: 'order is required' }),
        ]);
      });
    });

    it('answers 404 for an unknown channel and for a channel of another brand', async () => {
      const order = { customer_number: 'C-B2B', lines: [{ sku: 'TEE-S', quantity: 1 }] };
      const unknown = await postOrder(t, shop.brand, 'no-such-channel', order);
      expect(unknown.status).toBe(404);
      expect(unknown.body.errors[0]).toMatchObject({
        code: 'not_found',
        detail: 'order channel no-such-channel was not found',
      });
      const other = await seedOrderingBrand(t);
      expect((await postOrder(t, other.brand, shop.channels.b2b, order)).status).toBe(404);
      expect((await listOrders(t, other.brand)).total).toBe(0);
      expect((await listOrders(t, shop.brand)).total).toBe(0);
    });

    it('needs orders:write to create an order', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['orders:read', 'catalog:read'] });
      const response = await postOrder(t, reader, shop.channels.b2b, {
        customer_number: 'C-B2B',
        lines: [{ sku: 'TEE-S', quantity: 1 }],
      });
      expect(response.status).toBe(403);
      expect(response.body.errors[0].meta.missing_scopes).toEqual(['orders:write']);
    });

    it('sells exactly the stock when 50 orders race for 10 pieces', async () => {
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          postOrder(t, shop.brand, shop.channels.b2b, {
            customer_number: 'C-B2B',
            reference: `race-${i}`,
            lines: [{ sku: 'TEE-S', quantity: 1 }],
          }),
        ),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(10);
      expect(statuses.filter((s) => s === 422)).toHaveLength(40);
      for (const refused of responses.filter((r) => r.status === 422)) {
        expect(refused.body.errors).toEqual([
          expect.objectContaining({
            source: { pointer: '/order/lines/0/quantity' },
            detail: 'order.lines[0].quantity SKU TEE-S is short: 1 ordered, 0 available',
          }),
        ]);
      }
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 0 });
      const listed = await listOrders(t, shop.brand, 'limit=100');
      expect(listed.total).toBe(10);
      expect(new Set(listed.orders.map((o) => o['order_number'])).size).toBe(10);
    }, 60_000);
  });
}
