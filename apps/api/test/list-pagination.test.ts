import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { newCustomer, syncCustomers } from './support/customers';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

interface CustomerPage {
  customers: { id: number; customer_number: string }[];
  has_more: boolean;
  next_cursor: string | null;
  total?: number;
}

for (const dialect of testDialects()) {
  describe(`list pagination [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;
    let allIds: number[];

    async function page(query: string): Promise<CustomerPage> {
      const response = await request(t.server).get(`/v10/customers?${query}`).set(brand.headers);
      if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body as CustomerPage;
    }

    async function refusal(query: string) {
      const response = await request(t.server).get(`/v10/customers?${query}`).set(brand.headers);
      expect(response.status).toBe(422);
      return response.body.errors as { code: string; detail: string; source: { parameter: string; pointer: string } }[];
    }

    /** Follows next_cursor from the first page until has_more is false. */
    async function walk(firstQuery: string): Promise<CustomerPage[]> {
      const pages = [await page(firstQuery)];
      while (pages[pages.length - 1]!.has_more) {
        const sortPart = firstQuery
          .split('&')
          .filter((p) => p.startsWith('sort'))
          .join('&');
        pages.push(
          await page(
            `limit=20&cursor=${encodeURIComponent(pages[pages.length - 1]!.next_cursor!)}${sortPart ? `&${sortPart}` : ''}`,
          ),
        );
      }
      return pages;
    }

    beforeAll(async () => {
      brand = await createIntegrator(t.storage, t.clock);
      const numbers = Array.from({ length: 45 }, (_, i) => `N-${String(i + 1).padStart(3, '0')}`);
      const outcomes = await syncCustomers(
        t.app,
        brand,
        numbers.map((n) => newCustomer(n)),
      );
      allIds = outcomes.customers.map((c) => c.id).sort((a, b) => a - b);
    });

    it('answers 20 rows by default, with total and a next cursor', async () => {
      const first = await page('');
      expect(first.customers).toHaveLength(20);
      expect(first).toMatchObject({ has_more: true, total: 45, next_cursor: expect.any(String) });
    });

    it('allows 100 rows per page', async () => {
      const all = await page('limit=100');
      expect(all.customers.map((c) => c.id)).toEqual(allIds);
      expect(all).toMatchObject({ has_more: false, next_cursor: null, total: 45 });
    });

    it('pages with a 0-based page number and reports the total', async () => {
      const third = await page('limit=20&page=2');
      expect(third.customers.map((c) => c.id)).toEqual(allIds.slice(40));
      expect(third).toMatchObject({ has_more: false, next_cursor: null, total: 45 });
      const second = await page('limit=20&page=1');
      expect(second.customers.map((c) => c.id)).toEqual(allIds.slice(20, 40));
      expect(second.has_more).toBe(true);
    });

    it('reports the total on a page past the end and on an empty list, filtered or not', async () => {
      expect(await page('limit=20&page=5')).toMatchObject({ customers: [], has_more: false, total: 45 });
      const filteredPastTheEnd = await page(
        'limit=5&page=3&filter_groups[0][filters][0][key]=customer_number&filter_groups[0][filters][0][operator]=sw&filter_groups[0][filters][0][value]=N-00',
      );
      expect(filteredPastTheEnd).toMatchObject({ customers: [], has_more: false, total: 9 });
      const nothingMatches = await page(
        'filter_groups[0][filters][0][key]=customer_number&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=NONE',
      );
      expect(nothingMatches).toMatchObject({ customers: [], has_more: false, total: 0 });
      const emptyBrand = await createIntegrator(t.storage, t.clock);
      const response = await request(t.server).get('/v10/customers').set(emptyBrand.headers);
      expect(response.body).toMatchObject({ customers: [], has_more: false, total: 0 });
    });

    it('walks every row exactly once with cursors, without totals after the first page', async () => {
      const pages = await walk('limit=20');
      expect(pages.map((p) => p.customers.length)).toEqual([20, 20, 5]);
      expect(pages.flatMap((p) => p.customers.map((c) => c.id))).toEqual(allIds);
      expect(pages.slice(1).every((p) => !('total' in p))).toBe(true);
      expect(pages[2]).toMatchObject({ has_more: false, next_cursor: null });
    });

    it('walks DESC with the same sort on every request', async () => {
      const pages = await walk('limit=20&sort[0][key]=id&sort[0][direction]=DESC');
      expect(pages.flatMap((p) => p.customers.map((c) => c.id))).toEqual([...allIds].reverse());
    });

    it('continues after a given id with starting_after, without total', async () => {
      const after = await page(`limit=10&starting_after=${allIds[39]}`);
      expect(after.customers.map((c) => c.id)).toEqual(allIds.slice(40));
      expect(after).not.toHaveProperty('total');
      expect(after.has_more).toBe(false);
    });

    it('refuses a forged or garbled cursor', async () => {
      const { next_cursor } = await page('limit=20');
      const [body, signature] = next_cursor!.split('.');
      const payload = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8')) as { v: number[] };
      payload.v = [0];
      const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
      for (const cursor of [forged, 'garbage', `${body}.`, `${body}.${signature}x`]) {
        const errors = await refusal(`cursor=${encodeURIComponent(cursor)}`);
        expect(errors).toEqual([
          expect.objectContaining({
            code: 'invalid_list_query',
            detail: 'cursor is not valid',
            source: { parameter: 'cursor', pointer: '/cursor' },
          }),
        ]);
      }
    });

    it('refuses a cursor used with another sort', async () => {
      const { next_cursor } = await page('limit=20');
      const errors = await refusal(
        `cursor=${encodeURIComponent(next_cursor!)}&sort[0][key]=id&sort[0][direction]=DESC`,
      );
      expect(errors[0]).toMatchObject({
        source: { parameter: 'sort' },
        detail: expect.stringContaining('sort differs'),
      });
    });

    it('refuses a cursor of another list', async () => {
      for (const code of ['G1', 'G2'])
        await request(t.server).post('/v10/customer-groups').set(brand.headers).send({ code, name: code });
      const groups = await request(t.server).get('/v10/customer-groups?limit=1').set(brand.headers);
      expect(groups.body).toMatchObject({ has_more: true, total: 2 });
      const errors = await refusal(`cursor=${encodeURIComponent(groups.body.next_cursor)}`);
      expect(errors[0]!.detail).toContain('another list');
    });

    it('refuses starting_after with a custom sort, and page with a cursor', async () => {
      const errors = await refusal(`starting_after=${allIds[0]}&sort[0][key]=id&sort[0][direction]=DESC`);
      expect(errors[0]).toMatchObject({
        source: { parameter: 'starting_after' },
        detail: expect.stringContaining('default sort'),
      });
      const { next_cursor } = await page('limit=20');
      expect((await refusal(`page=1&cursor=${encodeURIComponent(next_cursor!)}`))[0]!.source.parameter).toBe('page');
    });
  });
}
