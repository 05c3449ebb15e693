import { AccessToken, RequestLogEntry } from '../identity/identity.entities';
import { BrandRequestLogQuery } from '../identity/identity.ports';
import { contractBuilders } from './contract-builders';
import { ContractStorage, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of the identity repositories: brands, users, API apps, access tokens and the
 * request log.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s), so no test depends on another or on the database being empty.
 *
 * @example
 * describeIdentityContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeIdentityContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, aUser, anApp, aToken } = contractBuilders(uow, { at: T0 });

    // ---- identity ---------------------------------------------------------------------------

    describe('brands, users, apps and tokens', () => {
      it('stores a brand and finds it by id', async () => {
        const brand = await aBrand('Stored');

        const found = await uow().read((r) => r.brands.findById(brand.id));

        expect(found).toStrictEqual(brand);
      });

      it('finds no brand for an unknown id', async () => {
        expect(await uow().read((r) => r.brands.findById(987_654_321))).toBeNull();
      });

      it('names an existing brand no newer than any other as the first brand', async () => {
        const brand = await aBrand();

        const first = await uow().read((r) => r.brands.findFirst());

        expect(first).not.toBeNull();
        expect(first!.id).toBeLessThanOrEqual(brand.id);
      });

      it('stores a user and finds it by id', async () => {
        const brand = await aBrand();
        const user = await aUser(brand.id);

        expect(await uow().read((r) => r.users.findById(user.brandId, user.id))).toStrictEqual(user);
        expect(await uow().read((r) => r.users.findById(user.brandId, 987_654_321))).toBeNull();
        // Read within another brand, the user is missing: the brand is part of its key.
        const other = await aBrand();
        expect(await uow().read((r) => r.users.findById(other.id, user.id))).toBeNull();
        expect(await uow().read((r) => r.users.findByIdAnyBrand(user.id))).toStrictEqual(user);
      });

      it('stores apps with and without an internal code', async () => {
        const brand = await aBrand();
        const plain = await anApp(brand.id);
        const portal = await anApp(brand.id, 'partner-portal');

        expect(await uow().read((r) => r.apiApps.findById(plain.brandId, plain.id))).toStrictEqual(plain);
        expect(await uow().read((r) => r.apiApps.findById(portal.brandId, portal.id))).toStrictEqual(portal);
        expect(await uow().read((r) => r.apiApps.findById(portal.brandId, 987_654_321))).toBeNull();
        const other = await aBrand();
        expect(await uow().read((r) => r.apiApps.findById(other.id, portal.id))).toBeNull();
        expect(await uow().read((r) => r.apiApps.findByIdAnyBrand(portal.id))).toStrictEqual(portal);
      });

      it('finds an access token by its hash and by its id, scopes in order', async () => {
        const brand = await aBrand();
        const token = await aToken(await aUser(brand.id), await anApp(brand.id));

        expect(await uow().read((r) => r.accessTokens.findByHash(token.tokenHash))).toStrictEqual(token);
        expect(await uow().read((r) => r.accessTokens.findById(token.brandId, token.id))).toStrictEqual(token);
      });

      it("lists a user's access tokens newest first, revoked ones included, never another user's or brand's", async () => {
        const brand = await aBrand();
        const other = await aBrand();
        const user = await aUser(brand.id);
        const colleague = await aUser(brand.id);
        const app = await anApp(brand.id);
        const older = await aToken(user, app);
        const newer = await aToken(user, app);
        await aToken(colleague, app);
        await aToken(await aUser(other.id), await anApp(other.id));
        await uow().run((tx) => tx.accessTokens.revoke(older.brandId, older.id, '2026-02-01T10:00:00.000Z'));

        expect(await uow().read((r) => r.accessTokens.listForUser(brand.id, user.id))).toStrictEqual([
          newer,
          { ...older, revokedAt: '2026-02-01T10:00:00.000Z' },
        ]);
        expect(await uow().read((r) => r.accessTokens.listForUser(other.id, user.id))).toStrictEqual([]);
      });

      it("lists a brand's apps oldest first, never another brand's", async () => {
        const brand = await aBrand();
        const other = await aBrand();
        const first = await anApp(brand.id);
        const second = await anApp(brand.id);
        await anApp(other.id);

        expect(await uow().read((r) => r.apiApps.listForBrand(brand.id))).toStrictEqual([first, second]);
      });

      it('finds no access token for an unknown hash or id', async () => {
        expect(await uow().read((r) => r.accessTokens.findByHash('no-such-hash'))).toBeNull();
        expect(await uow().read((r) => r.accessTokens.findByIdAnyBrand(987_654_321))).toBeNull();
      });

      it('advances the credentials revision with a revocation that commits, not with one that changes nothing or rolls back', async () => {
        const brand = await aBrand();
        const token = await aToken(await aUser(brand.id), await anApp(brand.id));
        const revision = () => uow().read((r) => r.accessTokens.credentialsRevision());
        const before = await revision();

        await expect(
          uow().run(async (tx) => {
            await tx.accessTokens.revoke(token.brandId, token.id, '2026-02-01T10:00:00.000Z');
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        expect(await revision()).toBe(before);

        await uow().run((tx) => tx.accessTokens.revoke(token.brandId, token.id, '2026-02-01T10:00:00.000Z'));
        const afterRevocation = await revision();
        expect(afterRevocation).toBeGreaterThan(before);

        await uow().run((tx) => tx.accessTokens.revoke(token.brandId, token.id, '2026-03-01T10:00:00.000Z'));
        expect(await revision()).toBe(afterRevocation);
      });

      it('revokes a token once: true the first time, false after, and keeps the first revocation instant', async () => {
        const brand = await aBrand();
        const token = await aToken(await aUser(brand.id), await anApp(brand.id));

        const first = await uow().run((tx) =>
          tx.accessTokens.revoke(token.brandId, token.id, '2026-02-01T10:00:00.000Z'),
        );
        const second = await uow().run((tx) =>
          tx.accessTokens.revoke(token.brandId, token.id, '2026-03-01T10:00:00.000Z'),
        );

        expect(first).toBe(true);
        expect(second).toBe(false);
        expect(await uow().read((r) => r.accessTokens.findByHash(token.tokenHash))).toStrictEqual({
          ...token,
          revokedAt: '2026-02-01T10:00:00.000Z',
        });
      });

      it("lists a user's requests newest first, up to the limit, only of that brand and user", async () => {
        const brand = await aBrand();
        const other = await aBrand();
        const user = await aUser(brand.id);
        const colleague = await aUser(brand.id);
        const app = await anApp(brand.id);
        const token = await aToken(user, app);
        const entry = (path: string, createdAt: string, overrides: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
          brandId: brand.id,
          userId: user.id,
          appId: app.id,
          tokenId: token.id,
          method: 'GET',
          path,
          route: null,
          status: 200,
          durationMs: 12,
          requestId: `req-${path}`,
          traceId: null,
          createdAt,
          ...overrides,
        });
        const first = entry('/v10/customers', '2026-01-01T10:00:00.000Z');
        const second = entry('/v10/orders', '2026-01-01T10:00:01.000Z', {
          method: 'POST',
          status: 201,
          durationMs: 40,
        });
        const third = entry('/v10/orders/7', '2026-01-01T10:00:02.000Z', { status: 404 });

        await uow().run((tx) => tx.requestLogs.append([first, second]));
        await uow().run((tx) =>
          tx.requestLogs.append([
            entry('/colleague', '2026-01-01T10:00:03.000Z', { userId: colleague.id }),
            entry('/other-brand', '2026-01-01T10:00:04.000Z', { brandId: other.id }),
          ]),
        );
        await uow().run((tx) => tx.requestLogs.append([third]));

        expect(await uow().read((r) => r.requestLogs.listForUser(brand.id, user.id, 10))).toStrictEqual([
          third,
          second,
          first,
        ]);
        expect(await uow().read((r) => r.requestLogs.listForUser(brand.id, user.id, 2))).toStrictEqual([third, second]);
        expect(await uow().read((r) => r.requestLogs.listForUser(other.id, colleague.id, 10))).toStrictEqual([]);
      });

      it("lists a brand's requests of every user and app newest first, by app, status range and from a position", async () => {
        const brand = await aBrand();
        const other = await aBrand();
        const user = await aUser(brand.id);
        const colleague = await aUser(brand.id);
        const stranger = await aUser(other.id);
        const erp = await anApp(brand.id);
        const shop = await anApp(brand.id);
        const foreignApp = await anApp(other.id);
        const erpToken = await aToken(user, erp);
        const shopToken = await aToken(colleague, shop);
        const foreignToken = await aToken(stranger, foreignApp);
        const at = (second: number) => `2026-01-01T10:00:${String(second).padStart(2, '0')}.000Z`;
        const entry = (path: string, createdAt: string, status: number, by: AccessToken): RequestLogEntry => ({
          brandId: by.brandId,
          userId: by.userId,
          appId: by.appId,
          tokenId: by.id,
          method: 'GET',
          path,
          route: null,
          status,
          durationMs: 5,
          requestId: `req-${path}`,
          traceId: null,
          createdAt,
        });
        // Recorded out of time order (a later flush holds an earlier request), with two requests of one instant.
        await uow().run((tx) =>
          tx.requestLogs.append([
            entry('/b', at(2), 200, erpToken),
            entry('/d', at(4), 404, shopToken),
            entry('/foreign', at(5), 500, foreignToken),
          ]),
        );
        await uow().run((tx) =>
          tx.requestLogs.append([
            entry('/a', at(1), 299, erpToken),
            entry('/c1', at(3), 500, erpToken),
            entry('/c2', at(3), 599, shopToken),
            entry('/e', at(6), 400, erpToken),
            entry('/z', at(7), 302, shopToken),
          ]),
        );
        const list = (query: Partial<BrandRequestLogQuery>) =>
          uow().read((r) =>
            r.requestLogs.listForBrand({
              brandId: brand.id,
              appId: null,
              status: null,
              before: null,
              limit: 10,
              ...query,
            }),
          );
        const paths = async (query: Partial<BrandRequestLogQuery>) => (await list(query)).map((e) => e.path);

        const all = await list({});
        expect(all.map((e) => e.path)).toStrictEqual(['/z', '/e', '/d', '/c2', '/c1', '/b', '/a']);
        expect(all[3]).toStrictEqual({ ...entry('/c2', at(3), 599, shopToken), id: all[3]!.id });
        expect(new Set(all.map((e) => e.id)).size).toBe(7);
        expect(await paths({ limit: 3 })).toStrictEqual(['/z', '/e', '/d']);
        const c2 = all[3]!;
        // Strictly older than the position: its instant's other request (a lower id) comes next.
        expect(await paths({ before: { createdAt: c2.createdAt, id: c2.id } })).toStrictEqual(['/c1', '/b', '/a']);
        expect(await paths({ before: { createdAt: at(3), id: 0 } })).toStrictEqual(['/b', '/a']);
        expect(await paths({ appId: shop.id })).toStrictEqual(['/z', '/d', '/c2']);
        expect(await paths({ appId: foreignApp.id })).toStrictEqual([]);
        expect(await paths({ status: { min: 200, max: 299 } })).toStrictEqual(['/b', '/a']);
        expect(await paths({ status: { min: 400, max: 499 } })).toStrictEqual(['/e', '/d']);
        expect(await paths({ status: { min: 500, max: 599 } })).toStrictEqual(['/c2', '/c1']);
        expect(await paths({ status: { min: 400, max: 599 }, appId: erp.id, limit: 1 })).toStrictEqual(['/e']);
        expect(
          await paths({ status: { min: 400, max: 599 }, appId: erp.id, before: { createdAt: at(6), id: all[1]!.id } }),
        ).toStrictEqual(['/c1']);
        const foreign = await list({ brandId: other.id });
        expect(foreign).toStrictEqual([{ ...entry('/foreign', at(5), 500, foreignToken), id: foreign[0]?.id }]);
      });
    });
  });
}
