import escapeHtml from 'escape-html';
import request from 'supertest';
import { WebhookDelivery, WebhookEndpoint, setUserPassword } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { ConsoleAgent, formBody, logInToConsole, shownOnce } from './support/console-agent';
import { newCustomer, syncCustomers } from './support/customers';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';
import { deliverWebhooksOnce, startWebhookReceiver } from './support/webhooks';
import { testPasswordHasher } from './support/test-password-hasher';

const PASSWORD = 'correct horse battery staple';

type Body = Record<string, unknown>;
type Fields = [string, string][];
type Tenant = Integrator & { console: { agent: ConsoleAgent; csrfToken: string } };

/** The delivery ids of an endpoint page's table, in the order shown. */
const deliveryIdsShown = (html: string): number[] =>
  [...html.matchAll(/data-delivery-id="(\d+)"/g)].map((match) => Number(match[1]));

/** The table row of one delivery. */
const deliveryRow = (html: string, deliveryId: number): string =>
  new RegExp(`<tr data-delivery-id="${deliveryId}">.*?</tr>`, 's').exec(html)?.[0] ?? '';

/** The page's error line. */
const alertOf = (html: string): string => /role="alert">([^<]*)</.exec(html)?.[1] ?? '';

// The console's webhook endpoints section. Deliveries are real: customers synced through the API
// raise customer.created events, and the dispatcher sends them to a local receiver answering 500.
// Every endpoint that may receive them points at that receiver (a dispatcher pass sends every
// brand's due deliveries), so no test reaches out to the network.
for (const dialect of testDialects()) {
  describe(`console: webhook endpoints [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
    let north: Tenant;
    let south: Tenant;
    let customers = 0;

    async function tenant(brandName: string): Promise<Tenant> {
      const integrator = await createIntegrator(t.storage, t.clock, { brandName });
      const user = await setUserPassword(
        { uow: t.storage.uow, passwordHasher: testPasswordHasher },
        { userId: integrator.userId, password: PASSWORD },
      );
      return { ...integrator, console: await logInToConsole(t.server, user.email, PASSWORD, '/console/webhooks') };
    }

    beforeAll(async () => {
      receiver = await startWebhookReceiver(500);
      north = await tenant('North');
      south = await tenant('South');
    });
    afterAll(() => receiver.close());

    /** A form post of the tenant's console session, with its CSRF token. */
    const send = (who: Tenant, path: string, fields: Fields = []) =>
      who.console.agent
        .post(path)
        .type('form')
        .send(formBody([['csrf_token', who.console.csrfToken], ...fields]));

    const settingsFields = (url: string, events: string[], description = ''): Fields => [
      ['url', url],
      ...events.map((type): [string, string] => ['events', type]),
      ['description', description],
    ];

    const apiEndpoints = async (who: Integrator): Promise<Body[]> =>
      (await request(t.server).get('/v10/webhook-endpoints?limit=100').set(who.headers)).body.webhook_endpoints;
    const apiEndpoint = async (who: Integrator, id: number): Promise<Body> =>
      (await request(t.server).get(`/v10/webhook-endpoints/${id}`).set(who.headers)).body.webhook_endpoint;
    const apiDeliveries = async (who: Integrator, endpointId: number): Promise<Body[]> => {
      const listed = await request(t.server)
        .get(`/v10/webhook-endpoints/${endpointId}/deliveries?limit=100`)
        .set(who.headers);
      expect(listed.status).toBe(200);
      return listed.body.webhook_deliveries;
    };
    const subscribe = async (who: Integrator, url: string, events = ['customer.created']) => {
      const created = await request(t.server).post('/v10/webhook-endpoints').set(who.headers).send({ url, events });
      expect(created.status).toBe(201);
      return created.body.webhook_endpoint as Body & { id: number; secret: string };
    };
    const storedEndpoint = async (who: Integrator, id: number): Promise<WebhookEndpoint | undefined> =>
      (await t.storage.uow.read((r) => r.webhookEndpoints.findByIds(who.brandId, [id])))[0];
    const storedDelivery = async (who: Integrator, id: number): Promise<WebhookDelivery | undefined> =>
      (await t.storage.uow.read((r) => r.webhookDeliveries.findByIds(who.brandId, [id])))[0];

    /** Raises `count` customer.created events in the brand (one sync): one delivery each per subscribed endpoint. */
    async function customersCreated(who: Integrator, count = 1): Promise<void> {
      const items = Array.from({ length: count }, () => newCustomer(`C-${(customers += 1)}`));
      await syncCustomers(t.app, who, items);
    }
    /** One dispatcher pass on the app's clock with a single attempt: what the receiver refuses has failed. */
    const deliverOnce = () =>
      deliverWebhooksOnce(t.storage, { owner: `console-${dialect}`, clock: t.clock, retrySchedule: [0] });

    it('sends a visitor without a session to the login page and refuses its forms (403), adding nothing', async () => {
      for (const path of ['/console/webhooks', '/console/webhooks/1']) {
        const answer = await request(t.server).get(path);
        expect(answer.status).toBe(303);
        expect(answer.headers['location']).toBe('/console/login');
      }
      const before = await apiEndpoints(north);
      const answer = await request(t.server)
        .post('/console/webhooks')
        .type('form')
        .send(formBody(settingsFields('https://erp.example.com/anonymous', ['*'])));
      expect(answer.status).toBe(403);
      expect(await apiEndpoints(north)).toEqual(before);
    });

    it('adds an endpoint: its signing secret is shown once, the API lists it, and no later page shows the secret', async () => {
      const added = await send(
        north,
        '/console/webhooks',
        settingsFields('https://erp.example.com/hooks', ['order.created', 'order.cancelled'], 'ERP <main>'),
      );
      expect(added.status).toBe(201);
      const secret = shownOnce(added.text, 'new-webhook-secret');
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

      const listed = (await apiEndpoints(north)).find((e) => e['url'] === 'https://erp.example.com/hooks');
      expect(listed).toMatchObject({
        events: ['order.created', 'order.cancelled'],
        description: 'ERP <main>',
        enabled: true,
        created_at: t.clock.now(),
      });
      const id = listed!['id'] as number;
      expect((await storedEndpoint(north, id))?.secret).toBe(secret);
      expect(added.text).toContain(`href="/console/webhooks/${id}"`);

      const list = await north.console.agent.get('/console/webhooks');
      expect(list.status).toBe(200);
      expect(list.text).toMatch(new RegExp(`data-webhook-id="${id}">.*?ERP &lt;main&gt;.*?enabled`, 's'));
      const page = await north.console.agent.get(`/console/webhooks/${id}`);
      for (const later of [list.text, page.text]) {
        expect(later).not.toContain(secret);
        expect(later).not.toContain('data-testid="new-webhook-secret"');
      }
    });

    it('subscribes to every event type with "All events" (["*"])', async () => {
      const url = `${receiver.url}/everything`;
      const added = await send(north, '/console/webhooks', settingsFields(url, ['*']));
      expect(added.status).toBe(201);
      const listed = (await apiEndpoints(north)).find((e) => e['url'] === url);
      expect(listed?.['events']).toEqual(['*']);
      expect(added.text).toMatch(new RegExp(`data-webhook-id="${String(listed!['id'])}">.*?All events`, 's'));
    });

    it.each([
      ['a URL that is not http(s)', settingsFields('ftp://files.example.com/in', ['order.created']), 'url'],
      ['a URL with a password', settingsFields('https://erp:pw@erp.example.com/hooks', ['*']), 'url'],
      ['no event ticked', settingsFields('https://erp.example.com/none', []), 'events'],
      ['an unknown event type', settingsFields('https://erp.example.com/x', ['order.exploded']), 'events'],
      ['"All events" with a type', settingsFields('https://erp.example.com/y', ['*', 'order.created']), 'events'],
      [
        'a description over 1000 characters',
        settingsFields('https://erp.example.com/z', ['*'], 'x'.repeat(1001)),
        'description',
      ],
    ] as [string, Fields, string][])(
      'refuses %s with a 400 naming the field, keeps what was typed, and adds nothing (the API refuses it too)',
      async (_case, fields, field) => {
        const before = await apiEndpoints(north);
        const refused = await send(north, '/console/webhooks', fields);
        expect(refused.status).toBe(400);
        expect(alertOf(refused.text)).toMatch(new RegExp(`^${field}\\b`));
        const url = fields.find(([name]) => name === 'url')![1];
        expect(refused.text).toContain(`value="${escapeHtml(url)}"`);
        expect(await apiEndpoints(north)).toEqual(before);

        // The same rules as the API's: it refuses the same endpoint.
        const events = fields.filter(([name]) => name === 'events').map(([, type]) => type);
        const description = fields.find(([name]) => name === 'description')![1];
        const api = await request(t.server)
          .post('/v10/webhook-endpoints')
          .set(north.headers)
          .send({ url, events, ...(description ? { description } : {}) });
        expect(api.status).toBe(422);
      },
    );

    it('refuses to add without the CSRF token or with a wrong one (403), adding nothing', async () => {
      const before = await apiEndpoints(north);
      const fields = settingsFields('https://erp.example.com/forged', ['*']);
      const missing = await north.console.agent.post('/console/webhooks').type('form').send(formBody(fields));
      const wrong = await north.console.agent
        .post('/console/webhooks')
        .type('form')
        .send(formBody([['csrf_token', 'forged'], ...fields]));
      expect([missing.status, wrong.status]).toEqual([403, 403]);
      expect(await apiEndpoints(north)).toEqual(before);
    });

    it('shows the deliveries newest first; a failed one retried is queued again, on the page and in the API', async () => {
      const endpoint = await subscribe(north, `${receiver.url}/retry`);
      await customersCreated(north, 2);
      await deliverOnce();
      const [older, newer] = await apiDeliveries(north, endpoint.id);
      expect([older, newer].map((d) => d!['status'])).toEqual(['failed', 'failed']);

      const page = await north.console.agent.get(`/console/webhooks/${endpoint.id}`);
      expect(page.status).toBe(200);
      expect(deliveryIdsShown(page.text)).toEqual([newer!['id'], older!['id']]);
      const row = deliveryRow(page.text, newer!['id'] as number);
      for (const shown of ['customer.created', String(newer!['event_id']), 'failed', '<td>1</td>', '<td>500</td>'])
        expect(row).toContain(shown);
      expect(row).toContain('the endpoint answered 500');

      t.clock.advance(60_000);
      const retried = await send(north, `/console/webhooks/${endpoint.id}/deliveries/${String(newer!['id'])}/retry`);
      expect(retried.status).toBe(303);
      expect(retried.headers['location']).toBe(`/console/webhooks/${endpoint.id}`);

      const after = await apiDeliveries(north, endpoint.id);
      expect(after[1]).toMatchObject({
        id: newer!['id'],
        status: 'pending',
        attempts: 1,
        last_status_code: 500,
        next_attempt_at: t.clock.now(),
        updated_at: t.clock.now(),
      });
      expect(after[0]).toEqual(older);
      const shown = await north.console.agent.get(`/console/webhooks/${endpoint.id}`);
      expect(deliveryRow(shown.text, newer!['id'] as number)).toContain('<td>pending</td>');

      // Queued for real: the dispatcher's next pass sends it again, with the same webhook-id.
      const before = receiver.received.length;
      await deliverOnce();
      const resent = receiver.received.slice(before).filter((r) => r.headers['webhook-id'] === newer!['event_id']);
      expect(resent).toHaveLength(1);
      expect((await apiDeliveries(north, endpoint.id))[1]).toMatchObject({ status: 'failed', attempts: 2 });
    });

    it('pages through many deliveries with an "Older deliveries" link, and a retry returns to the same page', async () => {
      const endpoint = await subscribe(north, `${receiver.url}/paging`);
      await customersCreated(north, 23);
      const all = (await apiDeliveries(north, endpoint.id)).map((d) => d['id'] as number);
      expect(all).toHaveLength(23);

      const first = await north.console.agent.get(`/console/webhooks/${endpoint.id}`);
      expect(deliveryIdsShown(first.text)).toEqual([...all].reverse().slice(0, 20));
      expect(first.text).not.toContain('Newest deliveries');
      const olderHref = /<a href="([^"]+)">Older deliveries<\/a>/.exec(first.text)?.[1];
      expect(olderHref).toMatch(new RegExp(`^/console/webhooks/${endpoint.id}\\?cursor=`));

      const second = await north.console.agent.get(olderHref!.replaceAll('&amp;', '&'));
      expect(second.status).toBe(200);
      expect(deliveryIdsShown(second.text)).toEqual([...all].reverse().slice(20));
      expect(second.text).not.toContain('Older deliveries');
      expect(second.text).toContain(`<a href="/console/webhooks/${endpoint.id}">Newest deliveries</a>`);

      const cursor = decodeURIComponent(olderHref!.split('cursor=')[1]!);
      const oldest = all[0]!;
      const retried = await send(north, `/console/webhooks/${endpoint.id}/deliveries/${oldest}/retry`, [
        ['cursor', cursor],
      ]);
      expect(retried.status).toBe(303);
      expect(retried.headers['location']).toBe(olderHref!.replaceAll('&amp;', '&'));

      for (const forged of ['not-a-cursor', `${cursor}x`]) {
        const refused = await north.console.agent.get(
          `/console/webhooks/${endpoint.id}?cursor=${encodeURIComponent(forged)}`,
        );
        expect(refused.status).toBe(400);
        expect(refused.text).toContain('This link cannot be used');
      }
    });

    it('disables and enables an endpoint (303 back to its page), as the API then shows', async () => {
      const endpoint = await subscribe(north, 'https://erp.example.com/switch', ['order.created']);
      const disabled = await send(north, `/console/webhooks/${endpoint.id}/disable`);
      expect(disabled.status).toBe(303);
      expect(disabled.headers['location']).toBe(`/console/webhooks/${endpoint.id}`);
      expect((await apiEndpoint(north, endpoint.id))['enabled']).toBe(false);
      const page = await north.console.agent.get(`/console/webhooks/${endpoint.id}`);
      expect(page.text).toContain('Status: <strong>disabled</strong>');
      expect(page.text).toContain(`action="/console/webhooks/${endpoint.id}/enable"`);

      expect((await send(north, `/console/webhooks/${endpoint.id}/enable`)).status).toBe(303);
      expect((await apiEndpoint(north, endpoint.id))['enabled']).toBe(true);
    });

    it('changes the settings; a refused change is a 400 naming the field and changes nothing', async () => {
      const endpoint = await subscribe(north, 'https://erp.example.com/before', ['*']);
      t.clock.advance(1000);
      const saved = await send(
        north,
        `/console/webhooks/${endpoint.id}`,
        settingsFields('https://erp.example.com/after', ['order.created', 'order.cancelled'], 'Orders only'),
      );
      expect(saved.status).toBe(303);
      expect(saved.headers['location']).toBe(`/console/webhooks/${endpoint.id}`);
      const changed = await apiEndpoint(north, endpoint.id);
      expect(changed).toMatchObject({
        url: 'https://erp.example.com/after',
        events: ['order.created', 'order.cancelled'],
        description: 'Orders only',
        updated_at: t.clock.now(),
      });
      const page = await north.console.agent.get(`/console/webhooks/${endpoint.id}`);
      expect(page.text).toContain('value="order.cancelled" checked');
      expect(page.text).not.toContain('value="order.approved" checked');

      t.clock.advance(1000);
      const refused = await send(
        north,
        `/console/webhooks/${endpoint.id}`,
        settingsFields('https://erp.example.com/third', [], 'No events'),
      );
      expect(refused.status).toBe(400);
      expect(alertOf(refused.text)).toMatch(/^events\b/);
      expect(refused.text).toContain('value="https://erp.example.com/third"');
      expect(await apiEndpoint(north, endpoint.id)).toEqual(changed);

      // An empty description clears it.
      await send(
        north,
        `/console/webhooks/${endpoint.id}`,
        settingsFields('https://erp.example.com/after', ['order.created']),
      );
      expect((await apiEndpoint(north, endpoint.id))['description']).toBeNull();
    });

    it('rotates the secret: the new one is shown once, and the old one keeps signing beside it for a day', async () => {
      const endpoint = await subscribe(north, 'https://erp.example.com/rotate', ['order.created']);
      const rotated = await send(north, `/console/webhooks/${endpoint.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      const secret = shownOnce(rotated.text, 'new-webhook-secret');
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(endpoint.secret);
      expect(await storedEndpoint(north, endpoint.id)).toMatchObject({
        secret,
        previousSecret: endpoint.secret,
        previousSecretExpiresAt: new Date(Date.parse(t.clock.now()) + 24 * 3600_000).toISOString(),
      });
      const page = await north.console.agent.get(`/console/webhooks/${endpoint.id}`);
      expect(page.text).not.toContain(secret);
    });

    it('refuses every endpoint form without the CSRF token or with a wrong one (403), changing nothing', async () => {
      const endpoint = await subscribe(north, `${receiver.url}/forged`);
      await customersCreated(north);
      const [delivery] = await apiDeliveries(north, endpoint.id);
      const deliveryId = delivery!['id'] as number;
      t.clock.advance(1000);
      const endpointBefore = await storedEndpoint(north, endpoint.id);
      const deliveryBefore = await storedDelivery(north, deliveryId);
      const forms: [string, Fields][] = [
        [`/console/webhooks/${endpoint.id}`, settingsFields('https://erp.example.com/forged', ['*'], 'forged')],
        [`/console/webhooks/${endpoint.id}/disable`, []],
        [`/console/webhooks/${endpoint.id}/rotate-secret`, []],
        [`/console/webhooks/${endpoint.id}/deliveries/${deliveryId}/retry`, []],
      ];
      for (const [path, fields] of forms) {
        for (const token of [[], [['csrf_token', 'forged']]] as Fields[]) {
          const answer = await north.console.agent
            .post(path)
            .type('form')
            .send(formBody([...token, ...fields]));
          expect(`${path} ${answer.status}`).toBe(`${path} 403`);
        }
      }
      expect(await storedEndpoint(north, endpoint.id)).toStrictEqual(endpointBefore);
      expect(await storedDelivery(north, deliveryId)).toStrictEqual(deliveryBefore);
    });

    it("answers 404 for another brand's endpoint or delivery, and for another endpoint's delivery, changing nothing", async () => {
      const theirs = await subscribe(south, `${receiver.url}/south`);
      await customersCreated(south);
      const [theirDelivery] = await apiDeliveries(south, theirs.id);
      const mine = await subscribe(north, `${receiver.url}/mine`);
      const sibling = await subscribe(north, `${receiver.url}/sibling`);
      await customersCreated(north);
      const [siblingDelivery] = await apiDeliveries(north, sibling.id);
      t.clock.advance(1000);
      const theirsBefore = await storedEndpoint(south, theirs.id);
      const theirDeliveryBefore = await storedDelivery(south, theirDelivery!['id'] as number);
      const siblingDeliveryBefore = await storedDelivery(north, siblingDelivery!['id'] as number);

      const page = await north.console.agent.get(`/console/webhooks/${theirs.id}`);
      expect(page.status).toBe(404);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).not.toContain('/south');
      for (const path of [
        `/console/webhooks/${theirs.id}`,
        `/console/webhooks/${theirs.id}/disable`,
        `/console/webhooks/${theirs.id}/rotate-secret`,
        `/console/webhooks/${theirs.id}/deliveries/${String(theirDelivery!['id'])}/retry`,
        `/console/webhooks/${mine.id}/deliveries/${String(theirDelivery!['id'])}/retry`,
        `/console/webhooks/${mine.id}/deliveries/${String(siblingDelivery!['id'])}/retry`,
        `/console/webhooks/${mine.id}/deliveries/first/retry`,
        '/console/webhooks/0/disable',
        '/console/webhooks/987654321/disable',
      ]) {
        const answer = await send(north, path, settingsFields('https://erp.example.com/taken', ['*']));
        expect(`${path} ${answer.status}`).toBe(`${path} 404`);
      }
      for (const path of ['/console/webhooks/not-a-number', '/console/webhooks/987654321'])
        expect((await north.console.agent.get(path)).status).toBe(404);

      expect(await storedEndpoint(south, theirs.id)).toStrictEqual(theirsBefore);
      expect(await storedDelivery(south, theirDelivery!['id'] as number)).toStrictEqual(theirDeliveryBefore);
      expect(await storedDelivery(north, siblingDelivery!['id'] as number)).toStrictEqual(siblingDeliveryBefore);
      const list = await north.console.agent.get('/console/webhooks');
      expect(list.text).not.toContain(`data-webhook-id="${theirs.id}"`);
      // Their own console still shows it to them.
      expect((await south.console.agent.get(`/console/webhooks/${theirs.id}`)).status).toBe(200);
    });

    it('lists the endpoints newest first, 20 a page, with an "Older endpoints" link', async () => {
      for (let i = 0; i < 21; i += 1) await subscribe(south, `https://erp.example.com/many/${i}`, ['order.created']);
      const newestFirst = (await apiEndpoints(south)).map((e) => e['id'] as number).reverse();
      const endpointIdsShown = (html: string) =>
        [...html.matchAll(/data-webhook-id="(\d+)"/g)].map((match) => Number(match[1]));

      const first = await south.console.agent.get('/console/webhooks');
      expect(endpointIdsShown(first.text)).toEqual(newestFirst.slice(0, 20));
      const olderHref = /<a href="([^"]+)">Older endpoints<\/a>/.exec(first.text)?.[1];
      expect(olderHref).toMatch(/^\/console\/webhooks\?cursor=/);
      const second = await south.console.agent.get(olderHref!);
      expect(endpointIdsShown(second.text)).toEqual(newestFirst.slice(20));
      expect(second.text).not.toContain('Older endpoints');
    });
  });
}
