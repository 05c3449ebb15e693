import {
  ALL_SCOPES,
  createBrand,
  createStoredTokenVerifier,
  FixedClock,
  listCustomerGroups,
  listCustomers,
  listOrderChannels,
  listOrders,
  listPaymentTerms,
  listSuppliers,
  logIn,
  systemClock,
} from '@brand/core';
import { Storage } from '@brand/persistence-kysely';
import { openTestStorage, testDialects } from '@brand/persistence-kysely/testing';
import { seedDemoIfEmpty } from '../../src/cli/demo';
import { nodeSecretHasher } from '../../src/infrastructure/node-secret-hasher';
import { brand, brandJson, CliTestDatabase, openCliTestDatabase } from './cli-test-support';
import { testPasswordHasher } from '../support/test-password-hasher';

const CURL = /curl -H "Authorization: Bearer (\S+)" -H "X-Service-App-Key: (\S+)" (\S+)\/v10\/customers/;

async function demoContents(storage: Storage, brandId: number) {
  const request = { brandId, query: { includes: ['addresses'] } };
  const [customers, suppliers, groups, terms] = await Promise.all([
    listCustomers({ uow: storage.uow }, request),
    listSuppliers({ uow: storage.uow }, request),
    listCustomerGroups({ uow: storage.uow }, { brandId, query: {} }),
    listPaymentTerms({ uow: storage.uow }, { brandId, query: {} }),
  ]);
  return {
    customers: customers.page.items,
    suppliers: suppliers.page.items,
    groups: groups.page.items,
    terms: terms.page.items,
  };
}

function verifierOf(storage: Storage) {
  return createStoredTokenVerifier({ uow: storage.uow, clock: systemClock, hasher: nodeSecretHasher });
}

for (const dialect of testDialects()) {
  describe(`brand CLI demo [${dialect}]`, () => {
    let db: CliTestDatabase;

    beforeEach(async () => {
      db = await openCliTestDatabase(dialect);
    });

    afterEach(async () => {
      await db.close();
    });

    it('fills an empty database with a demo brand and prints a curl line carrying its token', async () => {
      const run = await brand(db.url, 'demo');

      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      const [, accessToken, appKey, baseUrl] = CURL.exec(run.stdout)!;
      expect(baseUrl).toBe('http://localhost:3000');
      const storage = await db.storage();
      const principal = await verifierOf(storage).verify({
        accessToken: accessToken!,
        appKey: appKey!,
        requireAppKey: true,
      });
      // The demo token may do everything: every scope of every area.
      expect(principal.scopes).toEqual(ALL_SCOPES);
      const brandRow = await storage.uow.read((r) => r.brands.findById(principal.brandId));
      expect(brandRow).toMatchObject({ name: 'Demo Brand', currency: 'EUR' });
      const contents = await demoContents(storage, principal.brandId);
      expect(contents.groups.map((g) => g.code).sort()).toEqual(['RETAIL', 'WHOLESALE']);
      expect(contents.terms.map((t) => [t.code, t.days])).toEqual(
        expect.arrayContaining([
          ['NET30', 30],
          ['NET14', 14],
        ]),
      );
      expect(contents.customers.length).toBeGreaterThanOrEqual(5);
      expect(contents.customers.every((c) => c.addresses.length > 0)).toBe(true);
      expect(contents.customers.every((c) => c.customerGroupId !== null && c.paymentTermsId !== null)).toBe(true);
      expect(contents.suppliers).toHaveLength(3);
      const products = await storage.uow.read((r) =>
        r.products.findByItemNumbers(principal.brandId, ['1001', '1002', '2001', '2002']),
      );
      expect(products).toHaveLength(4);
      expect(products.every((p) => p.variants.length === 3 && p.variants.every((v) => v.prices.length === 2))).toBe(
        true,
      );
      const balances = await storage.uow.read((r) =>
        r.stock.balances(
          principal.brandId,
          products.flatMap((p) => p.variants.map((v) => v.variant.id)),
        ),
      );
      expect(balances.reduce((sum, b) => sum + b.inStock, 0)).toBe(4 * (12 + 8 + 4));
      // Two channels with an order each; the orders hold 4 + 2 + 1 pieces and the webshop's order is approved and shipping.
      expect(balances.reduce((sum, b) => sum + b.reserved, 0)).toBe(7);
      const channels = await listOrderChannels({ uow: storage.uow }, { brandId: principal.brandId, query: {} });
      expect(channels.page.items.map((c) => [c.name, c.orderType, c.autoApprove])).toEqual([
        ['Wholesale ERP', 'b2b', false],
        ['Webshop', 'b2c', true],
      ]);
      const orders = await listOrders({ uow: storage.uow }, { brandId: principal.brandId, query: {} });
      expect(orders.page.items.map((o) => [o.customerNumber, o.status])).toEqual([
        ['C-1001', 'draft'],
        ['C-2001', 'approved'],
      ]);
      expect(run.stdout).toContain(`public id ${channels.page.items[0]!.publicId}`);
    });

    it('prints the demo credentials as one JSON object with --json', async () => {
      const demo = await brandJson(db.url, 'demo', '--base-url', 'https://api.example.test/');

      expect(demo).toMatchObject({
        brand_id: expect.any(Number),
        user_id: expect.any(Number),
        email: `admin-${demo.brand_id as number}@demo-brand.example`,
        password: expect.any(String),
        app_id: expect.any(Number),
        client_id: expect.stringMatching(/^app_[A-Za-z0-9_-]{24}$/),
        app_key: expect.any(String),
        token_id: expect.any(Number),
        access_token: expect.any(String),
        expires_at: expect.any(String),
      });
      const storage = await db.storage();
      await expect(
        logIn(
          { uow: storage.uow, clock: systemClock, passwordHasher: testPasswordHasher },
          { email: demo.email as string, password: demo.password as string, clientAddress: '127.0.0.1' },
        ),
      ).resolves.toMatchObject({ id: demo.user_id, brandId: demo.brand_id });
      expect(demo.curl).toBe(
        `curl -H "Authorization: Bearer ${demo.access_token as string}" -H "X-Service-App-Key: ${demo.app_key as string}" https://api.example.test/v10/customers`,
      );
    });

    it('makes a new demo brand on every run of the command', async () => {
      const first = await brandJson(db.url, 'demo');
      const second = await brandJson(db.url, 'demo');

      expect(second.brand_id).not.toBe(first.brand_id);
      const storage = await db.storage();
      expect(await demoContents(storage, second.brand_id as number)).toMatchObject({
        suppliers: expect.arrayContaining([expect.objectContaining({ supplierNumber: 'S-01' })]),
      });
    });
  });

  describe(`seedDemoIfEmpty on start [${dialect}]`, () => {
    let storage: Storage;
    const clock = new FixedClock('2026-03-01T09:00:00.000Z');

    beforeEach(async () => {
      storage = await openTestStorage(dialect);
    });

    afterEach(async () => {
      await storage.close();
    });

    it('seeds an empty database and logs a ready curl line with the token and app key', async () => {
      const lines: string[] = [];

      const demo = await seedDemoIfEmpty({
        storage,
        clock,
        hasher: nodeSecretHasher,
        passwordHasher: testPasswordHasher,
        log: (line) => lines.push(line),
        baseUrl: 'http://localhost:4000',
      });

      expect(demo).not.toBeNull();
      expect(lines.join('\n')).toContain(
        `curl -H "Authorization: Bearer ${demo!.accessToken}" -H "X-Service-App-Key: ${demo!.appKey}" http://localhost:4000/v10/customers`,
      );
      // The password is printed once, on its own line, and logs the demo admin in.
      expect(lines.filter((line) => line.includes(demo!.password))).toEqual([
        `Log in as ${demo!.email} with the password ${demo!.password} (shown only now).`,
      ]);
      await expect(
        logIn(
          { uow: storage.uow, clock, passwordHasher: testPasswordHasher },
          { email: demo!.email, password: demo!.password, clientAddress: '127.0.0.1' },
        ),
      ).resolves.toMatchObject({ id: demo!.userId, brandId: demo!.brandId, name: 'Demo Admin' });
      await expect(
        createStoredTokenVerifier({ uow: storage.uow, clock, hasher: nodeSecretHasher }).verify({
          accessToken: demo!.accessToken,
          appKey: demo!.appKey,
          requireAppKey: true,
        }),
      ).resolves.toMatchObject({ brandId: demo!.brandId, userId: demo!.userId, appId: demo!.appId });
      expect((await demoContents(storage, demo!.brandId)).customers.length).toBeGreaterThanOrEqual(5);
    });

    it('does nothing on a database that already has a brand', async () => {
      const existing = await createBrand({ uow: storage.uow, clock }, { name: 'Atelier Nord', currency: 'SEK' });
      const lines: string[] = [];

      const demo = await seedDemoIfEmpty({
        storage,
        clock,
        hasher: nodeSecretHasher,
        passwordHasher: testPasswordHasher,
        log: (line) => lines.push(line),
        baseUrl: 'http://localhost:3000',
      });

      expect(demo).toBeNull();
      expect(lines).toEqual([]);
      expect(await storage.uow.read((r) => r.brands.findFirst())).toEqual(existing);
      expect(await storage.uow.read((r) => r.brands.findById(existing.id + 1))).toBeNull();
    });

    it('seeds once when several processes start on the same empty database', async () => {
      const starts = await Promise.all(
        [1, 2, 3].map(() =>
          seedDemoIfEmpty({
            storage,
            clock,
            hasher: nodeSecretHasher,
            passwordHasher: testPasswordHasher,
            log: () => undefined,
            baseUrl: 'http://localhost:3000',
          }),
        ),
      );

      const seeded = starts.filter((demo) => demo !== null);
      expect(seeded).toHaveLength(1);
      expect(await storage.uow.read((r) => r.brands.findById(seeded[0]!.brandId + 1))).toBeNull();
    });
  });
}
