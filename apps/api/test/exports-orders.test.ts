import request from 'supertest';
import { getOrder } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { createIntegrator } from './support/integrator';
import {
  OrderingBrand,
  approveOrder,
  changeSettings,
  getOk,
  placeOrder,
  seedOrderingBrand,
  stockOf,
} from './support/orders';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
interface Page {
  orders: Body[];
  has_more: boolean;
  next_cursor: string | null;
  total?: number;
}
const MINUTE = 60_000;
const filter = (key: string, value: string, operator = 'eq') =>
  `filter_groups[0][filters][0][key]=${key}&filter_groups[0][filters][0][operator]=${operator}&filter_groups[0][filters][0][value]=${encodeURIComponent(value)}`;

for (const dialect of testDialects()) {
  describe(`order export and mark-as-exported [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
    });

    const get = (path: string) => request(t.server).get(path).set(shop.brand.headers);
    const mark = (orders: Body[]) =>
      request(t.server).post('/v10/orders/mark-as-exported').set(shop.brand.headers).send({ orders });
    const exported = async (query: string) =>
      (await getOk(t, shop.brand, `/v10/orders/export?${query}`)) as unknown as Page;
    const ids = (page: Page) => page.orders.map((o) => o['id']);
    const draftOrder = (lines: { sku: string; quantity: number }[] = [{ sku: 'TEE-S', quantity: 1 }]) =>
      placeOrder(t, shop.brand, shop.channels.b2b, { customer_number: 'C-B2B', lines });
    const approvedOrder = async (lines?: { sku: string; quantity: number }[]) =>
      approveOrder(t, shop.brand, (await draftOrder(lines))['id'] as number);
    const orderById = async (id: unknown) =>
      (await getOk(t, shop.brand, `/v10/orders/${id}`))['order'] as Body & { timeline: Body[]; lines: Body[] };

    it('exports approved orders until the system marks them; other systems still see them, and not_exported_since re-exports them', async () => {
      const first = await approvedOrder();
      const second = await approvedOrder([{ sku: 'CAP-ONE', quantity: 1 }]);
      await draftOrder();

      const before = await exported('system_id=erp');
      expect(before).toEqual({
        orders: [
          expect.objectContaining({ id: first['id'], status: 'approved', exports: [] }),
          expect.objectContaining({ id: second['id'] }),
        ],
        has_more: false,
        next_cursor: null,
      });
      // Lines only when included.
      expect(before.orders[0]).not.toHaveProperty('lines');

      t.clock.advance(MINUTE);
      const beforeMark = t.clock.now();
      t.clock.advance(MINUTE);
      const markedAt = t.clock.now();
      const response = await mark([
        { order_id: first['id'], system_id: 'erp', note: 'imported as SO-1', regulate_inventory: false },
      ]);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        orders: [
          expect.objectContaining({
            id: first['id'],
            status: 'approved',
            exports: [{ system_id: 'erp', exported_at: markedAt, note: 'imported as SO-1' }],
          }),
        ],
      });

      expect(ids(await exported('system_id=erp'))).toEqual([second['id']]);
      expect(ids(await exported('system_id=wms'))).toEqual([first['id'], second['id']]);
      expect(ids(await exported(`system_id=erp&not_exported_since=${encodeURIComponent(beforeMark)}`))).toEqual([
        first['id'],
        second['id'],
      ]);
      expect(ids(await exported(`system_id=erp&not_exported_since=${encodeURIComponent(markedAt)}`))).toEqual([
        second['id'],
      ]);

      // The mark shows on the order and in its timeline.
      const after = await orderById(first['id']);
      expect(after['exports']).toEqual([{ system_id: 'erp', exported_at: markedAt, note: 'imported as SO-1' }]);
      expect(after.timeline).toContainEqual({
        kind: 'exported',
        note: 'imported as SO-1',
        system_id: 'erp',
        user_id: shop.brand.userId,
        created_at: markedAt,
      });
      const core = await getOrder(
        { uow: t.storage.uow },
        { brandId: shop.brand.brandId, orderId: first['id'] as number },
      );
      expect(core.timeline.filter((e) => e.kind === 'exported')).toHaveLength(1);
    });

    it('adds drafts, cancelled and archived orders only on their flags', async () => {
      const approved = await approvedOrder();
      const draft = await draftOrder();
      const cancelled = await approvedOrder();
      expect(
        (await request(t.server).post(`/v10/orders/${cancelled['id']}/cancel`).set(shop.brand.headers)).status,
      ).toBe(200);
      const archived = await approvedOrder();
      expect((await mark([{ order_id: archived['id'], system_id: 'erp', regulate_inventory: true }])).status).toBe(200);

      expect(ids(await exported('system_id=wms'))).toEqual([approved['id']]);
      expect(ids(await exported('system_id=wms&include_not_approved=1'))).toEqual([approved['id'], draft['id']]);
      expect(ids(await exported('system_id=wms&include_cancelled=1'))).toEqual([approved['id'], cancelled['id']]);
      expect(ids(await exported('system_id=wms&include_archived=1'))).toEqual([approved['id'], archived['id']]);
      expect(
        ids(await exported('system_id=wms&include_not_approved=1&include_cancelled=1&include_archived=1')),
      ).toEqual([approved['id'], draft['id'], cancelled['id'], archived['id']]);
      expect(
        ids(await exported('system_id=wms&include_not_approved=0&include_cancelled=0&include_archived=0')),
      ).toEqual([approved['id']]);
    });

    it('shows lines with includes[]=lines, filters on created_at and updated_at, and walks every page by next_cursor', async () => {
      const orders: Body[] = [];
      for (let i = 0; i < 5; i += 1) {
        orders.push(await approvedOrder([{ sku: 'TEE-M', quantity: 1 }]));
        t.clock.advance(MINUTE);
      }
      const withLines = await exported('system_id=erp&includes[]=lines&limit=1');
      expect(withLines.orders[0]!['lines']).toEqual([
        expect.objectContaining({ sku: 'TEE-M', quantity: 1, shipped_quantity: 1 }),
      ]);

      const createdFrom = await exported(
        `system_id=erp&${filter('created_at', orders[3]!['created_at'] as string, 'gte')}`,
      );
      expect(ids(createdFrom)).toEqual([orders[3]!['id'], orders[4]!['id']]);
      const cancelFrom = t.clock.now();
      expect(
        (await request(t.server).post(`/v10/orders/${orders[1]!['id']}/cancel`).set(shop.brand.headers)).status,
      ).toBe(200);
      expect(
        ids(await exported(`system_id=erp&include_cancelled=1&${filter('updated_at', cancelFrom, 'gte')}`)),
      ).toEqual([orders[1]!['id']]);

      const walked: unknown[] = [];
      let page = await exported('system_id=erp&include_cancelled=1&limit=2');
      expect(page).not.toHaveProperty('total');
      walked.push(...ids(page));
      while (page.has_more) {
        page = await exported(
          `system_id=erp&include_cancelled=1&limit=2&cursor=${encodeURIComponent(page.next_cursor!)}`,
        );
        walked.push(...ids(page));
      }
      expect(walked).toEqual(orders.map((o) => o['id']));

      // Sorted by updated_at, newest first: the cancelled order leads.
      const byUpdate = await exported(
        'system_id=erp&include_cancelled=1&sort[0][key]=updated_at&sort[0][direction]=DESC&limit=2',
      );
      expect(ids(byUpdate)[0]).toBe(orders[1]!['id']);
      // A cursor of the plain order list does not walk the export.
      const listCursor = (await getOk(t, shop.brand, '/v10/orders?limit=1'))['next_cursor'] as string;
      const foreignCursor = await get(`/v10/orders/export?system_id=erp&cursor=${encodeURIComponent(listCursor)}`);
      expect(foreignCursor.status).toBe(422);
    });

    it('regulates inventory with regulate_inventory true: In stock 10 / Available 9 become 9 / 9 and the order is archived', async () => {
      const order = await approvedOrder([{ sku: 'TEE-S', quantity: 1 }]);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 9 });
      t.clock.advance(MINUTE);
      const response = await mark([
        { order_id: order['id'], system_id: 'erp', note: 'invoiced in ERP', regulate_inventory: true },
      ]);
      expect(response.status).toBe(200);
      expect(response.body.orders[0]).toMatchObject({
        id: order['id'],
        status: 'archived',
        archived_at: t.clock.now(),
      });
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 9, available: 9 });
      const after = await orderById(order['id']);
      expect(after).toMatchObject({ status: 'archived' });
      expect(after.lines).toEqual([
        expect.objectContaining({ sku: 'TEE-S', reserved_quantity: 0, regulated_quantity: 1 }),
      ]);
      expect(after.timeline.map((e) => e['kind'])).toEqual(
        expect.arrayContaining(['regulated', 'archived', 'exported']),
      );
      // Archived orders leave the default export of every system.
      expect(ids(await exported('system_id=wms'))).toEqual([]);

      // Marking again (another system, regulate true) never regulates twice.
      expect((await mark([{ order_id: order['id'], system_id: 'wms', regulate_inventory: true }])).status).toBe(200);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 9, available: 9 });
    });

    it('leaves order and inventory alone with regulate_inventory false', async () => {
      const order = await approvedOrder([{ sku: 'TEE-S', quantity: 1 }]);
      const response = await mark([{ order_id: order['id'], system_id: 'erp', regulate_inventory: false }]);
      expect(response.status).toBe(200);
      expect(response.body.orders[0]).toMatchObject({ status: 'approved', archived_at: null });
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 9 });
      expect((await orderById(order['id']))['status']).toBe('approved');
    });

    it('refuses regulate_inventory true on a draft order and when the brand invoices in the service, marking nothing', async () => {
      const draft = await draftOrder();
      const onDraft = await mark([{ order_id: draft['id'], system_id: 'erp', regulate_inventory: true }]);
      expect(onDraft.status).toBe(422);
      expect(onDraft.body.errors[0].source).toEqual({ pointer: '/orders/0/regulate_inventory' });

      await changeSettings(t, shop.brand, { invoicing: 'in_service' });
      const approved = await approvedOrder();
      const inService = await mark([{ order_id: approved['id'], system_id: 'erp', regulate_inventory: true }]);
      expect(inService.status).toBe(422);
      expect(inService.body.errors[0]).toMatchObject({
        source: { pointer: '/orders/0/regulate_inventory' },
        detail: expect.stringContaining('must be false'),
      });
      expect(ids(await exported('system_id=erp&include_not_approved=1'))).toEqual([draft['id'], approved['id']]);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 8 });
    });

    it('refuses an unknown or foreign order in a mark, naming its item, and marks nothing of that call', async () => {
      const mine = await approvedOrder();
      const other = await seedOrderingBrand(t);
      const theirs = await placeOrder(t, other.brand, other.channels.b2b, {
        customer_number: 'C-B2B',
        lines: [{ sku: 'TEE-S', quantity: 1 }],
      });
      await approveOrder(t, other.brand, theirs['id'] as number);

      for (const id of [theirs['id'], 999999]) {
        const response = await mark([
          { order_id: mine['id'], system_id: 'erp', regulate_inventory: true },
          { order_id: id, system_id: 'erp', regulate_inventory: false },
        ]);
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          expect.objectContaining({ code: 'validation_failed', source: { pointer: '/orders/1/order_id' } }),
        ]);
      }
      expect(ids(await exported('system_id=erp'))).toEqual([mine['id']]);
      expect((await orderById(mine['id']))['status']).toBe('approved');
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 9 });
      expect((await getOk(t, other.brand, '/v10/orders/export?system_id=erp'))['orders']).toEqual([
        expect.objectContaining({ id: theirs['id'], exports: [] }),
      ]);
    });

    it('refuses more than 10 orders, an empty list and items without system_id or regulate_inventory', async () => {
      const order = await approvedOrder();
      const eleven = Array.from({ length: 11 }, () => ({
        order_id: order['id'],
        system_id: 'erp',
        regulate_inventory: false,
      }));
      const tooMany = await mark(eleven);
      expect(tooMany.status).toBe(422);
      expect(tooMany.body.errors).toEqual([
        expect.objectContaining({ source: { pointer: '/orders' }, detail: 'orders must contain at most 10 documents' }),
      ]);
      const empty = await mark([]);
      expect(empty.status).toBe(422);
      expect(empty.body.errors[0].source).toEqual({ pointer: '/orders' });
      const incomplete = await mark([
        { order_id: order['id'] },
        { order_id: order['id'], system_id: '', regulate_inventory: 'yes' },
      ]);
      expect(incomplete.status).toBe(422);
      expect(incomplete.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
        '/orders/0/regulate_inventory',
        '/orders/0/system_id',
        '/orders/1/regulate_inventory',
        '/orders/1/system_id',
      ]);
      const notAList = await request(t.server)
        .post('/v10/orders/mark-as-exported')
        .set(shop.brand.headers)
        .send({ orders: { order_id: order['id'] } });
      expect(notAList.status).toBe(422);
      expect(ids(await exported('system_id=erp'))).toEqual([order['id']]);
    });

    it('marks twice harmlessly: one mark per system, with the latest time and note', async () => {
      const order = await approvedOrder();
      expect(
        (await mark([{ order_id: order['id'], system_id: 'erp', note: 'first', regulate_inventory: false }])).status,
      ).toBe(200);
      t.clock.advance(MINUTE);
      const again = await mark([
        { order_id: order['id'], system_id: 'erp', note: 'second', regulate_inventory: false },
      ]);
      expect(again.status).toBe(200);
      expect(again.body.orders).toEqual([
        expect.objectContaining({ exports: [{ system_id: 'erp', exported_at: t.clock.now(), note: 'second' }] }),
      ]);
      expect(ids(await exported('system_id=erp'))).toEqual([]);
      expect(
        (await orderById(order['id'])).timeline.filter((e) => e['kind'] === 'exported').map((e) => e['note']),
      ).toEqual(['first', 'second']);
    });

    it('refuses an export without system_id, with a flag other than 0 or 1, or with a page number', async () => {
      const missing = await get('/v10/orders/export');
      expect(missing.status).toBe(422);
      expect(missing.body.errors).toEqual([
        expect.objectContaining({
          source: { parameter: 'system_id' },
          detail: 'system_id is required: name the system that exports',
        }),
      ]);
      for (const [flag, value] of [
        ['include_not_approved', 'true'],
        ['include_cancelled', '2'],
        ['include_archived', ''],
      ] as const) {
        const response = await get(`/v10/orders/export?system_id=erp&${flag}=${value}`);
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          expect.objectContaining({ source: { parameter: flag }, detail: `${flag} must be 0 or 1` }),
        ]);
      }
      const both = await get('/v10/orders/export?include_cancelled=yes');
      expect(both.body.errors.map((e: { source: { parameter: string } }) => e.source.parameter).sort()).toEqual([
        'include_cancelled',
        'system_id',
      ]);
      expect((await get('/v10/orders/export?system_id=erp&page=0')).status).toBe(422);
      expect((await get('/v10/orders/export?system_id=erp&not_exported_since=2026-02-30T00:00:00Z')).status).toBe(422);
    });

    it('needs orders:read to export and orders:write to mark', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['orders:read'] });
      expect((await request(t.server).get('/v10/orders/export?system_id=erp').set(reader.headers)).status).toBe(200);
      const refused = await request(t.server)
        .post('/v10/orders/mark-as-exported')
        .set(reader.headers)
        .send({ orders: [] });
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].meta).toEqual({ missing_scopes: ['orders:write'] });
      const fulfilment = await createIntegrator(t.storage, t.clock, { scopes: ['fulfilment:read'] });
      expect((await request(t.server).get('/v10/orders/export?system_id=erp').set(fulfilment.headers)).status).toBe(
        403,
      );
    });
  });
}
