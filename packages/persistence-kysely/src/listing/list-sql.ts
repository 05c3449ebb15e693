import { Filter, FieldType, ListQuery, Primitive } from '@brand/core';
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

/** The column every row of a page carries its list's total in (the same value on every row). */
const TOTAL_COLUMN = 'list_total__';

/**
 * Runs a validated list query on a base select (already scoped to the brand): filters, keyset or
 * offset, order, `limit + 1` rows, and the total when asked for.
 *
 * The total rides along in the page's own statement, as an uncorrelated scalar subquery (run
 * once, its value on every row): `rowCount`, a maintained counter, when no filter applies, else
 * a count of the filtered rows. One statement instead of two saves a round trip on Postgres and,
 * on SQLite, a read transaction, whose locks cost about as much as a small query. Rows keep the
 * extra column (copying each row to drop it would cost more than the statement saved); row
 * mappers pick their columns by name. A page without rows (past the end) counts on its own.
 */
export async function fetchList<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  query: ListQuery,
  columns: ListColumns,
  dialect: Dialect,
  /** The unfiltered total as a scalar SQL expression (a maintained counter); used when no filter applies. */
  rowCount?: RawBuilder<number>,
): Promise<{ rows: O[]; total: number | null }> {
  const filters = filterGroupsSql(query, columns, dialect);
  const filtered = filters ? base.where(filters) : base;
  const keyset = keysetSql(query, columns);
  let page = keyset ? filtered.where(keyset) : filtered;
  for (const s of query.sort)
    page = page.orderBy(sql.ref(columns[s.key]!.column), s.direction === 'ASC' ? 'asc' : 'desc');
  page = page.limit(query.limit + 1);
  if (!query.after && query.page > 0) page = page.offset(query.page * query.limit);
  if (!query.withTotal) return { rows: await page.execute(), total: null };

  const counted = filtered.clearSelect().clearOrderBy().select(sql<number>`count(*)`.as('total'));
  const total = !filters && rowCount ? rowCount : sql<number>`(${counted})`;
  const rows = (await page.select(total.as(TOTAL_COLUMN)).execute()) as (O & { [TOTAL_COLUMN]: unknown })[];
  if (rows.length > 0) return { rows, total: Number(rows[0]![TOTAL_COLUMN]) };
  // No row to read the total from: the first page of an empty list, or a page past the end.
  if (query.page === 0) return { rows, total: 0 };
  // Its rows carry the total as well; none means there are none to count.
  const any = (await filtered.clearSelect().clearOrderBy().select(total.as('total')).limit(1).executeTakeFirst()) as
    | { total: unknown }
    | undefined;
  return { rows, total: any ? Number(any.total) : 0 };
}
