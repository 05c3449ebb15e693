import { createCustomerGroup } from '../customers/create-customer-group';
import { Customer, CustomerGroup } from '../customers/customer.entities';
import { syncCustomers } from '../customers/sync-customers';
import { Brand } from '../identity/identity.entities';
import { FixedClock } from '../shared/clock.ports';
import { DomainError, isDomainError } from '../shared/errors';
import { anAddress, ascending, contractBuilders } from './contract-builders';
import { ContractStorage, PlannedFailure, SLOW, hostTimers, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of the unit of work: a failed transaction leaves nothing behind, parallel
 * transactions do not lose each other's writes, and write conflicts end in one winner.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s), so no test depends on another or on the database being empty.
 *
 * @example
 * describeTransactionsContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeTransactionsContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, saveNewCustomer } = contractBuilders(uow, { at: T0 });

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

      it(
        'loses none of 10 parallel read-modify-writes of one customer that each hold its resource lock first',
        async () => {
          const brand = await aBrand();
          const customer = await uow().run((tx) => saveNewCustomer(tx, brand.id, { name: 'R' }));
          const resource = `/v10/customers/${customer.id}`;

          await Promise.all(
            Array.from({ length: 10 }, () =>
              uow().run(async (tx) => {
                await tx.resourceLocks.hold(brand.id, resource);
                const current = await tx.customers.findById(brand.id, customer.id);
                // A turn of the event loop between read and write: without the lock, the other
                // transactions would read the same name in it and all but one append would be lost.
                await new Promise((resolve) => hostTimers.setTimeout(() => resolve(undefined), 5));
                await tx.customers.save({ ...current!, name: `${current!.name}+` });
              }),
            ),
          );

          const stored = await uow().read((r) => r.customers.findById(brand.id, customer.id));
          expect(stored!.name).toBe(`R${'+'.repeat(10)}`);
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
