// @slow: starts a real Chromium beside the jest workers; started first (tooling/config/jest-sequencer.js).
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { CONSOLE_REQUESTS_PER_PAGE, createApiApp, createBrand, createUser, issueAccessToken } from '@brand/core';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { saveScreenshot, useBrowser } from './support/browser';
import { useTestApp } from './support/test-app';
import { testPasswordHasher } from './support/test-password-hasher';

const PASSWORD = 'correct horse battery staple';

// The console's request log as a user goes through it in the system Chromium: log in by typing,
// open the section, see the brand's integrations at work, filter to one app's errors, page to older
// requests, and see a new API request appear. The rules (brands, bad filters, escaping) are tested
// without a browser in console-request-log.test.ts. One dialect.
for (const dialect of oneTestDialect()) {
  describe(`console request log in a real browser [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const browser = useBrowser();
    const baseUrl = () => `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    let erp: { accessToken: string; appKey: string };
    let shop: { accessToken: string; appKey: string };

    beforeAll(async () => {
      const deps = { uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher, passwordHasher: testPasswordHasher };
      const brand = await createBrand(deps, { name: 'North Shoes', currency: 'EUR' });
      const anna = await createUser(deps, {
        brandId: brand.id,
        email: 'anna@north.example',
        name: 'Anna Berg',
        password: PASSWORD,
      });
      const bert = await createUser(deps, { brandId: brand.id, email: 'bert@north.example', name: 'Bert Olsen' });
      const erpApp = await createApiApp(deps, { brandId: brand.id, name: 'Warehouse ERP' });
      const shopApp = await createApiApp(deps, { brandId: brand.id, name: 'Webshop' });
      erp = {
        accessToken: (await issueAccessToken(deps, { userId: anna.id, appId: erpApp.app.id })).accessToken,
        appKey: erpApp.appKey,
      };
      shop = {
        accessToken: (await issueAccessToken(deps, { userId: bert.id, appId: shopApp.app.id })).accessToken,
        appKey: shopApp.appKey,
      };
    });

    /** An API request of an integration, a few seconds after the previous one; answers its status. */
    async function call(
      token: { accessToken: string; appKey: string },
      method: 'get' | 'post',
      path: string,
      body?: object,
    ): Promise<number> {
      t.clock.advance(4000);
      const sent = request(t.server)
        [method](path)
        .set({ Authorization: `Bearer ${token.accessToken}`, 'X-Service-App-Key': token.appKey });
      return (await (body ? sent.send(body) : sent)).status;
    }

    it("shows the brand's requests, filters one app's errors, pages to older ones and shows a new one", async () => {
      // An ERP polling orders for a while, then a mix of both integrations' work, newest last.
      for (let i = 0; i < CONSOLE_REQUESTS_PER_PAGE; i += 1) expect(await call(erp, 'get', '/v10/orders')).toBe(200);
      expect(await call(shop, 'get', '/v10/customers?limit=20')).toBe(200);
      expect(await call(erp, 'post', '/v10/customer-groups', { code: 'B2B', name: 'Wholesale' })).toBe(201);
      expect(await call(erp, 'get', '/v10/orders/999999')).toBe(404);
      expect(await call(shop, 'post', '/v10/customer-groups', { name: 'Missing code' })).toBe(422);
      expect(await call(erp, 'get', '/v10/customer-groups')).toBe(200);
      expect(await call(shop, 'get', '/v10/orders/123456')).toBe(404);
      await t.flushRequestLog();

      const page = await browser.newPage();
      await page.goto(`${baseUrl()}/console`);
      await page.getByLabel('Email').fill('anna@north.example');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'Personal access tokens' }).waitFor();
      await page.getByRole('link', { name: 'Request log' }).click();
      await page.getByRole('heading', { name: 'Request log' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/console/requests');

      const rows = page.locator('tbody tr');
      await expect(rows.count()).resolves.toBe(CONSOLE_REQUESTS_PER_PAGE);
      // Newest first, a colleague's app included.
      await expect(rows.nth(0).textContent()).resolves.toMatch(
        /GET\s*\/v10\/orders\/123456\s*404.*Webshop.*Bert Olsen/,
      );
      await expect(rows.nth(1).textContent()).resolves.toMatch(
        /GET\s*\/v10\/customer-groups\s*200.*Warehouse ERP.*Anna Berg/,
      );
      await saveScreenshot(page, 'console-request-log', { fullPage: false });

      await page.getByLabel('Status').selectOption({ label: 'Errors (4xx and 5xx)' });
      await page.getByLabel('App').selectOption({ label: 'Warehouse ERP' });
      await page.getByRole('button', { name: 'Show requests' }).click();
      await page.waitForURL(/status=errors/);
      await expect(rows.count()).resolves.toBe(1);
      await expect(rows.nth(0).textContent()).resolves.toMatch(/GET\s*\/v10\/orders\/999999\s*404.*Warehouse ERP/);

      await page.getByLabel('Status').selectOption({ label: 'Any status' });
      await page.getByLabel('App').selectOption({ label: 'Every app' });
      await page.getByRole('button', { name: 'Show requests' }).click();
      await page.getByRole('link', { name: 'Older requests' }).click();
      await page.getByRole('link', { name: 'Newest requests' }).waitFor();
      // 50 polls and 6 others: the older page holds the 6 oldest polls.
      await expect(rows.count()).resolves.toBe(6);
      for (const text of await rows.allTextContents()) expect(text).toMatch(/GET\s*\/v10\/orders\s*200.*Warehouse ERP/);
      await expect(page.getByRole('link', { name: 'Older requests' }).count()).resolves.toBe(0);

      // A request the API answers now is on the newest page once written.
      expect(await call(shop, 'get', '/v10/products')).toBe(200);
      await t.flushRequestLog();
      await page.getByRole('link', { name: 'Newest requests' }).click();
      await page.locator('tbody tr').first().filter({ hasText: '/v10/products' }).waitFor();
      await expect(rows.nth(0).textContent()).resolves.toMatch(/GET\s*\/v10\/products\s*200.*Webshop.*Bert Olsen/);
    });
  });
}
