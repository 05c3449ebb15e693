import { Supplier } from '../suppliers/supplier.entities';
import { anAddress, contractBuilders } from './contract-builders';
import { ContractStorage, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of the supplier repository: suppliers with their addresses.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s), so no test depends on another or on the database being empty.
 *
 * @example
 * describeSuppliersContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeSuppliersContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, aSupplier, newAddressIds } = contractBuilders(uow, { at: T0 });

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
  });
}
