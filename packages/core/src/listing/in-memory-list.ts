import { Filter, ListDefinition, ListQuery, Primitive } from './list-query';

function compare(a: Primitive, b: Primitive): number {
  if (a === b) return 0;
  if (a === null) return -1; // NULLs sort first ascending, as both SQL adapters are told to
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

function matches(value: Primitive, filter: Filter): boolean {
  const { operator, value: expected } = filter;
  const text = (v: Primitive) => String(v ?? '').toLowerCase();
  let result: boolean;
  if (expected === null) result = value === null;
  else if (Array.isArray(expected)) {
    result =
      operator === 'in'
        ? value !== null && expected.includes(value)
        : value !== null && compare(value, expected[0] ?? null) >= 0 && compare(value, expected[1] ?? null) <= 0;
  } else if (value === null) result = false;
  else {
    switch (operator) {
      case 'eq':
        result = value === expected;
        break;
      case 'ct':
        result = text(value).includes(text(expected));
        break;
      case 'sw':
        result = text(value).startsWith(text(expected));
        break;
      case 'ew':
        result = text(value).endsWith(text(expected));
        break;
      case 'gt':
        result = compare(value, expected) > 0;
        break;
      case 'gte':
        result = compare(value, expected) >= 0;
        break;
      case 'lt':
        result = compare(value, expected) < 0;
        break;
      case 'lte':
        result = compare(value, expected) <= 0;
        break;
      default:
        result = false;
    }
  }
  return filter.not ? !result : result;
}

/**
 * Runs a validated list query over plain objects: the reference semantics the SQL adapters are
 * checked against by the lists contract suite (`describeListsContract`). Returns up to `limit + 1` rows and the total.
 */
export function listInMemory<T>(
  definition: ListDefinition<T>,
  query: ListQuery,
  all: T[],
): { rows: T[]; total: number | null } {
  const field = (key: string) => definition.fields[key]!;
  const filtered = all.filter((item) =>
    query.filterGroups.every((group) => {
      const results = group.filters.map((f) => matches(field(f.key).get(item), f));
      return group.or ? results.some(Boolean) : results.every(Boolean);
    }),
  );
  const sorted = [...filtered].sort((a, b) => {
    for (const s of query.sort) {
      const c = compare(field(s.key).get(a), field(s.key).get(b));
      if (c !== 0) return s.direction === 'ASC' ? c : -c;
    }
    return 0;
  });
  let start = 0;
  if (query.after) {
    const position = query.after.values;
    start = sorted.findIndex((item) => {
      for (let i = 0; i < query.sort.length; i++) {
        const s = query.sort[i]!;
        const c = compare(field(s.key).get(item), position[i] ?? null);
        if (c !== 0) return s.direction === 'ASC' ? c > 0 : c < 0;
      }
      return false;
    });
    if (start < 0) start = sorted.length;
  } else start = query.page * query.limit;
  return { rows: sorted.slice(start, start + query.limit + 1), total: query.withTotal ? filtered.length : null };
}
