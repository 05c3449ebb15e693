import { pruneEvents } from '../events/prune-events';
import { listEvents } from '../events/list-events';
import { recordEvents } from '../events/record-events';
import { Order } from '../orders/order.entities';
import { runList } from '../listing/run-list';
import { FixedClock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { createWebhookEndpoint } from '../webhooks/create-webhook-endpoint';
import { deliverDueWebhooks } from '../webhooks/deliver-due-webhooks';
import { listWebhookDeliveries } from '../webhooks/list-webhook-deliveries';
import { releaseWebhookClaims } from '../webhooks/release-webhook-claims';
import { retryWebhookDelivery } from '../webhooks/retry-webhook-delivery';
import { WebhookAttempt, WebhookAttemptOutcome, WebhookSender } from '../webhooks/webhook-sender.ports';
import { deleteWebhookEndpoint } from '../webhooks/delete-webhook-endpoint';
import { getWebhookEndpoint } from '../webhooks/get-webhook-endpoint';
import { rotateWebhookSecret } from '../webhooks/rotate-webhook-secret';
import { updateWebhookEndpoint } from '../webhooks/update-webhook-endpoint';
import { webhookEndpointListDefinition } from '../webhooks/webhook.list-definitions';
import { contractBuilders } from './contract-builders';
import { ContractStorage, useContractStorage } from './contract-support';
import { FakeSecretHasher } from './fake-secret-hasher';

const T0 = '2026-07-01T08:00:00.000Z';

/**
 * The contract of webhook endpoints on every storage adapter, through their use cases: what
 * every adapter promises is that endpoints read back exactly as saved (subscriptions, nulls,
 * both secrets), a save replaces the brand's endpoint and never another brand's, lists filter
 * and count, and another brand's endpoints are never found, changed or deleted.
 *
 * @example
 * describeWebhooksContract('in-memory webhooks', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeWebhooksContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const clock = new FixedClock(T0);
    const hasher = new FakeSecretHasher();
    const deps = () => ({ uow: uow(), clock, hasher });

    const { aBrand } = contractBuilders(uow, { at: T0, brandLabel: 'Webhooks brand' });

    const errorOf = async (outcome: Promise<unknown>): Promise<DomainError> => {
      try {
        await outcome;
      } catch (error) {
        if (error instanceof DomainError) return error;
        throw error;
      }
      throw new Error('expected a DomainError');
    };

    it('creates an endpoint with a whsec_ secret shown once, and reads it back exactly', async () => {
      const brand = await aBrand();
      const { endpoint, secret } = await createWebhookEndpoint(deps(), {
        brandId: brand.id,
        url: ' https://erp.example.com/hooks?source=brand ',
        events: ['order.created', 'order.cancelled', 'order.created'],
        description: '  ERP  ',
      });
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(endpoint).toEqual({
        id: endpoint.id,
        brandId: brand.id,
        url: 'https://erp.example.com/hooks?source=brand',
        events: ['order.created', 'order.cancelled'],
        description: 'ERP',
        enabled: true,
        secret,
        previousSecret: null,
        previousSecretExpiresAt: null,
        failingSince: null,
        createdAt: T0,
        updatedAt: T0,
      });
      expect(await getWebhookEndpoint(deps(), { brandId: brand.id, id: endpoint.id })).toStrictEqual(endpoint);
    });

    it('refuses what is not an http(s) URL or an event type, naming each field, and writes nothing', async () => {
      const brand = await aBrand();
      const refused = await errorOf(
        createWebhookEndpoint(deps(), {
          brandId: brand.id,
          url: 'ftp://files.example.com',
          events: ['order.created', 'order.exploded'],
        }),
      );
      expect(refused.code).toBe('validation_failed');
      expect(refused.violations.map((v) => v.pointer)).toEqual(['/url', '/events/1']);
      for (const [url, events, pointer] of [
        ['https://user:pass@erp.example.com/', ['*'], '/url'],
        ['https://erp.example.com/', [], '/events'],
        ['https://erp.example.com/', ['*', 'order.created'], '/events'],
        [`https://erp.example.com/${'x'.repeat(2048)}`, ['*'], '/url'],
      ] as const) {
        const error = await errorOf(createWebhookEndpoint(deps(), { brandId: brand.id, url, events: [...events] }));
        expect(error.violations.map((v) => v.pointer)).toEqual([pointer]);
      }
      const listed = await uow().read((r) =>
        runList(webhookEndpointListDefinition, { brandId: brand.id, query: {} }, (q) =>
          r.webhookEndpoints.list(brand.id, q),
        ),
      );
      expect(listed.page.items).toEqual([]);
    });

    it('changes only what is sent, keeps the secret, and lists by enabled with the total', async () => {
      const brand = await aBrand();
      const first = (
        await createWebhookEndpoint(deps(), { brandId: brand.id, url: 'https://a.example/', events: ['*'] })
      ).endpoint;
      const second = (
        await createWebhookEndpoint(deps(), {
          brandId: brand.id,
          url: 'https://b.example/',
          events: ['order.created'],
          description: 'B',
        })
      ).endpoint;
      clock.advance(60_000);
      const changed = await updateWebhookEndpoint(deps(), {
        brandId: brand.id,
        id: second.id,
        changes: { enabled: false, description: null },
      });
      expect(changed).toEqual({ ...second, enabled: false, description: null, updatedAt: clock.now() });
      expect(await getWebhookEndpoint(deps(), { brandId: brand.id, id: second.id })).toStrictEqual(changed);

      const enabled = await uow().read((r) =>
        runList(
          webhookEndpointListDefinition,
          {
            brandId: brand.id,
            query: { filter_groups: [{ filters: [{ key: 'enabled', operator: 'eq', value: 'true' }] }] },
          },
          (q) => r.webhookEndpoints.list(brand.id, q),
        ),
      );
      expect(enabled.page.items).toStrictEqual([first]);
      const all = await uow().read((r) =>
        runList(webhookEndpointListDefinition, { brandId: brand.id, query: {} }, (q) =>
          r.webhookEndpoints.list(brand.id, q),
        ),
      );
      expect(all.page.items).toStrictEqual([first, changed]);
      expect(all.page.total).toBe(2);
    });

    it('rotates the secret, keeping the old one for 24 hours, and forgets the older one on a second rotation', async () => {
      const brand = await aBrand();
      const { endpoint, secret: original } = await createWebhookEndpoint(deps(), {
        brandId: brand.id,
        url: 'https://erp.example.com/',
        events: ['*'],
      });
      clock.advance(1000);
      const once = await rotateWebhookSecret(deps(), { brandId: brand.id, id: endpoint.id });
      expect(once.secret).not.toBe(original);
      expect(once.endpoint).toMatchObject({
        secret: once.secret,
        previousSecret: original,
        previousSecretExpiresAt: new Date(Date.parse(clock.now()) + 24 * 3600_000).toISOString(),
      });
      expect(await getWebhookEndpoint(deps(), { brandId: brand.id, id: endpoint.id })).toStrictEqual(once.endpoint);
      const twice = await rotateWebhookSecret(deps(), { brandId: brand.id, id: endpoint.id });
      expect(twice.endpoint.previousSecret).toBe(once.secret);
    });

    it("never finds, changes, rotates or deletes another brand's endpoint, and deletes its own once", async () => {
      const brand = await aBrand();
      const other = await aBrand('Other');
      const { endpoint } = await createWebhookEndpoint(deps(), {
        brandId: brand.id,
        url: 'https://erp.example.com/',
        events: ['*'],
      });
      for (const attempt of [
        getWebhookEndpoint(deps(), { brandId: other.id, id: endpoint.id }),
        updateWebhookEndpoint(deps(), { brandId: other.id, id: endpoint.id, changes: { enabled: false } }),
        rotateWebhookSecret(deps(), { brandId: other.id, id: endpoint.id }),
        deleteWebhookEndpoint(deps(), { brandId: other.id, id: endpoint.id }),
      ])
        expect((await errorOf(attempt)).code).toBe('not_found');
      expect(await getWebhookEndpoint(deps(), { brandId: brand.id, id: endpoint.id })).toStrictEqual(endpoint);

      await deleteWebhookEndpoint(deps(), { brandId: brand.id, id: endpoint.id });
      expect((await errorOf(getWebhookEndpoint(deps(), { brandId: brand.id, id: endpoint.id }))).code).toBe(
        'not_found',
      );
      expect((await errorOf(deleteWebhookEndpoint(deps(), { brandId: brand.id, id: endpoint.id }))).code).toBe(
        'not_found',
      );
    });

    // ---- deliveries ------------------------------------------------------------------------

    /** A sender that answers from a script (the last answer repeats) and remembers every attempt. */
    function scriptedSender(...answers: WebhookAttemptOutcome[]): WebhookSender & { attempts: WebhookAttempt[] } {
      const attempts: WebhookAttempt[] = [];
      return {
        attempts,
        async send(attempt) {
          attempts.push(attempt);
          return answers[Math.min(attempts.length - 1, answers.length - 1)]!;
        },
      };
    }
    const ok: WebhookAttemptOutcome = { delivered: true, statusCode: 204 };
    const broken: WebhookAttemptOutcome = { delivered: false, statusCode: 500, error: 'the receiver answered 500' };
    const SCHEDULE = [0, 1000, 5000];

    const anOrder = (brandId: number, id: number) => ({ id, brandId, status: 'draft' }) as unknown as Order;
    /** Commits one event and answers it as stored (the newest of the brand's feed: ids are drawn at commit). */
    const announce = async (brandId: number, type: 'order.created' | 'order.cancelled', orderId: number) => {
      await uow().run((tx) =>
        recordEvents(tx, brandId, clock.now(), [
          { type, object: anOrder(brandId, orderId), timeline: { note: null, userId: null } },
        ]),
      );
      return (
        await listEvents({ uow: uow() }, { brandId, query: { sort: [{ key: 'id', direction: 'DESC' }], limit: '1' } })
      ).page.items;
    };
    const deliveriesOf = async (brandId: number, endpointId: number) =>
      (await listWebhookDeliveries({ uow: uow() }, { brandId, endpointId, query: { limit: '100' } })).page.items;
    const dispatch = (sender: WebhookSender, owner = 'dispatcher-a', random = 0.5) =>
      deliverDueWebhooks(
        { uow: uow(), clock, sender, retrySchedule: SCHEDULE, random: () => random },
        { owner, leaseMs: 30_000, limit: 50 },
      );
    // Dispatchers claim the due deliveries of every brand: each test deletes its endpoints (and
    // with them their deliveries) afterwards, so no test sees another's.
    let made: { brandId: number; id: number }[] = [];
    const endpointFor = async (brandId: number, events: string[], enabled = true) => {
      const { endpoint } = await createWebhookEndpoint(deps(), {
        brandId,
        url: 'https://erp.example.com/hooks',
        events,
        enabled,
      });
      made.push(endpoint);
      return endpoint;
    };
    afterEach(async () => {
      for (const { brandId, id } of made) await deleteWebhookEndpoint(deps(), { brandId, id });
      made = [];
    });

    it('queues a delivery of each event to every enabled endpoint subscribed to its type, in the same transaction', async () => {
      const brand = await aBrand();
      const other = await aBrand('Other');
      const all = await endpointFor(brand.id, ['*']);
      const created = await endpointFor(brand.id, ['order.created']);
      const disabled = await endpointFor(brand.id, ['*'], false);
      const theirs = await endpointFor(other.id, ['*']);

      const [event] = await announce(brand.id, 'order.cancelled', 1);
      const queued = await deliveriesOf(brand.id, all.id);
      expect(queued).toEqual([
        {
          id: queued[0]?.id,
          brandId: brand.id,
          endpointId: all.id,
          eventId: event!.id,
          eventType: 'order.cancelled',
          status: 'pending',
          attempts: 0,
          lastStatusCode: null,
          lastError: null,
          nextAttemptAt: clock.now(),
          createdAt: clock.now(),
          updatedAt: clock.now(),
        },
      ]);
      for (const endpoint of [created, disabled]) expect(await deliveriesOf(brand.id, endpoint.id)).toEqual([]);
      expect(await deliveriesOf(other.id, theirs.id)).toEqual([]);

      await expect(
        uow().run(async (tx) => {
          await recordEvents(tx, brand.id, clock.now(), [
            { type: 'order.created', object: anOrder(brand.id, 2), timeline: { note: null, userId: null } },
          ]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await deliveriesOf(brand.id, created.id)).toEqual([]);
    });

    it('delivers with the same webhook id on every attempt, retries on the schedule, and fails when it is used up', async () => {
      const brand = await aBrand();
      const endpoint = await endpointFor(brand.id, ['*']);
      const [event] = await announce(brand.id, 'order.created', 1);
      const sender = scriptedSender(broken);

      expect(await dispatch(sender)).toMatchObject({ claimed: 1, retrying: 1 });
      let [delivery] = await deliveriesOf(brand.id, endpoint.id);
      expect(delivery).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastStatusCode: 500,
        lastError: 'the receiver answered 500',
        nextAttemptAt: new Date(Date.parse(clock.now()) + 1000).toISOString(),
      });
      expect((await dispatch(sender)).claimed).toBe(0); // not due yet

      clock.advance(1000);
      await dispatch(sender);
      clock.advance(5000);
      expect(await dispatch(sender)).toMatchObject({ claimed: 1, failed: 1 });
      [delivery] = await deliveriesOf(brand.id, endpoint.id);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 3, nextAttemptAt: null });
      expect(sender.attempts.map((a) => [a.event.id, a.url, a.secrets])).toEqual(
        Array(3).fill([event!.id, endpoint.url, [endpoint.secret]]),
      );

      clock.advance(60_000);
      expect((await dispatch(sender)).claimed).toBe(0);
      const retried = await retryWebhookDelivery(deps(), {
        brandId: brand.id,
        endpointId: endpoint.id,
        deliveryId: delivery!.id,
      });
      expect(retried).toMatchObject({ status: 'pending', nextAttemptAt: clock.now(), attempts: 3 });
      expect(await dispatch(scriptedSender(ok))).toMatchObject({ claimed: 1, succeeded: 1 });
      expect((await deliveriesOf(brand.id, endpoint.id))[0]).toMatchObject({
        status: 'succeeded',
        attempts: 4,
        lastStatusCode: 204,
        lastError: null,
        nextAttemptAt: null,
      });
    });

    it('gives up on 410 Gone and disables the endpoint; signs with both secrets for a day after a rotation', async () => {
      const brand = await aBrand();
      const endpoint = await endpointFor(brand.id, ['*']);
      const rotated = (await rotateWebhookSecret(deps(), { brandId: brand.id, id: endpoint.id })).endpoint;
      await announce(brand.id, 'order.created', 1);
      const gone = scriptedSender({ delivered: false, statusCode: 410, error: 'the receiver answered 410' });

      expect(await dispatch(gone)).toMatchObject({ claimed: 1, failed: 1 });
      expect(gone.attempts[0]!.secrets).toEqual([rotated.secret, endpoint.secret]);
      expect((await deliveriesOf(brand.id, endpoint.id))[0]).toMatchObject({ status: 'failed', lastStatusCode: 410 });
      expect((await getWebhookEndpoint(deps(), { brandId: brand.id, id: endpoint.id })).enabled).toBe(false);

      await announce(brand.id, 'order.created', 2);
      expect(await deliveriesOf(brand.id, endpoint.id)).toHaveLength(1);
    });

    it('disables an endpoint after five days of failures only; a success in between starts the count again', async () => {
      const brand = await aBrand();
      const endpoint = await endpointFor(brand.id, ['*']);
      const state = () => getWebhookEndpoint(deps(), { brandId: brand.id, id: endpoint.id });

      await announce(brand.id, 'order.created', 1);
      const firstFailure = clock.now();
      await dispatch(scriptedSender(broken));
      expect(await state()).toMatchObject({ enabled: true, failingSince: firstFailure });

      clock.advance(3 * 24 * 3600_000);
      await announce(brand.id, 'order.created', 2);
      await dispatch(scriptedSender(ok));
      expect(await state()).toMatchObject({ enabled: true, failingSince: null });

      await announce(brand.id, 'order.created', 3);
      const streak = clock.now();
      await dispatch(scriptedSender(broken));
      clock.advance(5 * 24 * 3600_000 - 1);
      await announce(brand.id, 'order.created', 4);
      await dispatch(scriptedSender(broken));
      expect(await state()).toMatchObject({ enabled: true, failingSince: streak });

      clock.advance(1);
      await announce(brand.id, 'order.created', 5);
      await dispatch(scriptedSender(broken));
      expect(await state()).toMatchObject({ enabled: false, failingSince: streak, updatedAt: clock.now() });
    });

    it('deletes deliveries with their events when the retention prunes them, and no newer ones', async () => {
      const brand = await aBrand();
      const endpoint = await endpointFor(brand.id, ['*']);
      await announce(brand.id, 'order.created', 1);
      clock.advance(31 * 24 * 3600_000);
      await announce(brand.id, 'order.created', 2);
      const [, newer] = await deliveriesOf(brand.id, endpoint.id);

      expect(await pruneEvents({ uow: uow(), clock })).toBeGreaterThanOrEqual(1);
      expect(await deliveriesOf(brand.id, endpoint.id)).toEqual([newer]);
    });

    it('claims no more than the limit with hundreds due, the longest due first, and the next ones on the next pass', async () => {
      const brand = await aBrand();
      await endpointFor(brand.id, ['*']);
      // One transaction of 300 events: a backlog as a busy brand has it (Postgres once rescanned
      // its claim's subquery per row here, and took all 300).
      await uow().run((tx) =>
        recordEvents(
          tx,
          brand.id,
          clock.now(),
          Array.from({ length: 300 }, (_, i) => ({
            type: 'order.created' as const,
            object: anOrder(brand.id, i + 1),
            timeline: { note: null, userId: null },
          })),
        ),
      );
      const now = clock.now();
      const later = new Date(Date.parse(now) + 30_000).toISOString();
      const claim = (owner: string) =>
        uow().run((tx) => tx.webhookDeliveries.claimDue(now, { owner, until: later }, 20));

      const first = await claim('a');
      const second = await claim('b');
      expect(first).toHaveLength(20);
      expect(second).toHaveLength(20);
      const firstIds = first.map((c) => c.id);
      const secondIds = second.map((c) => c.id);
      // Due at one instant, so the longest due first means the lowest ids first.
      expect(Math.max(...firstIds)).toBeLessThan(Math.min(...secondIds));
      // Only those 40 were taken: a claim without a limit finds the other 260.
      const rest = await uow().run((tx) => tx.webhookDeliveries.claimDue(now, { owner: 'c', until: later }, 1000));
      expect(rest).toHaveLength(260);
      expect(new Set([...firstIds, ...secondIds, ...rest.map((c) => c.id)]).size).toBe(300);
    });

    it('lets two dispatchers share the due deliveries without holding one twice; a lapsed or released claim is taken again', async () => {
      const brand = await aBrand();
      const endpoint = await endpointFor(brand.id, ['*']);
      for (let i = 1; i <= 6; i++) await announce(brand.id, 'order.created', i);
      const now = clock.now();
      const later = new Date(Date.parse(now) + 30_000).toISOString();

      const [a, b] = await Promise.all([
        uow().run((tx) => tx.webhookDeliveries.claimDue(now, { owner: 'a', until: later }, 4)),
        uow().run((tx) => tx.webhookDeliveries.claimDue(now, { owner: 'b', until: later }, 4)),
      ]);
      const ids = [...a, ...b].map((c) => c.id);
      expect(new Set(ids).size).toBe(6);
      expect(ids).toHaveLength(6);
      expect(await uow().run((tx) => tx.webhookDeliveries.claimDue(now, { owner: 'c', until: later }, 10))).toEqual([]);

      await releaseWebhookClaims({ uow: uow() }, { owner: 'a' });
      const again = await uow().run((tx) => tx.webhookDeliveries.claimDue(now, { owner: 'c', until: later }, 10));
      expect(again.map((c) => c.id).sort()).toEqual(a.map((c) => c.id).sort());

      const lapsed = new Date(Date.parse(later) + 1).toISOString();
      const afterLapse = await uow().run((tx) =>
        tx.webhookDeliveries.claimDue(lapsed, { owner: 'd', until: lapsed }, 10),
      );
      expect(afterLapse).toHaveLength(6);
      // A dispatcher whose claim was taken over records nothing.
      const [stale] = await deliveriesOf(brand.id, endpoint.id);
      expect(await uow().run((tx) => tx.webhookDeliveries.recordAttempt({ ...stale!, status: 'succeeded' }, 'b'))).toBe(
        false,
      );
      expect((await deliveriesOf(brand.id, endpoint.id))[0]!.status).toBe('pending');
    });
  });
}
