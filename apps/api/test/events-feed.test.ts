import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { createIntegrator } from './support/integrator';
import { approveOrder, getOk, placeOrder, postOrder, seedOrderingBrand } from './support/orders';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;

/** A feed query of these types only: stock moves (inventory.changed) and the seeding (customer.created) are announced beside orders. */
const typeIn = (types: string[]): string =>
  [
    'filter_groups[0][filters][0][key]=type',
    'filter_groups[0][filters][0][operator]=in',
    ...types.map((type, i) => `filter_groups[0][filters][0][value][${i}]=${type}`),
  ].join('&');
const ORDER_EVENTS = typeIn(['order.created', 'order.approved', 'order.cancelled']);

for (const dialect of testDialects()) {
  describe(`the events feed [${dialect}]`, () => {
    const t = useTestApp(dialect);

    const events = async (who: { headers: Record<string, string> }, query = '') =>
      request(t.server)
        .get(`/v10/events${query ? `?${query}` : ''}`)
        .set(who.headers);

    it('announces a placed order as GET shows it with its lines, and its approval with the order as approval left it', async () => {
      const shop = await seedOrderingBrand(t);
      const placed = await placeOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-B2B',
        lines: [{ sku: 'TEE-M', quantity: 2 }],
      });
      t.clock.advance(60_000);
      await approveOrder(t, shop.brand, placed['id'] as number, { create_shipment: false });
      const shown = (await getOk(t, shop.brand, `/v10/orders/${placed['id']}`))['order'] as Body;

      const feed = await events(shop.brand, ORDER_EVENTS);
      expect(feed.status).toBe(200);
      expect(feed.body).toEqual({
        events: [
          {
            id: expect.stringMatching(/^evt_\d+$/),
            type: 'order.created',
            created_at: placed['created_at'],
            data: { object: { ...placed, timeline: undefined, exports: [] } },
          },
          {
            id: expect.stringMatching(/^evt_\d+$/),
            type: 'order.approved',
            created_at: t.clock.now(),
            data: { object: { ...shown, timeline: undefined, exports: [] } },
          },
        ],
        has_more: false,
        next_cursor: null,
        total: 2,
      });
      const [created] = feed.body.events as Body[];
      const one = await request(t.server).get(`/v10/events/${created!['id']}`).set(shop.brand.headers);
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ event: created });
    });

    it('announces nothing for a refused order', async () => {
      const shop = await seedOrderingBrand(t);
      const refused = await postOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-B2B',
        lines: [{ sku: 'TEE-M', quantity: 1000 }],
      });
      expect(refused.status).toBe(422);
      const feed = await events(shop.brand, typeIn(['order.created', 'inventory.changed']));
      expect(feed.body).toEqual({ events: [], has_more: false, next_cursor: null, total: 0 });
    });

    it('filters by type and created_at, pages by cursor, and reads newest first when sorted by id descending', async () => {
      const shop = await seedOrderingBrand(t);
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) {
        ids.push(
          (
            await placeOrder(t, shop.brand, shop.channels.b2b, {
              customer_number: 'C-B2B',
              lines: [{ sku: 'TEE-S', quantity: 1 }],
            })
          )['id'] as number,
        );
        t.clock.advance(60_000);
      }
      const cancelled = await request(t.server).post(`/v10/orders/${ids[1]}/cancel`).set(shop.brand.headers).send({});
      expect(cancelled.status).toBe(200);

      const byType = await events(
        shop.brand,
        'filter_groups[0][filters][0][key]=type&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=order.cancelled',
      );
      expect((byType.body.events as Body[]).map((e) => [e['type'], (e['data'] as Body)['object']])).toEqual([
        ['order.cancelled', expect.objectContaining({ id: ids[1], status: 'cancelled' })],
      ]);

      const first = await events(shop.brand, `${ORDER_EVENTS}&limit=2`);
      expect(first.body.has_more).toBe(true);
      const rest = await events(
        shop.brand,
        `${ORDER_EVENTS}&limit=2&cursor=${encodeURIComponent(first.body.next_cursor as string)}`,
      );
      const walked = [...(first.body.events as Body[]), ...(rest.body.events as Body[])];
      expect(walked.map((e) => e['type'])).toEqual([
        'order.created',
        'order.created',
        'order.created',
        'order.cancelled',
      ]);
      expect(rest.body.has_more).toBe(false);

      const newest = await events(shop.brand, `${ORDER_EVENTS}&sort[0][key]=id&sort[0][direction]=DESC&limit=1`);
      expect((newest.body.events as Body[])[0]!['type']).toBe('order.cancelled');

      const since = await events(
        shop.brand,
        `${ORDER_EVENTS}&filter_groups[1][filters][0][key]=created_at&filter_groups[1][filters][0][operator]=gte&filter_groups[1][filters][0][value]=${encodeURIComponent(t.clock.now())}`,
      );
      expect((since.body.events as Body[]).map((e) => e['type'])).toEqual(['order.cancelled']);
    });

    it('resumes after the event named by starting_after as the feed shows it (evt_…) or by its number, and refuses anything else naming the field', async () => {
      const shop = await seedOrderingBrand(t);
      for (let i = 0; i < 3; i++)
        await placeOrder(t, shop.brand, shop.channels.b2b, {
          customer_number: 'C-B2B',
          lines: [{ sku: 'TEE-S', quantity: 1 }],
        });
      const all = (await events(shop.brand, `${ORDER_EVENTS}&limit=100`)).body.events as Body[];
      expect(all).toHaveLength(3);
      const [first, second, third] = all.map((e) => e['id'] as string);

      const resumed = await events(shop.brand, `${ORDER_EVENTS}&starting_after=${first}`);
      expect(resumed.status).toBe(200);
      expect((resumed.body.events as Body[]).map((e) => e['id'])).toEqual([second, third]);
      expect(resumed.body.has_more).toBe(false);
      const byNumber = await events(shop.brand, `${ORDER_EVENTS}&starting_after=${second!.slice('evt_'.length)}`);
      expect((byNumber.body.events as Body[]).map((e) => e['id'])).toEqual([third]);
      // After the newest: nothing yet, and the same question later finds what came since.
      expect((await events(shop.brand, `${ORDER_EVENTS}&starting_after=${third}`)).body.events).toEqual([]);

      for (const bad of ['evt_', 'evt_x1', 'ord_12', 'evt_-1x', 'evt_1234567890123456']) {
        const refused = await events(shop.brand, `starting_after=${bad}`);
        expect([bad, refused.status]).toEqual([bad, 422]);
        expect(refused.body.errors[0]).toMatchObject({
          code: 'invalid_list_query',
          source: { parameter: 'starting_after' },
        });
        expect(refused.body.errors[0].detail).toContain('evt_');
      }
    });

    it("never shows another brand's events: its ids answer 404 like missing ones, as do ids that are not event ids", async () => {
      const shop = await seedOrderingBrand(t);
      await placeOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-B2B',
        lines: [{ sku: 'TEE-S', quantity: 1 }],
      });
      const [theirs] = (await events(shop.brand)).body.events as Body[];
      const neighbour = await createIntegrator(t.storage, t.clock);

      expect((await events(neighbour)).body.events).toEqual([]);
      for (const id of [theirs!['id'], 'evt_999999999', '12', 'evt_', 'evt_1x']) {
        const response = await request(t.server)
          .get(`/v10/events/${id as string}`)
          .set(neighbour.headers);
        expect(response.status).toBe(404);
        expect(response.body.errors[0].code).toBe('not_found');
      }
    });

    it('needs webhooks:read, and refuses an unknown filter key with a 422 naming it', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['orders:read'] });
      const refused = await events(reader);
      expect(refused.status).toBe(403);
      const shop = await seedOrderingBrand(t);
      const unknown = await events(
        shop.brand,
        'filter_groups[0][filters][0][key]=status&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=x',
      );
      expect(unknown.status).toBe(422);
      expect(JSON.stringify(unknown.body.errors)).toContain('status');
    });
  });
}
