// @slow: starts a real Chromium beside the jest workers; started first (tooling/config/jest-sequencer.js).
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApiApp, createBrand, createUser, issueAccessToken } from '@brand/core';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { saveScreenshot, useBrowser } from './support/browser';
import { useTestApp } from './support/test-app';
import { testPasswordHasher } from './support/test-password-hasher';

const PASSWORD = 'correct horse battery staple';

// The console's apps as a user goes through them in the system Chromium: log in by typing, create
// an app (its key shown once), change its redirect URIs, rotate its key. The rules (CSRF, brands,
// bad input, every process) are tested without a browser in console-apps.test.ts. One dialect.
for (const dialect of oneTestDialect()) {
  describe(`console apps in a real browser [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const browser = useBrowser();
    const deps = () => ({
      uow: t.storage.uow,
      clock: t.clock,
      hasher: nodeSecretHasher,
      passwordHasher: testPasswordHasher,
    });
    let brandId: number;
    let userId: number;
    const baseUrl = () => `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;

    beforeAll(async () => {
      const brand = await createBrand(deps(), { name: 'North Shoes', currency: 'EUR' });
      brandId = brand.id;
      userId = (
        await createUser(deps(), { brandId, email: 'anna@north.example', name: 'Anna Berg', password: PASSWORD })
      ).id;
      await createApiApp(deps(), {
        brandId,
        name: 'Warehouse ERP',
        internalCode: 'erp-link',
        redirectUris: ['https://erp.north.example/oauth/callback'],
      });
    });

    const customersWith = (accessToken: string, appKey: string) =>
      request(t.server)
        .get('/v10/customers')
        .set({ Authorization: `Bearer ${accessToken}`, 'X-Service-App-Key': appKey });

    it('creates an app whose key is shown once, edits its redirect URIs and rotates its key', async () => {
      const page = await browser.newPage();
      await page.goto(`${baseUrl()}/console`);
      await page.getByLabel('Email').fill('anna@north.example');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Apps' }).click();
      await page.getByRole('heading', { name: 'Apps', exact: true }).waitFor();

      await page.getByLabel('Name').fill('Webshop');
      await page
        .getByLabel(/^Redirect URIs/)
        .fill('https://shop.north.example/callback\nhttp://localhost:3000/callback');
      await page.getByRole('button', { name: 'Create app' }).click();
      const appKey = ((await page.getByTestId('new-app-key').textContent()) ?? '').trim();
      const clientId = ((await page.getByTestId('client-id').textContent()) ?? '').trim();
      expect(appKey).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(clientId).toMatch(/^app_/);
      await saveScreenshot(page, 'console-apps');
      const app = (await t.storage.uow.read((r) => r.apiApps.listForBrand(brandId))).find(
        (each) => each.clientId === clientId,
      )!;
      expect(app.name).toBe('Webshop');
      const { accessToken } = await issueAccessToken(deps(), { userId, appId: app.id });
      expect((await customersWith(accessToken, appKey)).status).toBe(200);

      await page.goto(`${baseUrl()}/console/apps`);
      expect(await page.content()).not.toContain(appKey);
      await page.getByRole('link', { name: 'Webshop' }).click();
      await page.getByRole('heading', { name: 'Webshop' }).waitFor();
      await page.getByLabel(/^Redirect URIs/).fill('https://shop.north.example/v2/callback');
      await page.getByRole('button', { name: 'Save redirect URIs' }).click();
      await page.getByTestId('redirect-uris').getByText('https://shop.north.example/v2/callback').waitFor();
      expect(await t.storage.uow.read((r) => r.apiApps.findRedirectUris(brandId, app.id))).toEqual([
        'https://shop.north.example/v2/callback',
      ]);

      await page.getByRole('link', { name: 'Rotate the key…' }).click();
      await page.getByRole('button', { name: 'Rotate the key now' }).click();
      const newKey = ((await page.getByTestId('new-app-key').textContent()) ?? '').trim();
      expect(newKey).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(newKey).not.toBe(appKey);
      expect((await customersWith(accessToken, appKey)).status).toBe(401);
      expect((await customersWith(accessToken, newKey)).status).toBe(200);
    });
  });
}
