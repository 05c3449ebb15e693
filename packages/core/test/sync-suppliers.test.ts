import {
  AddressInput,
  FixedClock,
  Supplier,
  SupplierSyncItem,
  UnitOfWork,
  createBrand,
  isDomainError,
  syncSuppliers,
} from '../src';
import { InMemoryUnitOfWork } from '../src/testing';

const START = '2026-04-01T08:00:00.000Z';

function anAddress(overrides: Partial<AddressInput> = {}): AddressInput {
  return {
    title: 'Mill',
    name: 'Goods in',
    address: 'Via Roma 1',
    address2: null,
    zip: '59100',
    city: 'Prato',
    region: 'PO',
    country: 'IT',
    remoteErpId: null,
    ...overrides,
  };
}

async function setUp() {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock(START);
  const brand = await createBrand({ uow, clock }, { name: 'North Knits', currency: 'EUR' });
  const sync = (suppliers: SupplierSyncItem[], via: UnitOfWork = uow) =>
    syncSuppliers({ uow: via, clock }, { brandId: brand.id, suppliers });
  const find = async (supplierNumber: string): Promise<Supplier | null> =>
    (await uow.read((r) => r.suppliers.findByNumbers(brand.id, [supplierNumber])))[0] ?? null;
  return { uow, clock, brand, sync, find };
}

async function violationsOf(outcome: Promise<unknown>): Promise<Record<string, string>> {
  try {
    await outcome;
  } catch (error) {
    if (isDomainError(error) && error.code === 'validation_failed')
      return Object.fromEntries(error.violations.map((v) => [v.pointer, v.detail]));
    throw error;
  }
  throw new Error('expected the sync to be refused');
}

describe('syncing suppliers', () => {
  it('creates a new supplier with defaults for what was not sent', async () => {
    const { sync, find, brand } = await setUp();

    const outcome = await sync([
      {
        supplierNumber: 'S-1',
        name: ' Lanificio ',
        currency: 'EUR',
        addresses: { mode: 'replace', key: 'address_title', addresses: [anAddress()] },
      },
    ]);

    const stored = await find('S-1');
    expect(outcome).toEqual([{ number: 'S-1', id: stored!.id, action: 'created' }]);
    expect(stored).toEqual({
      id: stored!.id,
      brandId: brand.id,
      supplierNumber: 'S-1',
      name: 'Lanificio',
      currency: 'EUR',
      active: true,
      email: null,
      addresses: [{ ...anAddress(), id: stored!.addresses[0]!.id }],
      createdAt: START,
      updatedAt: START,
    });
  });

  it('updates only the fields sent', async () => {
    const { sync, find, clock } = await setUp();
    await sync([{ supplierNumber: 'S-1', name: 'Lanificio', currency: 'EUR', email: 'a@mill.example' }]);
    const before = await find('S-1');
    clock.advance(5_000);

    const outcome = await sync([{ supplierNumber: 'S-1', active: false }]);

    expect(outcome[0]!.action).toBe('updated');
    expect(await find('S-1')).toEqual({ ...before, active: false, updatedAt: '2026-04-01T08:00:05.000Z' });
  });

  it('reports an unchanged replay as unchanged', async () => {
    const { sync, find, clock } = await setUp();
    const item: SupplierSyncItem = {
      supplierNumber: 'S-1',
      name: 'Lanificio',
      currency: 'EUR',
      addresses: { mode: 'replace', key: 'remote_erp_id', addresses: [anAddress({ remoteErpId: 'V-1' })] },
    };
    await sync([item]);
    const before = await find('S-1');
    clock.advance(5_000);

    expect((await sync([item]))[0]!.action).toBe('unchanged');
    expect(await find('S-1')).toEqual(before);
  });

  it('replaces or appends addresses by their sync key', async () => {
    const { sync, find } = await setUp();
    await sync([
      {
        supplierNumber: 'S-1',
        name: 'Lanificio',
        currency: 'EUR',
        addresses: {
          mode: 'replace',
          key: 'remote_erp_id',
          addresses: [
            anAddress({ title: 'Mill', remoteErpId: 'V-1' }),
            anAddress({ title: 'Office', remoteErpId: 'V-2' }),
          ],
        },
      },
    ]);
    const [mill] = (await find('S-1'))!.addresses;

    await sync([
      {
        supplierNumber: 'S-1',
        addresses: { mode: 'append', key: 'address_title', addresses: [anAddress({ title: 'Dye house' })] },
      },
    ]);
    const appended = (await find('S-1'))!.addresses.map((a) => a.title);
    await sync([
      {
        supplierNumber: 'S-1',
        addresses: {
          mode: 'replace',
          key: 'remote_erp_id',
          addresses: [anAddress({ title: 'Old mill', remoteErpId: 'V-1' })],
        },
      },
    ]);
    const replaced = (await find('S-1'))!.addresses;

    expect(appended).toEqual(['Mill', 'Office', 'Dye house']);
    expect(replaced).toEqual([{ ...anAddress({ title: 'Old mill', remoteErpId: 'V-1' }), id: mill!.id }]);
  });

  it('names the index and field of every invalid item and writes nothing of the request', async () => {
    const { sync, find } = await setUp();

    const violations = await violationsOf(
      sync([
        { supplierNumber: 'S-1', name: 'Fine', currency: 'EUR' },
        { supplierNumber: 'S-2' },
        { supplierNumber: 'S-3', name: 'Bad currency', currency: 'eur' },
        { supplierNumber: 'S-1', name: 'Again', currency: 'EUR' },
        {
          supplierNumber: 'S-5',
          name: 'No key',
          currency: 'EUR',
          addresses: { mode: 'append', key: 'remote_erp_id', addresses: [anAddress()] },
        },
      ]),
    );

    expect(Object.keys(violations)).toEqual([
      '/suppliers/1/name',
      '/suppliers/1/currency',
      '/suppliers/2/currency',
      '/suppliers/3/supplier_number',
      '/suppliers/4/addresses/0/remote_erp_id',
    ]);
    expect(await find('S-1')).toBeNull();
  });

  it('deletes a supplier, and reports a delete of an absent one as absent', async () => {
    const { sync, find } = await setUp();
    const [created] = await sync([{ supplierNumber: 'S-1', name: 'Lanificio', currency: 'EUR' }]);

    const outcome = await sync([
      { supplierNumber: 'S-1', delete: true },
      { supplierNumber: 'S-404', delete: true },
    ]);

    expect(outcome).toEqual([
      { number: 'S-1', id: created!.id, action: 'deleted' },
      { number: 'S-404', id: null, action: 'absent' },
    ]);
    expect(await find('S-1')).toBeNull();
  });

  it('refuses to delete a supplier other data still refers to', async () => {
    const { sync, find, uow } = await setUp();
    await sync([{ supplierNumber: 'S-1', name: 'Lanificio', currency: 'EUR' }]);
    const referenced: UnitOfWork = {
      run: (work) =>
        uow.run((tx) =>
          work({ ...tx, suppliers: { ...tx.suppliers, dependentsOf: async () => ['production orders'] } }),
        ),
      read: (work) => uow.read(work),
    };

    const violations = await violationsOf(sync([{ supplierNumber: 'S-1', delete: true }], referenced));

    expect(violations).toEqual({
      '/suppliers/0/delete': 'suppliers[0].delete cannot delete supplier S-1: it still has production orders',
    });
    expect(await find('S-1')).not.toBeNull();
  });
});
