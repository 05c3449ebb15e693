import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { Repositories, UnitOfWork, createApiApp, issueAccessToken } from '@brand/core';
import { Storage } from '@brand/persistence-kysely';
import { testDialects } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { Integrator } from './support/integrator';
import { OrderingBrand, listOrders, seedOrderingBrand, stockOf } from './support/orders';
import { openApiDocumentOf } from '../src/app';
import { buildApp, closeServer, listenOnLoopback, useTestApp } from './support/test-app';

type Body = Record<string, unknown>;

const order = (reference: string, quantity = 1): Body => ({
  order: { customer_number: 'C-B2B', reference, lines: [{ sku: 'TEE-S', quantity }] },
});

/** A storage whose business transactions fail with an unexpected error while `failing` is on (a 500 mid-request). */
function storageFailingOrders(storage: Storage): { storage: Storage; failNext(): void } {
  let failing = false;
  const inner = storage.uow;
  const uow: UnitOfWork<Repositories> = {
    run: (work) =>
      inner.run((tx) =>
        work(
          new Proxy(tx, {
            get(target, key, receiver) {
              if (key === 'orders' && failing) {
                failing = false;
                throw new Error('the disk caught fire');
              }
              return Reflect.get(target, key, receiver) as unknown;
            },
          }),
        ),
      ),
    read: (work) => inner.read(work),
  };
  return { storage: Object.assign(Object.create(storage) as Storage, { uow }), failNext: () => (failing = true) };
}

// DESIGN §12 through the HTTP pipeline: a write retried with its Idempotency-Key runs once and
// replays its stored answer; the key is bound to its request and scoped to brand and app.
for (const dialect of testDialects()) {
  describe(`Idempotency-Key on writes [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;
    let path: string;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
      path = `/v10/order-channels/${shop.channels.b2b}/orders`;
    });

    const post = (who: Integrator, key: string | null, body: Body, to = path) => {
      const call = request(t.server).post(to).set(who.headers);
      return key === null ? call.send(body) : call.set('Idempotency-Key', key).send(body);
    };

    it('runs a keyed order creation once and replays its answer, marked, to a retry', async () => {
      const first = await post(shop.brand, 'order-4711', order('PO-1', 2));
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const again = await post(shop.brand, 'order-4711', order('PO-1', 2));
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      // The same key quoted as a structured-field string, and the body's keys in another order.
      const quoted = await post(shop.brand, '"order-4711"', {
        order: { lines: [{ quantity: 2, sku: 'TEE-S' }], reference: 'PO-1', customer_number: 'C-B2B' },
      });
      expect(quoted.headers['idempotent-replayed']).toBe('true');
      expect(quoted.body).toEqual(first.body);

      const orders = await listOrders(t, shop.brand);
      expect(orders.orders.map((o) => o['id'])).toEqual([(first.body.order as Body)['id']]);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 8 });
    });

    it('refuses the key with another body or path (422) and changes nothing', async () => {
      const first = await post(shop.brand, 'k-1', order('PO-1'));
      expect(first.status).toBe(201);
      for (const [body, to] of [
        [order('PO-1', 3), path],
        [order('PO-1'), `/v10/order-channels/${shop.channels.b2c}/orders`],
      ] as const) {
        const refused = await post(shop.brand, 'k-1', body, to);
        expect(refused.status).toBe(422);
        expect(refused.body.errors).toEqual([expect.objectContaining({ status: 422, code: 'idempotency_key_reused' })]);
      }
      expect((await listOrders(t, shop.brand)).orders).toHaveLength(1);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 9 });
    });

    it('refuses a malformed key with a 400 naming the header, and runs nothing', async () => {
      for (const key of ['', ' ', 'x'.repeat(256), 'naïve', 'two words', '"unterminated']) {
        const refused = await post(shop.brand, key, order(`PO-${key.length}`));
        expect({ key, status: refused.status, errors: refused.body.errors }).toEqual({
          key,
          status: 400,
          errors: [expect.objectContaining({ code: 'invalid_idempotency_key', source: { header: 'Idempotency-Key' } })],
        });
      }
      expect((await post(shop.brand, 'x'.repeat(255), order('PO-255'))).status).toBe(201);
      expect((await listOrders(t, shop.brand)).orders).toHaveLength(1);
    });

    it('keeps keys apart per app and per brand', async () => {
      const deps = { uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher };
      const { app, appKey } = await createApiApp(deps, { brandId: shop.brand.brandId, name: 'Second app' });
      const { accessToken } = await issueAccessToken(deps, { userId: shop.brand.userId, appId: app.id });
      const secondApp = {
        ...shop.brand,
        headers: { Authorization: `Bearer ${accessToken}`, 'X-Service-App-Key': appKey },
      };
      const other = await seedOrderingBrand(t);

      expect((await post(shop.brand, 'shared-key', order('PO-A'))).status).toBe(201);
      const bySecondApp = await post(secondApp, 'shared-key', order('PO-B', 2));
      expect(bySecondApp.status).toBe(201);
      expect(bySecondApp.headers['idempotent-replayed']).toBeUndefined();
      const byOtherBrand = await post(
        other.brand,
        'shared-key',
        order('PO-A'),
        `/v10/order-channels/${other.channels.b2b}/orders`,
      );
      expect(byOtherBrand.status).toBe(201);
      expect(byOtherBrand.headers['idempotent-replayed']).toBeUndefined();

      expect((await listOrders(t, shop.brand)).orders.map((o) => o['reference']).sort()).toEqual(['PO-A', 'PO-B']);
      expect((await listOrders(t, other.brand)).orders.map((o) => o['reference'])).toEqual(['PO-A']);
    });

    it('stores a refusal as the answer (the same 422 is replayed), not a fixed body under the same key', async () => {
      const short = await post(shop.brand, 'too-many', order('PO-1', 11));
      expect(short.status).toBe(422);
      const replayed = await post(shop.brand, 'too-many', order('PO-1', 11));
      expect(replayed.status).toBe(422);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body).toEqual(short.body);
      expect((await post(shop.brand, 'too-many', order('PO-1', 1))).body.errors[0].code).toBe('idempotency_key_reused');
      expect((await listOrders(t, shop.brand)).orders).toHaveLength(0);
    });

    it('gives exactly one order to twenty concurrent identical requests with one key', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(shop.brand, 'burst', order('PO-BURST'))));
      const created = answers.filter((a) => a.status === 201 && a.headers['idempotent-replayed'] === undefined);
      expect(created).toHaveLength(1);
      const orderId = (created[0]!.body.order as Body)['id'];
      for (const answer of answers.filter((a) => a !== created[0])) {
        if (answer.status === 201) {
          expect(answer.headers['idempotent-replayed']).toBe('true');
          expect((answer.body.order as Body)['id']).toBe(orderId);
        } else {
          expect({ status: answer.status, code: answer.body.errors?.[0]?.code }).toEqual({
            status: 409,
            code: 'idempotency_key_in_use',
          });
        }
      }
      expect((await listOrders(t, shop.brand)).orders.map((o) => o['id'])).toEqual([orderId]);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 9 });
    });

    it('does not keep a 5xx: the retry with the same key runs the request', async () => {
      const failing = storageFailingOrders(t.storage);
      const server = await listenOnLoopback(buildApp(failing.storage, t.clock));
      try {
        failing.failNext();
        const failed = await request(server)
          .post(path)
          .set(shop.brand.headers)
          .set('Idempotency-Key', 'retry-me')
          .send(order('PO-5'));
        expect(failed.status).toBe(500);
        expect((await listOrders(t, shop.brand)).orders).toHaveLength(0);
        const retried = await request(server)
          .post(path)
          .set(shop.brand.headers)
          .set('Idempotency-Key', 'retry-me')
          .send(order('PO-5'));
        expect(retried.status).toBe(201);
        expect(retried.headers['idempotent-replayed']).toBeUndefined();
        expect((await listOrders(t, shop.brand)).orders).toHaveLength(1);
      } finally {
        await closeServer(server);
      }
    });

    it('replays the stored answer to a retry after the answer was lost (committed, never sent)', async () => {
      // A server that dies at the moment of answering: everything before (the commit) happened.
      const app = buildApp(t.storage, t.clock);
      const dying: Server = createServer((req, res) => {
        res.end = function end() {
          res.socket?.destroy();
          return res;
        } as typeof res.end;
        app(req, res);
      });
      await new Promise<void>((resolve) => dying.listen(0, '127.0.0.1', resolve));
      try {
        const lost = request(`http://127.0.0.1:${(dying.address() as AddressInfo).port}`)
          .post(path)
          .set(shop.brand.headers)
          .set('Idempotency-Key', 'lost-answer')
          .send(order('PO-LOST'));
        await expect(lost).rejects.toThrow();
      } finally {
        dying.closeAllConnections();
        await new Promise((resolve) => dying.close(resolve));
      }
      const retried = await post(shop.brand, 'lost-answer', order('PO-LOST'));
      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBe('true');
      const orders = await listOrders(t, shop.brand);
      expect(orders.orders.map((o) => o['id'])).toEqual([(retried.body.order as Body)['id']]);
    });

    it('covers the single-resource writes and the syncs: a keyed retry replays and creates nothing more', async () => {
      const keyed = (method: 'post' | 'patch', to: string, key: string, body: Body) =>
        request(t.server)[method](to).set(shop.brand.headers).set('Idempotency-Key', key).send(body);
      const twice = async (method: 'post' | 'patch', to: string, key: string, body: Body) => {
        const first = await keyed(method, to, key, body);
        const again = await keyed(method, to, key, body);
        expect({ to, status: again.status, replayed: again.headers['idempotent-replayed'] }).toEqual({
          to,
          status: first.status,
          replayed: 'true',
        });
        expect(again.body).toEqual(first.body);
        if (first.status >= 300) throw new Error(`${to}: ${first.status} ${JSON.stringify(first.body)}`);
        return first.body as Body;
      };
      const customer = (
        await twice('post', '/v10/customers', 'c-1', { customer_number: 'C-KEYED', name: 'Keyed', currency: 'EUR' })
      )['customer'] as Body;
      await twice('patch', `/v10/customers/${String(customer['id'])}`, 'c-2', { name: 'Renamed once' });
      await twice('post', '/v10/products', 'p-1', {
        item_number: 'KEYED-1',
        name: 'Keyed product',
        variants: [{ sku: 'KEYED-1-M', attributes: { size: 'M' } }],
      });
      await twice('post', '/customers/sync', 's-1', {
        customers: [{ customer_number: 'C-SYNCED', name: 'Synced once', currency: 'EUR' }],
      });

      const customers = await request(t.server).get('/v10/customers?limit=100').set(shop.brand.headers);
      const numbers = (customers.body.customers as Body[]).map((c) => c['customer_number']);
      expect(numbers.filter((n) => n === 'C-KEYED' || n === 'C-SYNCED').sort()).toEqual(['C-KEYED', 'C-SYNCED']);
      expect((customers.body.customers as Body[]).find((c) => c['customer_number'] === 'C-KEYED')?.['name']).toBe(
        'Renamed once',
      );
      const products = await request(t.server).get('/v10/products?limit=100').set(shop.brand.headers);
      expect((products.body.products as Body[]).filter((p) => p['item_number'] === 'KEYED-1')).toHaveLength(1);
    });

    it('ignores a key on a read', async () => {
      const read = await request(t.server).get('/v10/orders').set(shop.brand.headers).set('Idempotency-Key', '');
      expect(read.status).toBe(200);
    });
  });
}

describe('Idempotency-Key in the OpenAPI document', () => {
  const t = useTestApp('sqlite');
  type Operation = {
    parameters?: { $ref?: string }[];
    responses: Record<string, { headers?: Record<string, unknown> }>;
  };

  it('is a parameter of every write of the current interface, /3pl and the syncs, and of nothing else', () => {
    const document = openApiDocumentOf(t.app) as { paths: Record<string, Record<string, Operation>> };
    const keyed: string[] = [];
    const unkeyed: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const takesKey = (operation.parameters ?? []).some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
        const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))![1];
        expect(Boolean(success.headers?.['Idempotent-Replayed'])).toBe(takesKey);
        (takesKey ? keyed : unkeyed).push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(keyed).toEqual(
      expect.arrayContaining([
        'POST /v10/order-channels/{publicId}/orders',
        'POST /customers/sync',
        'POST /products/sync',
        'PATCH /v10/settings',
      ]),
    );
    expect(keyed.filter((op) => !/^(POST|PUT|PATCH) /.test(op) || op.includes(' /api/'))).toEqual([]);
    expect(unkeyed.filter((op) => /^(POST|PUT|PATCH) \/(v10|3pl)\//.test(op))).toEqual([]);
  });
});
