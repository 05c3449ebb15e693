import { Customer } from '../customers/customer.entities';
import { customerListDefinition } from '../customers/customer.list-definitions';
import { RawListQuery } from '../listing/list-query';
import { runList } from '../listing/run-list';
import { DecodedCursor } from '../listing/validate-list-query';
import { Supplier } from '../suppliers/supplier.entities';
import { supplierListDefinition } from '../suppliers/supplier.list-definitions';
import { anAddress, contractBuilders } from './contract-builders';
import { ContractStorage, SLOW, useContractStorage, walkByCursor, walkByOffset } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The list semantics every adapter shares, on the customer and supplier lists: filters, sorts,
 * keyset and offset pages, totals, and the brand boundary.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s), so no test depends on another or on the database being empty.
 *
 * @example
 * describeListsContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeListsContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, aCustomerGroup, saveNewCustomer, aCustomer, aSupplier } = contractBuilders(uow, { at: T0 });

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
  });
}
