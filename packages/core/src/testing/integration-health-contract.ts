import { listEvents } from '../events/list-events';
import { recordEvents } from '../events/record-events';
import { AccountingEntry } from '../finance/finance.entities';
import { RequestLogEntry } from '../identity/identity.entities';
import { Order } from '../orders/order.entities';
import { FixedClock } from '../shared/clock.ports';
import { createWebhookEndpoint } from '../webhooks/create-webhook-endpoint';
import { DeliveryStatus, WebhookDelivery } from '../webhooks/webhook.entities';
import { contractBuilders } from './contract-builders';
import { ContractStorage, useContractStorage } from './contract-support';
import { FakeSecretHasher } from './fake-secret-hasher';

const T0 = '2026-09-01T08:30:00.000Z';
const SINCE = '2026-08-31T09:00:00.000Z';
const MINUTE_MS = 60_000;

/** The instant `minutes` before T0. */
const ago = (minutes: number): string => new Date(Date.parse(T0) - minutes * MINUTE_MS).toISOString();

const byKey = <T>(rows: T[]): T[] => [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

/**
 * The contract of the integration health page's reads (`IntegrationHealthRepository`) on every
 * storage adapter: the request log counted by app, hour and status class and timed by route from
 * an instant on (that instant included), the systems that mark each document type and what each
 * has not marked (counted up to a limit, the oldest by id), and webhook deliveries counted by
 * endpoint and status and the oldest pending one. Another brand's rows never count.
 *
 * @example
 * describeIntegrationHealthContract('in-memory integration health', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeIntegrationHealthContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const clock = new FixedClock(T0);
    const hasher = new FakeSecretHasher();
    const { aBrand, aUser, anApp, aToken } = contractBuilders(uow, { at: T0, brandLabel: 'Health brand' });

    /** A brand with a user and two apps, each with a token. */
    async function aTenant() {
      const brand = await aBrand();
      const user = await aUser(brand.id);
      const erp = await anApp(brand.id);
      const shop = await anApp(brand.id);
      return { brand, user, erp, shop, erpToken: await aToken(user, erp), shopToken: await aToken(user, shop) };
    }

    it('counts the requests since an instant by app, hour and status class, and times them by route', async () => {
      const tenant = await aTenant();
      const other = await aTenant();
      const request = (
        who: { brandId: number; userId: number; appId: number; id: number },
        createdAt: string,
        status: number,
        route: string | null,
        durationMs: number,
      ): RequestLogEntry => ({
        brandId: who.brandId,
        userId: who.userId,
        appId: who.appId,
        tokenId: who.id,
        method: 'GET',
        path: route === null ? '/v10/orders/7' : route.replace(':id', '7'),
        route,
        status,
        durationMs,
        requestId: `req-${createdAt}-${status}`,
        traceId: null,
        createdAt,
      });
      const { erpToken: erp, shopToken: shop } = tenant;
      await uow().run((tx) =>
        tx.requestLogs.append([
          request(erp, ago(5), 200, '/v10/orders', 12),
          request(erp, ago(6), 201, '/v10/orders', 30),
          request(erp, ago(7), 404, '/v10/orders/:id', 3),
          request(erp, ago(95), 500, '/v10/orders/:id', 250),
          request(erp, SINCE, 200, null, 40),
          // Just before the period: not counted.
          request(erp, new Date(Date.parse(SINCE) - 1).toISOString(), 500, '/v10/orders', 9_999),
          request(shop, ago(1), 429, '/v10/products', 1),
          request(other.erpToken, ago(1), 500, '/v10/orders', 5_000),
        ]),
      );

      const counts = await uow().read((r) => r.integrationHealth.requestCounts(tenant.brand.id, SINCE));
      expect(byKey(counts)).toEqual(
        byKey([
          { appId: tenant.erp.id, hour: '2026-09-01T08', statusClass: 2, requests: 2 },
          { appId: tenant.erp.id, hour: '2026-09-01T08', statusClass: 4, requests: 1 },
          { appId: tenant.erp.id, hour: '2026-09-01T06', statusClass: 5, requests: 1 },
          { appId: tenant.erp.id, hour: '2026-08-31T09', statusClass: 2, requests: 1 },
          { appId: tenant.shop.id, hour: '2026-09-01T08', statusClass: 4, requests: 1 },
        ]),
      );

      const timings = await uow().read((r) => r.integrationHealth.routeTimings(tenant.brand.id, SINCE));
      expect(byKey(timings)).toEqual(
        byKey([
          {
            appId: tenant.erp.id,
            method: 'GET',
            route: '/v10/orders',
            requests: 2,
            maxDurationMs: 30,
            totalDurationMs: 42,
          },
          {
            appId: tenant.erp.id,
            method: 'GET',
            route: '/v10/orders/:id',
            requests: 2,
            maxDurationMs: 250,
            totalDurationMs: 253,
          },
          { appId: tenant.erp.id, method: 'GET', route: null, requests: 1, maxDurationMs: 40, totalDurationMs: 40 },
          {
            appId: tenant.shop.id,
            method: 'GET',
            route: '/v10/products',
            requests: 1,
            maxDurationMs: 1,
            totalDurationMs: 1,
          },
        ]),
      );
      expect(await uow().read((r) => r.integrationHealth.requestCounts(tenant.brand.id, T0))).toEqual([]);
    });

    async function anEntry(brandId: number, createdAt: string): Promise<AccountingEntry> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('accounting_entries');
        const entry: AccountingEntry = {
          id: id!,
          brandId,
          entryNumber: await tx.documentNumbers.next(brandId, 'accounting_entry'),
          documentType: 'invoice',
          documentId: 1,
          date: createdAt.slice(0, 10),
          currency: 'EUR',
          lines: [
            { account: 'accounts_receivable', debit: 100, credit: 0 },
            { account: 'revenue', debit: 0, credit: 100 },
          ],
          createdAt,
          updatedAt: createdAt,
        };
        await tx.accountingEntries.insert(entry);
        return entry;
      });
    }

    const mark = (brandId: number, documentType: 'accounting_entry' | 'order', documentId: number, systemId: string) =>
      uow().run((tx) =>
        tx.exportMarks.mark([{ brandId, documentType, documentId, systemId, exportedAt: T0, note: null }]),
      );

    it('finds every system marking each document type, and what each has not marked yet, oldest first', async () => {
      const brand = await aBrand();
      const other = await aBrand('Other');
      const [first, second, third] = [
        await anEntry(brand.id, ago(300)),
        await anEntry(brand.id, ago(200)),
        await anEntry(brand.id, ago(100)),
      ];
      const theirs = await anEntry(other.id, ago(400));
      await mark(brand.id, 'accounting_entry', first.id, 'ERP');
      await mark(brand.id, 'accounting_entry', first.id, 'DATEV');
      await mark(brand.id, 'accounting_entry', second.id, 'DATEV');
      // Marking again changes nothing of the pairs.
      await mark(brand.id, 'accounting_entry', second.id, 'DATEV');
      await mark(brand.id, 'order', 999_999, 'ERP');
      await mark(other.id, 'accounting_entry', theirs.id, 'THEIRS');

      const pairs = await uow().read((r) => r.integrationHealth.exportingSystems(brand.id));
      expect(byKey(pairs)).toEqual(
        byKey([
          { documentType: 'accounting_entry', systemId: 'DATEV' },
          { documentType: 'accounting_entry', systemId: 'ERP' },
          { documentType: 'order', systemId: 'ERP' },
        ]),
      );

      const backlog = (systemId: string, limit = 100, statuses: readonly string[] | null = null) =>
        uow().read((r) =>
          r.integrationHealth.exportBacklog(brand.id, { documentType: 'accounting_entry', statuses }, systemId, limit),
        );
      expect(await backlog('ERP')).toEqual({ notExported: 2, oldestCreatedAt: second.createdAt });
      expect(await backlog('DATEV')).toEqual({ notExported: 1, oldestCreatedAt: third.createdAt });
      expect(await backlog('ERP', 1)).toEqual({ notExported: 1, oldestCreatedAt: second.createdAt });
      // A system that never marked anything has everything before it.
      expect(await backlog('NEW')).toEqual({ notExported: 3, oldestCreatedAt: first.createdAt });
      // Orders of the scope's statuses: the brand has none.
      expect(
        await uow().read((r) =>
          r.integrationHealth.exportBacklog(brand.id, { documentType: 'order', statuses: ['approved'] }, 'ERP', 100),
        ),
      ).toEqual({ notExported: 0, oldestCreatedAt: null });
    });

    it('counts the deliveries since an instant by endpoint and status, and finds each endpoint’s oldest pending one', async () => {
      const brand = await aBrand();
      const other = await aBrand('Other');
      // Events for the deliveries to carry, committed before any endpoint exists (so they queue none).
      const anEvent = async (brandId: number): Promise<number> => {
        await uow().run((tx) =>
          recordEvents(tx, brandId, T0, [
            {
              type: 'order.created',
              object: { id: 1, brandId, status: 'draft' } as unknown as Order,
              timeline: { note: null, userId: null },
            },
          ]),
        );
        const newest = await listEvents(
          { uow: uow() },
          { brandId, query: { sort: [{ key: 'id', direction: 'DESC' }], limit: '1' } },
        );
        return newest.page.items[0]!.id;
      };
      const eventOf = new Map([
        [brand.id, await anEvent(brand.id)],
        [other.id, await anEvent(other.id)],
      ]);
      const endpoint = async (brandId: number) =>
        (
          await createWebhookEndpoint(
            { uow: uow(), clock, hasher },
            { brandId, url: 'https://erp.example.com/hooks', events: ['*'] },
          )
        ).endpoint;
      const [busy, quiet, theirs] = [await endpoint(brand.id), await endpoint(brand.id), await endpoint(other.id)];
      const deliveries: [number, number, DeliveryStatus, string][] = [
        [brand.id, busy.id, 'succeeded', ago(10)],
        [brand.id, busy.id, 'succeeded', ago(20)],
        [brand.id, busy.id, 'failed', ago(30)],
        [brand.id, busy.id, 'pending', ago(40)],
        [brand.id, busy.id, 'pending', ago(3_000)],
        [brand.id, busy.id, 'failed', ago(3_000)],
        [brand.id, quiet.id, 'succeeded', SINCE],
        [other.id, theirs.id, 'pending', ago(5_000)],
      ];
      await uow().run(async (tx) => {
        const ids = await tx.ids.next('webhook_deliveries', deliveries.length);
        await tx.webhookDeliveries.insert(
          deliveries.map(
            ([brandId, endpointId, status, createdAt], i): WebhookDelivery => ({
              id: ids[i]!,
              brandId,
              endpointId,
              eventId: eventOf.get(brandId)!,
              eventType: 'order.created',
              status,
              attempts: status === 'pending' ? 0 : 1,
              lastStatusCode: null,
              lastError: null,
              nextAttemptAt: status === 'pending' ? createdAt : null,
              createdAt,
              updatedAt: createdAt,
            }),
          ),
        );
      });

      const counts = await uow().read((r) => r.integrationHealth.deliveryCounts(brand.id, SINCE));
      expect(byKey(counts)).toEqual(
        byKey([
          { endpointId: busy.id, status: 'succeeded', deliveries: 2 },
          { endpointId: busy.id, status: 'failed', deliveries: 1 },
          { endpointId: busy.id, status: 'pending', deliveries: 1 },
          { endpointId: quiet.id, status: 'succeeded', deliveries: 1 },
        ]),
      );
      expect(await uow().read((r) => r.integrationHealth.pendingDeliveries(brand.id))).toEqual([
        { endpointId: busy.id, pending: 2, oldestCreatedAt: ago(3_000) },
      ]);
    });
  });
}
