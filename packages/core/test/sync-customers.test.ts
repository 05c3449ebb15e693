import {
  AddressInput,
  Customer,
  CustomerSyncItem,
  FixedClock,
  UnitOfWork,
  createBrand,
  createCustomerGroup,
  createPaymentTerms,
  isDomainError,
  syncCustomers,
} from '../src';
import { InMemoryUnitOfWork } from '../src/testing';

const START = '2026-03-01T08:00:00.000Z';

function anAddress(overrides: Partial<AddressInput> = {}): AddressInput {
  return {
    title: 'Home',
    name: 'Anna Berg',
    address: 'Storgatan 1',
    address2: null,
    zip: '11122',
    city: 'Stockholm',
    region: null,
    country: 'SE',
    remoteErpId: null,
    ...overrides,
  };
}

async function setUp() {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock(START);
  const brand = await createBrand({ uow, clock }, { name: 'North Knits', currency: 'EUR' });
  const sync = (customers: CustomerSyncItem[], via: UnitOfWork = uow) =>
    syncCustomers({ uow: via, clock }, { brandId: brand.id, customers });
  const find = async (customerNumber: string): Promise<Customer | null> =>
    (await uow.read((r) => r.customers.findByNumbers(brand.id, [customerNumber])))[0] ?? null;
  return { uow, clock, brand, sync, find };
}

/** The violations a rejected sync names, as pointer → detail. */
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

/** The in-memory storage, but with every customer still referred to by `dependents`. */
function withDependents(inner: UnitOfWork, dependents: string[]): UnitOfWork {
  return {
    run: (work) =>
      inner.run((tx) => work({ ...tx, customers: { ...tx.customers, dependentsOf: async () => dependents } })),
    read: (work) => inner.read(work),
  };
}

describe('syncing customers', () => {
  it('creates a new customer with defaults for what was not sent', async () => {
    const { sync, find, brand } = await setUp();

    const outcome = await sync([
      { customerNumber: 'C-1', name: '  Anna Berg ', currency: 'SEK', discountPercentage: 12.5 },
    ]);

    const stored = await find('C-1');
    expect(outcome).toEqual([{ number: 'C-1', id: stored!.id, action: 'created' }]);
    expect(stored).toEqual({
      id: stored!.id,
      brandId: brand.id,
      customerNumber: 'C-1',
      name: 'Anna Berg',
      currency: 'SEK',
      discountBasisPoints: 1250,
      active: true,
      customerGroupId: null,
      paymentTermsId: null,
      email: null,
      telephone: null,
      vatNumber: null,
      eoriNumber: null,
      addresses: [],
      createdAt: START,
      updatedAt: START,
    });
  });

  it('updates only the fields sent and leaves the others as they were', async () => {
    const { sync, find, clock } = await setUp();
    await sync([
      {
        customerNumber: 'C-1',
        name: 'Anna',
        currency: 'SEK',
        email: 'anna@example.com',
        telephone: '+46 1',
        vatNumber: 'SE1',
        active: true,
      },
    ]);
    const before = await find('C-1');
    clock.advance(60_000);

    const outcome = await sync([
      { customerNumber: 'C-1', telephone: null, discountPercentage: '5', active: false } as unknown as CustomerSyncItem,
    ]);

    expect(outcome).toEqual([{ number: 'C-1', id: before!.id, action: 'updated' }]);
    expect(await find('C-1')).toEqual({
      ...before,
      telephone: null,
      discountBasisPoints: 500,
      active: false,
      updatedAt: '2026-03-01T08:01:00.000Z',
    });
  });

  it('reports an unchanged replay as unchanged and keeps its update time', async () => {
    const { sync, find, clock } = await setUp();
    const item: CustomerSyncItem = {
      customerNumber: 'C-1',
      name: 'Anna',
      currency: 'SEK',
      email: 'anna@example.com',
      addresses: { mode: 'replace', key: 'address_title', addresses: [anAddress(), anAddress({ title: 'Office' })] },
    };
    await sync([item]);
    const before = await find('C-1');
    clock.advance(60_000);

    const outcome = await sync([item]);

    expect(outcome).toEqual([{ number: 'C-1', id: before!.id, action: 'unchanged' }]);
    expect(await find('C-1')).toEqual(before);
  });

  it('reports a replay as unchanged whatever order the fields of its addresses come in', async () => {
    const { sync, clock } = await setUp();
    const address = anAddress();
    const reordered = Object.fromEntries(Object.entries(address).reverse()) as unknown as AddressInput;
    await sync([
      {
        customerNumber: 'C-1',
        name: 'Anna',
        currency: 'SEK',
        addresses: { mode: 'replace', key: 'address_title', addresses: [address] },
      },
    ]);
    clock.advance(1000);

    const outcome = await sync([
      { customerNumber: 'C-1', addresses: { mode: 'replace', key: 'address_title', addresses: [reordered] } },
    ]);

    expect(outcome[0]!.action).toBe('unchanged');
  });

  describe('addresses', () => {
    async function withHomeAndOffice() {
      const context = await setUp();
      await context.sync([
        {
          customerNumber: 'C-1',
          name: 'Anna',
          currency: 'SEK',
          addresses: {
            mode: 'replace',
            key: 'address_title',
            addresses: [
              anAddress({ title: 'Home', remoteErpId: 'E-1' }),
              anAddress({ title: 'Office', city: 'Uppsala', remoteErpId: 'E-2' }),
            ],
          },
        },
      ]);
      const [home, office] = (await context.find('C-1'))!.addresses;
      return { ...context, home: home!, office: office! };
    }

    it('replace by address_title updates matching titles in place (case and spacing aside), drops the rest and adds the new', async () => {
      const { sync, find, home } = await withHomeAndOffice();

      await sync([
        {
          customerNumber: 'C-1',
          addresses: {
            mode: 'replace',
            key: 'address_title',
            addresses: [
              anAddress({ title: ' HOME', city: 'Malmö', remoteErpId: 'E-1' }),
              anAddress({ title: 'Summer house' }),
            ],
          },
        },
      ]);

      const addresses = (await find('C-1'))!.addresses;
      expect(addresses.map((a) => [a.title, a.city])).toEqual([
        [' HOME', 'Malmö'],
        ['Summer house', 'Stockholm'],
      ]);
      expect(addresses[0]!.id).toBe(home.id);
      expect(addresses[1]!.id).toBeGreaterThan(home.id);
    });

    it('append by address_title updates matching titles in place and keeps the addresses not sent', async () => {
      const { sync, find, home, office } = await withHomeAndOffice();

      await sync([
        {
          customerNumber: 'C-1',
          addresses: {
            mode: 'append',
            key: 'address_title',
            addresses: [anAddress({ title: 'Summer house' }), anAddress({ title: 'home', zip: '99999' })],
          },
        },
      ]);

      const addresses = (await find('C-1'))!.addresses;
      expect(addresses.map((a) => [a.id === home.id, a.id === office.id, a.title, a.zip])).toEqual([
        [true, false, 'home', '99999'],
        [false, true, 'Office', '11122'],
        [false, false, 'Summer house', '11122'],
      ]);
    });

    it('replace by remote_erp_id matches on the ERP id even when the title changes', async () => {
      const { sync, find, office } = await withHomeAndOffice();

      await sync([
        {
          customerNumber: 'C-1',
          addresses: {
            mode: 'replace',
            key: 'remote_erp_id',
            addresses: [anAddress({ title: 'Headquarters', remoteErpId: 'E-2' })],
          },
        },
      ]);

      expect((await find('C-1'))!.addresses).toEqual([
        { ...anAddress({ title: 'Headquarters', remoteErpId: 'E-2' }), id: office.id },
      ]);
    });

    it('append by remote_erp_id keeps addresses the ERP does not know', async () => {
      const { sync, find, home, office } = await withHomeAndOffice();

      await sync([
        {
          customerNumber: 'C-1',
          addresses: {
            mode: 'append',
            key: 'remote_erp_id',
            addresses: [
              anAddress({ title: 'Home again', remoteErpId: 'E-1' }),
              anAddress({ title: 'New', remoteErpId: 'E-3' }),
            ],
          },
        },
      ]);

      const addresses = (await find('C-1'))!.addresses;
      expect(addresses.map((a) => a.remoteErpId)).toEqual(['E-1', 'E-2', 'E-3']);
      expect(addresses.slice(0, 2).map((a) => a.id)).toEqual([home.id, office.id]);
      expect(addresses[0]!.title).toBe('Home again');
    });

    it('append by title keeps every existing address, even two that share a title', async () => {
      const { sync, find } = await setUp();
      await sync([
        {
          customerNumber: 'C-1',
          name: 'Anna',
          currency: 'SEK',
          addresses: {
            mode: 'replace',
            key: 'remote_erp_id',
            addresses: [
              anAddress({ title: 'Store', remoteErpId: 'E-1' }),
              anAddress({ title: 'Store', city: 'Lund', remoteErpId: 'E-2' }),
            ],
          },
        },
      ]);

      await sync([
        {
          customerNumber: 'C-1',
          addresses: { mode: 'append', key: 'address_title', addresses: [anAddress({ title: 'Office' })] },
        },
      ]);

      expect((await find('C-1'))!.addresses.map((a) => [a.title, a.city])).toEqual([
        ['Store', 'Stockholm'],
        ['Store', 'Lund'],
        ['Office', 'Stockholm'],
      ]);
    });

    it('refuses addresses without their sync key, or with a key given twice', async () => {
      const { sync } = await setUp();

      const violations = await violationsOf(
        sync([
          {
            customerNumber: 'C-1',
            name: 'Anna',
            currency: 'SEK',
            addresses: { mode: 'replace', key: 'remote_erp_id', addresses: [anAddress({ remoteErpId: null })] },
          },
          {
            customerNumber: 'C-2',
            name: 'Bo',
            currency: 'SEK',
            addresses: {
              mode: 'replace',
              key: 'address_title',
              addresses: [anAddress({ title: 'Home' }), anAddress({ title: 'home ' })],
            },
          },
        ]),
      );

      expect(Object.keys(violations)).toEqual(['/customers/0/addresses/0/remote_erp_id', '/customers/1/addresses/1']);
    });
  });

  describe('payment terms and customer groups', () => {
    async function withTerms() {
      const context = await setUp();
      const deps = { uow: context.uow, clock: context.clock };
      const net30 = await createPaymentTerms(deps, {
        brandId: context.brand.id,
        code: 'NET30',
        name: 'Net 30',
        days: 30,
      });
      const net60 = await createPaymentTerms(deps, {
        brandId: context.brand.id,
        code: 'NET60',
        name: 'Net 60',
        days: 60,
      });
      const vip = await createCustomerGroup(deps, { brandId: context.brand.id, code: 'VIP', name: 'VIP' });
      return { ...context, net30, net60, vip };
    }

    it('sets payment terms by id or by code and a customer group by code', async () => {
      const { sync, find, net30, net60, vip } = await withTerms();

      await sync([
        {
          customerNumber: 'C-1',
          name: 'Anna',
          currency: 'SEK',
          paymentTerms: { id: net60.id },
          customerGroup: { code: 'VIP' },
        },
        { customerNumber: 'C-2', name: 'Bo', currency: 'SEK', paymentTerms: { code: 'NET30' } },
      ]);

      expect(await find('C-1')).toMatchObject({ paymentTermsId: net60.id, customerGroupId: vip.id });
      expect(await find('C-2')).toMatchObject({ paymentTermsId: net30.id, customerGroupId: null });
    });

    it('clears payment terms sent as null and keeps them when not sent', async () => {
      const { sync, find, net30 } = await withTerms();
      await sync([
        { customerNumber: 'C-1', name: 'Anna', currency: 'SEK', paymentTerms: { code: 'NET30' } },
        { customerNumber: 'C-2', name: 'Bo', currency: 'SEK', paymentTerms: { code: 'NET30' } },
      ]);

      await sync([
        { customerNumber: 'C-1', paymentTerms: null },
        { customerNumber: 'C-2', name: 'Bo B' },
      ]);

      expect((await find('C-1'))!.paymentTermsId).toBeNull();
      expect((await find('C-2'))!.paymentTermsId).toBe(net30.id);
    });

    it('refuses unknown payment terms, naming the item', async () => {
      const { sync, find } = await withTerms();

      const violations = await violationsOf(
        sync([
          { customerNumber: 'C-1', name: 'Anna', currency: 'SEK', paymentTerms: { code: 'NET30' } },
          { customerNumber: 'C-2', name: 'Bo', currency: 'SEK', paymentTerms: { code: 'NET90' } },
          { customerNumber: 'C-3', name: 'Cy', currency: 'SEK', paymentTerms: { id: 987_654 } },
          { customerNumber: 'C-4', name: 'Di', currency: 'SEK', customerGroup: { code: 'NOPE' } },
        ]),
      );

      expect(violations).toEqual({
        '/customers/1/payment_terms': 'customers[1].payment_terms names payment terms "NET90", which does not exist',
        '/customers/2/payment_terms': 'customers[2].payment_terms names payment terms id 987654, which does not exist',
        '/customers/3/customer_group': 'customers[3].customer_group names customer group "NOPE", which does not exist',
      });
      expect(await find('C-1')).toBeNull();
    });

    it('refuses payment terms named by an id and a code of two different terms', async () => {
      const { sync, net30 } = await withTerms();

      const violations = await violationsOf(
        sync([{ customerNumber: 'C-1', name: 'Anna', currency: 'SEK', paymentTerms: { id: net30.id, code: 'NET60' } }]),
      );

      expect(Object.keys(violations)).toEqual(['/customers/0/payment_terms']);
    });

    it("refuses another brand's payment terms as if they did not exist", async () => {
      const { sync, uow, clock } = await withTerms();
      const other = await createBrand({ uow, clock }, { name: 'Other', currency: 'EUR' });
      const foreign = await createPaymentTerms(
        { uow, clock },
        { brandId: other.id, code: 'FOREIGN', name: 'Foreign', days: 10 },
      );

      const violations = await violationsOf(
        sync([{ customerNumber: 'C-1', name: 'Anna', currency: 'SEK', paymentTerms: { id: foreign.id } }]),
      );

      expect(Object.keys(violations)).toEqual(['/customers/0/payment_terms']);
    });
  });

  describe('validation', () => {
    it('names the index and field of a new customer without name or currency', async () => {
      const { sync } = await setUp();

      const violations = await violationsOf(
        sync([
          { customerNumber: 'C-1', name: 'Anna', currency: 'SEK' },
          { customerNumber: 'C-2' },
          { customerNumber: 'C-3', name: '  ', currency: 'SEK' },
        ]),
      );

      expect(violations).toEqual({
        '/customers/1/name': 'customers[1].name is required for a new customer',
        '/customers/1/currency': 'customers[1].currency is required for a new customer',
        '/customers/2/name': 'customers[2].name is required for a new customer',
      });
    });

    it('refuses a bad currency, an empty customer number and discounts outside 0 to 100 or with 3 decimals', async () => {
      const { sync } = await setUp();

      const violations = await violationsOf(
        sync([
          { customerNumber: 'C-1', name: 'A', currency: 'euro' },
          { customerNumber: ' ', name: 'B', currency: 'EUR' },
          { customerNumber: 'C-3', name: 'C', currency: 'EUR', discountPercentage: 100.01 },
          { customerNumber: 'C-4', name: 'D', currency: 'EUR', discountPercentage: -1 },
          { customerNumber: 'C-5', name: 'E', currency: 'EUR', discountPercentage: 1.005 },
          { customerNumber: 'C-6', name: 'F', currency: 'EUR', discountPercentage: 100 },
        ]),
      );

      expect(Object.keys(violations)).toEqual([
        '/customers/0/currency',
        '/customers/1/customer_number',
        '/customers/2/discount_percentage',
        '/customers/3/discount_percentage',
        '/customers/4/discount_percentage',
      ]);
    });

    it('writes nothing of a request whose third item is invalid', async () => {
      const { sync, find } = await setUp();
      await sync([{ customerNumber: 'EXISTING', name: 'Old name', currency: 'EUR' }]);
      const before = await find('EXISTING');

      const violations = await violationsOf(
        sync([
          { customerNumber: 'NEW-1', name: 'New', currency: 'EUR' },
          {
            customerNumber: 'EXISTING',
            name: 'New name',
            addresses: { mode: 'replace', key: 'address_title', addresses: [anAddress()] },
          },
          { customerNumber: 'NEW-2', name: 'Broken', currency: 'E' },
        ]),
      );

      expect(Object.keys(violations)).toEqual(['/customers/2/currency']);
      expect(await find('NEW-1')).toBeNull();
      expect(await find('NEW-2')).toBeNull();
      expect(await find('EXISTING')).toEqual(before);
    });

    it('refuses a customer number sent twice in one request', async () => {
      const { sync, find } = await setUp();

      const violations = await violationsOf(
        sync([
          { customerNumber: 'C-1', name: 'A', currency: 'EUR' },
          { customerNumber: 'C-2', name: 'B', currency: 'EUR' },
          { customerNumber: 'C-1', name: 'A again', currency: 'EUR' },
        ]),
      );

      expect(violations).toEqual({
        '/customers/2/customer_number':
          'customers[2].customer_number repeats customers[0]; send each customer once per request',
      });
      expect(await find('C-1')).toBeNull();
    });
  });

  describe('deleting', () => {
    it('deletes a customer and reports it deleted', async () => {
      const { sync, find } = await setUp();
      const [created] = await sync([
        {
          customerNumber: 'C-1',
          name: 'Anna',
          currency: 'SEK',
          addresses: { mode: 'replace', key: 'address_title', addresses: [anAddress()] },
        },
      ]);

      const outcome = await sync([{ customerNumber: 'C-1', delete: true }]);

      expect(outcome).toEqual([{ number: 'C-1', id: created!.id, action: 'deleted' }]);
      expect(await find('C-1')).toBeNull();
    });

    it('reports a delete of a customer that does not exist as absent', async () => {
      const { sync } = await setUp();

      expect(await sync([{ customerNumber: 'NOPE', delete: true }])).toEqual([
        { number: 'NOPE', id: null, action: 'absent' },
      ]);
    });

    it('refuses to delete a customer other data still refers to, and writes nothing else of the request', async () => {
      const { sync, find, uow } = await setUp();
      await sync([{ customerNumber: 'C-1', name: 'Anna', currency: 'SEK' }]);

      const violations = await violationsOf(
        sync(
          [
            { customerNumber: 'C-2', name: 'Bo', currency: 'SEK' },
            { customerNumber: 'C-1', delete: true },
          ],
          withDependents(uow, ['orders', 'returns']),
        ),
      );

      expect(violations).toEqual({
        '/customers/1/delete': 'customers[1].delete cannot delete customer C-1: it still has orders, returns',
      });
      expect(await find('C-1')).not.toBeNull();
      expect(await find('C-2')).toBeNull();
    });

    it('does not check a deleted item for the fields a new customer needs', async () => {
      const { sync } = await setUp();

      expect(await sync([{ customerNumber: 'NOPE', delete: true, currency: 'bad' }])).toEqual([
        { number: 'NOPE', id: null, action: 'absent' },
      ]);
    });
  });

  it('answers one outcome per item, in request order', async () => {
    const { sync } = await setUp();
    await sync([
      { customerNumber: 'B', name: 'B', currency: 'EUR' },
      { customerNumber: 'C', name: 'C', currency: 'EUR' },
    ]);

    const outcome = await sync([
      { customerNumber: 'C', delete: true },
      { customerNumber: 'A', name: 'A', currency: 'EUR' },
      { customerNumber: 'B', name: 'B2' },
      { customerNumber: 'D', delete: true },
    ]);

    expect(outcome.map((o) => [o.number, o.action])).toEqual([
      ['C', 'deleted'],
      ['A', 'created'],
      ['B', 'updated'],
      ['D', 'absent'],
    ]);
  });

  it('keeps brands apart: the same customer number in another brand is another customer', async () => {
    const { sync, uow, clock, find } = await setUp();
    const other = await createBrand({ uow, clock }, { name: 'Other', currency: 'EUR' });
    await sync([{ customerNumber: 'C-1', name: 'Ours', currency: 'EUR' }]);

    const outcome = await syncCustomers(
      { uow, clock },
      { brandId: other.id, customers: [{ customerNumber: 'C-1', name: 'Theirs', currency: 'EUR' }] },
    );

    expect(outcome[0]!.action).toBe('created');
    expect((await find('C-1'))!.name).toBe('Ours');
  });
});
