import { DomainError, Violation } from '../shared/errors';
import { parseDecimal } from '../shared/decimal';
import {
  DEFAULT_LIMIT,
  FILTER_OPERATORS,
  FieldDefinition,
  Filter,
  FilterGroup,
  FilterOperator,
  ListDefinition,
  ListQuery,
  MAX_LIMIT,
  Primitive,
  RawListQuery,
  Sort,
  sortSignature,
} from './list-query';

/** A cursor after the API checked its signature: which list and sort it belongs to, and the position. */
export interface DecodedCursor {
  resource: string;
  sort: string;
  values: Primitive[];
}

const STRING_OPERATORS: readonly FilterOperator[] = ['ct', 'sw', 'ew'];
const ORDERING_OPERATORS: readonly FilterOperator[] = ['gt', 'gte', 'lt', 'lte', 'bt'];

/** Arrays arrive from PHP bracket notation either as arrays or, past qs' array limit, as objects keyed by index. */
function asList(value: unknown): unknown[] | null {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value as unknown[];
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.every(([k]) => /^\d+$/.test(k))) {
      return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
    }
  }
  return null;
}

function asBoolean(value: unknown): boolean | null {
  if (value === undefined || value === '' || value === false || value === 'false' || value === '0' || value === 0)
    return false;
  if (value === true || value === 'true' || value === '1' || value === 1) return true;
  return null;
}

function asInteger(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return null;
}

/** `value` without the list's id prefix (`evt_123` → `123`); anything else as it came. */
function withoutIdPrefix(value: unknown, prefix: string | undefined): unknown {
  return prefix && typeof value === 'string' && value.startsWith(prefix) ? value.slice(prefix.length) : value;
}

/** Normalises one scalar filter value to the field's type; undefined when it does not fit. */
function typedValue(field: FieldDefinition<unknown>, raw: unknown): Primitive | undefined {
  if (raw === null || raw === 'null') return null;
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') return undefined;
  switch (field.type) {
    case 'string':
      return String(raw);
    case 'integer':
      return asInteger(raw) ?? undefined;
    case 'boolean': {
      const b = asBoolean(raw);
      return raw === '' ? undefined : (b ?? undefined);
    }
    case 'decimal':
      return parseDecimal(raw, field.scale ?? 2) ?? undefined;
    case 'datetime': {
      const text = String(raw);
      // Dates alone mean midnight UTC; anything Date.parse reads with a zone is accepted.
      if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) return undefined;
      // Date.parse rolls impossible days over (2026-02-30 becomes 2026-03-02); refuse them instead.
      const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
      if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
      const withZone = /^\d{4}-\d{2}-\d{2}$/.test(text)
        ? `${text}T00:00:00Z`
        : /(Z|[+-]\d{2}:?\d{2})$/.test(text)
          ? text
          : `${text}Z`;
      const ms = Date.parse(withZone.replace(' ', 'T'));
      return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
    }
  }
}

function parseFilter<T>(
  definition: ListDefinition<T>,
  raw: unknown,
  pointer: string,
  violations: Violation[],
): Filter | null {
  if (raw === null || typeof raw !== 'object') {
    violations.push({ pointer, detail: `${pointer} must be an object with key, operator and value` });
    return null;
  }
  const { key, operator, value, not } = raw as Record<string, unknown>;
  if (typeof key !== 'string' || !definition.filterKeys.includes(key)) {
    violations.push({
      pointer: `${pointer}/key`,
      detail: `filter key ${JSON.stringify(key)} is not supported; use one of ${definition.filterKeys.join(', ')}`,
    });
    return null;
  }
  const op = operator === undefined ? 'eq' : operator;
  if (typeof op !== 'string' || !(FILTER_OPERATORS as readonly string[]).includes(op)) {
    violations.push({
      pointer: `${pointer}/operator`,
      detail: `operator ${JSON.stringify(operator)} is unknown; use one of ${FILTER_OPERATORS.join(', ')}`,
    });
    return null;
  }
  const field = definition.fields[key] as FieldDefinition<unknown>;
  const typedOp = op as FilterOperator;
  if (STRING_OPERATORS.includes(typedOp) && field.type !== 'string') {
    violations.push({
      pointer: `${pointer}/operator`,
      detail: `operator ${op} only applies to text fields; ${key} is ${field.type}`,
    });
    return null;
  }
  if (ORDERING_OPERATORS.includes(typedOp) && field.type === 'boolean') {
    violations.push({
      pointer: `${pointer}/operator`,
      detail: `operator ${op} does not apply to the boolean field ${key}`,
    });
    return null;
  }
  const negate = asBoolean(not);
  if (negate === null) {
    violations.push({ pointer: `${pointer}/not`, detail: `not must be true or false` });
    return null;
  }
  if (typedOp === 'in' || typedOp === 'bt') {
    const list = asList(value);
    if (list === null || list.length === 0 || (typedOp === 'bt' && list.length !== 2)) {
      violations.push({
        pointer: `${pointer}/value`,
        detail:
          typedOp === 'bt'
            ? 'operator bt takes an array of exactly two values'
            : 'operator in takes a non-empty array of values',
      });
      return null;
    }
    const values = list.map((v) => typedValue(field, v));
    if (values.some((v) => v === undefined || v === null)) {
      violations.push({ pointer: `${pointer}/value`, detail: `every value of ${key} must be a ${field.type}` });
      return null;
    }
    return { key, operator: typedOp, value: values as Primitive[], not: negate };
  }
  if (value === undefined || Array.isArray(value)) {
    violations.push({ pointer: `${pointer}/value`, detail: `operator ${op} takes one value` });
    return null;
  }
  const typed = typedValue(field, value);
  if (typed === undefined) {
    violations.push({
      pointer: `${pointer}/value`,
      detail: `value ${JSON.stringify(value)} is not a valid ${field.type} for ${key}`,
    });
    return null;
  }
  if (typed === null && typedOp !== 'eq') {
    violations.push({ pointer: `${pointer}/value`, detail: `null may only be compared with eq (use not to negate)` });
    return null;
  }
  return { key, operator: typedOp, value: typed, not: negate };
}

function parseFilterGroups<T>(definition: ListDefinition<T>, raw: unknown, violations: Violation[]): FilterGroup[] {
  const groups = asList(raw);
  if (groups === null) {
    violations.push({ pointer: '/filter_groups', detail: 'filter_groups must be an array of groups' });
    return [];
  }
  return groups.flatMap((group, g): FilterGroup[] => {
    const pointer = `/filter_groups/${g}`;
    if (group === null || typeof group !== 'object') {
      violations.push({ pointer, detail: `${pointer} must be an object with filters` });
      return [];
    }
    const { or, filters } = group as Record<string, unknown>;
    const isOr = asBoolean(or);
    if (isOr === null) violations.push({ pointer: `${pointer}/or`, detail: 'or must be true or false' });
    const list = asList(filters);
    if (list === null || list.length === 0) {
      violations.push({ pointer: `${pointer}/filters`, detail: 'filters must be a non-empty array' });
      return [];
    }
    const parsed = list.map((f, i) => parseFilter(definition, f, `${pointer}/filters/${i}`, violations));
    return [{ or: isOr ?? false, filters: parsed.filter((f): f is Filter => f !== null) }];
  });
}

function parseSort<T>(
  definition: ListDefinition<T>,
  raw: unknown,
  violations: Violation[],
): { sort: Sort[]; explicit: boolean } {
  if (raw === undefined || raw === '') return { sort: [{ key: 'id', direction: 'ASC' }], explicit: false };
  const list = asList(raw);
  if (list === null || list.length === 0) {
    violations.push({ pointer: '/sort', detail: 'sort must be an array of {key, direction}' });
    return { sort: [{ key: 'id', direction: 'ASC' }], explicit: true };
  }
  const sort: Sort[] = [];
  list.forEach((item, i) => {
    const pointer = `/sort/${i}`;
    const { key, direction } = (item ?? {}) as Record<string, unknown>;
    const allowed = ['id', ...definition.sortKeys.filter((k) => k !== 'id')];
    if (typeof key !== 'string' || !allowed.includes(key)) {
      violations.push({
        pointer: `${pointer}/key`,
        detail: `sort key ${JSON.stringify(key)} is not supported; use one of ${allowed.join(', ')}`,
      });
      return;
    }
    const dir = direction === undefined ? 'ASC' : typeof direction === 'string' ? direction.toUpperCase() : direction;
    if (dir !== 'ASC' && dir !== 'DESC') {
      violations.push({ pointer: `${pointer}/direction`, detail: 'direction must be ASC or DESC' });
      return;
    }
    if (sort.some((s) => s.key === key)) {
      violations.push({ pointer: `${pointer}/key`, detail: `sort key ${key} is given twice` });
      return;
    }
    sort.push({ key, direction: dir });
  });
  // The id tiebreaker keeps the order total, which keyset pagination needs; it follows the last direction.
  if (!sort.some((s) => s.key === 'id')) sort.push({ key: 'id', direction: sort[sort.length - 1]?.direction ?? 'ASC' });
  else {
    const idIndex = sort.findIndex((s) => s.key === 'id');
    sort.splice(idIndex + 1);
  }
  return { sort, explicit: true };
}

function parseIncludes<T>(definition: ListDefinition<T>, raw: unknown, violations: Violation[]): string[] {
  const list = typeof raw === 'string' ? raw.split(',') : asList(raw);
  if (list === null) {
    violations.push({ pointer: '/includes', detail: 'includes must be an array of names' });
    return [];
  }
  const includes: string[] = [];
  list.forEach((name, i) => {
    if (typeof name !== 'string' || !definition.includes.includes(name)) {
      const options =
        definition.includes.length > 0 ? `use one of ${definition.includes.join(', ')}` : 'this list has no includes';
      violations.push({
        pointer: `/includes/${i}`,
        detail: `include ${JSON.stringify(name)} is not supported; ${options}`,
      });
      return;
    }
    if (!includes.includes(name)) includes.push(name);
  });
  return includes;
}

/**
 * Checks a list request against what the resource supports and returns the typed query.
 * Anything unknown (filter key, operator, sort key, include) or contradictory (page with a
 * cursor, starting_after with a custom sort, a cursor of another sort) is an
 * `invalid_list_query` error naming the parameter; nothing is silently ignored.
 */
export function validateListQuery<T>(
  definition: ListDefinition<T>,
  raw: RawListQuery,
  cursor?: DecodedCursor,
): ListQuery {
  const violations: Violation[] = [];
  const filterGroups = parseFilterGroups(definition, raw.filter_groups, violations);
  const { sort, explicit } = parseSort(definition, raw.sort, violations);
  const includes = parseIncludes(definition, raw.includes, violations);

  let limit = DEFAULT_LIMIT;
  if (raw.limit !== undefined) {
    const parsed = asInteger(raw.limit);
    if (parsed === null || parsed < 1 || parsed > MAX_LIMIT) {
      violations.push({ pointer: '/limit', detail: `limit must be an integer from 1 to ${MAX_LIMIT}` });
    } else limit = parsed;
  }

  let page = 0;
  if (raw.page !== undefined) {
    const parsed = asInteger(raw.page);
    if (definition.cursorOnly)
      violations.push({
        pointer: '/page',
        detail: `${definition.resource} is cursor-only: walk it with limit and cursor or starting_after, not page`,
      });
    else if (parsed === null || parsed < 0)
      violations.push({ pointer: '/page', detail: 'page must be an integer from 0' });
    else page = parsed;
  }

  let after: ListQuery['after'] = null;
  const usesCursor = raw.cursor !== undefined && raw.cursor !== '';
  const usesStartingAfter = raw.starting_after !== undefined && raw.starting_after !== '';
  if (usesCursor && usesStartingAfter)
    violations.push({ pointer: '/starting_after', detail: 'use either cursor or starting_after, not both' });
  if ((usesCursor || usesStartingAfter) && raw.page !== undefined)
    violations.push({ pointer: '/page', detail: 'page cannot be combined with cursor or starting_after' });

  if (usesStartingAfter) {
    const id = asInteger(withoutIdPrefix(raw.starting_after, definition.idPrefix));
    if (explicit && !(sort.length === 1 && sort[0]?.key === 'id' && sort[0].direction === 'ASC')) {
      violations.push({
        pointer: '/starting_after',
        detail: 'starting_after only works with the default sort (id ASC); use cursor with a custom sort',
      });
    } else if (id === null)
      violations.push({
        pointer: '/starting_after',
        detail: definition.idPrefix
          ? `starting_after must be an id as the list shows it (${definition.idPrefix} and a number)`
          : 'starting_after must be an integer id',
      });
    else after = { values: [id] };
  }
  if (usesCursor) {
    if (!cursor) violations.push({ pointer: '/cursor', detail: 'cursor is not valid' });
    else if (cursor.resource !== definition.resource)
      violations.push({ pointer: '/cursor', detail: `cursor belongs to another list (${cursor.resource})` });
    else if (cursor.sort !== sortSignature(sort)) {
      violations.push({
        pointer: '/sort',
        detail: `sort differs from the sort the cursor was made with (${cursor.sort}); repeat the same sort on every request of a walk`,
      });
    } else if (cursor.values.length !== sort.length)
      violations.push({ pointer: '/cursor', detail: 'cursor is not valid' });
    else after = { values: cursor.values };
  }

  if (violations.length > 0) {
    const first = violations[0];
    throw new DomainError(
      'invalid_list_query',
      violations.length === 1 && first ? first.detail : `${violations.length} list parameters are invalid`,
      { violations },
    );
  }
  return {
    filterGroups,
    sort,
    includes,
    limit,
    page,
    after,
    withTotal: !definition.cursorOnly && !usesCursor && !usesStartingAfter,
  };
}
