import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { newCustomer } from './support/customers';
import { Integrator, createIntegrator } from './support/integrator';
import { approveOrder, placeOrder, seedOrderingBrand } from './support/orders';
import { useTestApp } from './support/test-app';

/**
 * DESIGN §14: strong ETags on every answer that carries one resource, `If-None-Match` answered
 * with 304 (which costs no rate limit), and `If-Match` on the writes of one resource and its
 * state actions: 412 `precondition_failed` with nothing changed, check and write one step.
 */

type Body = Record<string, unknown>;
type Answer = { status: number; headers: Record<string, string>; body: Body };

const TAG = /^"[A-Za-z0-9_-]{22}"$/;

for (const dialect of testDialects()) {
  describe(`conditional requests [${dialect}]`, () => {
    const t = useTestApp(dialect, { rateLimit: { windowMs: 60_000, max: 1_000 } });
    let brand: Integrator;

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
    });

    const get = (path: string, headers: Record<string, string> = {}) =>
      request(t.server).get(path).set(brand.headers).set(headers) as unknown as Promise<Answer>;
    const patch = (path: string, body: Body, headers: Record<string, string> = {}) =>
      request(t.server).patch(path).set(brand.headers).set(headers).send(body) as unknown as Promise<Answer>;
    const post = (path: string, body: Body, headers: Record<string, string> = {}) =>
      request(t.server).post(path).set(brand.headers).set(headers).send(body) as unknown as Promise<Answer>;

    async function aCustomer(fields: Body = {}): Promise<{ id: number; path: string; etag: string }> {
      const created = await post('/v10/customers', newCustomer(`C-${Math.random().toString(36).slice(2, 8)}`, fields));
      expect(created.status).toBe(201);
      const id = (created.body['customer'] as Body)['id'] as number;
      return { id, path: `/v10/customers/${id}`, etag: created.headers['etag']! };
    }

    async function eventsOf(type: string): Promise<Body[]> {
      const feed = await get('/v10/events?limit=100');
      expect(feed.status).toBe(200);
      return (feed.body['events'] as Body[]).filter((e) => e['type'] === type);
    }

    describe('ETag and If-None-Match', () => {
      it('tags a resource by what GET shows: the same tag while nothing changes, a new one after a change', async () => {
        const customer = await aCustomer({ name: 'Anna' });

        const first = await get(customer.path);
        const again = await get(customer.path);
        expect(first.status).toBe(200);
        expect(first.headers['etag']).toMatch(TAG);
        expect(again.headers['etag']).toBe(first.headers['etag']);
        // The create's 201 carries the tag of the resource as GET shows it.
        expect(customer.etag).toBe(first.headers['etag']);

        const changed = await patch(customer.path, { name: 'Anna B.' });
        expect(changed.status).toBe(200);
        const after = await get(customer.path);
        expect(after.headers['etag']).not.toBe(first.headers['etag']);
        // The write's answer carries the tag a GET then gives: the one to send with the next write.
        expect(changed.headers['etag']).toBe(after.headers['etag']);
      });

      it('answers 304 with the ETag and no body to a matching If-None-Match (one tag, a list, a weak form, *), 200 otherwise', async () => {
        const customer = await aCustomer();
        const { etag } = customer;

        for (const ifNoneMatch of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
          const answer = await get(customer.path, { 'If-None-Match': ifNoneMatch });
          expect([ifNoneMatch, answer.status, answer.headers['etag'], answer.headers['content-length']]).toEqual([
            ifNoneMatch,
            304,
            etag,
            undefined,
          ]);
          expect(answer.body).toEqual({});
        }
        const stale = await get(customer.path, { 'If-None-Match': '"not-the-tag"' });
        expect(stale.status).toBe(200);
        expect((stale.body['customer'] as Body)['id']).toBe(customer.id);
      });

      it('refuses a malformed If-None-Match with 400 naming the header', async () => {
        const customer = await aCustomer();

        const answer = await get(customer.path, { 'If-None-Match': 'no-quotes' });

        expect(answer.status).toBe(400);
        expect((answer.body['errors'] as Body[])[0]).toMatchObject({
          code: 'invalid_header',
          source: { header: 'If-None-Match' },
        });
      });

      it('tags the singleton settings, and a 404 carries no tag', async () => {
        const settings = await get('/v10/settings');
        expect(settings.headers['etag']).toMatch(TAG);
        expect((await get('/v10/settings', { 'If-None-Match': settings.headers['etag']! })).status).toBe(304);

        const missing = await get('/v10/customers/999999999');
        expect(missing.status).toBe(404);
        expect(missing.headers['etag']).toBeUndefined();
      });

      it('does not tag lists', async () => {
        await aCustomer();
        const list = await get('/v10/customers');
        expect(list.status).toBe(200);
        expect(list.headers['etag']).toBeUndefined();
      });
    });

    describe('the tag of a write’s answer', () => {
      /** Expects the write's ETag to be the one GET of `path` now gives: the tag to send with the next write. */
      async function expectTaggedAsShown(answer: Answer, status: number, path: string): Promise<void> {
        expect([answer.status, answer.headers['etag']]).toEqual([status, expect.stringMatching(TAG)]);
        const shown = await get(path);
        expect(shown.status).toBe(200);
        expect(shown.headers['etag']).toBe(answer.headers['etag']);
      }

      it('is the tag GET gives, for creates and changes of suppliers, products, variants, channels and orders', async () => {
        const supplier = await post('/v10/suppliers', { supplier_number: 'S-1', name: 'Mill', currency: 'EUR' });
        expect([supplier.status, Object.keys(supplier.body)]).toEqual([201, ['supplier']]);
        const supplierPath = `/v10/suppliers/${(supplier.body['supplier'] as Body)['id'] as number}`;
        await expectTaggedAsShown(supplier, 201, supplierPath);
        await expectTaggedAsShown(await patch(supplierPath, { name: 'Mill & Co' }), 200, supplierPath);

        const product = await post('/v10/products', {
          item_number: 'TAG-1',
          name: 'Tagged tee',
          variants: [
            { sku: 'TAG-1-S', attributes: { size: 'S' }, prices: { EUR: { sales_price: 10, rec_sales_price: 20 } } },
          ],
        });
        const productId = (product.body['product'] as Body)['id'] as number;
        await expectTaggedAsShown(product, 201, `/v10/products/${productId}`);
        await expectTaggedAsShown(
          await patch(`/v10/products/${productId}`, { name: 'Tagged tee 2' }),
          200,
          `/v10/products/${productId}`,
        );
        const variant = await post(`/v10/products/${productId}/variants`, {
          sku: 'TAG-1-M',
          attributes: { size: 'M' },
          prices: { EUR: { sales_price: 10, rec_sales_price: 20 } },
        });
        const variantPath = `/v10/variants/${(variant.body['variant'] as Body)['id'] as number}`;
        await expectTaggedAsShown(variant, 201, variantPath);
        await expectTaggedAsShown(await patch(variantPath, { ean: '4006381333931' }), 200, variantPath);

        const channel = await post('/v10/order-channels', { name: 'Shop', order_type: 'b2c' });
        const channelBody = channel.body['order_channel'] as Body;
        await expectTaggedAsShown(channel, 201, `/v10/order-channels/${channelBody['id'] as number}`);
      });

      it('is the tag GET gives for an order created, approved and given a shipment', async () => {
        const seeded = await seedOrderingBrand(t);
        brand = seeded.brand;
        const created = await post(`/v10/order-channels/${seeded.channels.b2b}/orders`, {
          order: { customer_number: 'C-B2B', lines: [{ sku: 'TEE-S', quantity: 2 }] },
        });
        const orderPath = `/v10/orders/${(created.body['order'] as Body)['id'] as number}`;
        await expectTaggedAsShown(created, 201, orderPath);
        await expectTaggedAsShown(await post(`${orderPath}/approve`, {}), 200, orderPath);
      });
    });

    describe('If-Match on writes', () => {
      it('applies a PATCH sent with the current tag, and refuses one with a stale tag: 412, the current ETag, nothing changed, no event', async () => {
        const customer = await aCustomer({ name: 'First' });
        const read = await get(customer.path);

        const applied = await patch(customer.path, { name: 'Second' }, { 'If-Match': read.headers['etag']! });
        expect(applied.status).toBe(200);
        expect((applied.body['customer'] as Body)['name']).toBe('Second');
        const updatesBefore = (await eventsOf('customer.updated')).length;

        const refused = await patch(customer.path, { name: 'Third' }, { 'If-Match': read.headers['etag']! });

        expect(refused.status).toBe(412);
        expect(refused.body).toEqual({
          errors: [
            expect.objectContaining({
              status: 412,
              code: 'precondition_failed',
              title: 'Precondition failed',
              source: { header: 'If-Match' },
            }),
          ],
        });
        expect(refused.headers['etag']).toBe(applied.headers['etag']);
        const now = await get(customer.path);
        expect((now.body['customer'] as Body)['name']).toBe('Second');
        expect(now.headers['etag']).toBe(applied.headers['etag']);
        expect(await eventsOf('customer.updated')).toHaveLength(updatesBefore);
      });

      it('takes If-Match: * as "it exists" (a missing resource answers 404) and a list of tags', async () => {
        const customer = await aCustomer({ name: 'Star' });

        const star = await patch(customer.path, { name: 'Starred' }, { 'If-Match': '*' });
        expect(star.status).toBe(200);
        const listed = await patch(customer.path, { name: 'Listed' }, { 'If-Match': `"old", ${star.headers['etag']}` });
        expect(listed.status).toBe(200);

        const missing = await patch('/v10/customers/999999999', { name: 'Ghost' }, { 'If-Match': '*' });
        expect(missing.status).toBe(404);
      });

      it('compares strongly: a weak form of the current tag does not match', async () => {
        const customer = await aCustomer({ name: 'Weak' });

        const refused = await patch(customer.path, { name: 'Never' }, { 'If-Match': `W/${customer.etag}` });

        expect(refused.status).toBe(412);
        expect(((await get(customer.path)).body['customer'] as Body)['name']).toBe('Weak');
      });

      it('refuses a malformed If-Match with 400 naming the header, before anything runs', async () => {
        const customer = await aCustomer({ name: 'Kept' });

        const refused = await patch(customer.path, { name: 'Changed' }, { 'If-Match': 'W/' });

        expect(refused.status).toBe(400);
        expect((refused.body['errors'] as Body[])[0]).toMatchObject({
          code: 'invalid_header',
          source: { header: 'If-Match' },
        });
        expect(((await get(customer.path)).body['customer'] as Body)['name']).toBe('Kept');
      });

      it('of 10 parallel PATCHes sent with one tag, exactly one succeeds and the others answer 412; the winner is what GET shows', async () => {
        const customer = await aCustomer({ name: 'Race' });

        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            patch(customer.path, { name: `Writer ${i}` }, { 'If-Match': customer.etag }),
          ),
        );

        const statuses = answers.map((a) => a.status).sort();
        expect(statuses).toEqual([200, ...Array<number>(9).fill(412)]);
        const winner = answers.find((a) => a.status === 200)!;
        const shown = await get(customer.path);
        expect((shown.body['customer'] as Body)['name']).toBe((winner.body['customer'] as Body)['name']);
        expect(shown.headers['etag']).toBe(winner.headers['etag']);
      });

      it('guards a state action: an order approved with a stale tag stays pending; with the current tag it is approved', async () => {
        const seeded = await seedOrderingBrand(t);
        brand = seeded.brand;
        const order = await placeOrder(t, brand, seeded.channels.b2b, {
          customer_number: 'C-B2B',
          lines: [{ sku: 'TEE-S', quantity: 1 }],
        });
        const path = `/v10/orders/${order['id'] as number}`;
        const read = await get(path);
        expect(read.headers['etag']).toMatch(TAG);
        // Someone else changes the order after it was read: its tag moves on.
        const changedBySomeoneElse = await post(`${path}/cancel`, {}, {});
        expect(changedBySomeoneElse.status).toBe(200);

        const refused = await post(`${path}/approve`, {}, { 'If-Match': read.headers['etag']! });
        expect(refused.status).toBe(412);
        expect(((await get(path)).body['order'] as Body)['status']).toBe(
          (changedBySomeoneElse.body['order'] as Body)['status'],
        );

        const other = await placeOrder(t, brand, seeded.channels.b2b, {
          customer_number: 'C-B2B',
          lines: [{ sku: 'TEE-M', quantity: 1 }],
        });
        const otherPath = `/v10/orders/${other['id'] as number}`;
        const current = await get(otherPath);
        const approved = await post(`${otherPath}/approve`, {}, { 'If-Match': current.headers['etag']! });
        expect(approved.status).toBe(200);
        expect(((await get(otherPath)).body['order'] as Body)['status']).toBe(
          (approved.body['order'] as Body)['status'],
        );
        expect(approved.headers['etag']).toBe((await get(otherPath)).headers['etag']);
        await expect(approveOrder(t, brand, other['id'] as number)).rejects.toThrow(/answered 422/);
      });

      it('guards the settings and a DELETE: a stale tag leaves the settings and the webhook endpoint as they were', async () => {
        const settings = await get('/v10/settings');
        const changed = await patch(
          '/v10/settings',
          { default_vat_rate: 21 },
          { 'If-Match': settings.headers['etag']! },
        );
        expect(changed.status).toBe(200);
        const stale = await patch('/v10/settings', { default_vat_rate: 19 }, { 'If-Match': settings.headers['etag']! });
        expect(stale.status).toBe(412);
        expect((await get('/v10/settings')).headers['etag']).toBe(changed.headers['etag']);

        const endpoint = await post('/v10/webhook-endpoints', {
          url: 'https://hooks.example/brand',
          events: ['order.created'],
        });
        expect(endpoint.status).toBe(201);
        const path = `/v10/webhook-endpoints/${(endpoint.body['webhook_endpoint'] as Body)['id'] as number}`;
        const read = await get(path);
        expect((await patch(path, { description: 'ERP' }, { 'If-Match': read.headers['etag']! })).status).toBe(200);

        const deleted = await request(t.server).delete(path).set(brand.headers).set('If-Match', read.headers['etag']!);
        expect(deleted.status).toBe(412);
        expect((await get(path)).status).toBe(200);
        const current = await get(path);
        const removed = await request(t.server)
          .delete(path)
          .set(brand.headers)
          .set('If-Match', current.headers['etag']!);
        expect(removed.status).toBe(204);
        expect((await get(path)).status).toBe(404);
      });

      it('keeps a 412 under an Idempotency-Key as the key’s answer, and a success with its tag', async () => {
        const customer = await aCustomer({ name: 'Keyed' });
        const moved = await patch(customer.path, { name: 'Moved' });
        expect(moved.status).toBe(200);

        const first = await patch(
          customer.path,
          { name: 'Late' },
          { 'If-Match': customer.etag, 'Idempotency-Key': 'k-412' },
        );
        const replay = await patch(
          customer.path,
          { name: 'Late' },
          { 'If-Match': customer.etag, 'Idempotency-Key': 'k-412' },
        );
        expect([first.status, replay.status, replay.headers['idempotent-replayed']]).toEqual([412, 412, 'true']);

        const fresh = await patch(
          customer.path,
          { name: 'On time' },
          {
            'If-Match': moved.headers['etag']!,
            'Idempotency-Key': 'k-200',
          },
        );
        const again = await patch(
          customer.path,
          { name: 'On time' },
          {
            'If-Match': moved.headers['etag']!,
            'Idempotency-Key': 'k-200',
          },
        );
        expect([fresh.status, again.status]).toEqual([200, 200]);
        expect(again.headers['etag']).toBe(fresh.headers['etag']);
        expect((await get(customer.path)).headers['etag']).toBe(fresh.headers['etag']);
      });

      it('ignores If-Match where no single resource is written (a create), as without it', async () => {
        const created = await post('/v10/customers', newCustomer('C-IGNORED'), { 'If-Match': '"whatever"' });
        expect(created.status).toBe(201);
      });
    });
  });

  describe(`a 304 costs no rate limit [${dialect}]`, () => {
    const t = useTestApp(dialect, { rateLimit: { windowMs: 60_000, max: 3 } });

    it('answers ten 304s on a limit of 3 requests, and the limit still admits the next full answers', async () => {
      const brand = await createIntegrator(t.storage, t.clock);
      const read = await request(t.server).get('/v10/settings').set(brand.headers);
      expect(read.status).toBe(200);

      for (let i = 0; i < 10; i++) {
        const notModified = await request(t.server)
          .get('/v10/settings')
          .set(brand.headers)
          .set('If-None-Match', read.headers['etag']!);
        expect(notModified.status).toBe(304);
      }
      const second = await request(t.server).get('/v10/settings').set(brand.headers);
      const third = await request(t.server).get('/v10/settings').set(brand.headers);
      const fourth = await request(t.server).get('/v10/settings').set(brand.headers);
      expect([second.status, third.status, fourth.status]).toEqual([200, 200, 429]);
    });
  });
}
