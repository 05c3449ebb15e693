import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { address, listAllCustomers, newCustomer, syncCustomers } from './support/customers';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

for (const dialect of testDialects()) {
  describe(`POST /customers/sync [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    beforeEach(async () => {
      // A brand per test: every test starts from an empty customer list.
      brand = await createIntegrator(t.storage, t.clock);
    });

    it('creates customers and reports each one with its id', async () => {
      const response = await request(t.server)
        .post('/customers/sync')
        .set(brand.headers)
        .send({
          customers: [
            newCustomer('C-1', {
              discount_percentage: 12.5,
              email: 'buyer@c1.example',
              vat_number: 'NL001',
              eori_number: 'NL-EORI-1',
              telephone: '+31 20 123',
            }),
            newCustomer('C-2', { active: false }),
          ],
        });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        customers: [
          { customer_number: 'C-1', id: expect.any(Number), action: 'created' },
          { customer_number: 'C-2', id: expect.any(Number), action: 'created' },
        ],
      });
      const listed = await listAllCustomers(t.app, brand, 'limit=10');
      expect(listed).toEqual([
        {
          id: response.body.customers[0].id,
          customer_number: 'C-1',
          name: 'Customer C-1',
          currency: 'EUR',
          discount_percentage: 12.5,
          active: true,
          email: 'buyer@c1.example',
          telephone: '+31 20 123',
          vat_number: 'NL001',
          eori_number: 'NL-EORI-1',
          customer_group_id: null,
          payment_terms_id: null,
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
        },
        expect.objectContaining({ customer_number: 'C-2', active: false, discount_percentage: 0, email: null }),
      ]);
    });

    it('answers the same at /production/customers/sync, the path of the sample request', async () => {
      const response = await request(t.server)
        .post('/production/customers/sync')
        .set(brand.headers)
        .send({ customers: [newCustomer('P-1')] });
      expect(response.status).toBe(200);
      expect(response.body.customers[0]).toMatchObject({ customer_number: 'P-1', action: 'created' });
      expect((await listAllCustomers(t.app, brand)).map((c) => c.customer_number)).toEqual(['P-1']);
    });

    it('updates a customer matched by number and keeps the fields not sent', async () => {
      const [created] = (
        await syncCustomers(t.app, brand, [newCustomer('C-1', { email: 'old@c1.example', discount_percentage: 5 })])
      ).customers;
      t.clock.advance(60_000);
      const response = await request(t.server)
        .post('/customers/sync')
        .set(brand.headers)
        .send({ customers: [{ customer_number: 'C-1', name: 'Renamed' }] });
      expect(response.body.customers).toEqual([{ customer_number: 'C-1', id: created!.id, action: 'updated' }]);
      const [customer] = await listAllCustomers(t.app, brand);
      expect(customer).toMatchObject({
        id: created!.id,
        name: 'Renamed',
        email: 'old@c1.example',
        discount_percentage: 5,
        currency: 'EUR',
        updated_at: t.clock.now(),
      });
      expect(customer!.created_at).not.toBe(customer!.updated_at);
    });

    it('reports a replayed request as unchanged, and null clears an optional field', async () => {
      const item = newCustomer('C-1', {
        email: 'a@c1.example',
        addresses_sync_mode: 'replace',
        addresses_sync_key: 'address_title',
        addresses: [address('Main')],
      });
      await syncCustomers(t.app, brand, [item]);
      expect((await syncCustomers(t.app, brand, [item])).customers[0]!.action).toBe('unchanged');
      expect((await syncCustomers(t.app, brand, [{ customer_number: 'C-1', email: null }])).customers[0]!.action).toBe(
        'updated',
      );
      expect((await listAllCustomers(t.app, brand))[0]).toMatchObject({
        email: null,
        addresses: [expect.objectContaining({ title: 'Main' })],
      });
    });

    describe('addresses', () => {
      it('replaces the address set, keeping the id of an address matched by title', async () => {
        await syncCustomers(t.app, brand, [
          newCustomer('C-1', {
            addresses_sync_mode: 'replace',
            addresses_sync_key: 'address_title',
            addresses: [address('Store'), address('Warehouse')],
          }),
        ]);
        const before = (await listAllCustomers(t.app, brand))[0]!.addresses as { id: number; title: string }[];
        const storeId = before.find((a) => a.title === 'Store')!.id;

        await syncCustomers(t.app, brand, [
          {
            customer_number: 'C-1',
            addresses_sync_mode: 'replace',
            addresses_sync_key: 'address_title',
            addresses: [address('store', { city: 'Utrecht' }), address('Office')],
          },
        ]);
        const after = (await listAllCustomers(t.app, brand))[0]!.addresses as {
          id: number;
          title: string;
          city: string;
        }[];
        expect(after).toHaveLength(2);
        expect(after).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ id: storeId, title: 'store', city: 'Utrecht' }),
            expect.objectContaining({ title: 'Office', city: 'Amsterdam' }),
          ]),
        );
        expect(after.some((a) => a.title === 'Warehouse')).toBe(false);
      });

      it('appends addresses and keeps the ones not sent', async () => {
        await syncCustomers(t.app, brand, [
          newCustomer('C-1', {
            addresses_sync_mode: 'replace',
            addresses_sync_key: 'address_title',
            addresses: [address('Store')],
          }),
        ]);
        await syncCustomers(t.app, brand, [
          {
            customer_number: 'C-1',
            addresses_sync_mode: 'append',
            addresses_sync_key: 'address_title',
            addresses: [address('Warehouse')],
          },
        ]);
        const addresses = (await listAllCustomers(t.app, brand))[0]!.addresses as { title: string }[];
        expect(addresses.map((a) => a.title).sort()).toEqual(['Store', 'Warehouse']);
      });

      it('matches by remote_erp_id and shows every address field', async () => {
        await syncCustomers(t.app, brand, [
          newCustomer('C-1', {
            addresses_sync_mode: 'replace',
            addresses_sync_key: 'remote_erp_id',
            addresses: [address('Store', { remote_erp_id: 'ERP-9', address_2: '2nd floor', region: 'Noord-Holland' })],
          }),
        ]);
        const [first] = (await listAllCustomers(t.app, brand))[0]!.addresses as { id: number }[];
        await syncCustomers(t.app, brand, [
          {
            customer_number: 'C-1',
            addresses_sync_mode: 'append',
            addresses_sync_key: 'remote_erp_id',
            addresses: [address('Renamed store', { remote_erp_id: 'ERP-9' })],
          },
        ]);
        const addresses = (await listAllCustomers(t.app, brand))[0]!.addresses;
        expect(addresses).toEqual([
          {
            id: first!.id,
            title: 'Renamed store',
            name: 'Renamed store receiving',
            address: 'Keizersgracht 1',
            address_2: null,
            zip: '1015 CJ',
            city: 'Amsterdam',
            region: null,
            country: 'NL',
            remote_erp_id: 'ERP-9',
          },
        ]);
      });

      it('requires the sync mode and key when addresses are sent', async () => {
        const response = await request(t.server)
          .post('/customers/sync')
          .set(brand.headers)
          .send({ customers: [newCustomer('C-1', { addresses: [address('Store')] })] });
        expect(response.status).toBe(422);
        expect(response.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
          '/customers/0/addresses_sync_mode',
          '/customers/0/addresses_sync_key',
        ]);
        expect(await listAllCustomers(t.app, brand)).toEqual([]);
      });
    });

    describe('payment terms and customer group', () => {
      let termsId: number;

      beforeEach(async () => {
        const terms = await request(t.server)
          .post('/v10/payment-terms')
          .set(brand.headers)
          .send({ code: 'NET30', name: 'Net 30 days', days: 30 });
        expect(terms.status).toBe(201);
        termsId = terms.body.payment_terms.id;
        await request(t.server)
          .post('/v10/customer-groups')
          .set(brand.headers)
          .send({ code: 'WHOLESALE', name: 'Wholesale' });
      });

      it('links payment terms by payment_terms code or id, and by the sample spelling payment_term', async () => {
        await syncCustomers(t.app, brand, [
          newCustomer('BY-CODE', { payment_terms: { payment_terms_code: 'NET30' } }),
          newCustomer('BY-ID', { payment_terms: { payment_terms_id: termsId } }),
          newCustomer('SAMPLE-SPELLING', { payment_term: { payment_term_code: 'NET30' } }),
          newCustomer('SAMPLE-ID', { payment_term: { payment_term_id: termsId } }),
          newCustomer('NONE'),
        ]);
        const customers = await listAllCustomers(t.app, brand, 'includes[]=payment_terms');
        expect(customers.map((c) => [c.customer_number, c.payment_terms_id])).toEqual([
          ['BY-CODE', termsId],
          ['BY-ID', termsId],
          ['SAMPLE-SPELLING', termsId],
          ['SAMPLE-ID', termsId],
          ['NONE', null],
        ]);
        expect(customers[2]!.payment_terms).toEqual({
          id: termsId,
          code: 'NET30',
          name: 'Net 30 days',
          days: 30,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        });
        expect(customers[4]!.payment_terms).toBeNull();
      });

      it('links a customer group by code and clears it with null', async () => {
        await syncCustomers(t.app, brand, [
          newCustomer('C-1', { customer_group: { customer_group_code: 'WHOLESALE' } }),
        ]);
        const [linked] = await listAllCustomers(t.app, brand, 'includes[]=customer_group');
        expect(linked!.customer_group).toMatchObject({ code: 'WHOLESALE', name: 'Wholesale' });
        await syncCustomers(t.app, brand, [{ customer_number: 'C-1', customer_group: null }]);
        const [cleared] = await listAllCustomers(t.app, brand, 'includes[]=customer_group');
        expect(cleared).toMatchObject({ customer_group_id: null, customer_group: null });
      });

      it('refuses both spellings at once, and unknown terms, naming the item', async () => {
        const response = await request(t.server)
          .post('/customers/sync')
          .set(brand.headers)
          .send({
            customers: [
              newCustomer('C-1', {
                payment_terms: { payment_terms_code: 'NET30' },
                payment_term: { payment_term_code: 'NET30' },
              }),
            ],
          });
        expect(response.status).toBe(422);
        expect(response.body.errors[0]).toMatchObject({ source: { pointer: '/customers/0/payment_term' } });

        const unknown = await request(t.server)
          .post('/customers/sync')
          .set(brand.headers)
          .send({ customers: [newCustomer('C-1', { payment_term: { payment_term_code: 'NET99' } })] });
        expect(unknown.status).toBe(422);
        expect(unknown.body.errors[0]).toMatchObject({
          code: 'validation_failed',
          source: { pointer: '/customers/0/payment_terms' },
          detail: expect.stringContaining('NET99'),
        });
        expect(await listAllCustomers(t.app, brand)).toEqual([]);
      });
    });

    describe('an invalid request writes nothing', () => {
      it('points at the field of item 2 whose JSON type is wrong', async () => {
        const response = await request(t.server)
          .post('/customers/sync')
          .set(brand.headers)
          .send({
            customers: [
              newCustomer('C-0'),
              newCustomer('C-1'),
              newCustomer('C-2', {
                addresses_sync_mode: 'replace',
                addresses_sync_key: 'address_title',
                addresses: [address('Store', { zip: 1015 })],
              }),
            ],
          });
        expect(response.status).toBe(422);
        expect(response.body).toEqual({
          errors: [
            {
              status: 422,
              code: 'validation_failed',
              title: 'Validation error',
              detail: 'customers[2].addresses[0].zip must be a string',
              source: { pointer: '/customers/2/addresses/0/zip' },
            },
          ],
        });
        expect(await listAllCustomers(t.app, brand)).toEqual([]);
      });

      it('points at item 2 when a business rule refuses it (new customer without a name)', async () => {
        const response = await request(t.server)
          .post('/customers/sync')
          .set(brand.headers)
          .send({ customers: [newCustomer('C-0'), newCustomer('C-1'), { customer_number: 'C-2', currency: 'EUR' }] });
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          expect.objectContaining({
            code: 'validation_failed',
            source: { pointer: '/customers/2/name' },
            detail: 'customers[2].name is required for a new customer',
          }),
        ]);
        expect(await listAllCustomers(t.app, brand)).toEqual([]);
      });

      it('reports every problem of the request at once', async () => {
        const response = await request(t.server)
          .post('/customers/sync')
          .set(brand.headers)
          .send({
            customers: [{ customer_number: 7 }, newCustomer('C-1', { discount_percentage: 120, active: 'yes' })],
          });
        expect(response.status).toBe(422);
        expect(response.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
          '/customers/0/customer_number',
          '/customers/1/discount_percentage',
          '/customers/1/active',
        ]);
      });

      it('requires a non-empty customers array of at most 1000 items', async () => {
        const missing = await request(t.server).post('/customers/sync').set(brand.headers).send({});
        expect(missing.status).toBe(422);
        expect(missing.body.errors[0]).toMatchObject({
          source: { pointer: '/customers' },
          detail: 'customers must be an array',
        });
        const empty = await request(t.server).post('/customers/sync').set(brand.headers).send({ customers: [] });
        expect(empty.body.errors[0].detail).toBe('customers must contain at least one item');
        const tooMany = await request(t.server)
          .post('/customers/sync')
          .set(brand.headers)
          .send({ customers: Array.from({ length: 1001 }, (_, i) => ({ customer_number: `N${i}` })) });
        expect(tooMany.status).toBe(422);
        expect(tooMany.body.errors).toEqual([
          expect.objectContaining({
            source: { pointer: '/customers' },
            detail: expect.stringContaining('at most 1000'),
          }),
        ]);
      });

      it('ignores properties it does not know (ERPs send their whole record)', async () => {
        const response = await request(t.server)
          .post('/customers/sync')
          .set(brand.headers)
          .send({ customers: [newCustomer('C-1', { erp_internal_flag: 'x', fax: null })] });
        expect(response.status).toBe(200);
        expect(await listAllCustomers(t.app, brand)).toHaveLength(1);
      });
    });

    it('deletes a customer, and reports a delete of an unknown number as absent', async () => {
      const [created] = (await syncCustomers(t.app, brand, [newCustomer('C-1'), newCustomer('C-2')])).customers;
      const response = await request(t.server)
        .post('/customers/sync')
        .set(brand.headers)
        .send({
          customers: [
            { customer_number: 'C-1', delete: true },
            { customer_number: 'NEVER', delete: true },
          ],
        });
      expect(response.status).toBe(200);
      expect(response.body.customers).toEqual([
        { customer_number: 'C-1', id: created!.id, action: 'deleted' },
        { customer_number: 'NEVER', id: null, action: 'absent' },
      ]);
      expect((await listAllCustomers(t.app, brand)).map((c) => c.customer_number)).toEqual(['C-2']);
    });

    it("keeps brands apart: a brand neither sees nor changes another brand's customers", async () => {
      const other = await createIntegrator(t.storage, t.clock);
      const [mine] = (await syncCustomers(t.app, brand, [newCustomer('SHARED-NO', { name: 'Mine' })])).customers;
      expect(await listAllCustomers(t.app, other)).toEqual([]);
      const byId = await request(t.server)
        .get(`/v10/customers?filter_groups[0][filters][0][key]=id&filter_groups[0][filters][0][value]=${mine!.id}`)
        .set(other.headers);
      expect(byId.body).toMatchObject({ customers: [], total: 0 });

      const [theirs] = (await syncCustomers(t.app, other, [newCustomer('SHARED-NO', { name: 'Theirs' })])).customers;
      expect(theirs).toMatchObject({ action: 'created' });
      expect(theirs!.id).not.toBe(mine!.id);
      expect((await listAllCustomers(t.app, brand))[0]).toMatchObject({ id: mine!.id, name: 'Mine' });
    });
  });
}
