import { DecodedCursor, ListDefinition, RawListQuery, isDomainError, sortSignature, validateListQuery } from '../src';

interface Item {
  id: number;
  name: string;
  note: string | null;
  priceCents: number;
  active: boolean;
  createdAt: string;
}

const items: ListDefinition<Item> = {
  resource: 'items',
  fields: {
    id: { type: 'integer', get: (i) => i.id },
    name: { type: 'string', get: (i) => i.name },
    note: { type: 'string', get: (i) => i.note },
    price: { type: 'decimal', scale: 2, get: (i) => i.priceCents },
    active: { type: 'boolean', get: (i) => i.active },
    created_at: { type: 'datetime', get: (i) => i.createdAt },
  },
  sortKeys: ['id', 'name', 'created_at'],
  filterKeys: ['id', 'name', 'note', 'price', 'active', 'created_at'],
  includes: ['lines', 'customer'],
};

const stock: ListDefinition<Item> = { ...items, resource: 'stock', cursorOnly: true };

/** One filter in one group, as the wire sends it. */
function filterOn(key: unknown, operator: unknown, value: unknown, extra: Record<string, unknown> = {}): RawListQuery {
  return { filter_groups: [{ filters: [{ key, operator, value, ...extra }] }] };
}

/** The pointers of the violations the query is refused with (fails the test if it is accepted). */
function refusal(
  raw: RawListQuery,
  cursor?: DecodedCursor,
  definition: ListDefinition<Item> = items,
): { pointers: string[]; detail: string } {
  try {
    validateListQuery(definition, raw, cursor);
  } catch (error) {
    if (isDomainError(error) && error.code === 'invalid_list_query') {
      return { pointers: error.violations.map((v) => v.pointer), detail: error.message };
    }
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
}

const cursorFor = (raw: RawListQuery, values: unknown[], resource = 'items'): DecodedCursor => ({
  resource,
  sort: sortSignature(validateListQuery(items, { sort: raw.sort }).sort),
  values: values as DecodedCursor['values'],
});

describe('validating a list query', () => {
  describe('accepts', () => {
    it('an empty query as the defaults: id ascending, 20 rows, first page, with total', () => {
      expect(validateListQuery(items, {})).toEqual({
        filterGroups: [],
        sort: [{ key: 'id', direction: 'ASC' }],
        includes: [],
        limit: 20,
        page: 0,
        after: null,
        withTotal: true,
      });
    });

    it('filter values as strings, typed to their fields', () => {
      const query = validateListQuery(items, {
        filter_groups: [
          {
            or: 'true',
            filters: [
              { key: 'id', operator: 'gt', value: '42' },
              { key: 'price', operator: 'lte', value: '12.5' },
              { key: 'active', operator: 'eq', value: 'false', not: '1' },
              { key: 'created_at', operator: 'gte', value: '2026-01-01' },
              { key: 'created_at', operator: 'lt', value: '2026-01-01T12:00:00+02:00' },
              { key: 'created_at', operator: 'lt', value: '2026-01-01 10:15' },
              { key: 'name', value: 'Anna' },
            ],
          },
        ],
      });

      expect(query.filterGroups).toEqual([
        {
          or: true,
          filters: [
            { key: 'id', operator: 'gt', value: 42, not: false },
            { key: 'price', operator: 'lte', value: 1250, not: false },
            { key: 'active', operator: 'eq', value: false, not: true },
            { key: 'created_at', operator: 'gte', value: '2026-01-01T00:00:00.000Z', not: false },
            { key: 'created_at', operator: 'lt', value: '2026-01-01T10:00:00.000Z', not: false },
            { key: 'created_at', operator: 'lt', value: '2026-01-01T10:15:00.000Z', not: false },
            { key: 'name', operator: 'eq', value: 'Anna', not: false },
          ],
        },
      ]);
    });

    it('null, as JSON or as the text "null", meaning IS NULL', () => {
      expect(validateListQuery(items, filterOn('note', 'eq', null)).filterGroups[0]!.filters[0]!.value).toBeNull();
      expect(
        validateListQuery(items, filterOn('note', 'eq', 'null', { not: 'true' })).filterGroups[0]!.filters[0],
      ).toEqual({ key: 'note', operator: 'eq', value: null, not: true });
    });

    it('the 29th of February of a leap year', () => {
      expect(
        validateListQuery(items, filterOn('created_at', 'gte', '2024-02-29')).filterGroups[0]!.filters[0]!.value,
      ).toBe('2024-02-29T00:00:00.000Z');
    });

    it('in and bt with arrays of typed values', () => {
      const query = validateListQuery(items, {
        filter_groups: [
          { filters: [{ key: 'id', operator: 'in', value: ['3', 1, '2'] }] },
          { filters: [{ key: 'price', operator: 'bt', value: ['5', 12.5] }] },
        ],
      });

      expect(query.filterGroups.map((g) => g.filters[0]!.value)).toEqual([
        [3, 1, 2],
        [500, 1250],
      ]);
    });

    it('PHP bracket arrays that arrive as objects with numeric keys, in index order', () => {
      const raw = {
        filter_groups: {
          '0': {
            or: 'false',
            filters: {
              '0': { key: 'name', operator: 'ct', value: 'a' },
              '1': { key: 'id', operator: 'in', value: { '10': '110', '2': '102', '0': '100' } },
            },
          },
        },
        sort: { '0': { key: 'name', direction: 'desc' } },
        includes: { '1': 'customer', '0': 'lines' },
      };

      const query = validateListQuery(items, raw);

      expect(query.filterGroups).toEqual([
        {
          or: false,
          filters: [
            { key: 'name', operator: 'ct', value: 'a', not: false },
            { key: 'id', operator: 'in', value: [100, 102, 110], not: false },
          ],
        },
      ]);
      expect(query.sort).toEqual([
        { key: 'name', direction: 'DESC' },
        { key: 'id', direction: 'DESC' },
      ]);
      expect(query.includes).toEqual(['lines', 'customer']);
    });

    it('a custom sort, appending the id tiebreaker in the direction of the last key', () => {
      expect(validateListQuery(items, { sort: [{ key: 'created_at', direction: 'DESC' }] }).sort).toEqual([
        { key: 'created_at', direction: 'DESC' },
        { key: 'id', direction: 'DESC' },
      ]);
      expect(
        validateListQuery(items, { sort: [{ key: 'name' }, { key: 'created_at', direction: 'desc' }] }).sort,
      ).toEqual([
        { key: 'name', direction: 'ASC' },
        { key: 'created_at', direction: 'DESC' },
        { key: 'id', direction: 'DESC' },
      ]);
    });

    it('a sort that already names id, without a second tiebreaker', () => {
      expect(
        validateListQuery(items, {
          sort: [
            { key: 'name', direction: 'ASC' },
            { key: 'id', direction: 'DESC' },
          ],
        }).sort,
      ).toEqual([
        { key: 'name', direction: 'ASC' },
        { key: 'id', direction: 'DESC' },
      ]);
    });

    it('includes as an array or a comma-separated text, each name once', () => {
      expect(validateListQuery(items, { includes: ['lines', 'lines'] }).includes).toEqual(['lines']);
      expect(validateListQuery(items, { includes: 'customer,lines' }).includes).toEqual(['customer', 'lines']);
    });

    it('limit from 1 to 100 and a 0-based page', () => {
      expect(validateListQuery(items, { limit: '1' }).limit).toBe(1);
      expect(validateListQuery(items, { limit: 100, page: '3' })).toMatchObject({
        limit: 100,
        page: 3,
        withTotal: true,
      });
    });

    it('starting_after as the id to continue after, without a total', () => {
      expect(validateListQuery(items, { starting_after: '57' })).toMatchObject({
        after: { values: [57] },
        withTotal: false,
      });
      expect(validateListQuery(items, { starting_after: 57, sort: [{ key: 'id', direction: 'ASC' }] }).after).toEqual({
        values: [57],
      });
    });

    it('a cursor of the same list and sort, continuing after its position without a total', () => {
      const sort = [{ key: 'name', direction: 'DESC' }];

      const query = validateListQuery(items, { sort, cursor: 'signed' }, cursorFor({ sort }, ['Mona', 12]));

      expect(query).toMatchObject({ after: { values: ['Mona', 12] }, withTotal: false, page: 0 });
    });

    it('a cursor-only list without page, never counting', () => {
      expect(validateListQuery(stock, {}).withTotal).toBe(false);
    });
  });

  describe('refuses with invalid_list_query', () => {
    it.each<[string, RawListQuery, string]>([
      ['an unknown filter key', filterOn('colour', 'eq', 'red'), '/filter_groups/0/filters/0/key'],
      ['an unknown operator', filterOn('name', 'like', 'a'), '/filter_groups/0/filters/0/operator'],
      ['ct on a non-text field', filterOn('price', 'ct', '1'), '/filter_groups/0/filters/0/operator'],
      ['sw on an integer field', filterOn('id', 'sw', '1'), '/filter_groups/0/filters/0/operator'],
      ['an ordering operator on a boolean', filterOn('active', 'gt', 'true'), '/filter_groups/0/filters/0/operator'],
      ['in with an empty array', filterOn('id', 'in', []), '/filter_groups/0/filters/0/value'],
      ['in with a single value instead of an array', filterOn('id', 'in', '1'), '/filter_groups/0/filters/0/value'],
      ['in with a value of the wrong type', filterOn('id', 'in', ['1', 'x']), '/filter_groups/0/filters/0/value'],
      ['in with a null among the values', filterOn('id', 'in', ['1', null]), '/filter_groups/0/filters/0/value'],
      ['bt with one value', filterOn('price', 'bt', ['1']), '/filter_groups/0/filters/0/value'],
      ['bt with three values', filterOn('price', 'bt', ['1', '2', '3']), '/filter_groups/0/filters/0/value'],
      ['an array for a one-value operator', filterOn('name', 'eq', ['a']), '/filter_groups/0/filters/0/value'],
      ['a missing value', filterOn('name', 'eq', undefined), '/filter_groups/0/filters/0/value'],
      ['a bad boolean', filterOn('active', 'eq', 'maybe'), '/filter_groups/0/filters/0/value'],
      ['an empty boolean', filterOn('active', 'eq', ''), '/filter_groups/0/filters/0/value'],
      ['a bad datetime', filterOn('created_at', 'gte', 'yesterday'), '/filter_groups/0/filters/0/value'],
      ['a month that does not exist', filterOn('created_at', 'gte', '2026-13-01'), '/filter_groups/0/filters/0/value'],
      ['a day that does not exist', filterOn('created_at', 'gte', '2026-02-30'), '/filter_groups/0/filters/0/value'],
      [
        'the 29th of February of a common year',
        filterOn('created_at', 'gte', '2026-02-29T10:00:00Z'),
        '/filter_groups/0/filters/0/value',
      ],
      ['a bad integer', filterOn('id', 'eq', 'abc'), '/filter_groups/0/filters/0/value'],
      ['a fractional integer', filterOn('id', 'eq', '1.5'), '/filter_groups/0/filters/0/value'],
      [
        'a decimal with more decimals than its scale',
        filterOn('price', 'eq', '1.234'),
        '/filter_groups/0/filters/0/value',
      ],
      ['null with an operator other than eq', filterOn('note', 'gt', null), '/filter_groups/0/filters/0/value'],
      [
        'a not that is not a boolean',
        filterOn('name', 'eq', 'a', { not: 'perhaps' }),
        '/filter_groups/0/filters/0/not',
      ],
      [
        'an or that is not a boolean',
        { filter_groups: [{ or: 'perhaps', filters: [{ key: 'name', value: 'a' }] }] },
        '/filter_groups/0/or',
      ],
      ['a group without filters', { filter_groups: [{ filters: [] }] }, '/filter_groups/0/filters'],
      ['a filter that is not an object', { filter_groups: [{ filters: ['name=a'] }] }, '/filter_groups/0/filters/0'],
      ['filter_groups that are not a list', { filter_groups: 'name=a' }, '/filter_groups'],
      ['an unknown sort key', { sort: [{ key: 'colour', direction: 'ASC' }] }, '/sort/0/key'],
      ['a bad sort direction', { sort: [{ key: 'name', direction: 'UP' }] }, '/sort/0/direction'],
      ['a sort key given twice', { sort: [{ key: 'name' }, { key: 'name', direction: 'DESC' }] }, '/sort/1/key'],
      ['an unknown include', { includes: ['lines', 'secrets'] }, '/includes/1'],
      ['limit 0', { limit: '0' }, '/limit'],
      ['limit 101', { limit: 101 }, '/limit'],
      ['limit abc', { limit: 'abc' }, '/limit'],
      ['page -1', { page: '-1' }, '/page'],
      ['page abc', { page: 'abc' }, '/page'],
      [
        'starting_after with a custom sort',
        { starting_after: '5', sort: [{ key: 'name', direction: 'ASC' }] },
        '/starting_after',
      ],
      [
        'starting_after with id descending',
        { starting_after: '5', sort: [{ key: 'id', direction: 'DESC' }] },
        '/starting_after',
      ],
      ['starting_after that is not an id', { starting_after: 'abc' }, '/starting_after'],
      ['page with starting_after', { starting_after: '5', page: '1' }, '/page'],
    ])('%s', (_, raw, pointer) => {
      expect(refusal(raw).pointers).toEqual([pointer]);
    });

    it('page on a cursor-only list', () => {
      expect(refusal({ page: '0' }, undefined, stock).pointers).toEqual(['/page']);
    });

    it('page together with a cursor', () => {
      expect(refusal({ cursor: 'signed', page: '1' }, cursorFor({}, [10])).pointers).toEqual(['/page']);
    });

    it('both a cursor and starting_after', () => {
      expect(refusal({ cursor: 'signed', starting_after: '5' }, cursorFor({}, [10])).pointers).toContain(
        '/starting_after',
      );
    });

    it('a cursor the API could not verify', () => {
      expect(refusal({ cursor: 'forged' }).pointers).toEqual(['/cursor']);
    });

    it('a cursor of another list', () => {
      expect(refusal({ cursor: 'signed' }, cursorFor({}, [10], 'orders')).pointers).toEqual(['/cursor']);
    });

    it('a cursor made with a different sort', () => {
      const madeWith = cursorFor({ sort: [{ key: 'name', direction: 'ASC' }] }, ['Mona', 12]);

      expect(refusal({ cursor: 'signed', sort: [{ key: 'name', direction: 'DESC' }] }, madeWith).pointers).toEqual([
        '/sort',
      ]);
      expect(refusal({ cursor: 'signed' }, madeWith).pointers).toEqual(['/sort']);
    });

    it('a cursor whose position does not fit its sort', () => {
      expect(refusal({ cursor: 'signed' }, { resource: 'items', sort: 'id:ASC', values: [1, 2] }).pointers).toEqual([
        '/cursor',
      ]);
    });

    it('naming every problem at once', () => {
      const { pointers, detail } = refusal({ limit: '0', includes: ['secrets'], ...filterOn('colour', 'eq', 'red') });

      expect(pointers.sort()).toEqual(['/filter_groups/0/filters/0/key', '/includes/0', '/limit']);
      expect(detail).toBe('3 list parameters are invalid');
    });

    it('with the single problem as its message', () => {
      expect(refusal({ limit: '101' }).detail).toBe('limit must be an integer from 1 to 100');
    });
  });
});
