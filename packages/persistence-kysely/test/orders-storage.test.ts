import {
  Customer,
  DecodedCursor,
  ExportScope,
  isDomainError,
  ListQuery,
  Order,
  OrderChannel,
  orderExportListDefinition,
  orderListDefinition,
  RawListQuery,
  runList,
  Shipment,
  shipmentListDefinition,
  sortSignature,
  UnitOfWork,
  Variant,
} from '@brand/core';
import { CompiledQuery, LogEvent } from 'kysely';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectKysely, openStorage, parseDatabaseUrl, Storage } from '../src';
import { inspectionUrl, openTestStorage, testDialects } from '../src/testing';
import { catalogBuilders, draftProducts, T0 } from './catalog-fixtures';

const SLOW = 30_000;

// What the shared orders contract cannot see: statements spent per save and per list page,
// the foreign keys and dependents registry that keep ordered variants and customers, and the
// plan of the export query.
for (const dialect of testDialects()) {
  describe(`Kysely orders storage [${dialect}]`, () => {
    let storage: (Storage & { url: string }) | undefined;
    let statements: string[] = [];
    let counting = false;
    const uow = (): UnitOfWork => storage!.uow;
    const { aBrand } = catalogBuilders(uow);

    beforeAll(async () => {
      storage = await openTestStorage(dialect, {
        log: (event: LogEvent) => {
          if (counting && event.level === 'query') statements.push(event.query.sql);
        },
      });
    }, SLOW);

    afterAll(async () => {
      await storage?.close();
    }, SLOW);

    async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
      statements = [];
      counting = true;
      try {
        await work();
      } finally {
        counting = false;
      }
      return statements;
    }

    /** A brand with a customer, a channel and one product of two variants. */
    async function aWorld() {
      const brand = await aBrand();
      return uow().run(async (tx) => {
        const [customerId, channelId] = [
          (await tx.ids.next('customers'))[0]!,
          (await tx.ids.next('order_channels'))[0]!,
        ];
        const customer: Customer = {
          id: customerId,
          brandId: brand.id,
          customerNumber: `C-${customerId}`,
          name: 'Buyer',
          currency: 'EUR',
          discountBasisPoints: 0,
          active: true,
          customerGroupId: null,
          paymentTermsId: null,
          email: null,
          telephone: null,
          vatNumber: null,
          eoriNumber: null,
          addresses: [],
          createdAt: T0,
          updatedAt: T0,
        };
        await tx.customers.save(customer);
        const channel: OrderChannel = {
          id: channelId,
          brandId: brand.id,
          publicId: `pub-${channelId}-${brand.id}`,
          name: 'Shop',
          orderType: 'b2b',
          autoApprove: false,
          dropId: null,
          createdAt: T0,
          updatedAt: T0,
        };
        await tx.orderChannels.insert(channel);
        const [product] = await draftProducts(tx, brand.id, 1, 2);
        await tx.products.saveAll(brand.id, [product!]);
        return { brand, customer, channel, product: product!, variants: product!.variants.map((r) => r.variant) };
      });
    }

    type World = Awaited<ReturnType<typeof aWorld>>;

    async function anOrder(
      world: World,
      variants: Variant[] = world.variants,
      fields: Partial<Order> = {},
    ): Promise<Order> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('orders');
        const lineIds = await tx.ids.next('order_lines', variants.length);
        const order: Order = {
          id: id!,
          brandId: world.brand.id,
          orderNumber: await tx.documentNumbers.next(world.brand.id, 'order'),
          status: 'approved',
          orderType: 'b2b',
          orderChannelId: world.channel.id,
          customerId: world.customer.id,
          customerNumber: world.customer.customerNumber,
          dropId: null,
          currency: 'EUR',
          vatRateBasisPoints: 2500,
          pricesIncludeVat: false,
          email: null,
          telephone: null,
          reference: null,
          notes: null,
          invoiceAddress: null,
          deliveryAddress: null,
          shippingCode: null,
          shippingCost: null,
          responsiblePerson: null,
          orderMeta: {},
          netTotal: 0,
          vatTotal: 0,
          total: 0,
          approvedAt: null,
          cancelledAt: null,
          archivedAt: null,
          createdByUserId: null,
          createdAt: T0,
          updatedAt: T0,
          ...fields,
          lines: variants.map((v, i) => ({
            id: lineIds[i]!,
            orderId: id!,
            variantId: v.id,
            productId: v.productId,
            sku: v.sku,
            ean: v.ean,
            itemNumber: 'P',
            productName: 'Shirt',
            attributes: v.attributes,
            countryOfOrigin: null,
            composition: null,
            hsTariffCode: null,
            tracksInventory: true,
            quantity: 2,
            unitPrice: 1000,
            discountBasisPoints: 0,
            totalPrice: 2000,
            reservations: [],
            shippedQuantity: 0,
            deliveredQuantity: 0,
            invoicedQuantity: 0,
            regulatedQuantity: 0,
          })),
        };
        await tx.orders.save(order);
        return order;
      });
    }

    async function aShipment(order: Order): Promise<Shipment> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('shipments');
        const lineIds = await tx.ids.next('shipment_lines', order.lines.length);
        const shipment: Shipment = {
          id: id!,
          brandId: order.brandId,
          shipmentNumber: await tx.documentNumbers.next(order.brandId, 'shipment'),
          orderId: order.id,
          orderNumber: order.orderNumber,
          customerId: order.customerId,
          status: 'open',
          shippingCost: null,
          carrier: null,
          colli: [],
          deliveredAt: null,
          cancelledAt: null,
          createdAt: T0,
          updatedAt: T0,
          lines: order.lines.map((l, i) => ({
            id: lineIds[i]!,
            shipmentId: id!,
            orderLineId: l.id,
            variantId: l.variantId,
            sku: l.sku,
            ean: l.ean,
            quantity: l.quantity,
            deliveredQuantity: 0,
          })),
        };
        await tx.shipments.save(shipment);
        return shipment;
      });
    }

    describe('kept total', () => {
      /** The list's total as kept, and as counted (a filter every order passes makes the list count). */
      async function totals(brandId: number): Promise<{ kept: number | null; counted: number | null }> {
        const list = (raw: RawListQuery) =>
          uow().read((r) =>
            runList(orderListDefinition, { brandId, query: raw }, (q: ListQuery) => r.orders.list(brandId, q)),
          );
        const everyOrder = { filter_groups: [{ filters: [{ key: 'id', operator: 'gt', value: 0 }] }] };
        return { kept: (await list({})).page.total, counted: (await list(everyOrder)).page.total };
      }

      it("reads the unfiltered total from the brand's counter, and counts a filtered one", async () => {
        const world = await aWorld();
        await anOrder(world);
        const list = (raw: RawListQuery) =>
          uow().read((r) =>
            runList(orderListDefinition, { brandId: world.brand.id, query: raw }, (q: ListQuery) =>
              r.orders.list(world.brand.id, q),
            ),
          );
        const [unfiltered] = await statementsOf(() => list({}));
        expect(unfiltered).toMatch(/row_counts/);
        expect(unfiltered).not.toMatch(/count\(\*\)/);
        const [filtered] = await statementsOf(() =>
          list({ filter_groups: [{ filters: [{ key: 'status', operator: 'eq', value: 'approved' }] }] }),
        );
        expect(filtered).toMatch(/count\(\*\)/);
      });

      it('pages a filtered list alike by cursor and by page number, in either order, with and without a bounded range (its ids first on Postgres)', async () => {
        const world = await aWorld();
        const brandId = world.brand.id;
        const orders: Order[] = [];
        // updated_at falls as the ids rise, so the two sorts walk the orders in opposite directions.
        for (let i = 0; i < 9; i++)
          orders.push(
            await anOrder(world, world.variants, {
              status: i % 3 === 2 ? 'cancelled' : 'approved',
              updatedAt: `2026-05-0${9 - i}T00:00:00.000Z`,
            }),
          );
        const status = { filters: [{ key: 'status', operator: 'eq', value: 'approved' }] };
        const [from, to] = ['2026-05-02T00:00:00.000Z', '2026-05-07T00:00:00.000Z'];
        const inRange = (o: Order) => o.updatedAt >= from && o.updatedAt <= to;
        // A status alone, and with a bounded range in either spelling (read whole, then sorted, on Postgres).
        for (const [filter_groups, matches] of [
          [[status], orders.filter((o) => o.status === 'approved')],
          [
            [status, { filters: [{ key: 'updated_at', operator: 'bt', value: [from, to] }] }],
            orders.filter((o) => o.status === 'approved' && inRange(o)),
          ],
          [
            [
              status,
              {
                filters: [
                  { key: 'updated_at', operator: 'gte', value: from },
                  { key: 'updated_at', operator: 'lte', value: to },
                ],
              },
            ],
            orders.filter((o) => o.status === 'approved' && inRange(o)),
          ],
        ] as const) {
          const approved = matches.map((o) => o.id);
          const list = (query: RawListQuery, cursor?: DecodedCursor) =>
            uow().read((r) =>
              runList(orderListDefinition, { brandId, query, ...(cursor ? { cursor } : {}) }, (q: ListQuery) =>
                r.orders.list(brandId, q),
              ),
            );
          for (const [sort, expected] of [
            [[{ key: 'id', direction: 'ASC' }], approved],
            [[{ key: 'updated_at', direction: 'DESC' }], approved],
            [[{ key: 'id', direction: 'DESC' }], [...approved].reverse()],
            [[{ key: 'updated_at', direction: 'ASC' }], [...approved].reverse()],
          ] as const) {
            const walked: number[] = [];
            let cursor: DecodedCursor | undefined;
            for (let turn = 0; turn < 10; turn++) {
              const { page, query } = await list(
                { filter_groups, sort, limit: '2', ...(cursor ? { cursor: 'signed' } : {}) },
                cursor,
              );
              walked.push(...page.items.map((o) => o.id));
              if (!page.next) break;
              cursor = {
                resource: orderListDefinition.resource,
                sort: sortSignature(query.sort),
                values: page.next.values,
              };
            }
            expect(walked).toEqual(expected);
            const byNumber = [0, 1, 2].map((n) => list({ filter_groups, sort, limit: '2', page: String(n) }));
            const pages = await Promise.all(byNumber);
            expect(pages.flatMap(({ page }) => page.items.map((o) => o.id))).toEqual(expected);
            expect(pages[0]!.page.total).toBe(approved.length);
          }
        }
      });

      it('counts each order once: on its creation, not on its changes, not when its transaction rolls back', async () => {
        const world = await aWorld();
        const other = await aWorld();
        const orders = [await anOrder(world), await anOrder(world), await anOrder(world)];
        await anOrder(other);
        expect(await totals(world.brand.id)).toEqual({ kept: 3, counted: 3 });

        for (const status of ['cancelled', 'archived'] as const)
          await uow().run((tx) => tx.orders.save({ ...orders[0]!, status }));
        await expect(
          uow().run(async (tx) => {
            const [id] = await tx.ids.next('orders');
            const orderNumber = await tx.documentNumbers.next(world.brand.id, 'order');
            await tx.orders.save({ ...orders[1]!, id: id!, orderNumber, lines: [] });
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        expect(await totals(world.brand.id)).toEqual({ kept: 3, counted: 3 });
        expect(await totals(other.brand.id)).toEqual({ kept: 1, counted: 1 });
      });

      it('keeps the total exact under parallel creations and changes (side by side on Postgres)', async () => {
        const world = await aWorld();
        const first = await anOrder(world);
        await Promise.all([
          ...Array.from({ length: 12 }, () => anOrder(world)),
          ...(['cancelled', 'archived', 'approved'] as const).map((status) =>
            uow().run((tx) => tx.orders.save({ ...first, status })),
          ),
        ]);
        expect(await totals(world.brand.id)).toEqual({ kept: 13, counted: 13 });
      });
    });

    describe('statements', () => {
      it('saves a changed order with its lines in two statements (three on SQLite)', async () => {
        const world = await aWorld();
        const order = await anOrder(world);
        const changed = {
          ...order,
          status: 'archived' as const,
          lines: order.lines.map((l) => ({ ...l, regulatedQuantity: 2 })),
        };
        const sql = await statementsOf(() => uow().run((tx) => tx.orders.save(changed)));
        // The kept count of orders moves only on an insert: Postgres's upsert tells which it did,
        // SQLite tries the insert alone first and then upserts.
        const statements = dialect === 'sqlite' ? 3 : 2;
        expect(sql.filter((s) => /^insert/i.test(s))).toHaveLength(statements);
        // Transaction bookkeeping aside: BEGIN/COMMIT, and on Postgres the brand set for row-level security.
        expect(
          sql.filter((s) => !/^(begin|commit|rollback|savepoint|release|set local brand\.id)/i.test(s)),
        ).toHaveLength(statements);
        expect(sql.some((s) => s.includes('row_counts'))).toBe(false);
      });

      it('reads the lines of a whole list page in one statement (and none when not included)', async () => {
        const world = await aWorld();
        for (let i = 0; i < 3; i++) await aShipment(await anOrder(world));
        const brandId = world.brand.id;
        const list = (raw: RawListQuery) =>
          uow().read((r) =>
            runList(orderListDefinition, { brandId, query: raw }, (q: ListQuery) => r.orders.list(brandId, q)),
          );
        const withLines = await statementsOf(() => list({ includes: ['lines'] }));
        expect(withLines.filter((s) => s.includes('order_lines'))).toHaveLength(1);
        const without = await statementsOf(() => list({}));
        expect(without.filter((s) => s.includes('order_lines'))).toHaveLength(0);
        const shipments = await statementsOf(() =>
          uow().read((r) =>
            runList(shipmentListDefinition, { brandId, query: {} }, (q: ListQuery) => r.shipments.list(brandId, q)),
          ),
        );
        expect(shipments.filter((s) => s.includes('shipment_lines'))).toHaveLength(1);
      });
    });

    describe('what refers to customers and variants', () => {
      it('an ordered variant and its product cannot be deleted, and name orders and shipments as dependents', async () => {
        const world = await aWorld();
        const [ordered, free] = world.variants;
        const order = await anOrder(world, [ordered!]);
        await aShipment(order);

        expect(await uow().read((r) => r.products.dependentsOfVariant(world.brand.id, ordered!.id))).toEqual([
          'orders',
          'shipments',
        ]);
        expect(await uow().read((r) => r.products.dependentsOfVariant(world.brand.id, free!.id))).toEqual([]);
        expect(
          await uow().read((r) => r.products.dependentsOfProduct(world.brand.id, world.product.product.id)),
        ).toEqual(['orders', 'shipments']);
        const refusal = await uow()
          .run((tx) => tx.products.deleteVariant(world.brand.id, ordered!.id))
          .catch((e: unknown) => e);
        expect(isDomainError(refusal) && refusal.code).toBe('has_dependents');
        const productRefusal = await uow()
          .run((tx) => tx.products.deleteProduct(world.brand.id, world.product.product.id))
          .catch((e: unknown) => e);
        expect(isDomainError(productRefusal) && productRefusal.code).toBe('has_dependents');
        // The variant nobody ordered still goes.
        await uow().run((tx) => tx.products.deleteVariant(world.brand.id, free!.id));
        expect(
          await uow().read((r) => r.products.findVariantsByIds(world.brand.id, [ordered!.id, free!.id])),
        ).toHaveLength(1);
      });

      it('a customer with orders cannot be deleted and names its orders as dependents', async () => {
        const world = await aWorld();
        expect(await uow().read((r) => r.customers.dependentsOf(world.brand.id, world.customer.id))).toEqual([]);
        await anOrder(world);
        expect(await uow().read((r) => r.customers.dependentsOf(world.brand.id, world.customer.id))).toEqual([
          'orders',
        ]);
        const refusal = await uow()
          .run((tx) => tx.customers.delete(world.brand.id, world.customer.id))
          .catch((e: unknown) => e);
        expect(isDomainError(refusal) && refusal.code).toBe('has_dependents');
      });
    });
  });
}

// SQLite plans without statistics (production never runs ANALYZE), so the plan of the export
// query is fixed by the schema: check it keeps to the indexes a deep keyset page needs.
if (testDialects().includes('sqlite')) {
  describe('Kysely orders export plan [sqlite]', () => {
    it('walks (brand_id, status, id) from the cursor and probes the document_exports key with all four columns', async () => {
      const file = join(tmpdir(), `orders-plan-${process.pid}-${Date.now()}.sqlite`);
      const captured: { sql: string; parameters: readonly unknown[] }[] = [];
      const storage = await openStorage(file, {
        log: (e: LogEvent) => {
          if (e.level === 'query') captured.push({ sql: e.query.sql, parameters: e.query.parameters });
        },
      });
      const raw = connectKysely(parseDatabaseUrl(file));
      try {
        await storage.migrate();
        const brandId = 1;
        const scope: ExportScope = {
          systemId: 'erp',
          notExportedSince: '2100-01-01T00:00:00.000Z',
          statuses: ['approved'],
        };
        const cursor = { resource: orderExportListDefinition.resource, sort: 'id:ASC', values: [500] };
        captured.length = 0;
        await storage.uow.read((r) =>
          runList(orderExportListDefinition, { brandId, query: { cursor: 'signed' }, cursor }, (q: ListQuery) =>
            r.orders.listForExport(brandId, q, scope),
          ),
        );
        const page = captured.find((c) => c.sql.includes('document_exports'))!;
        const plan = await raw.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${page.sql}`, [...page.parameters]),
        );
        const details = plan.rows.map((r) => r.detail);
        expect(details).toContainEqual(
          expect.stringMatching(/SEARCH orders USING INDEX orders_status_idx \(brand_id=\? AND status=\? AND id>\?\)/),
        );
        expect(details).toContainEqual(
          expect.stringMatching(
            /SEARCH e USING INDEX .* \(brand_id=\? AND document_type=\? AND document_id=\? AND system_id=\?\)/,
          ),
        );
        expect(details.join('\n')).not.toMatch(/TEMP B-TREE|SCAN orders/);
      } finally {
        await raw.destroy();
        await storage.close();
        for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
      }
    });
  });
}

// On Postgres the NOT EXISTS must stay a per-row probe (a subplan) whatever the statistics say;
// as an anti join a freshly loaded table was planned as a rescan of every mark per order.
if (testDialects().includes('postgres')) {
  describe('Kysely orders export plan [postgres]', () => {
    it(
      'keeps the export scope a correlated subplan, never an anti join',
      async () => {
        const captured: { sql: string; parameters: readonly unknown[] }[] = [];
        const storage = await openTestStorage('postgres', {
          log: (e: LogEvent) => {
            if (e.level === 'query') captured.push({ sql: e.query.sql, parameters: e.query.parameters });
          },
        });
        const raw = connectKysely(parseDatabaseUrl(inspectionUrl(storage.url)));
        try {
          const brandId = 1;
          const scope: ExportScope = {
            systemId: 'erp',
            notExportedSince: '2100-01-01T00:00:00.000Z',
            statuses: ['approved'],
          };
          captured.length = 0;
          await storage.uow.read((r) =>
            runList(orderExportListDefinition, { brandId, query: {} }, (q: ListQuery) =>
              r.orders.listForExport(brandId, q, scope),
            ),
          );
          const page = captured.find((c) => c.sql.includes('document_exports'))!;
          const plan = await raw.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`explain (costs off) ${page.sql}`, [...page.parameters]),
          );
          const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
          expect(text).toMatch(/SubPlan/);
          expect(text).not.toMatch(/Anti Join/);
        } finally {
          await raw.destroy();
          await storage.close();
        }
      },
      SLOW,
    );
  });
}
