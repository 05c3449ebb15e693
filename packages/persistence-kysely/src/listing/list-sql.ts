import { Filter, FieldType, ListQuery, Primitive, settleAll } from '@brand/core';
import { RawBuilder, SelectQueryBuilder, SqlBool, sql } from 'kysely';
import { Dialect } from '../storage';

/** Where a list key lives in SQL: a (qualified) column and its type. */
export interface ListColumn {
  column: string;
  type: FieldType;
}
export type ListColumns = Record<string, ListColumn>;

/** Booleans are stored as 0/1 in both dialects. */
function toSqlValue(type: FieldType, value: Primitive): Primitive {
  if (type === 'boolean' && typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/**
 * A filter value as a bound parameter. Numbers are bound as bigint on Postgres: it types a
 * parameter after the column it is compared with, so a value beyond an `integer` column's range
 * (`in_stock gt 99999999999`) failed the whole query (`value … is out of range for type
 * integer`) instead of matching no row.
 */
function filterValue(type: FieldType, value: Primitive, dialect: Dialect): RawBuilder<unknown> {
  const stored = toSqlValue(type, value);
  return dialect === 'postgres' && typeof stored === 'number' && (type === 'integer' || type === 'decimal')
    ? sql`cast(${stored} as bigint)`
    : sql.val(stored);
}

/** Escapes LIKE wildcards so `ct`, `sw` and `ew` match `%` and `_` literally. */
function likePattern(value: Primitive, operator: 'ct' | 'sw' | 'ew'): string {
  const escaped = String(value).replace(/[\\%_]/g, (c) => `\\${c}`);
  return operator === 'ct' ? `%${escaped}%` : operator === 'sw' ? `${escaped}%` : `%${escaped}`;
}

function filterSql(filter: Filter, column: ListColumn, dialect: Dialect): RawBuilder<SqlBool> {
  const ref = sql.ref(column.column);
  const value = filter.value;
  let predicate: RawBuilder<SqlBool>;
  if (value === null) predicate = sql<SqlBool>`${ref} is null`;
  else if (Array.isArray(value)) {
    const values = value.map((v) => filterValue(column.type, v, dialect));
    predicate =
      filter.operator === 'in'
        ? sql<SqlBool>`${ref} in (${sql.join(values)})`
        : sql<SqlBool>`${ref} between ${values[0]} and ${values[1]}`;
  } else {
    const v = filterValue(column.type, value, dialect);
    // Text matching is case-insensitive on every adapter: LIKE is on SQLite, Postgres needs ILIKE.
    const like = dialect === 'postgres' ? sql.raw('ilike') : sql.raw('like');
    switch (filter.operator) {
      case 'ct':
      case 'sw':
      case 'ew':
        predicate = sql<SqlBool>`${ref} ${like} ${likePattern(value, filter.operator)} escape '\\'`;
        break;
      case 'gt':
        predicate = sql<SqlBool>`${ref} > ${v}`;
        break;
      case 'gte':
        predicate = sql<SqlBool>`${ref} >= ${v}`;
        break;
      case 'lt':
        predicate = sql<SqlBool>`${ref} < ${v}`;
        break;
      case 'lte':
        predicate = sql<SqlBool>`${ref} <= ${v}`;
        break;
      default:
        predicate = sql<SqlBool>`${ref} = ${v}`;
    }
  }
  // "not" must also keep rows whose column is NULL (the comparison is unknown, not true), as the
  // in-memory reference does; IS NOT TRUE says exactly that in both dialects.
  return filter.not ? sql<SqlBool>`(${predicate}) is not true` : predicate;
}

/** The filter groups as one predicate: groups are ANDed, filters within a group AND or OR. */
export function filterGroupsSql(query: ListQuery, columns: ListColumns, dialect: Dialect): RawBuilder<SqlBool> | null {
  if (query.filterGroups.length === 0) return null;
  const groups = query.filterGroups
    .filter((g) => g.filters.length > 0)
    .map((group) => {
      const parts = group.filters.map((f) => filterSql(f, columns[f.key]!, dialect));
      return sql<SqlBool>`(${sql.join(parts, sql.raw(group.or ? ' or ' : ' and '))})`;
    });
  return groups.length ? sql<SqlBool>`(${sql.join(groups, sql.raw(' and '))})` : null;
}

/**
 * Rows strictly after the keyset position in sort order:
 * (k1 > v1) or (k1 = v1 and k2 > v2) or … with > flipped to < for DESC keys. Sort columns are
 * NOT NULL, so plain comparisons are exact.
 */
export function keysetSql(query: ListQuery, columns: ListColumns): RawBuilder<SqlBool> | null {
  if (!query.after) return null;
  const values = query.after.values;
  const branches = query.sort.map((s, i) => {
    const equalities = query.sort
      .slice(0, i)
      .map(
        (p, j) =>
          sql<SqlBool>`${sql.ref(columns[p.key]!.column)} = ${toSqlValue(columns[p.key]!.type, values[j] ?? null)}`,
      );
    const comparison = sql<SqlBool>`${sql.ref(columns[s.key]!.column)} ${sql.raw(s.direction === 'ASC' ? '>' : '<')} ${toSqlValue(columns[s.key]!.type, values[i] ?? null)}`;
    return sql<SqlBool>`(${sql.join([...equalities, comparison], sql.raw(' and '))})`;
  });
  return sql<SqlBool>`(${sql.join(branches, sql.raw(' or '))})`;
}

/**
 * Runs a validated list query on a base select (already scoped to the brand): filters, keyset or
 * offset, order, `limit + 1` rows, and the total when asked for.
 */
export async function fetchList<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  query: ListQuery,
  columns: ListColumns,
  dialect: Dialect,
  /** Reads the unfiltered total cheaply (a maintained counter); used when no filter applies. */
  countAll?: () => Promise<number>,
): Promise<{ rows: O[]; total: number | null }> {
  const filters = filterGroupsSql(query, columns, dialect);
  const filtered = filters ? base.where(filters) : base;
  const keyset = keysetSql(query, columns);
  let page = keyset ? filtered.where(keyset) : filtered;
  for (const s of query.sort)
    page = page.orderBy(sql.ref(columns[s.key]!.column), s.direction === 'ASC' ? 'asc' : 'desc');
  page = page.limit(query.limit + 1);
  if (!query.after && query.page > 0) page = page.offset(query.page * query.limit);
  const [rows, total] = await settleAll([
    page.execute(),
    !query.withTotal
      ? Promise.resolve(null)
      : !filters && countAll
        ? countAll().then((total) => ({ total }))
        : filtered.clearSelect().clearOrderBy().select(sql<number>`count(*)`.as('total')).executeTakeFirst(),
  ]);
  return { rows: rows, total: total ? Number((total as unknown as { total: number }).total) : null };
}
