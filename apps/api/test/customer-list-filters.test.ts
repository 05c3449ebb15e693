import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { address, newCustomer, syncCustomers } from './support/customers';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

/** One filter in PHP bracket notation, as an integration writes it: filter_groups[g][filters][i][key]=… */
function filter(
  group: number,
  index: number,
  key: string,
  operator: string,
  value: string | string[],
  not?: boolean,
): string {
  const at = `filter_groups[${group}][filters][${index}]`;
  const values = Array.isArray(value)
    ? value.map((v) => `${at}[value][]=${encodeURIComponent(v)}`).join('&')
    : `${at}[value]=${encodeURIComponent(value)}`;
  return `${at}[key]=${key}&${at}[operator]=${operator}&${values}${not === undefined ? '' : `&${at}[not]=${not}`}`;
}

for (const dialect of testDialects()) {
  describe(`GET /v10/customers filters, includes and sort [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;
    const createdAt: Record<string, string> = {};

    /** The customer numbers a query returns, in order; fails on anything but 200. */
    async function numbers(query: string): Promise<string[]> {
      const response = await request(t.server).get(`/v10/customers?${query}`).set(brand.headers);
      if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(response.body)}`);
      return (response.body.customers as { customer_number: string }[]).map((c) => c.customer_number);
    }

    beforeAll(async () => {
      brand = await createIntegrator(t.storage, t.clock);
      await request(t.server)
        .post('/v10/customer-groups')
        .set(brand.headers)
        .send({ code: 'WHOLESALE', name: 'Wholesale' });
      await request(t.server)
        .post('/v10/payment-terms')
        .set(brand.headers)
        .send({ code: 'NET30', name: 'Net 30', days: 30 });
      const customers = [
        newCustomer('A-100', {
          name: 'Alpha Fashion',
          email: 'alpha@shop.example',
          customer_group: { customer_group_code: 'WHOLESALE' },
          payment_terms: { payment_terms_code: 'NET30' },
          addresses_sync_mode: 'replace',
          addresses_sync_key: 'address_title',
          addresses: [address('Store')],
        }),
        newCustomer('A-200', { name: 'Beta Boutique', discount_percentage: 10, active: false }),
        newCustomer('B-300', {
          name: 'Gamma Store',
          currency: 'GBP',
          discount_percentage: 12.5,
          email: 'gamma@store.example',
        }),
        newCustomer('B-400', { name: 'Delta Mode', discount_percentage: 25, email: 'delta@shop.example' }),
        newCustomer('C-500', {
          name: 'Epsilon',
          currency: 'USD',
          discount_percentage: 50,
          active: false,
          email: 'eps@mail.example',
        }),
      ];
      for (const customer of customers) {
        t.clock.advance(3_600_000);
        createdAt[customer.customer_number as string] = t.clock.now();
        await syncCustomers(t.app, brand, [customer]);
      }
    });

    it('lists in id order with total when nothing is asked for', async () => {
      const response = await request(t.server).get('/v10/customers').set(brand.headers);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ has_more: false, next_cursor: null, total: 5 });
      expect(response.body.customers.map((c: { customer_number: string }) => c.customer_number)).toEqual([
        'A-100',
        'A-200',
        'B-300',
        'B-400',
        'C-500',
      ]);
      expect(response.body.customers[0]).not.toHaveProperty('addresses');
    });

    it.each([
      ['eq', filter(0, 0, 'currency', 'eq', 'GBP'), ['B-300']],
      ['ct (case-insensitive)', filter(0, 0, 'name', 'ct', 'BOUT'), ['A-200']],
      ['sw', filter(0, 0, 'customer_number', 'sw', 'B-'), ['B-300', 'B-400']],
      ['ew', filter(0, 0, 'email', 'ew', '@shop.example'), ['A-100', 'B-400']],
      ['gt on a decimal', filter(0, 0, 'discount_percentage', 'gt', '12.5'), ['B-400', 'C-500']],
      ['gte on a decimal', filter(0, 0, 'discount_percentage', 'gte', '12.5'), ['B-300', 'B-400', 'C-500']],
      ['lt', filter(0, 0, 'discount_percentage', 'lt', '10'), ['A-100']],
      ['lte', filter(0, 0, 'discount_percentage', 'lte', '10'), ['A-100', 'A-200']],
      ['in', filter(0, 0, 'currency', 'in', ['GBP', 'USD']), ['B-300', 'C-500']],
      ['bt (inclusive)', filter(0, 0, 'discount_percentage', 'bt', ['10', '25']), ['A-200', 'B-300', 'B-400']],
      ['eq on a boolean', filter(0, 0, 'active', 'eq', 'false'), ['A-200', 'C-500']],
      ['not', filter(0, 0, 'active', 'eq', 'true', true), ['A-200', 'C-500']],
      ['null means IS NULL', filter(0, 0, 'email', 'eq', 'null'), ['A-200']],
      ['not null', filter(0, 0, 'email', 'eq', 'null', true), ['A-100', 'B-300', 'B-400', 'C-500']],
    ])('filters with %s', async (_name, query, expected) => {
      expect(await numbers(query)).toEqual(expected);
    });

    it('filters on dates given as date-times', async () => {
      expect(await numbers(filter(0, 0, 'created_at', 'lt', createdAt['B-300']!))).toEqual(['A-100', 'A-200']);
      expect(await numbers(filter(0, 0, 'created_at', 'gte', createdAt['B-300']!))).toEqual([
        'B-300',
        'B-400',
        'C-500',
      ]);
      expect(await numbers(filter(0, 0, 'updated_at', 'bt', [createdAt['A-200']!, createdAt['B-300']!]))).toEqual([
        'A-200',
        'B-300',
      ]);
    });

    it('takes a filter written out literally in bracket notation, encoded or not', async () => {
      const literal =
        'filter_groups[0][or]=false&filter_groups[0][filters][0][key]=currency&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=USD&filter_groups[0][filters][0][not]=false';
      expect(await numbers(literal)).toEqual(['C-500']);
      expect(await numbers(literal.replace(/\[/g, '%5B').replace(/\]/g, '%5D'))).toEqual(['C-500']);
    });

    it('ORs the filters of a group with or=true and ANDs the groups', async () => {
      const either = `filter_groups[0][or]=true&${filter(0, 0, 'currency', 'eq', 'GBP')}&${filter(0, 1, 'currency', 'eq', 'USD')}`;
      expect(await numbers(either)).toEqual(['B-300', 'C-500']);
      expect(await numbers(`${either}&${filter(1, 0, 'active', 'eq', 'true')}`)).toEqual(['B-300']);
      // Without or, the filters of one group must all hold.
      expect(await numbers(`${filter(0, 0, 'currency', 'eq', 'EUR')}&${filter(0, 1, 'active', 'eq', 'true')}`)).toEqual(
        ['A-100', 'B-400'],
      );
    });

    it('embeds addresses, customer group and payment terms when included', async () => {
      const response = await request(t.server)
        .get(
          `/v10/customers?includes[]=addresses&includes[]=customer_group&includes[]=payment_terms&${filter(0, 0, 'customer_number', 'in', ['A-100', 'A-200'])}`,
        )
        .set(brand.headers);
      expect(response.status).toBe(200);
      const [alpha, beta] = response.body.customers;
      expect(alpha.addresses).toEqual([expect.objectContaining({ title: 'Store', country: 'NL' })]);
      expect(alpha.customer_group).toMatchObject({ code: 'WHOLESALE', name: 'Wholesale' });
      expect(alpha.payment_terms).toMatchObject({ code: 'NET30', days: 30 });
      expect(beta).toMatchObject({ addresses: [], customer_group: null, payment_terms: null });
    });

    it('sorts DESC', async () => {
      expect(await numbers('sort[0][key]=id&sort[0][direction]=DESC')).toEqual([
        'C-500',
        'B-400',
        'B-300',
        'A-200',
        'A-100',
      ]);
    });

    it.each([
      [
        'an unknown filter key',
        filter(0, 0, 'shoe_size', 'eq', '42'),
        'filter_groups[0][filters][0][key]',
        /filter key "shoe_size" is not supported/,
      ],
      [
        'an unknown operator',
        filter(0, 0, 'name', 'like', 'A%'),
        'filter_groups[0][filters][0][operator]',
        /operator "like" is unknown/,
      ],
      [
        'a text operator on a number',
        filter(0, 0, 'discount_percentage', 'ct', '5'),
        'filter_groups[0][filters][0][operator]',
        /only applies to text fields/,
      ],
      [
        'a value of the wrong type',
        filter(0, 0, 'created_at', 'gt', 'yesterday'),
        'filter_groups[0][filters][0][value]',
        /not a valid datetime/,
      ],
      ['an unknown include', 'includes[]=orders', 'includes[0]', /include "orders" is not supported/],
      ['a sort key the list does not support', 'sort[0][key]=name', 'sort[0][key]', /sort key "name" is not supported/],
      ['a limit above 100', 'limit=101', 'limit', /limit must be an integer from 1 to 100/],
    ])('refuses %s with 422 naming the parameter', async (_name, query, parameter, detail) => {
      const response = await request(t.server).get(`/v10/customers?${query}`).set(brand.headers);
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          status: 422,
          code: 'invalid_list_query',
          title: 'Invalid list query',
          detail: expect.stringMatching(detail),
          source: expect.objectContaining({ parameter }),
        }),
      ]);
    });
  });
}
