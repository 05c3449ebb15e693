/**
 * The list vocabulary every list endpoint shares (filter groups, sort, includes, limit, page and
 * keyset cursors), independent of HTTP and of SQL. The API parses the query string into a
 * `RawListQuery`; `validateListQuery` checks it against the resource's `ListDefinition` and
 * yields a typed `ListQuery` that any storage adapter can execute.
 */

/**
 * The filter operators of `filter_groups`: equals, contains, starts and ends with, the four
 * comparisons, `in` (a list) and `bt` (between two values).
 */
export const FILTER_OPERATORS = ['eq', 'ct', 'sw', 'ew', 'gt', 'gte', 'lt', 'lte', 'in', 'bt'] as const;
/** One of `FILTER_OPERATORS`. */
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** How a list field's values are parsed from the query string and compared. */
export type FieldType = 'string' | 'integer' | 'boolean' | 'datetime' | 'decimal';
/** A comparable field value as lists see it (`null` sorts first ascending). */
export type Primitive = string | number | boolean | null;

/** A filterable or sortable field of a resource: its wire key, type and how to read it from the entity. */
export interface FieldDefinition<T> {
  type: FieldType;
  /** Reads the comparable value from an entity (used by the in-memory adapter and to build cursors). */
  get: (item: T) => Primitive;
  /** Decimal fields: the scale of the stored integer. */
  scale?: number;
}

/**
 * What a resource's list accepts: its fields, which of them sort and filter, its includes and
 * whether it pages by cursor only. Every list use case has one (`customerListDefinition`, …).
 */
export interface ListDefinition<T> {
  /** Resource name; cursors are bound to it. */
  resource: string;
  fields: Record<string, FieldDefinition<T>>;
  /** Keys that may be used in `sort`. `id` is always allowed and always the tiebreaker. */
  sortKeys: readonly string[];
  /** Keys that may be used in `filter_groups`. */
  filterKeys: readonly string[];
  includes: readonly string[];
  /** Cursor-only lists (inventory available) refuse `page` and never count. */
  cursorOnly?: boolean;
  /**
   * The prefix of an id as the API shows it, when it is not a bare number (`evt_` for events):
   * `starting_after` then takes the id as shown (`evt_123`), so a poller resumes from the last
   * item it saw as it saw it; the bare number is still understood.
   */
  idPrefix?: string;
}

/** What the wire gave, before validation: values still as strings / arrays of strings. */
export interface RawFilter {
  key?: unknown;
  operator?: unknown;
  value?: unknown;
  not?: unknown;
}
/** One `filter_groups` entry as the wire gave it, before validation. */
export interface RawFilterGroup {
  or?: unknown;
  filters?: unknown;
}
/**
 * A list request's query as the wire gave it (`filter_groups`, `sort`, `includes`, `limit`, `page`,
 * `cursor`, `starting_after`), before `validateListQuery` checks it against a `ListDefinition`.
 */
export interface RawListQuery {
  filter_groups?: unknown;
  sort?: unknown;
  includes?: unknown;
  limit?: unknown;
  page?: unknown;
  cursor?: unknown;
  starting_after?: unknown;
}

/** One validated filter: a field, an operator and typed value(s), possibly negated. */
export interface Filter {
  key: string;
  operator: FilterOperator;
  /** Typed value(s); `null` means IS NULL. `in` holds an array, `bt` a pair. */
  value: Primitive | Primitive[];
  not: boolean;
}

/**
 * Validated filters combined with AND, or with OR when `or` is set; a query's groups are combined
 * with AND.
 */
export interface FilterGroup {
  or: boolean;
  filters: Filter[];
}

/** Ascending or descending. */
export type SortDirection = 'ASC' | 'DESC';
/** One validated sort key and its direction. */
export interface Sort {
  key: string;
  direction: SortDirection;
}

/** Decoded keyset position: the sort values of the last row of the previous page (id last). */
export interface KeysetPosition {
  values: Primitive[];
}

/**
 * A validated list query that any storage adapter can execute: filters, sort (ending with `id`),
 * includes, limit and either a page or a keyset position.
 */
export interface ListQuery {
  filterGroups: FilterGroup[];
  /** Always ends with the `id` tiebreaker. */
  sort: Sort[];
  includes: string[];
  limit: number;
  /** 0-based page for offset paging; 0 when a cursor is used. */
  page: number;
  /** Rows strictly after this position in sort order. */
  after: KeysetPosition | null;
  /** Whether the response carries `total` (not with cursor or starting_after, never on cursor-only lists). */
  withTotal: boolean;
}

/**
 * One page of a list as use cases return it: the items, whether more follow, the total when counted
 * and where the next page starts.
 */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
  total: number | null;
  /** Where the next page starts, or null when there is none. */
  next: KeysetPosition | null;
}

/** Rows per page when the request names no `limit`. */
export const DEFAULT_LIMIT = 20;
/** The largest `limit` a list accepts. */
export const MAX_LIMIT = 100;

/** A stable text form of a sort, which cursors carry so that a walk cannot switch sorts. */
export function sortSignature(sort: Sort[]): string {
  return sort.map((s) => `${s.key}:${s.direction}`).join(',');
}

/** What a repository list call returns before the use case turns it into a page: up to limit + 1 rows. */
export interface ListRows<T> {
  rows: T[];
  total: number | null;
}
