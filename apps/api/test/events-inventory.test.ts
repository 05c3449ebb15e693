import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { approveOrder, getOk, placeOrder, postOrder, seedOrderingBrand, OrderingBrand } from './support/orders';
import { seedProductionBrand } from './support/production';
import { aDeliveredOrder } from './support/returns';
import { legacyClient, legacyProduct, legacyVariant } from './legacy/legacy-support';
import { announcingInventory } from './support/inventory-events';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
const MINUTE = 60_000;

for (const dialect of testDialects()) {
  describe(`inventory.changed events [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
    });

    const post = (path: string, body: Body) => request(t.server).post(path).set(shop.brand.headers).send(body);
    /** The brand's inventory.changed events, oldest first, as the feed shows them. */
    const inventoryEvents = async (): Promise<Body[]> => {
      const body = await getOk(
        t,
        shop.brand,
        '/v10/events?limit=100&filter_groups[0][filters][0][key]=type&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=inventory.changed',
      );
      return body['events'] as Body[];
    };
    /** The events written after the `seen` ones (the feed is oldest first). */
    const newEvents = async (seen: Body[]): Promise<Body[]> => (await inventoryEvents()).slice(seen.length);
    /** The row of `GET /v10/inventory-available` of a SKU at the brand's default location, as it is now. */
    const rowOf = async (sku: string): Promise<Body> => {
      const rows = (await getOk(t, shop.brand, '/v10/inventory-available?limit=100'))['inventory'] as Body[];
      const found = rows.filter((row) => row['sku'] === sku);
      expect(found).toHaveLength(1);
      return found[0]!;
    };
    /** The events announcing these rows, in this order, at the clock's instant. */
    const announcing = (rows: Body[]) => announcingInventory(t.clock, rows);

    it('announces each balance an order placed over HTTP reserves, as GET /v10/inventory-available shows it right after', async () => {
      t.clock.advance(MINUTE);
      const placed = await placeOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-B2B',
        lines: [
          { sku: 'TEE-M', quantity: 2 },
          { sku: 'CAP-ONE', quantity: 1 },
          { sku: 'TEE-M', quantity: 1 },
        ],
      });
      const [teeM, cap] = [await rowOf('TEE-M'), await rowOf('CAP-ONE')];

      const events = await inventoryEvents();
      expect(events).toEqual(announcing([teeM, cap]));
      expect(events[0]!['created_at']).toBe(placed['created_at']);
      expect([teeM, cap].map((row) => [row['sku'], row['in_stock'], row['available']])).toEqual([
        ['TEE-M', 10, 7],
        ['CAP-ONE', 5, 4],
      ]);
      // Written with the order, just before its order.created.
      const all = (await getOk(t, shop.brand, '/v10/events?limit=100'))['events'] as Body[];
      expect(
        all.map((e) => e['type']).filter((type) => type === 'inventory.changed' || type === 'order.created'),
      ).toEqual(['inventory.changed', 'inventory.changed', 'order.created']);
    });

    it('announces nothing for a refused order', async () => {
      const short = await postOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-B2B',
        lines: [
          { sku: 'TEE-S', quantity: 1 },
          { sku: 'TEE-M', quantity: 11 },
        ],
      });
      const unknownCustomer = await postOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-NONE',
        lines: [{ sku: 'TEE-S', quantity: 1 }],
      });

      expect([short.status, unknownCustomer.status]).toEqual([422, 422]);
      expect(await inventoryEvents()).toEqual([]);
      expect(await rowOf('TEE-S')).toMatchObject({ in_stock: 10, available: 10 });
    });

    it('announces the balances a cancellation releases, and nothing for a refused cancellation', async () => {
      const placed = await placeOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-B2B',
        lines: [
          { sku: 'TEE-S', quantity: 2 },
          { sku: 'TEE-M', quantity: 1 },
        ],
      });
      const seen = await inventoryEvents();
      t.clock.advance(MINUTE);

      expect((await post(`/v10/orders/${placed['id']}/cancel`, {})).status).toBe(200);
      const [teeS, teeM] = [await rowOf('TEE-S'), await rowOf('TEE-M')];
      const again = await post(`/v10/orders/${placed['id']}/cancel`, {});

      expect(again.status).toBe(422);
      expect(await newEvents(seen)).toEqual(announcing([teeS, teeM]));
      expect([teeS, teeM].map((row) => [row['in_stock'], row['available']])).toEqual([
        [10, 10],
        [10, 10],
      ]);
    });

    it('announces each balance once when mark-as-exported regulates several orders, and nothing for a refused call', async () => {
      const orders: Body[] = [];
      for (const lines of [
        [{ sku: 'TEE-M', quantity: 2 }],
        [
          { sku: 'TEE-M', quantity: 3 },
          { sku: 'TEE-S', quantity: 1 },
        ],
      ]) {
        const placed = await placeOrder(t, shop.brand, shop.channels.b2b, { customer_number: 'C-B2B', lines });
        orders.push(await approveOrder(t, shop.brand, placed['id'] as number, { create_shipment: false }));
      }
      const draft = await placeOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-B2B',
        lines: [{ sku: 'TEE-S', quantity: 1 }],
      });
      const seen = await inventoryEvents();
      t.clock.advance(MINUTE);
      const mark = (ids: unknown[]) =>
        post('/v10/orders/mark-as-exported', {
          orders: ids.map((id) => ({ order_id: id, system_id: 'erp', regulate_inventory: true })),
        });

      expect((await mark([orders[0]!['id'], draft['id']])).status).toBe(422);
      expect(await newEvents(seen)).toEqual([]);
      expect((await mark(orders.map((o) => o['id']))).status).toBe(200);
      const [teeM, teeS] = [await rowOf('TEE-M'), await rowOf('TEE-S')];

      expect(await newEvents(seen)).toEqual(announcing([teeM, teeS]));
      // Reserved pieces leave In stock; Available stays where the orders put it.
      expect([teeM, teeS].map((row) => [row['in_stock'], row['available']])).toEqual([
        [5, 5],
        [9, 8],
      ]);
    });

    it('announces the balances a product sync moves, and nothing for a sync that moves none or is refused', async () => {
      const sync = (variants: Body[]) => post('/products/sync', { products: [{ item_number: 'TEE', variants }] });
      t.clock.advance(MINUTE);

      const moved = await sync([
        { sku: 'TEE-S', inventory: [{ quantity: 4 }] },
        { sku: 'TEE-M', inventory: [{ quantity: 10 }] },
      ]);
      expect(moved.status).toBe(200);
      const teeS = await rowOf('TEE-S');
      expect(teeS).toMatchObject({ in_stock: 4, available: 4 });
      const seen = await inventoryEvents();
      expect(seen).toEqual(announcing([teeS]));

      t.clock.advance(MINUTE);
      const unchanged = await sync([{ sku: 'TEE-S', inventory: [{ adjustment: 2 }, { adjustment: -2 }] }]);
      const refused = await sync([{ sku: 'TEE-S', inventory: [{ adjustment: -5 }] }]);
      expect([unchanged.status, refused.status]).toEqual([200, 422]);
      expect(await newEvents(seen)).toEqual([]);
      // The changes that add up to nothing are in the ledger (the row's updated_at moves), but neither In stock nor Available did.
      expect(await rowOf('TEE-S')).toMatchObject({ in_stock: 4, available: 4 });
    });

    it('announces the balances a warehouse production receipt fills, and nothing for a refused receipt', async () => {
      const p = await seedProductionBrand(t);
      shop = p;
      const order = await p.openOrder();
      const note = await p.announce(order['id']);
      t.clock.advance(MINUTE);
      const receive = (lines: Body[]) =>
        p.post('/3pl/production/receive', {
          production_order_delivery_note: {
            production_order_delivery_note_number: note['production_order_delivery_note_number'],
            lines,
          },
        });

      expect((await receive([{ sku: 'NOPE', received_quantity: 1 }])).status).toBe(422);
      expect(await inventoryEvents()).toEqual([]);
      expect(
        (
          await receive([
            { sku: 'CAP-ONE', received_quantity: 4 },
            { sku: 'TEE-S', received_quantity: 12 },
          ])
        ).status,
      ).toBe(200);

      // In the order of the note's lines.
      const [teeS, cap] = [await rowOf('TEE-S'), await rowOf('CAP-ONE')];
      expect(await inventoryEvents()).toEqual(announcing([teeS, cap]));
      expect([teeS, cap].map((row) => row['in_stock'])).toEqual([22, 9]);
    });

    it('announces the balance a warehouse return receipt restocks, and nothing for a refused receipt', async () => {
      const { order } = await aDeliveredOrder(t, shop);
      const created = await post('/v10/returns', {
        order_number: order.order_number,
        lines: [{ sku: 'TEE-S', quantity: 2, claim_type: 'return' }],
      });
      expect(created.status).toBe(201);
      expect((await post(`/v10/returns/${created.body.return.id}/approve`, {})).status).toBe(200);
      const seen = await inventoryEvents();
      t.clock.advance(MINUTE);
      const receive = (pieces: number) =>
        post('/3pl/returns/receive', {
          return: { rma: created.body.return.rma, lines: [{ sku: 'TEE-S', received_quantity: pieces }] },
        });

      expect((await receive(3)).status).toBe(422);
      expect(await newEvents(seen)).toEqual([]);
      expect((await receive(2)).status).toBe(200);

      const teeS = await rowOf('TEE-S');
      expect(await newEvents(seen)).toEqual(announcing([teeS]));
      expect(teeS).toMatchObject({ in_stock: 12 });
    });

    it('announces the stock a product created through the older interface sets, and nothing for a refused one', async () => {
      const api = legacyClient(t.app, shop.brand);
      t.clock.advance(MINUTE);

      const refused = await api.post('/api/products', {
        product: legacyProduct('JKT', [legacyVariant('JKT-M', undefined, { inventory: { stock: { quantity: -1 } } })]),
      });
      expect(refused.status).toBe(422);
      expect(await inventoryEvents()).toEqual([]);
      const created = await api.post('/api/products', {
        product: legacyProduct('JKT', [legacyVariant('JKT-M', undefined, { inventory: { stock: { quantity: 12 } } })]),
      });
      expect(created.status).toBe(201);

      const row = await rowOf('JKT-M');
      expect(row).toMatchObject({ in_stock: 12, available: 12 });
      expect(await inventoryEvents()).toEqual(announcing([row]));
    });
  });
}
