import { createBrand, FixedClock, listCustomers, syncCustomers } from '@brand/core';
import { openTestStorage, testDialects } from '../src/testing';

for (const dialect of testDialects()) {
  describe(`storage smoke [${dialect}]`, () => {
    it('syncs and lists customers', async () => {
      const storage = await openTestStorage(dialect);
      try {
        const clock = new FixedClock();
        const brand = await createBrand({ uow: storage.uow, clock }, { name: 'Acme', currency: 'EUR' });
        const out = await syncCustomers(
          { uow: storage.uow, clock },
          {
            brandId: brand.id,
            customers: [
              {
                customerNumber: 'C1',
                name: 'One',
                currency: 'EUR',
                addresses: {
                  mode: 'replace',
                  key: 'address_title',
                  addresses: [
                    {
                      title: 'HQ',
                      name: 'One BV',
                      address: 'Street 1',
                      address2: null,
                      zip: '1000',
                      city: 'Amsterdam',
                      region: null,
                      country: 'NL',
                      remoteErpId: null,
                    },
                  ],
                },
              },
              { customerNumber: 'C2', name: 'Two', currency: 'EUR', discountPercentage: 12.5 },
            ],
          },
        );
        expect(out.map((o) => o.action)).toEqual(['created', 'created']);
        const { page } = await listCustomers(
          { uow: storage.uow },
          {
            brandId: brand.id,
            query: {
              includes: ['addresses'],
              filter_groups: [{ filters: [{ key: 'name', operator: 'ct', value: 'ON' }] }],
            },
          },
        );
        expect(page.total).toBe(1);
        expect(page.items[0]?.addresses[0]?.city).toBe('Amsterdam');
      } finally {
        await storage.close();
      }
    });
  });
}
