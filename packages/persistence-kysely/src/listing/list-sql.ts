import { Filter, FieldType, ListQuery, Primitive } from '@brand/core';
import { Kysely, RawBuilder, SelectQueryBuilder, Selectable, SqlBool, sql } from 'kysely';
import { Database } from '../database';
import { execute, Executor } from '../repositories/executor';
import { prepareOnPostgres } from '../prepared-statements';
import { CountedResource, rowCountSql } from '../repositories/row-counts';
import { Dialect } from '../storage';
import { Binder, INLINE_VALUES, Slots, StatementTemplate } from './slots';

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
function filterValue(type: FieldType, value: Primitive, dialect: Dialect, binder: Binder): RawBuilder<unknown> {
  const stored = toSqlValue(type, value);
  return dialect === 'postgres' && typeof stored === 'number' && (type === 'integer' || type === 'decimal')
    ? sql`cast(${binder.bind(stored)} as bigint)`
    : sql.val(binder.bind(stored));
}

/** Escapes LIKE wildcards so `ct`, `sw` and `ew` match `%` and `_` literally. */
function likePattern(value: Primitive, operator: 'ct' | 'sw' | 'ew'): string {
  const escaped = String(value).replace(/[\\%_]/g, (c) => `\\${c}`);
  return operator === 'ct' ? `%${escaped}%` : operator === 'sw' ? `${escaped}%` : `%${escaped}`;
}

function filterSql(filter: Filter, column: ListColumn, dialect: Dialect, binder: Binder): RawBuilder<SqlBool> {
  const ref = sql.ref(column.column);
  const value = filter.value;
  let predicate: RawBuilder<SqlBool>;
  if (value === null) predicate = sql<SqlBool>`${ref} is null`;
  else if (Array.isArray(value)) {
    const values = value.map((v) => filterValue(column.type, v, dialect, binder));
    predicate =
      filter.operator === 'in'
        ? sql<SqlBool>`${ref} in (${sql.join(values)})`
        : sql<SqlBool>`${ref} between ${values[0]} and ${values[1]}`;
  } else {
    const v = filterValue(column.type, value, dialect, binder);
    // Text matching is case-insensitive on every adapter: LIKE is on SQLite, Postgres needs ILIKE.
    const like = dialect === 'postgres' ? sql.raw('ilike') : sql.raw('like');
    switch (filter.operator) {
      case 'ct':
      case 'sw':
      case 'ew':
        predicate = sql<SqlBool>`${ref} ${like} ${binder.bind(likePattern(value, filter.operator))} escape '\\'`;
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
function filterGroupsSql(
  query: ListQuery,
  columns: ListColumns,
  dialect: Dialect,
  binder: Binder,
): RawBuilder<SqlBool> | null {
  if (query.filterGroups.length === 0) return null;
  const groups = query.filterGroups
    .filter((g) => g.filters.length > 0)
    .map((group) => {
      const parts = group.filters.map((f) => filterSql(f, columns[f.key]!, dialect, binder));
      return sql<SqlBool>`(${sql.join(parts, sql.raw(group.or ? ' or ' : ' and '))})`;
    });
  return groups.length ? sql<SqlBool>`(${sql.join(groups, sql.raw(' and '))})` : null;
}

/**
 * Rows strictly after the keyset position in sort order:
 * (k1 > v1) or (k1 = v1 and k2 > v2) or … with > flipped to < for DESC keys. Sort columns are
 * NOT NULL, so plain comparisons are exact.
 */
function keysetSql(query: ListQuery, columns: ListColumns, binder: Binder): RawBuilder<SqlBool> | null {
  if (!query.after) return null;
  const values = query.after.values;
  const branches = query.sort.map((s, i) => {
    const equalities = query.sort
      .slice(0, i)
      .map(
        (p, j) =>
          sql<SqlBool>`${sql.ref(columns[p.key]!.column)} = ${binder.bind(toSqlValue(columns[p.key]!.type, values[j] ?? null))}`,
      );
    const comparison = sql<SqlBool>`${sql.ref(columns[s.key]!.column)} ${sql.raw(s.direction === 'ASC' ? '>' : '<')} ${binder.bind(toSqlValue(columns[s.key]!.type, values[i] ?? null))}`;
    return sql<SqlBool>`(${sql.join([...equalities, comparison], sql.raw(' and '))})`;
  });
  return sql<SqlBool>`(${sql.join(branches, sql.raw(' or '))})`;
}

/** The column every row of a page carries its list's total in (the same value on every row). */
const TOTAL_COLUMN = 'list_total__';

/* eslint-disable @typescript-eslint/no-explicit-any -- a list's base select may join tables: its table set is not tracked here */
type BaseSelect<O> = SelectQueryBuilder<any, any, O>;

/**
 * A list whose base select depends on the brand alone. Its page statements are compiled once per
 * shape of query (filters, sort, cursor or page, total) and dialect, and run again with new
 * values: for a small page, building and compiling the statement through the query builder costs
 * more than SQLite takes to run it.
 */
export interface ListSource<O> {
  readonly columns: ListColumns;
  /**
   * The base select, scoped to the brand. `brandId` stands for the brand's id and may be used as
   * a value only (never to decide what SQL to write), since the statement is kept for every brand.
   */
  readonly base: (db: Kysely<Database>, brandId: number) => BaseSelect<O>;
  /** The unfiltered total as a scalar SQL expression (a maintained counter); used when no filter applies. */
  readonly rowCount?: (brandId: number) => RawBuilder<number>;
  /**
   * The rows' own key (`<table>.id`), when the base reads one table: a filtered page on Postgres
   * then picks the page's keys first and reads its rows by them (see `pageStatement`).
   */
  readonly keyColumn?: string;
}

/**
 * The list of a table's rows of a brand (`<table>.brand_id`), with a maintained total when given.
 * `keysFirst`: its filtered pages on Postgres pick their ids first (`ListSource.keyColumn`), for a
 * table whose filter index carries the id (orders, migration 0024).
 */
export function brandTableList<T extends keyof Database>(
  table: T,
  columns: ListColumns,
  rowCount?: CountedResource,
  { keysFirst = false }: { keysFirst?: boolean } = {},
): ListSource<Selectable<Database[T]>> {
  return {
    columns,
    // The table is a type parameter: Kysely's per-table typing cannot follow it (the mappers are typed).
    base: (db, brandId) =>
      (db as unknown as Kysely<any>)
        .selectFrom(table)
        .selectAll()
        .where(sql.ref(`${table}.brand_id`), '=', brandId) as BaseSelect<Selectable<Database[T]>>,
    ...(keysFirst ? { keyColumn: `${table}.id` } : {}),
    ...(rowCount ? { rowCount: (brandId: number) => rowCountSql(brandId, rowCount) } : {}),
  };
}

/** Compiled page statements kept per list source; beyond this many shapes the oldest goes. */
const SHAPES_PER_LIST = 64;
const templates = new WeakMap<object, Map<string, StatementTemplate>>();

/**
 * What decides a page statement's SQL, apart from its values: the dialect; each filter's key,
 * operator, negation and the kind of its value (null, a list of a length, or a scalar's type, which
 * decides a Postgres cast); the sort; cursor or page; the total.
 */
function shapeOf(query: ListQuery, dialect: Dialect): string {
  let shape = `${dialect}|${query.after ? 'a' : query.page > 0 ? 'p' : 'f'}|${query.withTotal ? 't' : ''}|`;
  for (const s of query.sort) shape += `${s.key} ${s.direction},`;
  for (const group of query.filterGroups) {
    shape += group.or ? '|or:' : '|and:';
    for (const f of group.filters) {
      const value = f.value;
      const kind =
        value === null ? 'null' : Array.isArray(value) ? `[${value.map((v) => typeof v).join(' ')}]` : typeof value;
      shape += `${f.key} ${f.not ? 'not ' : ''}${f.operator} ${kind},`;
    }
  }
  return shape;
}

/** The parts of a page statement that carry the query's values, bound in one fixed order. */
interface PageParts {
  filters: RawBuilder<SqlBool> | null;
  keyset: RawBuilder<SqlBool> | null;
  limit: number;
  offset: number | null;
}

/** Binds every value of a list query (filters, keyset, limit, offset), in the order of the statement's build. */
function pageParts(query: ListQuery, columns: ListColumns, dialect: Dialect, binder: Binder): PageParts {
  return {
    filters: filterGroupsSql(query, columns, dialect, binder),
    keyset: keysetSql(query, columns, binder),
    limit: binder.bind(query.limit + 1),
    offset: !query.after && query.page > 0 ? binder.bind(query.page * query.limit) : null,
  };
}

/**
 * The page statement of a list query: filters, keyset or offset, order, `limit + 1` rows, and the
 * total when asked for, with `countAlone` the total on its own (for a page without rows to read
 * it from).
 *
 * The total rides along in the page's own statement, as an uncorrelated scalar subquery (run
 * once, its value on every row): `rowCount`, a maintained counter, when no filter applies, else
 * a count of the filtered rows. One statement instead of two saves a round trip on Postgres and,
 * on SQLite, a read transaction, whose locks cost about as much as a small query. Rows keep the
 * extra column (copying each row to drop it would cost more than the statement saved); row
 * mappers pick their columns by name.
 *
 * `keysFirst` (a key column, for a filtered page on Postgres) picks the page's keys in a subquery
 * and reads the rows by them: `… where id = any(array(select id … order by … limit …)) order by
 * …`. Asked for whole rows, Postgres chooses between walking an index in page order and testing
 * each row, and reading the filter's range and sorting it; it guesses from statistics of every
 * brand at once, so another brand's rows crowding a date range sent one brand's "approved
 * yesterday" page through every order of the status. Asked for keys only, the range is read from
 * the index alone (when it carries the key), as the filtered total already counts it.
 */
function pageStatement<O>(
  base: BaseSelect<O>,
  parts: PageParts,
  query: ListQuery,
  columns: ListColumns,
  rowCount: RawBuilder<number> | undefined,
  keysFirst: string | null,
): { page: BaseSelect<O>; countAlone: BaseSelect<{ total: unknown }> | null } {
  const inOrder = (select: BaseSelect<O>): BaseSelect<O> => {
    let ordered = select;
    for (const s of query.sort)
      ordered = ordered.orderBy(sql.ref(columns[s.key]!.column), s.direction === 'ASC' ? 'asc' : 'desc');
    return ordered;
  };
  const filtered = parts.filters ? base.where(parts.filters) : base;
  let page = inOrder(parts.keyset ? filtered.where(parts.keyset) : filtered).limit(parts.limit);
  if (parts.offset !== null) page = page.offset(parts.offset);
  if (keysFirst) {
    const keys = hasBoundedRange(query)
      ? keysOfRange(parts.keyset ? filtered.where(parts.keyset) : filtered, parts, query, columns, keysFirst)
      : page.clearSelect().select(sql.ref(keysFirst).as('page_key__'));
    // `= any(array(…))`, not `in (…)`: the keys become one value, looked up by the primary key,
    // where a semi-join might read every row of the brand to meet them.
    page = inOrder(base.where(sql<SqlBool>`${sql.ref(keysFirst)} = any(array(${keys}))`));
  }
  if (!query.withTotal) return { page, countAlone: null };

  const counted = filtered.clearSelect().clearOrderBy().select(sql<number>`count(*)`.as('total'));
  const total = !parts.filters && rowCount ? rowCount : sql<number>`(${counted})`;
  return {
    page: page.select(total.as(TOTAL_COLUMN)) as BaseSelect<O>,
    countAlone: filtered.clearSelect().clearOrderBy().select(total.as('total')).limit(1) as BaseSelect<{
      total: unknown;
    }>,
  };
}

/**
 * Whether an ANDed filter bounds a column on both sides (`bt`, or a lower and an upper bound):
 * a range whose matches bound the work of reading them all, whatever order the page wants.
 */
function hasBoundedRange(query: ListQuery): boolean {
  const lower = new Set<string>();
  const upper = new Set<string>();
  for (const group of query.filterGroups) {
    // An OR group's range bounds nothing: another filter of the group may match outside it.
    if (group.or && group.filters.length > 1) continue;
    for (const f of group.filters) {
      if (f.not || f.value === null) continue;
      if (f.operator === 'bt') return true;
      if (f.operator === 'gt' || f.operator === 'gte') lower.add(f.key);
      if (f.operator === 'lt' || f.operator === 'lte') upper.add(f.key);
    }
  }
  for (const key of lower) if (upper.has(key)) return true;
  return false;
}

/**
 * The page's keys of a filter with a bounded range (a status and a day, say), read as the whole
 * range then sorted: `select key from (select key, sort columns … where filters offset 0) order
 * by … limit …`. The `offset 0` keeps Postgres from folding the inner select into the outer one,
 * so it plans the inner for all its rows (the range, from the index that carries the key) and
 * cannot walk another index in page order testing each row against the range. That walk was its
 * custom plan on a connection's first executions: it guessed the day's matches from statistics
 * of every brand, far above the brand's own, and, the range's rows sitting at the end of the
 * page order, tested every order of the status (docs/performance.md, "Production size on
 * Postgres, run 5"). Reading the range costs at most its matches; the walk's cost depends on
 * where those matches sit in page order, which no statistic tells. A filter without a bounded
 * range (a status alone) keeps the walk: there the first matches come early.
 */
function keysOfRange<O>(
  filtered: BaseSelect<O>,
  parts: PageParts,
  query: ListQuery,
  columns: ListColumns,
  keyColumn: string,
): RawBuilder<unknown> {
  const sortAlias = (i: number) => `page_sort_${i}__`;
  const range = filtered
    .clearSelect()
    .select([
      sql.ref(keyColumn).as('page_key__'),
      ...query.sort.map((s, i) => sql.ref(columns[s.key]!.column).as(sortAlias(i))),
    ])
    .offset(sql.lit(0));
  const order = sql.join(
    query.sort.map((s, i) => sql`${sql.ref(sortAlias(i))} ${sql.raw(s.direction === 'ASC' ? 'asc' : 'desc')}`),
  );
  const offset = parts.offset === null ? sql`` : sql` offset ${parts.offset}`;
  return sql`select page_key__ from (${range}) as page_range__ order by ${order} limit ${parts.limit}${offset}`;
}

/** Reads the total from a page's rows, or (a page without rows) on its own. */
async function withTotal<O>(
  query: ListQuery,
  rows: O[],
  countAlone: () => Promise<{ total: unknown } | undefined>,
): Promise<{ rows: O[]; total: number | null }> {
  if (!query.withTotal) return { rows, total: null };
  if (rows.length > 0) return { rows, total: Number((rows[0] as Record<string, unknown>)[TOTAL_COLUMN]) };
  // No row to read the total from: the first page of an empty list, or a page past the end.
  if (query.page === 0) return { rows, total: 0 };
  // Its rows carry the total as well; none means there are none to count.
  const any = await countAlone();
  return { rows, total: any ? Number(any.total) : 0 };
}

/** The key a filtered page on Postgres picks first (see `pageStatement`), or null to read its rows at once. */
function pageKeyColumn(source: ListSource<unknown>, parts: PageParts, dialect: Dialect): string | null {
  return dialect === 'postgres' && parts.filters && source.keyColumn ? source.keyColumn : null;
}

/**
 * One page of a list source for a brand, its statement compiled once per shape (see
 * `ListSource`): a kept shape only binds the query's values and fills them in.
 */
export async function fetchListPage<O>(
  executor: Executor,
  source: ListSource<O>,
  brandId: number,
  query: ListQuery,
): Promise<{ rows: O[]; total: number | null }> {
  const { db, dialect } = executor;
  const slots = new Slots();
  const brand = slots.bind(brandId);
  const parts = pageParts(query, source.columns, dialect, slots);
  let kept = templates.get(source);
  if (!kept) {
    kept = new Map<string, StatementTemplate>();
    templates.set(source, kept);
  }
  const shape = shapeOf(query, dialect);
  let template = kept.get(shape);
  if (!template) {
    const { page } = pageStatement(
      source.base(db, brand),
      parts,
      query,
      source.columns,
      source.rowCount?.(brand),
      pageKeyColumn(source, parts, dialect),
    );
    template = Slots.template(page.compile());
    if (dialect === 'postgres') prepareOnPostgres(template.compiled.sql);
    if (kept.size >= SHAPES_PER_LIST) kept.delete(kept.keys().next().value!);
    kept.set(shape, template);
  }
  const { rows } = await execute(executor, slots.fill(template));
  return withTotal(query, rows as O[], () => {
    // Rare (a page past the end): built with the values themselves, not kept.
    const { countAlone } = pageStatement(
      source.base(db, brandId),
      pageParts(query, source.columns, dialect, INLINE_VALUES),
      query,
      source.columns,
      source.rowCount?.(brandId),
      null,
    );
    return countAlone!.executeTakeFirst();
  });
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * Runs a validated list query on a base select already scoped to the brand, building and
 * compiling its statement each time: for lists whose base depends on more than the brand (an
 * export's marks, say). Lists read often are `ListSource`s.
 */
export async function fetchList<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  query: ListQuery,
  columns: ListColumns,
  dialect: Dialect,
  /** The unfiltered total as a scalar SQL expression (a maintained counter); used when no filter applies. */
  rowCount?: RawBuilder<number>,
): Promise<{ rows: O[]; total: number | null }> {
  const parts = pageParts(query, columns, dialect, INLINE_VALUES);
  const { page, countAlone } = pageStatement(base as BaseSelect<O>, parts, query, columns, rowCount, null);
  return withTotal(query, await page.execute(), () => countAlone!.executeTakeFirst());
}
