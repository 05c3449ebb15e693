// @slow: starts a real Chromium beside the jest workers; started first (tooling/config/jest-sequencer.js).
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { RequestLogEntry, createApiApp, createUser, issueAccessToken } from '@brand/core';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { saveScreenshot, useBrowser } from './support/browser';
import { approveOrder, placeOrder, seedOrderingBrand } from './support/orders';
import { useTestApp } from './support/test-app';
import { testPasswordHasher } from './support/test-password-hasher';

const PASSWORD = 'correct horse battery staple';
const HOUR_MS = 3_600_000;

// The console's integration health page as a user opens it in the system Chromium: log in, follow
// the navigation, see each app's chart drawn (an SVG with its accessible name), its error rate and
// slowest routes, an exporting system's backlog and a webhook endpoint's waiting deliveries. The
// figures and the brand scoping are tested without a browser in console-integration-health.test.ts.
// One dialect.
for (const dialect of oneTestDialect()) {
  describe(`console integration health in a real browser [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const browser = useBrowser();
    const baseUrl = () => `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;

    beforeAll(async () => {
      const deps = { uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher, passwordHasher: testPasswordHasher };
      const shop = await seedOrderingBrand(t, { integrator: { brandName: 'North Shoes' } });
      const who = shop.brand;
      await createUser(deps, {
        brandId: who.brandId,
        email: 'anna@north.example',
        name: 'Anna Berg',
        password: PASSWORD,
      });
      const hook = await request(t.server)
        .post('/v10/webhook-endpoints')
        .set(who.headers)
        .send({ url: 'https://wms.north.example/hooks', events: ['order.created'], description: 'Warehouse' });
      expect(hook.status).toBe(201);
      const orders: number[] = [];
      for (let i = 0; i < 5; i++) {
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
        .send({
          orders: orders.slice(0, 2).map((id) => ({ order_id: id, system_id: 'sap-erp', regulate_inventory: false })),
        });
      expect(marked.status).toBe(200);

      // A day of a webshop's traffic, written straight to the log: busy daytime hours, a bad hour of 5xx.
      const { app } = await createApiApp(deps, { brandId: who.brandId, name: 'Webshop' });
      const { token } = await issueAccessToken(deps, { userId: who.userId, appId: app.id });
      const entries: RequestLogEntry[] = [];
      for (let hoursAgo = 0; hoursAgo < 24; hoursAgo++) {
        const busy = 20 + Math.round(30 * Math.sin(((24 - hoursAgo) / 24) * Math.PI));
        for (let i = 0; i < busy; i++) {
          const status = hoursAgo === 6 && i % 3 === 0 ? 503 : i % 9 === 0 ? 422 : i % 25 === 0 ? 304 : 200;
          const route = i % 4 === 0 ? '/v10/products' : i % 4 === 1 ? '/v10/orders/:id' : '/v10/customers';
          entries.push({
            brandId: who.brandId,
            userId: who.userId,
            appId: app.id,
            tokenId: token.id,
            method: 'GET',
            path: route.replace(':id', String(1000 + i)),
            route,
            status,
            durationMs: route === '/v10/products' ? 40 + ((i * 37) % 400) : 5 + (i % 30),
            requestId: `shop-${hoursAgo}-${i}`,
            traceId: null,
            // Within its hour (the test clock stands at a whole hour).
            createdAt: new Date(Date.parse(t.clock.now()) - hoursAgo * HOUR_MS + i * 1000).toISOString(),
          });
        }
      }
      await t.storage.uow.run((tx) => tx.requestLogs.append(entries));
      await t.flushRequestLog();
    });

    it("draws each app's requests, its error rate and slowest routes, the exports' backlog and the webhooks' deliveries", async () => {
      const page = await browser.newPage();
      await page.setViewportSize({ width: 1100, height: 900 });
      await page.goto(`${baseUrl()}/console`);
      await page.getByLabel('Email').fill('anna@north.example');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'Personal access tokens' }).waitFor();
      await page.getByRole('link', { name: 'Integration health' }).click();
      await page.getByRole('heading', { name: 'Integration health' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/console/health');

      // The chart is an image named by its title, with a bar per hour drawn at a real size.
      const chart = page.getByRole('img', { name: 'Requests of Webshop per hour, last 24 hours' });
      await chart.waitFor();
      const box = await chart.boundingBox();
      expect(box!.width).toBeGreaterThan(500);
      expect(box!.height).toBeGreaterThan(80);
      const bars = chart.locator('g[data-hour]');
      await expect(bars.count()).resolves.toBe(24);
      const failing = chart.locator('rect[data-class="5xx"]');
      await expect(failing.count()).resolves.toBe(1);
      expect((await failing.boundingBox())!.height).toBeGreaterThan(1);

      const webshop = page.locator('section.app', { has: chart });
      await expect(webshop.getByTestId('error-rate').textContent()).resolves.toMatch(/^\d+\.\d %$/);
      await expect(
        webshop.getByRole('table', { name: 'Slowest routes of Webshop' }).locator('tbody tr').first().textContent(),
      ).resolves.toMatch(/GET\s*\/v10\/products/);

      const backlog = page.getByRole('table', { name: 'Not yet exported to sap-erp' });
      await expect(backlog.locator('tbody tr').first().textContent()).resolves.toMatch(
        /Orders \(approved\)\s*3\s*2026-03-01/,
      );
      await expect(page.getByRole('link', { name: 'https://wms.north.example/hooks' }).isVisible()).resolves.toBe(true);

      await saveScreenshot(page, 'console-integration-health');
    });
  });
}
