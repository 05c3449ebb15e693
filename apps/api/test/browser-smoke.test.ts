// @slow: starts a real Chromium beside the jest workers; started first (tooling/config/jest-sequencer.js).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { findChromium, saveScreenshot, useBrowser } from './support/browser';
import { useTestApp } from './support/test-app';

// The harness of the browser tests (support/browser.ts) on pages the app serves already: the
// system Chromium starts, loads a page over a loopback port, runs its scripts, and reads an
// answer. What these pages do is tested without a browser in openapi-and-docs.test.ts and
// authentication.test.ts. No SQL is involved: one dialect.
for (const dialect of oneTestDialect()) {
  describe(`a real browser on the app [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const browser = useBrowser();
    const baseUrl = () => `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;

    it('renders the API reference: Swagger UI fetches the OpenAPI document and shows its title and operations', async () => {
      const page = await browser.newPage();
      await page.goto(`${baseUrl()}/docs`);

      // Both come from /openapi.json, so they appear only once the page's scripts ran and fetched it.
      const title = page.getByRole('heading', { name: /^Brand commerce platform API/ });
      await title.waitFor({ state: 'visible' });
      const listCustomers = page.locator('.opblock-summary', { hasText: '/v10/customers' }).first();
      await listCustomers.waitFor({ state: 'visible' });

      expect(page.url()).toBe(`${baseUrl()}/docs/`);
      expect(await page.title()).toBe('Brand API reference');
      // Only with SCREENSHOTS=1; the reference runs to thousands of pixels, its top is what shows it.
      await saveScreenshot(page, 'api-reference', { fullPage: false });
    });

    it('shows the JSON:API error envelope when a protected endpoint is opened without a token', async () => {
      const page = await browser.newPage();
      const response = await page.goto(`${baseUrl()}/v10/customers`);

      expect(response?.status()).toBe(401);
      expect(response?.headers()['www-authenticate']).toBe('Bearer realm="brand"');
      // What the browser displays is the body as text: parse what is on the screen.
      const shown = JSON.parse(await page.locator('body').innerText()) as unknown;
      expect(shown).toEqual({
        errors: [
          {
            status: 401,
            code: 'unauthenticated',
            title: 'Unauthorized',
            detail: expect.stringContaining('access token is required'),
          },
        ],
      });
    });
  });
}

describe('finding the system Chromium', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'brand-chromium-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const executable = (name: string): string => {
    const path = join(dir, name);
    writeFileSync(path, '#!/bin/sh\n');
    chmodSync(path, 0o755);
    return path;
  };

  it("takes Debian's chromium, or Ubuntu's chromium-browser, from PATH", () => {
    const ubuntu = executable('chromium-browser');
    expect(findChromium({ PATH: dir })).toBe(ubuntu);
    const debian = executable('chromium');
    expect(findChromium({ PATH: dir })).toBe(debian);
  });

  it('fails naming what is missing and how the test command installs it, instead of skipping', () => {
    writeFileSync(join(dir, 'chromium'), 'not executable');
    expect(() => findChromium({ PATH: dir })).toThrow(
      /neither `chromium` nor `chromium-browser` is on PATH.*ensure-chromium\.sh/,
    );
    expect(() => findChromium({ PATH: dir, CHROMIUM_PATH: join(dir, 'chromium') })).toThrow(
      `CHROMIUM_PATH=${join(dir, 'chromium')} is not an executable file`,
    );
  });
});
