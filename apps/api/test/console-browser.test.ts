// @slow: starts a real Chromium beside the jest workers; started first (tooling/config/jest-sequencer.js).
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApiApp, createBrand, createUser } from '@brand/core';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { saveScreenshot, useBrowser } from './support/browser';
import { useTestApp } from './support/test-app';
import { testPasswordHasher } from './support/test-password-hasher';

const PASSWORD = 'correct horse battery staple';

// The console's personal access tokens as a user goes through them in the system Chromium: log in
// by typing, issue a token, see it once, revoke it. The rules (CSRF, brands, users, bad input) are
// tested without a browser in console-tokens.test.ts. One dialect.
for (const dialect of oneTestDialect()) {
  describe(`console in a real browser [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const browser = useBrowser();
    let appKey: string;
    const baseUrl = () => `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;

    beforeAll(async () => {
      const deps = { uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher, passwordHasher: testPasswordHasher };
      const brand = await createBrand(deps, { name: 'North Shoes', currency: 'EUR' });
      await createUser(deps, { brandId: brand.id, email: 'anna@north.example', name: 'Anna Berg', password: PASSWORD });
      appKey = (await createApiApp(deps, { brandId: brand.id, name: 'Warehouse ERP' })).appKey;
    });

    const customersWith = (accessToken: string) =>
      request(t.server)
        .get('/v10/customers')
        .set({ Authorization: `Bearer ${accessToken}`, 'X-Service-App-Key': appKey });

    it('logs in, issues a token shown once that works on the API, and revokes it', async () => {
      const page = await browser.newPage();
      await page.goto(`${baseUrl()}/console`);
      await page.getByLabel('Email').fill('anna@north.example');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'Personal access tokens' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/console/tokens');

      await page.getByLabel('App').selectOption({ label: 'Warehouse ERP' });
      await page.getByRole('checkbox', { name: /\(customers:read\)/ }).check();
      await page.getByRole('checkbox', { name: /\(orders:read\)/ }).check();
      await page.getByLabel('Expires in (days)').fill('30');
      await page.getByRole('button', { name: 'Issue token' }).click();
      const shown = page.getByTestId('new-token');
      const accessToken = (await shown.textContent())?.trim() ?? '';
      expect(accessToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      await saveScreenshot(page, 'console-tokens');
      expect((await customersWith(accessToken)).status).toBe(200);

      await page.goto(`${baseUrl()}/console/tokens`);
      expect(await page.content()).not.toContain(accessToken);
      const row = page.locator('tbody tr', { hasText: 'Warehouse ERP' });
      await expect(row.getByRole('cell', { name: 'active' }).count()).resolves.toBe(1);

      await row.getByRole('button', { name: 'Revoke' }).click();
      await page.locator('tbody tr', { hasText: 'revoked' }).waitFor();
      expect((await customersWith(accessToken)).status).toBe(401);
    });
  });
}
