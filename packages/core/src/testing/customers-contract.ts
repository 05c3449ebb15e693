import { Customer } from '../customers/customer.entities';
import { customerListDefinition } from '../customers/customer.list-definitions';
import { ListQuery } from '../listing/list-query';
import { runList } from '../listing/run-list';
import { anAddress, byId, contractBuilders } from './contract-builders';
import { ContractStorage, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of the customer repositories: customers with their addresses, customer groups and
 * payment terms.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s), so no test depends on another or on the database being empty.
 *
 * @example
 * describeCustomersContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeCustomersContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, aCustomerGroup, somePaymentTerms, aCustomer, newAddressIds } = contractBuilders(uow, { at: T0 });

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
  });
}
