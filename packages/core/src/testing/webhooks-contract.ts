import { Brand } from '../identity/identity.entities';
import { runList } from '../listing/run-list';
import { FixedClock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { UnitOfWork } from '../shared/unit-of-work.ports';
import { createWebhookEndpoint } from '../webhooks/create-webhook-endpoint';
import { deleteWebhookEndpoint } from '../webhooks/delete-webhook-endpoint';
import { getWebhookEndpoint } from '../webhooks/get-webhook-endpoint';
import { rotateWebhookSecret } from '../webhooks/rotate-webhook-secret';
import { updateWebhookEndpoint } from '../webhooks/update-webhook-endpoint';
import { webhookEndpointListDefinition } from '../webhooks/webhook.list-definitions';
import { SLOW } from './contract-support';
import { FakeSecretHasher } from './fake-secret-hasher';
import { ContractStorage } from './repository-contract';

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
    let storage: ContractStorage | undefined;
    const uow = (): UnitOfWork => {
      if (!storage) throw new Error('storage is not open');
      return storage.uow;
    };
    const clock = new FixedClock(T0);
    const hasher = new FakeSecretHasher();
    const deps = () => ({ uow: uow(), clock, hasher });

    beforeAll(async () => {
      storage = await open();
    }, SLOW);

    afterAll(async () => {
      await storage?.close();
    }, SLOW);

    async function aBrand(label = 'Webhooks brand'): Promise<Brand> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('brands');
        const brand: Brand = { id: id!, name: `${label} ${id}`, currency: 'EUR', createdAt: T0, updatedAt: T0 };
        await tx.brands.insert(brand);
        return brand;
      });
    }

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
  });
}
