import { ascending, contractBuilders } from './contract-builders';
import { ContractStorage, PlannedFailure, SLOW, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of the sequences: integer ids drawn per table (`ids`), and gap-free document
 * numbers per brand and kind, under parallel transactions and rollbacks.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s), so no test depends on another or on the database being empty.
 *
 * @example
 * describeSequencesContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeSequencesContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand } = contractBuilders(uow, { at: T0 });

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
  });
}
