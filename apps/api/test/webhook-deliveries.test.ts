import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { Clock, systemClock } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { AddressPolicy } from '../src/infrastructure/address-policy';
import { OrderingBrand, placeOrder, seedOrderingBrand } from './support/orders';
import { useTestApp } from './support/test-app';
import { LOOPBACK_ALLOWED, deliverWebhooksOnce, startWebhookReceiver } from './support/webhooks';

type Body = Record<string, unknown>;

for (const dialect of testDialects()) {
  describe(`webhook deliveries [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;
    let receiver: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
    });
    afterEach(async () => {
      await receiver?.close();
      receiver = undefined;
    });

    // The sender as production makes it, allowed to reach the local receiver, on a real clock.
    const pass = (policy = LOOPBACK_ALLOWED, clock: Clock = systemClock) =>
      deliverWebhooksOnce(t.storage, { owner: `test-${dialect}`, policy, clock, retrySchedule: [0, 0, 0] });
    const subscribe = async (url: string, events: string[] = ['*']) => {
      const created = await request(t.server)
        .post('/v10/webhook-endpoints')
        .set(shop.brand.headers)
        .send({ url, events });
      expect(created.status).toBe(201);
      return created.body.webhook_endpoint as Body & { id: number; secret: string };
    };
    const deliveries = async (endpointId: number) => {
      const listed = await request(t.server)
        .get(`/v10/webhook-endpoints/${endpointId}/deliveries`)
        .set(shop.brand.headers);
      expect(listed.status).toBe(200);
      return listed.body.webhook_deliveries as Body[];
    };
    const order = () =>
      placeOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-B2B',
        lines: [{ sku: 'TEE-S', quantity: 1 }],
      });

    it('POSTs the event as the feed shows it, signed so that an independent Standard Webhooks implementation accepts it', async () => {
      receiver = await startWebhookReceiver(204);
      const endpoint = await subscribe(receiver.url, ['order.created']);
      await order();

      expect(await pass()).toMatchObject({ claimed: 1, succeeded: 1 });
      expect(receiver.received).toHaveLength(1);
      const [{ headers, body, path }] = receiver.received as [(typeof receiver.received)[number]];
      expect(path).toBe('/hooks');
      expect(headers['content-type']).toBe('application/json');
      const verified = new Webhook(endpoint.secret).verify(body, headers as Record<string, string>);
      const feed = (
        await request(t.server)
          .get('/v10/events?filter_groups[0][filters][0][key]=type&filter_groups[0][filters][0][value]=order.created')
          .set(shop.brand.headers)
      ).body.events as Body[];
      expect(verified).toEqual(feed[0]);
      expect(headers['webhook-id']).toBe(feed[0]!['id']);
      // Another secret does not verify it.
      const stranger = await subscribe('https://elsewhere.example/hooks');
      expect(() => new Webhook(stranger.secret).verify(body, headers as Record<string, string>)).toThrow();

      const [delivery] = await deliveries(endpoint.id);
      expect(delivery).toEqual({
        id: expect.any(Number),
        event_id: feed[0]!['id'],
        event_type: 'order.created',
        status: 'succeeded',
        attempts: 1,
        last_status_code: 204,
        last_error: null,
        next_attempt_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
    });

    it('retries a failing receiver with the same webhook-id until it answers 2xx', async () => {
      receiver = await startWebhookReceiver(500, 503, 200);
      // One event per order (placing one also announces its stock moves, inventory.changed).
      const endpoint = await subscribe(receiver.url, ['order.created']);
      await order();

      expect(await pass()).toMatchObject({ retrying: 1 });
      expect((await deliveries(endpoint.id))[0]).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_status_code: 500,
        last_error: 'the endpoint answered 500',
      });
      await pass();
      expect(await pass()).toMatchObject({ succeeded: 1 });
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual(
        Array(3).fill(receiver.received[0]!.headers['webhook-id']),
      );
      expect((await deliveries(endpoint.id))[0]).toMatchObject({
        status: 'succeeded',
        attempts: 3,
        last_status_code: 200,
      });
    });

    it('disables the endpoint on 410 Gone, follows no redirect, and can be told to retry', async () => {
      receiver = await startWebhookReceiver(410);
      const gone = await subscribe(receiver.url, ['order.created']);
      await order();
      expect(await pass()).toMatchObject({ failed: 1 });
      const endpoint = await request(t.server).get(`/v10/webhook-endpoints/${gone.id}`).set(shop.brand.headers);
      expect(endpoint.body.webhook_endpoint.enabled).toBe(false);
      expect((await deliveries(gone.id))[0]).toMatchObject({ status: 'failed', last_status_code: 410 });
      await receiver.close();

      receiver = await startWebhookReceiver(302, 302, 302, 204);
      const moved = await subscribe(receiver.url, ['order.created']);
      await order();
      await pass();
      await pass();
      expect(await pass()).toMatchObject({ failed: 1 });
      const [failed] = await deliveries(moved.id);
      expect(failed).toMatchObject({ status: 'failed', attempts: 3, last_status_code: 302 });
      expect(failed!['last_error']).toContain('redirect');
      expect(receiver.received.every((r) => r.path === '/hooks')).toBe(true);

      const retried = await request(t.server)
        .post(`/v10/webhook-endpoints/${moved.id}/deliveries/${String(failed!['id'])}/retry`)
        .set(shop.brand.headers);
      expect(retried.status).toBe(202);
      expect(retried.body.webhook_delivery).toMatchObject({ status: 'pending', attempts: 3 });
      expect(await pass()).toMatchObject({ succeeded: 1 });
      expect((await deliveries(moved.id))[0]).toMatchObject({ status: 'succeeded', attempts: 4 });
    });

    it('refuses targets the address policy does not allow (loopback without an allowlist entry), sending nothing', async () => {
      receiver = await startWebhookReceiver(204);
      const endpoint = await subscribe(receiver.url);
      await order();
      await pass(AddressPolicy.withAllowlist([], 'webhook deliveries'));
      expect(receiver.received).toEqual([]);
      const [delivery] = await deliveries(endpoint.id);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });
      expect(delivery!['last_error']).toMatch(/may not be reached: its host resolves to a loopback address/);
    });

    it('signs with the old secret too for a day after a rotation', async () => {
      receiver = await startWebhookReceiver(204);
      const endpoint = await subscribe(receiver.url, ['order.created']);
      const rotated = await request(t.server)
        .post(`/v10/webhook-endpoints/${endpoint.id}/rotate-secret`)
        .set(shop.brand.headers);
      await order();
      // On the app's clock, so that "a day after the rotation" is a day on that clock.
      await pass(LOOPBACK_ALLOWED, t.clock);
      const [{ headers, body }] = receiver.received as [(typeof receiver.received)[number]];
      const id = headers['webhook-id'] as string;
      const at = new Date(Number(headers['webhook-timestamp']) * 1000);
      // The independent implementation's signatures with the new and the old secret, in that order.
      expect((headers['webhook-signature'] as string).split(' ')).toEqual(
        [rotated.body.webhook_endpoint.secret as string, endpoint.secret].map((secret) =>
          new Webhook(secret).sign(id, at, body),
        ),
      );

      t.clock.advance(24 * 3600_000 + 1000);
      await order();
      await pass(LOOPBACK_ALLOWED, t.clock);
      expect((receiver.received[1]!.headers['webhook-signature'] as string).split(' ')).toEqual([
        new Webhook(rotated.body.webhook_endpoint.secret as string).sign(
          receiver.received[1]!.headers['webhook-id'] as string,
          new Date(Number(receiver.received[1]!.headers['webhook-timestamp']) * 1000),
          receiver.received[1]!.body,
        ),
      ]);
    });

    it("lists and retries only the brand's own deliveries", async () => {
      const endpoint = await subscribe('https://erp.example.com/hooks');
      await order();
      const [delivery] = await deliveries(endpoint.id);
      const neighbour = await seedOrderingBrand(t);
      const theirs = await request(t.server)
        .get(`/v10/webhook-endpoints/${endpoint.id}/deliveries`)
        .set(neighbour.brand.headers);
      expect(theirs.status).toBe(404);
      const retried = await request(t.server)
        .post(`/v10/webhook-endpoints/${endpoint.id}/deliveries/${String(delivery!['id'])}/retry`)
        .set(neighbour.brand.headers);
      expect(retried.status).toBe(404);
    });
  });
}
