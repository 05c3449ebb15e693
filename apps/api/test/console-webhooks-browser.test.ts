// @slow: starts a real Chromium beside the jest workers; started first (tooling/config/jest-sequencer.js).
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApiApp, createBrand, createUser, issueAccessToken } from '@brand/core';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { saveScreenshot, useBrowser } from './support/browser';
import { newCustomer } from './support/customers';
import { useTestApp } from './support/test-app';
import { deliverWebhooksOnce, startWebhookReceiver } from './support/webhooks';
import { testPasswordHasher } from './support/test-password-hasher';

const PASSWORD = 'correct horse battery staple';

type Body = Record<string, unknown>;

// The console's webhook endpoints as a user goes through them in the system Chromium: log in by
// typing, add an endpoint (its secret shown once), see its failed deliveries, retry one, disable
// the endpoint. The rules (CSRF, brands, bad input) are tested without a browser in
// console-webhooks.test.ts. One dialect.
for (const dialect of oneTestDialect()) {
  describe(`console webhooks in a real browser [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const browser = useBrowser();
    let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
    let api: { Authorization: string; 'X-Service-App-Key': string };
    const baseUrl = () => `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;

    beforeAll(async () => {
      receiver = await startWebhookReceiver(500);
      const deps = { uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher, passwordHasher: testPasswordHasher };
      const brand = await createBrand(deps, { name: 'North Shoes', currency: 'EUR' });
      const user = await createUser(deps, {
        brandId: brand.id,
        email: 'anna@north.example',
        name: 'Anna Berg',
        password: PASSWORD,
      });
      const { app, appKey } = await createApiApp(deps, { brandId: brand.id, name: 'Warehouse ERP' });
      const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
      api = { Authorization: `Bearer ${accessToken}`, 'X-Service-App-Key': appKey };
    });
    afterAll(() => receiver.close());

    const apiGet = async (path: string): Promise<Body> => {
      const answer = await request(t.server).get(path).set(api);
      expect(answer.status).toBe(200);
      return answer.body as Body;
    };

    it('adds an endpoint with its secret shown once, retries a failed delivery and disables the endpoint', async () => {
      const page = await browser.newPage();
      await page.goto(`${baseUrl()}/console/webhooks`);
      await page.getByLabel('Email').fill('anna@north.example');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('link', { name: 'Webhook endpoints' }).click();
      await page.getByRole('heading', { name: 'Webhook endpoints' }).waitFor();

      await page.getByLabel('URL', { exact: true }).fill(receiver.url);
      await page.getByRole('checkbox', { name: 'customer.created', exact: true }).check();
      await page.getByRole('checkbox', { name: 'order.created', exact: true }).check();
      await page.getByLabel(/^Description/).fill('Warehouse ERP');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = ((await page.getByTestId('new-webhook-secret').textContent()) ?? '').trim();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      await saveScreenshot(page, 'console-webhooks');

      const [endpoint] = (await apiGet('/v10/webhook-endpoints')).webhook_endpoints as Body[];
      expect(endpoint).toMatchObject({
        url: receiver.url,
        events: ['order.created', 'customer.created'],
        description: 'Warehouse ERP',
        enabled: true,
      });
      const deliveriesPath = `/v10/webhook-endpoints/${String(endpoint!['id'])}/deliveries`;

      // Two customers created through the API: two customer.created deliveries, which the receiver refuses.
      const synced = await request(t.server)
        .post('/customers/sync')
        .set(api)
        .send({ customers: [newCustomer('C-1'), newCustomer('C-2')] });
      expect(synced.status).toBe(200);
      await deliverWebhooksOnce(t.storage, { owner: 'browser', clock: t.clock, retrySchedule: [0] });

      await page.getByRole('link', { name: 'Open the endpoint and its deliveries' }).click();
      await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
      const rows = page.locator('tbody tr');
      await expect(rows.count()).resolves.toBe(2);
      await expect(page.locator('tbody tr', { hasText: 'failed' }).count()).resolves.toBe(2);
      expect(await page.content()).not.toContain(secret);

      const [, newest] = (await apiGet(deliveriesPath)).webhook_deliveries as Body[];
      t.clock.advance(60_000);
      await rows.first().getByRole('button', { name: 'Retry' }).click();
      await page.locator('tbody tr', { hasText: 'pending' }).waitFor();
      await saveScreenshot(page, 'console-webhook-deliveries');
      const deliveries = (await apiGet(deliveriesPath)).webhook_deliveries as Body[];
      expect(deliveries.map((d) => [d['id'], d['status']])).toEqual([
        [deliveries[0]!['id'], 'failed'],
        [newest!['id'], 'pending'],
      ]);
      expect(deliveries[1]!['next_attempt_at']).toBe(t.clock.now());

      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('button', { name: 'Enable' }).waitFor();
      expect((await apiGet(`/v10/webhook-endpoints/${String(endpoint!['id'])}`)).webhook_endpoint).toMatchObject({
        enabled: false,
      });
    });
  });
}
