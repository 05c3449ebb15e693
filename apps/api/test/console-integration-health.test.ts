import request from 'supertest';
import { RequestLogEntry, createApiApp, createUser, issueAccessToken } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { logInToConsole } from './support/console-agent';
import { Integrator } from './support/integrator';
import { OrderingBrand, approveOrder, placeOrder, seedOrderingBrand } from './support/orders';
import { useTestApp } from './support/test-app';
import { testPasswordHasher } from './support/test-password-hasher';

const PASSWORD = 'correct horse battery staple';
const HOUR_MS = 3_600_000;

/** The text of an HTML fragment: tags dropped, whitespace squeezed. */
const textOf = (html: string): string =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** The HTML of the element opening with `opening` (a unique attribute) up to its closing `tag`. */
function elementOf(html: string, opening: string, tag: string): string {
  const found = html.indexOf(opening);
  if (found < 0) throw new Error(`no element with ${opening}`);
  const start = html.lastIndexOf('<', found);
  return html.slice(start, html.indexOf(`</${tag}>`, start));
}

for (const dialect of testDialects()) {
  describe(`console: integration health [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const deps = () => ({
      uow: t.storage.uow,
      clock: t.clock,
      hasher: nodeSecretHasher,
      passwordHasher: testPasswordHasher,
    });

    /** A brand taking orders, with a user who can log in, approved orders, one of them exported, and a webhook endpoint. */
    async function aBrand(name: string) {
      const shop: OrderingBrand = await seedOrderingBrand(t, { integrator: { brandName: name } });
      const who: Integrator = shop.brand;
      const email = `anna@${name.toLowerCase()}.example`;
      await createUser(deps(), { brandId: who.brandId, email, name: `Anna of ${name}`, password: PASSWORD });
      const endpoint = await request(t.server)
        .post('/v10/webhook-endpoints')
        .set(who.headers)
        .send({ url: `https://${name.toLowerCase()}.example/hooks`, events: ['*'] });
      expect(endpoint.status).toBe(201);
      const orders: number[] = [];
      for (let i = 0; i < 3; i++) {
        const order = await placeOrder(t, who, shop.channels.b2b, {
          customer_number: 'C-B2B',
          lines: [{ sku: 'TEE-S', quantity: 1 }],
        });
        orders.push(order['id'] as number);
        await approveOrder(t, who, order['id'] as number);
      }
      const marked = await request(t.server)
        .post('/v10/orders/mark-as-exported')
        .set(who.headers)
        .send({ orders: [{ order_id: orders[0], system_id: `ERP-${name}`, regulate_inventory: false }] });
      expect(marked.status).toBe(200);
      // An app whose every request is written here, hours apart, with statuses an API call cannot be made to answer.
      const { app } = await createApiApp(deps(), { brandId: who.brandId, name: `${name} Shop <web>` });
      const { token } = await issueAccessToken(deps(), { userId: who.userId, appId: app.id });
      const entry = (hoursAgo: number, status: number, route: string, durationMs: number): RequestLogEntry => ({
        brandId: who.brandId,
        userId: who.userId,
        appId: app.id,
        tokenId: token.id,
        method: 'GET',
        path: route.replace(':id', '7'),
        route,
        status,
        durationMs,
        requestId: `${name}-${hoursAgo}-${status}`,
        traceId: null,
        createdAt: new Date(Date.parse(t.clock.now()) - hoursAgo * HOUR_MS).toISOString(),
      });
      await t.storage.uow.run((tx) =>
        tx.requestLogs.append([
          entry(0, 200, '/v10/products', 20),
          entry(2, 500, '/v10/orders', 900),
          entry(5, 404, '/v10/orders/:id', 5),
          // Two days ago: outside the page's period.
          entry(48, 500, '/v10/orders', 50_000),
        ]),
      );
      return { who, email, app, orders, endpointId: endpoint.body.webhook_endpoint.id as number };
    }

    let north: Awaited<ReturnType<typeof aBrand>>;
    let south: Awaited<ReturnType<typeof aBrand>>;
    beforeAll(async () => {
      north = await aBrand('North');
      south = await aBrand('South');
      // A request that fails, made through the API.
      expect((await request(t.server).get('/v10/orders/999999999').set(north.who.headers)).status).toBe(404);
      await t.flushRequestLog();
    });

    const page = async (email: string) => {
      const { agent } = await logInToConsole(t.server, email, PASSWORD);
      const answer = await agent.get('/console/health');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      return answer.text;
    };

    it('redirects to the login page without a session', async () => {
      const answer = await request(t.server).get('/console/health');
      expect(answer.status).toBe(303);
      expect(answer.headers['location']).toBe('/console/login');
    });

    it("shows each app's requests by hour and status class, its error rate and slowest routes", async () => {
      const html = await page(north.email);
      expect(html).toContain('<a href="/console/health" aria-current="page">Integration health</a>');
      const shop = elementOf(html, `data-app-id="${north.app.id}"`, 'section');
      // Escaped as every name the console shows.
      expect(shop).toContain('North Shop &lt;web&gt;');
      expect(textOf(shop)).toContain('3 requests, 2 refused or failed (4xx and 5xx): 66.7 %');
      // The chart: an image with a title and a description, a bar per hour with its figures.
      expect(shop).toMatch(/<svg class="chart"[^>]*role="img" aria-labelledby="app-\d+-title app-\d+-desc"/);
      expect(shop).toContain('<title id="app-');
      expect(shop).toMatch(/<title>09:00 UTC: 1 requests \(2xx: 1, 3xx: 0, 4xx: 0, 5xx: 0\)<\/title>/);
      expect(shop).toMatch(/<title>07:00 UTC: 1 requests \(2xx: 0, 3xx: 0, 4xx: 0, 5xx: 1\)<\/title>/);
      expect(shop.match(/<g data-hour=/g)).toHaveLength(24);
      expect(shop.match(/data-class="5xx"/g)).toHaveLength(1);
      // The same figures as a table.
      expect(shop).toMatch(
        /<td><time datetime="2026-03-01T04:00:00.000Z">[^<]*<\/time><\/td><td>0<\/td><td>0<\/td><td>1<\/td><td>0<\/td>/,
      );
      // Slowest first, by the longest request; the one two days ago is not among them.
      const routes = textOf(elementOf(shop, 'aria-label="Slowest routes', 'table'));
      expect(routes).toBe(
        'Method Route Requests Longest (ms) Mean (ms) GET /v10/orders 1 900 900 GET /v10/products 1 20 20 GET /v10/orders/:id 1 5 5',
      );
      expect(shop).toContain(`/console/requests?status=errors&amp;app_id=${north.app.id}`);

      // The integration's own app made the seeding requests through the API, a 404 among them.
      const erp = elementOf(html, `data-app-id="${north.who.appId}"`, 'section');
      expect(textOf(erp)).toMatch(/\d+ requests, 1 refused or failed \(4xx and 5xx\): \d+\.\d %/);
      expect(textOf(erp)).toContain('/v10/orders/:id');
    });

    it('shows what each exporting system has not exported, and each webhook endpoint’s deliveries', async () => {
      const html = await page(north.email);
      const erp = elementOf(html, 'data-system-id="ERP-North"', 'table');
      expect(textOf(elementOf(erp, 'data-document-type="order"', 'tr'))).toBe(
        'Orders (approved) 2 2026-03-01 09:00:00 UTC',
      );
      const endpoint = textOf(elementOf(html, `data-endpoint-id="${north.endpointId}"`, 'tr'));
      // The orders' events were queued for it; the test app runs no dispatcher, so they wait.
      expect(endpoint).toMatch(/^https:\/\/north\.example\/hooks 0 0 – [1-9]\d* 2026-03-01 09:00:00 UTC$/);
    });

    it("never shows another brand's apps, systems or endpoints", async () => {
      const html = await page(north.email);
      for (const theirs of [
        'South',
        'south.example',
        `data-app-id="${south.app.id}"`,
        `data-endpoint-id="${south.endpointId}"`,
      ])
        expect(html).not.toContain(theirs);
      const southHtml = await page(south.email);
      expect(southHtml).toContain('data-system-id="ERP-South"');
      expect(southHtml).not.toContain('North');
      expect(textOf(elementOf(southHtml, `data-app-id="${south.app.id}"`, 'section'))).toContain(
        '3 requests, 2 refused or failed',
      );
    });
  });
}
