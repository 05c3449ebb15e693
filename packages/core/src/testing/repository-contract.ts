import { Address } from '../addresses/address';
import { Customer, CustomerGroup, PaymentTerms } from '../customers/customer.entities';
import { customerListDefinition } from '../customers/customer.list-definitions';
import { syncCustomers } from '../customers/sync-customers';
import { createCustomerGroup } from '../customers/create-customer-group';
import { AccessToken, ApiApp, Brand, RequestLogEntry, User } from '../identity/identity.entities';
import { BrandRequestLogQuery } from '../identity/identity.ports';
import { ListQuery, RawListQuery } from '../listing/list-query';
import { runList } from '../listing/run-list';
import { DecodedCursor } from '../listing/validate-list-query';
import { FixedClock } from '../shared/clock.ports';
import { DomainError, isDomainError } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { Supplier } from '../suppliers/supplier.entities';
import { supplierListDefinition } from '../suppliers/supplier.list-definitions';
import {
  ContractStorage,
  insertBrand,
  PlannedFailure,
  SLOW,
  useContractStorage,
  walkByCursor,
  walkByOffset,
} from './contract-support';

export type { ContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

type AddressDraft = Omit<Address, 'id'>;

function anAddress(overrides: Partial<AddressDraft> = {}): AddressDraft {
  return {
    title: 'Head office',
    name: 'Receiving',
    address: 'Strandgade 1',
    address2: null,
    zip: '1401',
    city: 'København',
    region: null,
    country: 'DK',
    remoteErpId: null,
    ...overrides,
  };
}

function ascending(ids: number[]): number[] {
  return [...ids].sort((a, b) => a - b);
}

function byId<T extends { id: number }>(items: T[]): T[] {
  return [...items].sort((a, b) => a.id - b.id);
}

/**
 * The one repository contract every storage adapter must pass: the in-memory adapter, SQLite and
 * Postgres. `open` is called once per suite; every test makes its own brand(s), so tests do not
 * depend on each other or on the database being empty.
 *
 * @example
 * describeRepositoryContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeRepositoryContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);

    // ---- builders -------------------------------------------------------------------------

    const aBrand = (label = 'Brand'): Promise<Brand> => insertBrand(uow(), label, T0);

    async function aUser(brandId: number): Promise<User> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('users');
        const user: User = { id: id!, brandId, email: `user${id}@brand.example`, name: `User ${id}`, createdAt: T0 };
        await tx.users.insert(user);
        return user;
      });
    }

    async function anApp(brandId: number, internalCode: string | null = null): Promise<ApiApp> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('api_apps');
        const app: ApiApp = {
          id: id!,
          brandId,
          clientId: `app_contract_${id}_${Math.random().toString(36).slice(2)}`,
          name: `App ${id}`,
          appKeyHash: `app-key-hash-${id}`,
          internalCode,
          createdAt: T0,
        };
        await tx.apiApps.insert(app);
        return app;
      });
    }

    async function aToken(user: User, app: ApiApp, overrides: Partial<AccessToken> = {}): Promise<AccessToken> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('access_tokens');
        const token: AccessToken = {
          id: id!,
          brandId: user.brandId,
          userId: user.id,
          appId: app.id,
          tokenHash: `token-hash-${id}-${Math.random().toString(36).slice(2)}`,
          scopes: ['customers:read', 'orders:write', 'catalog:read'],
          expiresAt: '2027-01-01T00:00:00.000Z',
          revokedAt: null,
          createdAt: T0,
          ...overrides,
        };
        await tx.accessTokens.insert(token);
        return token;
      });
    }

    async function aCustomerGroup(brandId: number, code: string): Promise<CustomerGroup> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('customer_groups');
        const group: CustomerGroup = { id: id!, brandId, code, name: `Group ${code}`, createdAt: T0, updatedAt: T0 };
        await tx.customerGroups.insert(group);
        return group;
      });
    }

    async function somePaymentTerms(brandId: number, code: string, days = 30): Promise<PaymentTerms> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('payment_terms');
        const terms: PaymentTerms = { id: id!, brandId, code, name: `Net ${days}`, days, createdAt: T0, updatedAt: T0 };
        await tx.paymentTerms.insert(terms);
        return terms;
      });
    }

    /** Draws ids for the customer and its addresses inside `tx` and saves it. */
    async function saveNewCustomer(
      tx: Pick<Repositories, 'customers' | 'ids'>,
      brandId: number,
      fields: Partial<Omit<Customer, 'id' | 'brandId' | 'addresses'>> & { addresses?: AddressDraft[] } = {},
    ): Promise<Customer> {
      const { addresses = [], ...rest } = fields;
      const [id] = await tx.ids.next('customers');
      const addressIds = addresses.length > 0 ? await tx.ids.next('customer_addresses', addresses.length) : [];
      const customer: Customer = {
        id: id!,
        brandId,
        customerNumber: `C-${id}`,
        name: `Customer ${id}`,
        currency: 'EUR',
        discountBasisPoints: 0,
        active: true,
        customerGroupId: null,
        paymentTermsId: null,
        email: null,
        telephone: null,
        vatNumber: null,
        eoriNumber: null,
        createdAt: T0,
        updatedAt: T0,
        ...rest,
        addresses: addresses.map((a, i) => ({ ...a, id: addressIds[i]! })),
      };
      await tx.customers.save(customer);
      return customer;
    }

    async function aCustomer(brandId: number, fields: Parameters<typeof saveNewCustomer>[2] = {}): Promise<Customer> {
      return uow().run((tx) => saveNewCustomer(tx, brandId, fields));
    }

    async function aSupplier(
      brandId: number,
      fields: Partial<Omit<Supplier, 'id' | 'brandId' | 'addresses'>> & { addresses?: AddressDraft[] } = {},
    ): Promise<Supplier> {
      return uow().run(async (tx) => {
        const { addresses = [], ...rest } = fields;
        const [id] = await tx.ids.next('suppliers');
        const addressIds = addresses.length > 0 ? await tx.ids.next('supplier_addresses', addresses.length) : [];
        const supplier: Supplier = {
          id: id!,
          brandId,
          supplierNumber: `S-${id}`,
          name: `Supplier ${id}`,
          currency: 'EUR',
          active: true,
          email: null,
          createdAt: T0,
          updatedAt: T0,
          ...rest,
          addresses: addresses.map((a, i) => ({ ...a, id: addressIds[i]! })),
        };
        await tx.suppliers.save(supplier);
        return supplier;
      });
    }

    async function newAddressIds(kind: 'customer_addresses' | 'supplier_addresses', count: number): Promise<number[]> {
      return uow().run((tx) => tx.ids.next(kind, count));
    }

    // ---- ids --------------------------------------------------------------------------------

    describe('ids', () => {
      it('hands out the requested number of strictly increasing integer ids', async () => {
        const ids = await uow().run((tx) => tx.ids.next('customers', 5));

        expect(ids).toHaveLength(5);
        ids.forEach((id) => expect(Number.isSafeInteger(id) && id > 0).toBe(true));
        ids.slice(1).forEach((id, i) => expect(id).toBeGreaterThan(ids[i]!));
      });

      it('hands out one id when no count is given', async () => {
        const ids = await uow().run((tx) => tx.ids.next('suppliers'));

        expect(ids).toHaveLength(1);
      });

      it('hands out ever greater ids to later draws', async () => {
        const [first, second] = await uow().run(async (tx) => [
          await tx.ids.next('customer_groups', 2),
          await tx.ids.next('customer_groups', 2),
        ]);
        const third = await uow().run((tx) => tx.ids.next('customer_groups', 2));

        expect(Math.min(...second)).toBeGreaterThan(Math.max(...first));
        expect(Math.min(...third)).toBeGreaterThan(Math.max(...second));
      });

      it(
        'never hands the same id to two of many parallel transactions',
        async () => {
          const draws = await Promise.all(
            Array.from({ length: 20 }, () => uow().run((tx) => tx.ids.next('customer_addresses', 3))),
          );

          const all = draws.flat();
          expect(all).toHaveLength(60);
          expect(new Set(all).size).toBe(60);
        },
        SLOW,
      );
    });

    // ---- document numbers -------------------------------------------------------------------

    describe('document numbers', () => {
      it("numbers a brand's documents of one kind from 1, consecutively, across transactions", async () => {
        const brand = await aBrand();

        const first = await uow().run(async (tx) => [
          await tx.documentNumbers.next(brand.id, 'order'),
          await tx.documentNumbers.next(brand.id, 'order'),
        ]);
        const second = await uow().run((tx) => tx.documentNumbers.next(brand.id, 'order'));

        expect(first).toEqual([1, 2]);
        expect(second).toBe(3);
      });

      it('keeps one series per kind', async () => {
        const brand = await aBrand();

        const numbers = await uow().run(async (tx) => ({
          order1: await tx.documentNumbers.next(brand.id, 'order'),
          invoice1: await tx.documentNumbers.next(brand.id, 'invoice'),
          order2: await tx.documentNumbers.next(brand.id, 'order'),
          creditNote1: await tx.documentNumbers.next(brand.id, 'credit_note'),
        }));

        expect(numbers).toEqual({ order1: 1, invoice1: 1, order2: 2, creditNote1: 1 });
      });

      it('keeps the series of two brands independent', async () => {
        const a = await aBrand('A');
        const b = await aBrand('B');

        await uow().run(async (tx) => {
          await tx.documentNumbers.next(a.id, 'shipment');
          await tx.documentNumbers.next(a.id, 'shipment');
        });
        const forB = await uow().run((tx) => tx.documentNumbers.next(b.id, 'shipment'));
        const forA = await uow().run((tx) => tx.documentNumbers.next(a.id, 'shipment'));

        expect(forB).toBe(1);
        expect(forA).toBe(3);
      });

      it(
        'gives 20 parallel transactions 20 distinct consecutive numbers',
        async () => {
          const brand = await aBrand();

          const numbers = await Promise.all(
            Array.from({ length: 20 }, () => uow().run((tx) => tx.documentNumbers.next(brand.id, 'return'))),
          );

          expect(ascending(numbers)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
        },
        SLOW,
      );

      it('gives the number of a rolled-back transaction to the next one, leaving no gap', async () => {
        const brand = await aBrand();
        await uow().run((tx) => tx.documentNumbers.next(brand.id, 'invoice'));

        let drawnInFailedTransaction: number | undefined;
        await expect(
          uow().run(async (tx) => {
            drawnInFailedTransaction = await tx.documentNumbers.next(brand.id, 'invoice');
            throw new PlannedFailure('after drawing a number');
          }),
        ).rejects.toThrow(PlannedFailure);
        const next = await uow().run((tx) => tx.documentNumbers.next(brand.id, 'invoice'));

        expect(drawnInFailedTransaction).toBe(2);
        expect(next).toBe(2);
      });
    });

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

        expect(await uow().read((r) => r.users.findById(user.id))).toStrictEqual(user);
        expect(await uow().read((r) => r.users.findById(987_654_321))).toBeNull();
      });

      it('stores apps with and without an internal code', async () => {
        const brand = await aBrand();
        const plain = await anApp(brand.id);
        const portal = await anApp(brand.id, 'partner-portal');

        expect(await uow().read((r) => r.apiApps.findById(plain.id))).toStrictEqual(plain);
        expect(await uow().read((r) => r.apiApps.findById(portal.id))).toStrictEqual(portal);
        expect(await uow().read((r) => r.apiApps.findById(987_654_321))).toBeNull();
      });

      it('finds an access token by its hash and by its id, scopes in order', async () => {
        const brand = await aBrand();
        const token = await aToken(await aUser(brand.id), await anApp(brand.id));

        expect(await uow().read((r) => r.accessTokens.findByHash(token.tokenHash))).toStrictEqual(token);
        expect(await uow().read((r) => r.accessTokens.findById(token.id))).toStrictEqual(token);
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
        await uow().run((tx) => tx.accessTokens.revoke(older.id, '2026-02-01T10:00:00.000Z'));

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
        expect(await uow().read((r) => r.accessTokens.findById(987_654_321))).toBeNull();
      });

      it('advances the credentials revision with a revocation that commits, not with one that changes nothing or rolls back', async () => {
        const brand = await aBrand();
        const token = await aToken(await aUser(brand.id), await anApp(brand.id));
        const revision = () => uow().read((r) => r.accessTokens.credentialsRevision());
        const before = await revision();

        await expect(
          uow().run(async (tx) => {
            await tx.accessTokens.revoke(token.id, '2026-02-01T10:00:00.000Z');
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        expect(await revision()).toBe(before);

        await uow().run((tx) => tx.accessTokens.revoke(token.id, '2026-02-01T10:00:00.000Z'));
        const afterRevocation = await revision();
        expect(afterRevocation).toBeGreaterThan(before);

        await uow().run((tx) => tx.accessTokens.revoke(token.id, '2026-03-01T10:00:00.000Z'));
        expect(await revision()).toBe(afterRevocation);
      });

      it('revokes a token once: true the first time, false after, and keeps the first revocation instant', async () => {
        const brand = await aBrand();
        const token = await aToken(await aUser(brand.id), await anApp(brand.id));

        const first = await uow().run((tx) => tx.accessTokens.revoke(token.id, '2026-02-01T10:00:00.000Z'));
        const second = await uow().run((tx) => tx.accessTokens.revoke(token.id, '2026-03-01T10:00:00.000Z'));

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
          status: 200,
          durationMs: 12,
          requestId: `req-${path}`,
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
          status,
          durationMs: 5,
          requestId: `req-${path}`,
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

    // ---- customers --------------------------------------------------------------------------

    describe('customers', () => {
      it('saves a new customer with addresses and reads back exactly what was saved', async () => {
        const brand = await aBrand();
        const group = await aCustomerGroup(brand.id, 'WHOLESALE');
        const terms = await somePaymentTerms(brand.id, 'NET30');
        const customer = await aCustomer(brand.id, {
          customerNumber: 'K-1001',
          name: "O'Neill & Søn — Tøj",
          currency: 'DKK',
          discountBasisPoints: 1250,
          active: false,
          customerGroupId: group.id,
          paymentTermsId: terms.id,
          email: 'buyer@oneill.example',
          telephone: '+45 12 34 56 78',
          vatNumber: 'DK12345678',
          eoriNumber: 'DK1234567800000',
          createdAt: '2026-01-02T03:04:05.678Z',
          updatedAt: '2026-01-03T03:04:05.678Z',
          addresses: [
            anAddress({ title: 'Invoice', remoteErpId: 'ERP-1', address2: 'Building 2', region: 'Hovedstaden' }),
            anAddress({ title: 'Delivery', city: 'Aarhus', zip: '8000' }),
          ],
        });

        expect(await uow().read((r) => r.customers.findById(brand.id, customer.id))).toStrictEqual(customer);
        expect(await uow().read((r) => r.customers.findByNumbers(brand.id, ['K-1001']))).toStrictEqual([customer]);
      });

      it('keeps empty optional fields as null', async () => {
        const brand = await aBrand();
        const customer = await aCustomer(brand.id);

        const found = await uow().read((r) => r.customers.findById(brand.id, customer.id));

        expect(found).toStrictEqual(customer);
        expect(found).toMatchObject({
          email: null,
          telephone: null,
          vatNumber: null,
          eoriNumber: null,
          customerGroupId: null,
          paymentTermsId: null,
          addresses: [],
        });
      });

      it('reads addresses back in the order they were saved', async () => {
        const brand = await aBrand();
        const [low, high] = await newAddressIds('customer_addresses', 2);
        const customer = await aCustomer(brand.id);
        const reordered: Customer = {
          ...customer,
          addresses: [
            { ...anAddress({ title: 'Second' }), id: high! },
            { ...anAddress({ title: 'First' }), id: low! },
          ],
        };

        await uow().run((tx) => tx.customers.save(reordered));

        expect((await uow().read((r) => r.customers.findById(brand.id, customer.id)))!.addresses).toStrictEqual(
          reordered.addresses,
        );
      });

      it('on a second save updates the fields and makes the stored addresses exactly the new list', async () => {
        const brand = await aBrand();
        const customer = await aCustomer(brand.id, {
          addresses: [anAddress({ title: 'Keep' }), anAddress({ title: 'Change' }), anAddress({ title: 'Remove' })],
        });
        const [keep, change] = customer.addresses;
        const [addedId] = await newAddressIds('customer_addresses', 1);
        const updated: Customer = {
          ...customer,
          name: 'Renamed',
          email: 'new@customer.example',
          discountBasisPoints: 999,
          active: false,
          updatedAt: '2026-05-05T05:05:05.555Z',
          addresses: [
            keep!,
            { ...change!, city: 'Odense', zip: '5000', region: 'Fyn' },
            { ...anAddress({ title: 'Added', remoteErpId: 'ERP-9' }), id: addedId! },
          ],
        };

        await uow().run((tx) => tx.customers.save(updated));

        expect(await uow().read((r) => r.customers.findById(brand.id, customer.id))).toStrictEqual(updated);
      });

      it('clears every address when saved with none', async () => {
        const brand = await aBrand();
        const customer = await aCustomer(brand.id, { addresses: [anAddress(), anAddress({ title: 'Other' })] });

        await uow().run((tx) => tx.customers.save({ ...customer, addresses: [] }));

        expect((await uow().read((r) => r.customers.findById(brand.id, customer.id)))!.addresses).toStrictEqual([]);
      });

      it('renumbers a customer on a second save (PATCH /v10/customers/{id} may change the number)', async () => {
        const brand = await aBrand();
        const customer = await aCustomer(brand.id, { customerNumber: 'OLD-1', addresses: [anAddress()] });
        const renumbered: Customer = { ...customer, customerNumber: 'NEW-1', updatedAt: '2026-07-07T07:07:07.777Z' };

        await uow().run((tx) => tx.customers.save(renumbered));

        expect(await uow().read((r) => r.customers.findById(brand.id, customer.id))).toStrictEqual(renumbered);
        expect(await uow().read((r) => r.customers.findByNumbers(brand.id, ['OLD-1', 'NEW-1']))).toStrictEqual([
          renumbered,
        ]);
      });

      it('finds only the customer numbers asked for, and none for an empty list', async () => {
        const brand = await aBrand();
        const one = await aCustomer(brand.id, { customerNumber: 'N-1' });
        await aCustomer(brand.id, { customerNumber: 'N-2' });
        const three = await aCustomer(brand.id, { customerNumber: 'N-3', addresses: [anAddress()] });

        const found = await uow().read((r) => r.customers.findByNumbers(brand.id, ['N-3', 'N-1', 'N-404']));

        expect(byId(found)).toStrictEqual([one, three]);
        expect(await uow().read((r) => r.customers.findByNumbers(brand.id, []))).toStrictEqual([]);
      });

      // An adapter may keep one statement per shape of lookup and fill in each call's values
      // (the Kysely one does, per number of values and in or out of a transaction): lookups
      // alike in all but their values must each get their own rows.
      it('answers lookups alike in all but their values each with their own rows, in and out of a transaction', async () => {
        const brand = await aBrand();
        const other = await aBrand();
        const [a, b, c] = [
          await aCustomer(brand.id, { customerNumber: 'K-A' }),
          await aCustomer(brand.id, { customerNumber: 'K-B', addresses: [anAddress()] }),
          await aCustomer(brand.id, { customerNumber: 'K-C' }),
        ];
        const theirs = await aCustomer(other.id, { customerNumber: 'K-A' });
        const numbersOf = (found: Customer[]) => byId(found).map((x) => [x.brandId, x.customerNumber]);

        for (const lookup of [
          (numbers: string[], brandId = brand.id) => uow().read((r) => r.customers.findByNumbers(brandId, numbers)),
          (numbers: string[], brandId = brand.id) => uow().run((tx) => tx.customers.findByNumbers(brandId, numbers)),
        ]) {
          expect(byId(await lookup(['K-A', 'K-B']))).toStrictEqual([a, b]);
          expect(byId(await lookup(['K-B', 'K-C']))).toStrictEqual([b, c]);
          expect(byId(await lookup(['K-C']))).toStrictEqual([c]);
          expect(numbersOf(await lookup(['K-A'], other.id))).toStrictEqual([[other.id, 'K-A']]);
          expect(byId(await lookup(['K-A'], other.id))).toStrictEqual([theirs]);
        }
      });

      it('deletes a customer together with its addresses', async () => {
        const brand = await aBrand();
        const customer = await aCustomer(brand.id, { addresses: [anAddress(), anAddress({ title: 'Other' })] });

        await uow().run((tx) => tx.customers.delete(brand.id, customer.id));

        expect(await uow().read((r) => r.customers.findById(brand.id, customer.id))).toBeNull();
        expect(await uow().read((r) => r.customers.findByNumbers(brand.id, [customer.customerNumber]))).toStrictEqual(
          [],
        );
        // Saving the same id again must not bring old address rows back.
        const reborn = { ...customer, addresses: [] };
        await uow().run((tx) => tx.customers.save(reborn));
        expect(await uow().read((r) => r.customers.findById(brand.id, customer.id))).toStrictEqual(reborn);
      });

      it('keeps the unfiltered list total exact across creates, updates and deletes', async () => {
        const brand = await aBrand();
        const total = async () =>
          (
            await uow().read((r) =>
              runList(customerListDefinition, { brandId: brand.id, query: {} }, (q) => r.customers.list(brand.id, q)),
            )
          ).page.total;
        const first = await aCustomer(brand.id);
        const second = await aCustomer(brand.id);
        await uow().run((tx) => tx.customers.save({ ...first, name: 'Renamed' }));
        expect(await total()).toBe(2);

        await uow().run((tx) => tx.customers.delete(brand.id, second.id));
        await uow().run((tx) => tx.customers.delete(brand.id, second.id));
        expect(await total()).toBe(1);
        // A rolled-back insert must not count.
        await expect(
          uow().run(async (tx) => {
            await tx.customers.save({
              ...second,
              id: (await tx.ids.next('customers'))[0]!,
              customerNumber: 'ROLLED-BACK',
            });
            throw new Error('on purpose');
          }),
        ).rejects.toThrow('on purpose');
        expect(await total()).toBe(1);
      });

      it('reports no dependents for a customer nothing refers to', async () => {
        const brand = await aBrand();
        const customer = await aCustomer(brand.id);

        expect(await uow().read((r) => r.customers.dependentsOf(brand.id, customer.id))).toStrictEqual([]);
      });

      it("never shows, lists or deletes one brand's customer for another brand", async () => {
        const a = await aBrand('A');
        const b = await aBrand('B');
        const ofA = await aCustomer(a.id, { customerNumber: 'SHARED-1', addresses: [anAddress()] });

        const seenByB = await uow().read(async (r) => ({
          byId: await r.customers.findById(b.id, ofA.id),
          byNumber: await r.customers.findByNumbers(b.id, ['SHARED-1']),
          listed: await r.customers.list(b.id, {
            filterGroups: [],
            sort: [{ key: 'id', direction: 'ASC' }],
            includes: [],
            limit: 100,
            page: 0,
            after: null,
            withTotal: true,
          }),
        }));
        await uow().run((tx) => tx.customers.delete(b.id, ofA.id));

        expect(seenByB).toStrictEqual({ byId: null, byNumber: [], listed: { rows: [], total: 0 } });
        expect(await uow().read((r) => r.customers.findById(a.id, ofA.id))).toStrictEqual(ofA);
      });

      it('lets two brands use the same customer number', async () => {
        const a = await aBrand('A');
        const b = await aBrand('B');
        const ofA = await aCustomer(a.id, { customerNumber: 'SAME' });
        const ofB = await aCustomer(b.id, { customerNumber: 'SAME' });

        expect(await uow().read((r) => r.customers.findByNumbers(a.id, ['SAME']))).toStrictEqual([ofA]);
        expect(await uow().read((r) => r.customers.findByNumbers(b.id, ['SAME']))).toStrictEqual([ofB]);
      });
    });

    // ---- customer groups and payment terms ----------------------------------------------------

    describe('customer groups and payment terms', () => {
      it('stores customer groups and finds them by ids and by codes', async () => {
        const brand = await aBrand();
        const retail = await aCustomerGroup(brand.id, 'RETAIL');
        const wholesale = await aCustomerGroup(brand.id, 'WHOLESALE');
        await aCustomerGroup(brand.id, 'VIP');

        const found = await uow().read(async (r) => ({
          byIds: byId(await r.customerGroups.findByIds(brand.id, [wholesale.id, retail.id, 987_654_321])),
          byCodes: byId(await r.customerGroups.findByCodes(brand.id, ['WHOLESALE', 'RETAIL', 'NOPE'])),
          none: [
            ...(await r.customerGroups.findByIds(brand.id, [])),
            ...(await r.customerGroups.findByCodes(brand.id, [])),
          ],
        }));

        expect(found).toStrictEqual({ byIds: [retail, wholesale], byCodes: [retail, wholesale], none: [] });
      });

      it('stores payment terms and finds them by ids and by codes', async () => {
        const brand = await aBrand();
        const net30 = await somePaymentTerms(brand.id, 'NET30', 30);
        const net60 = await somePaymentTerms(brand.id, 'NET60', 60);

        const found = await uow().read(async (r) => ({
          byIds: byId(await r.paymentTerms.findByIds(brand.id, [net60.id, net30.id])),
          byCodes: byId(await r.paymentTerms.findByCodes(brand.id, ['NET60'])),
          none: [
            ...(await r.paymentTerms.findByIds(brand.id, [])),
            ...(await r.paymentTerms.findByCodes(brand.id, [])),
          ],
        }));

        expect(found).toStrictEqual({ byIds: [net30, net60], byCodes: [net60], none: [] });
      });

      it("never finds one brand's groups or terms for another brand, though codes may repeat across brands", async () => {
        const a = await aBrand('A');
        const b = await aBrand('B');
        const groupOfA = await aCustomerGroup(a.id, 'SHARED');
        const termsOfA = await somePaymentTerms(a.id, 'SHARED');
        const groupOfB = await aCustomerGroup(b.id, 'SHARED');

        const seenByB = await uow().read(async (r) => ({
          groupsById: await r.customerGroups.findByIds(b.id, [groupOfA.id]),
          groupsByCode: await r.customerGroups.findByCodes(b.id, ['SHARED']),
          termsById: await r.paymentTerms.findByIds(b.id, [termsOfA.id]),
          termsByCode: await r.paymentTerms.findByCodes(b.id, ['SHARED']),
        }));

        expect(seenByB).toStrictEqual({ groupsById: [], groupsByCode: [groupOfB], termsById: [], termsByCode: [] });
      });

      it("lists only the brand's groups and terms, in id order, with the total", async () => {
        const brand = await aBrand();
        const other = await aBrand();
        const groups = [await aCustomerGroup(brand.id, 'G1'), await aCustomerGroup(brand.id, 'G2')];
        const terms = [await somePaymentTerms(brand.id, 'T1'), await somePaymentTerms(brand.id, 'T2', 14)];
        await aCustomerGroup(other.id, 'G1');
        await somePaymentTerms(other.id, 'T1');
        const all: ListQuery = {
          filterGroups: [],
          sort: [{ key: 'id', direction: 'ASC' }],
          includes: [],
          limit: 20,
          page: 0,
          after: null,
          withTotal: true,
        };

        const listed = await uow().read(async (r) => ({
          groups: await r.customerGroups.list(brand.id, all),
          terms: await r.paymentTerms.list(brand.id, all),
        }));

        expect(listed).toStrictEqual({ groups: { rows: groups, total: 2 }, terms: { rows: terms, total: 2 } });
      });
    });

    // ---- suppliers --------------------------------------------------------------------------

    describe('suppliers', () => {
      it('saves a new supplier with addresses and reads back exactly what was saved', async () => {
        const brand = await aBrand();
        const supplier = await aSupplier(brand.id, {
          supplierNumber: 'S-77',
          name: 'Tessitura Ünica',
          currency: 'USD',
          active: false,
          email: 'orders@tessitura.example',
          createdAt: '2026-01-02T03:04:05.678Z',
          updatedAt: '2026-01-02T03:04:06.000Z',
          addresses: [
            anAddress({ title: 'Mill', country: 'IT', city: 'Prato', remoteErpId: 'V-1' }),
            anAddress({ title: 'Office', address2: 'Floor 3' }),
          ],
        });

        expect(await uow().read((r) => r.suppliers.findById(brand.id, supplier.id))).toStrictEqual(supplier);
        expect(await uow().read((r) => r.suppliers.findByNumbers(brand.id, ['S-77']))).toStrictEqual([supplier]);
        expect(await uow().read((r) => r.suppliers.findByNumbers(brand.id, []))).toStrictEqual([]);
      });

      it('keeps empty optional fields as null', async () => {
        const brand = await aBrand();
        const supplier = await aSupplier(brand.id);

        expect(await uow().read((r) => r.suppliers.findById(brand.id, supplier.id))).toStrictEqual(supplier);
      });

      it('on a second save updates the fields and makes the stored addresses exactly the new list', async () => {
        const brand = await aBrand();
        const supplier = await aSupplier(brand.id, {
          addresses: [anAddress({ title: 'Keep' }), anAddress({ title: 'Change' }), anAddress({ title: 'Remove' })],
        });
        const [keep, change] = supplier.addresses;
        const [addedId] = await newAddressIds('supplier_addresses', 1);
        const updated: Supplier = {
          ...supplier,
          name: 'Renamed supplier',
          active: false,
          email: 'new@supplier.example',
          updatedAt: '2026-06-06T06:06:06.666Z',
          addresses: [
            keep!,
            { ...change!, name: 'Dock 4', remoteErpId: 'V-2' },
            { ...anAddress({ title: 'Added' }), id: addedId! },
          ],
        };

        await uow().run((tx) => tx.suppliers.save(updated));

        expect(await uow().read((r) => r.suppliers.findById(brand.id, supplier.id))).toStrictEqual(updated);
      });

      it('renumbers a supplier on a second save (PATCH /v10/suppliers/{id} may change the number)', async () => {
        const brand = await aBrand();
        const supplier = await aSupplier(brand.id, { supplierNumber: 'OLD-S', addresses: [anAddress()] });
        const renumbered: Supplier = { ...supplier, supplierNumber: 'NEW-S', updatedAt: '2026-07-07T07:07:07.777Z' };

        await uow().run((tx) => tx.suppliers.save(renumbered));

        expect(await uow().read((r) => r.suppliers.findById(brand.id, supplier.id))).toStrictEqual(renumbered);
        expect(await uow().read((r) => r.suppliers.findByNumbers(brand.id, ['OLD-S', 'NEW-S']))).toStrictEqual([
          renumbered,
        ]);
      });

      it('deletes a supplier together with its addresses', async () => {
        const brand = await aBrand();
        const supplier = await aSupplier(brand.id, { addresses: [anAddress()] });

        await uow().run((tx) => tx.suppliers.delete(brand.id, supplier.id));

        expect(await uow().read((r) => r.suppliers.findById(brand.id, supplier.id))).toBeNull();
        const reborn = { ...supplier, addresses: [] };
        await uow().run((tx) => tx.suppliers.save(reborn));
        expect(await uow().read((r) => r.suppliers.findById(brand.id, supplier.id))).toStrictEqual(reborn);
      });

      it('reports no dependents for a supplier nothing refers to', async () => {
        const brand = await aBrand();
        const supplier = await aSupplier(brand.id);

        expect(await uow().read((r) => r.suppliers.dependentsOf(brand.id, supplier.id))).toStrictEqual([]);
      });

      it("never shows, lists or deletes one brand's supplier for another brand", async () => {
        const a = await aBrand('A');
        const b = await aBrand('B');
        const ofA = await aSupplier(a.id, { supplierNumber: 'SHARED-S', addresses: [anAddress()] });

        const seenByB = await uow().read(async (r) => ({
          byId: await r.suppliers.findById(b.id, ofA.id),
          byNumber: await r.suppliers.findByNumbers(b.id, ['SHARED-S']),
          listed: await r.suppliers.list(b.id, {
            filterGroups: [],
            sort: [{ key: 'id', direction: 'ASC' }],
            includes: [],
            limit: 100,
            page: 0,
            after: null,
            withTotal: true,
          }),
        }));
        await uow().run((tx) => tx.suppliers.delete(b.id, ofA.id));

        expect(seenByB).toStrictEqual({ byId: null, byNumber: [], listed: { rows: [], total: 0 } });
        expect(await uow().read((r) => r.suppliers.findById(a.id, ofA.id))).toStrictEqual(ofA);
      });
    });

    // ---- list semantics: customers ---------------------------------------------------------

    describe('listing customers', () => {
      let brandId = 0;
      let neighbourId = 0;
      let fixtures: Customer[] = [];
      let groupId = 0;

      const rows: Array<{
        name: string;
        currency: string;
        active: boolean;
        email: string | null;
        discount: number;
        group: boolean;
        addresses: number;
      }> = [
        {
          name: 'Abby Road',
          currency: 'EUR',
          active: true,
          email: 'abby@road.example',
          discount: 0,
          group: true,
          addresses: 1,
        },
        {
          name: 'Cabaret Couture',
          currency: 'USD',
          active: false,
          email: null,
          discount: 1250,
          group: false,
          addresses: 0,
        },
        {
          name: 'ABC Fashion',
          currency: 'EUR',
          active: true,
          email: 'hello@ABC.example',
          discount: 500,
          group: true,
          addresses: 2,
        },
        { name: '100% Cotton', currency: 'DKK', active: true, email: null, discount: 1000, group: false, addresses: 0 },
        {
          name: '100 Percent Wool',
          currency: 'DKK',
          active: false,
          email: 'wool@percent.example',
          discount: 2550,
          group: false,
          addresses: 1,
        },
        {
          name: 'Under_score',
          currency: 'EUR',
          active: true,
          email: 'u@score.example',
          discount: 1250,
          group: true,
          addresses: 0,
        },
        { name: 'Underscore', currency: 'SEK', active: true, email: null, discount: 499, group: false, addresses: 0 },
        {
          name: 'Back\\slash Ltd',
          currency: 'USD',
          active: false,
          email: 'back@slash.example',
          discount: 501,
          group: false,
          addresses: 0,
        },
        {
          name: 'Zed & Co',
          currency: 'EUR',
          active: true,
          email: 'zed@co.example',
          discount: 10000,
          group: true,
          addresses: 0,
        },
        {
          name: 'zebra stripes',
          currency: 'NOK',
          active: true,
          email: null,
          discount: 750,
          group: false,
          addresses: 1,
        },
        {
          name: "O'Brien Tailors",
          currency: 'EUR',
          active: false,
          email: 'ob@tailors.example',
          discount: 0,
          group: false,
          addresses: 0,
        },
        {
          name: 'Nordic Knit co',
          currency: 'SEK',
          active: true,
          email: 'nordic@knit.example',
          discount: 2000,
          group: true,
          addresses: 0,
        },
      ];
      const day = (i: number) => `2025-03-${String(i + 1).padStart(2, '0')}T09:30:00.000Z`;

      beforeAll(async () => {
        const brand = await aBrand('Listing');
        brandId = brand.id;
        groupId = (await aCustomerGroup(brandId, 'LIST')).id;
        // Another brand's customers must never appear in these lists.
        const neighbour = await aBrand('Neighbour');
        neighbourId = neighbour.id;
        await aCustomer(neighbour.id, { name: 'Abby Road', currency: 'EUR' });
        fixtures = await uow().run(async (tx) => {
          const saved: Customer[] = [];
          for (const [i, row] of rows.entries()) {
            saved.push(
              await saveNewCustomer(tx, brandId, {
                customerNumber: `C-${String(i + 1).padStart(3, '0')}`,
                name: row.name,
                currency: row.currency,
                active: row.active,
                email: row.email,
                discountBasisPoints: row.discount,
                customerGroupId: row.group ? groupId : null,
                createdAt: day(i),
                updatedAt: day(i),
                addresses: Array.from({ length: row.addresses }, (_, n) =>
                  anAddress({ title: `Address ${n + 1}`, remoteErpId: `R-${i}-${n}` }),
                ),
              }),
            );
          }
          return saved;
        });
      }, SLOW);

      const list = (raw: RawListQuery, cursor?: DecodedCursor) =>
        uow().read((r) =>
          runList(customerListDefinition, { brandId, query: raw, cursor }, (q) => r.customers.list(brandId, q)),
        );

      const filter = (key: string, operator: string, value: unknown, not = false) => ({
        filter_groups: [{ filters: [{ key, operator, value, not }] }],
      });

      /** Lists with the raw query and checks the ids against the fixtures that satisfy `expected`, in id order. */
      async function expectMatches(raw: RawListQuery, expected: (c: Customer) => boolean): Promise<void> {
        const { page } = await list({ limit: 100, ...raw });
        const want = fixtures.filter(expected).map((c) => c.customerNumber);
        expect(page.items.map((c) => c.customerNumber)).toEqual(want);
        expect(page.total).toBe(want.length);
      }

      it('without filters lists every customer of the brand in id order, with the total, without addresses', async () => {
        const { page } = await list({ limit: 100 });

        expect(page.items).toStrictEqual(fixtures.map((c) => ({ ...c, addresses: [] })));
        expect(page).toMatchObject({ total: fixtures.length, hasMore: false, next: null });
      });

      it('includes addresses only when asked for', async () => {
        const { page } = await list({ limit: 100, includes: ['addresses'] });

        expect(page.items).toStrictEqual(fixtures);
      });

      it('eq compares exactly, case included', async () => {
        await expectMatches(filter('currency', 'eq', 'DKK'), (c) => c.currency === 'DKK');
        await expectMatches(filter('currency', 'eq', 'dkk'), () => false);
      });

      it('ct, sw and ew match text regardless of case', async () => {
        await expectMatches(filter('name', 'ct', 'ab'), (c) => c.name.toLowerCase().includes('ab'));
        await expectMatches(filter('name', 'sw', 'UNDER'), (c) => c.name.toLowerCase().startsWith('under'));
        await expectMatches(filter('name', 'ew', 'CO'), (c) => c.name.toLowerCase().endsWith('co'));
        await expectMatches(
          filter('email', 'ct', 'abc.EXAMPLE'),
          (c) => c.email !== null && c.email.toLowerCase().includes('abc.example'),
        );
      });

      it('ct, sw and ew treat %, _ and \\ as plain characters', async () => {
        await expectMatches(filter('name', 'ct', '%'), (c) => c.name.includes('%'));
        await expectMatches(filter('name', 'sw', '100%'), (c) => c.name.startsWith('100%'));
        await expectMatches(filter('name', 'ct', '_'), (c) => c.name.includes('_'));
        await expectMatches(filter('name', 'ew', '_score'), (c) => c.name.toLowerCase().endsWith('_score'));
        await expectMatches(filter('name', 'ct', '\\'), (c) => c.name.includes('\\'));
        await expectMatches(filter('name', 'ct', "o'b"), (c) => c.name.toLowerCase().includes("o'b"));
      });

      it('gt, gte, lt and lte compare decimals by value', async () => {
        await expectMatches(filter('discount_percentage', 'gt', 5), (c) => c.discountBasisPoints > 500);
        await expectMatches(filter('discount_percentage', 'gte', '5'), (c) => c.discountBasisPoints >= 500);
        await expectMatches(filter('discount_percentage', 'lt', 12.5), (c) => c.discountBasisPoints < 1250);
        await expectMatches(filter('discount_percentage', 'lte', '12.50'), (c) => c.discountBasisPoints <= 1250);
        await expectMatches(filter('discount_percentage', 'eq', 25.5), (c) => c.discountBasisPoints === 2550);
        await expectMatches(filter('discount_percentage', 'gte', 100), (c) => c.discountBasisPoints >= 10000);
      });

      it('gt, gte, lt and lte compare integers and text', async () => {
        const pivot = fixtures[5]!;
        await expectMatches(filter('id', 'gt', pivot.id), (c) => c.id > pivot.id);
        await expectMatches(filter('id', 'lte', String(pivot.id)), (c) => c.id <= pivot.id);
        await expectMatches(filter('customer_number', 'gte', 'C-010'), (c) => c.customerNumber >= 'C-010');
        await expectMatches(filter('customer_number', 'lt', 'C-003'), (c) => c.customerNumber < 'C-003');
      });

      it('in matches any of the values', async () => {
        await expectMatches(filter('currency', 'in', ['USD', 'SEK']), (c) => ['USD', 'SEK'].includes(c.currency));
        const ids = [fixtures[0]!.id, fixtures[7]!.id, 987_654_321];
        await expectMatches(filter('id', 'in', ids.map(String)), (c) => ids.includes(c.id));
      });

      it('bt matches a closed range', async () => {
        await expectMatches(
          filter('discount_percentage', 'bt', ['5', 12.5]),
          (c) => c.discountBasisPoints >= 500 && c.discountBasisPoints <= 1250,
        );
        await expectMatches(
          filter('created_at', 'bt', [day(2), day(4)]),
          (c) => c.createdAt >= day(2) && c.createdAt <= day(4),
        );
      });

      it('not negates a filter', async () => {
        await expectMatches(filter('currency', 'eq', 'EUR', true), (c) => c.currency !== 'EUR');
        await expectMatches(
          filter('currency', 'in', ['EUR', 'DKK'], true),
          (c) => !['EUR', 'DKK'].includes(c.currency),
        );
        await expectMatches(filter('name', 'ct', 'co', true), (c) => !c.name.toLowerCase().includes('co'));
        await expectMatches(
          filter('discount_percentage', 'bt', [5, 20], true),
          (c) => !(c.discountBasisPoints >= 500 && c.discountBasisPoints <= 2000),
        );
      });

      it('a negated comparison also matches rows whose field is null', async () => {
        await expectMatches(
          filter('email', 'ct', 'example', true),
          (c) => c.email === null || !c.email.includes('example'),
        );
        await expectMatches(filter('email', 'eq', 'abby@road.example', true), (c) => c.email !== 'abby@road.example');
        await expectMatches(
          filter('customer_group_id', 'eq', String(groupId), true),
          (c) => c.customerGroupId !== groupId,
        );
      });

      it('a null value asks for IS NULL, and negated for IS NOT NULL', async () => {
        await expectMatches(filter('email', 'eq', null), (c) => c.email === null);
        await expectMatches(filter('email', 'eq', 'null', true), (c) => c.email !== null);
        await expectMatches(filter('customer_group_id', 'eq', null), (c) => c.customerGroupId === null);
      });

      it('a positive comparison never matches a null field', async () => {
        await expectMatches(filter('email', 'ct', 'e'), (c) => c.email !== null && c.email.includes('e'));
        await expectMatches(filter('customer_group_id', 'lt', 987_654_321), (c) => c.customerGroupId !== null);
      });

      it('filters on booleans', async () => {
        await expectMatches(filter('active', 'eq', false), (c) => !c.active);
        await expectMatches(filter('active', 'eq', 'true'), (c) => c.active);
        await expectMatches(filter('active', 'eq', '1', true), (c) => !c.active);
      });

      it('filters on instants, reading dates as midnight UTC and honouring offsets', async () => {
        await expectMatches(
          filter('created_at', 'gte', '2025-03-05'),
          (c) => c.createdAt >= '2025-03-05T00:00:00.000Z',
        );
        await expectMatches(filter('created_at', 'lt', '2025-03-03T09:30:00Z'), (c) => c.createdAt < day(2));
        await expectMatches(filter('created_at', 'gt', '2025-03-04T11:30:00+02:00'), (c) => c.createdAt > day(3));
        await expectMatches(filter('created_at', 'eq', day(6)), (c) => c.createdAt === day(6));
      });

      it('ANDs the filters of a group, or ORs them when the group says or', async () => {
        const pair = [
          { key: 'currency', operator: 'eq', value: 'USD' },
          { key: 'active', operator: 'eq', value: 'false' },
        ];
        await expectMatches(
          { filter_groups: [{ or: false, filters: pair }] },
          (c) => c.currency === 'USD' && !c.active,
        );
        await expectMatches({ filter_groups: [{ or: true, filters: pair }] }, (c) => c.currency === 'USD' || !c.active);
      });

      it('ANDs the groups with each other', async () => {
        await expectMatches(
          {
            filter_groups: [
              {
                or: true,
                filters: [
                  { key: 'currency', operator: 'eq', value: 'EUR' },
                  { key: 'currency', operator: 'eq', value: 'SEK' },
                ],
              },
              {
                or: true,
                filters: [
                  { key: 'active', operator: 'eq', value: false },
                  { key: 'discount_percentage', operator: 'gte', value: 20 },
                ],
              },
            ],
          },
          (c) => (c.currency === 'EUR' || c.currency === 'SEK') && (!c.active || c.discountBasisPoints >= 2000),
        );
      });

      it('sorts by id descending', async () => {
        const { page } = await list({ limit: 100, sort: [{ key: 'id', direction: 'DESC' }] });

        expect(page.items.map((c) => c.id)).toEqual(fixtures.map((c) => c.id).reverse());
      });

      it('returns at most limit rows and says there are more', async () => {
        const { page } = await list({ limit: 5 });

        expect(page.items.map((c) => c.id)).toEqual(fixtures.slice(0, 5).map((c) => c.id));
        expect(page).toMatchObject({ hasMore: true, total: fixtures.length });
      });

      it('pages by 0-based offset, counting every match in total', async () => {
        const second = (await list({ limit: 5, page: 1 })).page;
        const last = (await list({ limit: 5, page: 2 })).page;
        const beyond = (await list({ limit: 5, page: 3 })).page;
        const filtered = (await list({ limit: 2, page: 1, ...filter('currency', 'eq', 'EUR') })).page;

        expect(second.items.map((c) => c.id)).toEqual(fixtures.slice(5, 10).map((c) => c.id));
        expect(second).toMatchObject({ hasMore: true, total: fixtures.length });
        expect(last.items.map((c) => c.id)).toEqual(fixtures.slice(10).map((c) => c.id));
        expect(last).toMatchObject({ hasMore: false, total: fixtures.length, next: null });
        expect(beyond).toMatchObject({ items: [], hasMore: false, total: fixtures.length });
        const eur = fixtures.filter((c) => c.currency === 'EUR');
        expect(filtered.items.map((c) => c.id)).toEqual(eur.slice(2, 4).map((c) => c.id));
        expect(filtered.total).toBe(eur.length);
      });

      it('starting_after lists the rows after an id, without a total', async () => {
        const { page } = await list({ limit: 100, starting_after: String(fixtures[3]!.id) });

        expect(page.items.map((c) => c.id)).toEqual(fixtures.slice(4).map((c) => c.id));
        expect(page.total).toBeNull();
      });

      // An adapter may keep one statement per shape of query and fill in each query's values
      // (the Kysely one does): queries alike in all but their values must each get their own rows.
      it('answers queries alike in all but their values each with their own rows: value, limit, position and brand', async () => {
        await expectMatches(filter('currency', 'eq', 'EUR'), (c) => c.currency === 'EUR');
        await expectMatches(filter('currency', 'eq', 'SEK'), (c) => c.currency === 'SEK');
        expect((await list({ limit: 2 })).page.items.map((c) => c.id)).toEqual(fixtures.slice(0, 2).map((c) => c.id));
        expect((await list({ limit: 3 })).page.items.map((c) => c.id)).toEqual(fixtures.slice(0, 3).map((c) => c.id));
        for (const after of [2, 7]) {
          const { page } = await list({ limit: 2, starting_after: String(fixtures[after]!.id) });
          expect(page.items.map((c) => c.id)).toEqual(fixtures.slice(after + 1, after + 3).map((c) => c.id));
        }

        const theirs = await uow().read((r) =>
          runList(customerListDefinition, { brandId: neighbourId, query: { limit: 2 } }, (q) =>
            r.customers.list(neighbourId, q),
          ),
        );
        expect(theirs.page.items.map((c) => [c.brandId, c.name])).toEqual([[neighbourId, 'Abby Road']]);
        expect(theirs.page.total).toBe(1);
      });

      for (const [label, raw, expected] of [
        ['ascending', { limit: 5 }, (all: Customer[]) => all],
        ['descending', { limit: 4, sort: [{ key: 'id', direction: 'DESC' }] }, (all: Customer[]) => [...all].reverse()],
        [
          'filtered, descending',
          { limit: 2, sort: [{ key: 'id', direction: 'DESC' }], ...filter('active', 'eq', true) },
          (all: Customer[]) => all.filter((c) => c.active).reverse(),
        ],
      ] as const) {
        it(`a keyset walk (${label}) visits every row once, in order, like the offset walk`, async () => {
          const cursorWalk = await walkByCursor(customerListDefinition, list, raw);
          const offsetWalk = await walkByOffset(list, raw);
          const want = expected(fixtures).map((c) => c.id);

          expect(cursorWalk.flat().map((c) => c.id)).toEqual(want);
          expect(cursorWalk.map((p) => p.map((c) => c.id))).toEqual(offsetWalk.map((p) => p.map((c) => c.id)));
        });
      }

      it('keeps addresses on keyset pages when asked for', async () => {
        const pages = await walkByCursor(customerListDefinition, list, { limit: 5, includes: ['addresses'] });

        expect(pages.flat()).toStrictEqual(fixtures);
      });
    });

    // ---- list semantics: suppliers --------------------------------------------------------

    describe('listing suppliers', () => {
      let brandId = 0;
      let fixtures: Supplier[] = [];
      const rows: Array<{ name: string; active: boolean; email: string | null; currency: string }> = [
        { name: 'Lanificio 100%', active: true, email: 'sales@lanificio.example', currency: 'EUR' },
        { name: 'Lanificio 100 per cento', active: false, email: null, currency: 'EUR' },
        { name: 'MILL_ONE', active: true, email: null, currency: 'USD' },
        { name: 'Mill one', active: true, email: 'mill@one.example', currency: 'USD' },
        { name: 'Tessile Nord', active: false, email: 'nord@tessile.example', currency: 'DKK' },
        { name: 'Yarn & Co', active: true, email: null, currency: 'EUR' },
        { name: 'yarnworks', active: true, email: 'hi@yarn.example', currency: 'SEK' },
      ];

      beforeAll(async () => {
        brandId = (await aBrand('Supplier listing')).id;
        await aSupplier((await aBrand('Neighbour')).id, { name: 'Lanificio 100%' });
        fixtures = [];
        for (const [i, row] of rows.entries()) {
          fixtures.push(
            await aSupplier(brandId, {
              supplierNumber: `SUP-${i + 1}`,
              ...row,
              createdAt: `2025-04-0${i + 1}T12:00:00.000Z`,
              updatedAt: `2025-04-0${i + 1}T12:00:00.000Z`,
              addresses: i % 3 === 0 ? [anAddress({ title: `Site ${i}` })] : [],
            }),
          );
        }
      }, SLOW);

      const list = (raw: RawListQuery, cursor?: DecodedCursor) =>
        uow().read((r) =>
          runList(supplierListDefinition, { brandId, query: raw, cursor }, (q) => r.suppliers.list(brandId, q)),
        );
      const filter = (key: string, operator: string, value: unknown, not = false) => ({
        filter_groups: [{ filters: [{ key, operator, value, not }] }],
      });

      async function expectMatches(raw: RawListQuery, expected: (s: Supplier) => boolean): Promise<void> {
        const { page } = await list({ limit: 100, ...raw });
        const want = fixtures.filter(expected).map((s) => s.supplierNumber);
        expect(page.items.map((s) => s.supplierNumber)).toEqual(want);
        expect(page.total).toBe(want.length);
      }

      it('without filters lists every supplier of the brand in id order, without addresses unless included', async () => {
        expect((await list({ limit: 100 })).page.items).toStrictEqual(fixtures.map((s) => ({ ...s, addresses: [] })));
        expect((await list({ limit: 100, includes: ['addresses'] })).page.items).toStrictEqual(fixtures);
      });

      it('matches text regardless of case, with %, _ as plain characters', async () => {
        await expectMatches(filter('name', 'ct', 'YARN'), (s) => s.name.toLowerCase().includes('yarn'));
        await expectMatches(filter('name', 'ew', '100%'), (s) => s.name.endsWith('100%'));
        await expectMatches(filter('name', 'sw', 'mill_'), (s) => s.name.toLowerCase().startsWith('mill_'));
      });

      it('filters on booleans, nulls and instants', async () => {
        await expectMatches(filter('active', 'eq', false), (s) => !s.active);
        await expectMatches(filter('email', 'eq', null), (s) => s.email === null);
        await expectMatches(filter('email', 'eq', null, true), (s) => s.email !== null);
        await expectMatches(
          filter('created_at', 'gte', '2025-04-04'),
          (s) => s.createdAt >= '2025-04-04T00:00:00.000Z',
        );
        await expectMatches(
          {
            filter_groups: [
              {
                or: true,
                filters: [
                  { key: 'currency', operator: 'eq', value: 'DKK' },
                  { key: 'supplier_number', operator: 'in', value: ['SUP-1', 'SUP-7'] },
                ],
              },
            ],
          },
          (s) => s.currency === 'DKK' || ['SUP-1', 'SUP-7'].includes(s.supplierNumber),
        );
      });

      it('a keyset walk by id descending visits every row once, like the offset walk', async () => {
        const raw = { limit: 3, sort: [{ key: 'id', direction: 'DESC' }] };
        const cursorWalk = await walkByCursor(supplierListDefinition, list, raw);
        const offsetWalk = await walkByOffset(list, raw);

        expect(cursorWalk.flat().map((s) => s.id)).toEqual(fixtures.map((s) => s.id).reverse());
        expect(cursorWalk.map((p) => p.map((s) => s.id))).toEqual(offsetWalk.map((p) => p.map((s) => s.id)));
      });
    });

    // ---- transactions ------------------------------------------------------------------------

    describe('transactions', () => {
      it('commits what work wrote and returns its value', async () => {
        const brand = await aBrand();

        const customer = await uow().run((tx) => saveNewCustomer(tx, brand.id));

        expect(await uow().read((r) => r.customers.findById(brand.id, customer.id))).toStrictEqual(customer);
      });

      it('lets work read its own writes before commit', async () => {
        const brand = await aBrand();

        const seen = await uow().run(async (tx) => {
          const customer = await saveNewCustomer(tx, brand.id, { addresses: [anAddress()] });
          return { customer, found: await tx.customers.findById(brand.id, customer.id) };
        });

        expect(seen.found).toStrictEqual(seen.customer);
      });

      it('rolls back every write of work that throws, across repositories, and rethrows its error', async () => {
        const existing = await aBrand();
        let written: { brand: Brand; group: CustomerGroup; customer: Customer } | undefined;
        const failure = new PlannedFailure('after writing');

        await expect(
          uow().run(async (tx) => {
            const [brandId] = await tx.ids.next('brands');
            const brand: Brand = { id: brandId!, name: 'Doomed', currency: 'EUR', createdAt: T0, updatedAt: T0 };
            await tx.brands.insert(brand);
            const [groupId] = await tx.ids.next('customer_groups');
            const group: CustomerGroup = {
              id: groupId!,
              brandId: existing.id,
              code: 'DOOMED',
              name: 'Doomed',
              createdAt: T0,
              updatedAt: T0,
            };
            await tx.customerGroups.insert(group);
            const customer = await saveNewCustomer(tx, existing.id, {
              customerGroupId: group.id,
              addresses: [anAddress()],
            });
            written = { brand, group, customer };
            throw failure;
          }),
        ).rejects.toBe(failure);

        const after = await uow().read(async (r) => ({
          brand: await r.brands.findById(written!.brand.id),
          groups: await r.customerGroups.findByCodes(existing.id, ['DOOMED']),
          customer: await r.customers.findById(existing.id, written!.customer.id),
        }));
        expect(after).toStrictEqual({ brand: null, groups: [], customer: null });
      });

      it('runs work that fails for a reason other than a write conflict only once, passing its domain error through', async () => {
        let attempts = 0;
        const failure = DomainError.notFound('customer', 42);

        const outcome = uow().run(async () => {
          attempts += 1;
          throw failure;
        });

        await expect(outcome).rejects.toBe(failure);
        expect(attempts).toBe(1);
      });

      it(
        'keeps exactly the writes of the 20 succeeding of 30 parallel transactions when every third fails',
        async () => {
          const brand = await aBrand();

          const results = await Promise.allSettled(
            Array.from({ length: 30 }, (_, i) =>
              uow().run(async (tx) => {
                await saveNewCustomer(tx, brand.id, { customerNumber: `P-${i}`, addresses: [anAddress()] });
                if (i % 3 === 2) throw new PlannedFailure(`transaction ${i}`);
                return i;
              }),
            ),
          );

          const numbers = Array.from({ length: 30 }, (_, i) => `P-${i}`);
          const stored = await uow().read((r) => r.customers.findByNumbers(brand.id, numbers));
          const succeeded = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
          const failedReasons = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
          expect(ascending(succeeded)).toEqual(numbers.map((_, i) => i).filter((i) => i % 3 !== 2));
          expect(failedReasons.every((reason) => reason instanceof PlannedFailure)).toBe(true);
          expect(stored.map((c) => c.customerNumber).sort()).toEqual(numbers.filter((_, i) => i % 3 !== 2).sort());
          expect(stored.every((c) => c.addresses.length === 1)).toBe(true);
        },
        SLOW,
      );
    });

    // ---- write conflicts ---------------------------------------------------------------------

    describe('write conflicts', () => {
      it(
        '10 parallel syncs creating the same customer number all succeed and leave exactly one customer',
        async () => {
          const brand = await aBrand();
          const clock = new FixedClock('2026-02-02T00:00:00.000Z');
          const item = {
            customerNumber: 'RACE-1',
            name: 'Race Customer',
            currency: 'EUR',
            addresses: { mode: 'replace' as const, key: 'address_title' as const, addresses: [anAddress()] },
          };

          const outcomes = await Promise.all(
            Array.from({ length: 10 }, () =>
              syncCustomers({ uow: uow(), clock }, { brandId: brand.id, customers: [item] }),
            ),
          );

          const stored = await uow().read((r) => r.customers.findByNumbers(brand.id, ['RACE-1']));
          expect(stored).toHaveLength(1);
          expect(stored[0]!.addresses).toHaveLength(1);
          const actions = outcomes.map((o) => o[0]!.action);
          expect(actions.filter((a) => a === 'created')).toHaveLength(1);
          expect(actions.filter((a) => a !== 'created').every((a) => a === 'unchanged')).toBe(true);
          expect(new Set(outcomes.map((o) => o[0]!.id))).toEqual(new Set([stored[0]!.id]));
        },
        SLOW,
      );

      it(
        '10 parallel creations of the same customer group code leave one group and report the others as duplicates',
        async () => {
          const brand = await aBrand();
          const clock = new FixedClock();

          const results = await Promise.allSettled(
            Array.from({ length: 10 }, () =>
              createCustomerGroup({ uow: uow(), clock }, { brandId: brand.id, code: 'RACE', name: 'Race group' }),
            ),
          );

          const created = results.filter((r) => r.status === 'fulfilled');
          const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
          expect(created).toHaveLength(1);
          expect(refused.every((reason) => isDomainError(reason) && reason.code === 'duplicate')).toBe(true);
          expect(await uow().read((r) => r.customerGroups.findByCodes(brand.id, ['RACE']))).toHaveLength(1);
        },
        SLOW,
      );
    });
  });
}
