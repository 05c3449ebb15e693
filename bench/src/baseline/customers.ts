import { RequestHandler } from 'express';
import { principalOf } from './auth';
import { CursorCodec } from './cursor';
import { Sqlite } from './database';
import { Violation, httpErrors } from './http-errors';

/** Page sizes of the project's list vocabulary (packages/core/src/listing/list-query.ts). */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
/** The list's name and its only sort (id ascending), as the project signs them into cursors. */
const RESOURCE = 'customers';
const SORT = 'id:ASC';
/** List parameters the project supports and this baseline does not. */
const NOT_IMPLEMENTED = ['filter_groups', 'sort', 'includes', 'page'];

export interface CustomerRow {
  id: number;
  customer_number: string;
  name: string;
  currency: string;
  discount_basis_points: number;
  active: number;
  email: string | null;
  telephone: string | null;
  vat_number: string | null;
  eori_number: string | null;
  customer_group_id: number | null;
  payment_terms_id: number | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS =
  'id, customer_number, name, currency, discount_basis_points, active, email, telephone, vat_number, ' +
  'eori_number, customer_group_id, payment_terms_id, created_at, updated_at';

/** The project's `asInteger` for a query value: an optionally signed run of at most 15 digits. */
function asInteger(value: unknown): number | null {
  return typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : null;
}

/** A customer as the project's presenter shows it without includes. */
function presentCustomer(row: CustomerRow) {
  return {
    id: row.id,
    customer_number: row.customer_number,
    name: row.name,
    currency: row.currency,
    discount_percentage: row.discount_basis_points / 100,
    active: row.active === 1,
    email: row.email,
    telephone: row.telephone,
    vat_number: row.vat_number,
    eori_number: row.eori_number,
    customer_group_id: row.customer_group_id,
    payment_terms_id: row.payment_terms_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What a list request asks for: the page size, the id it starts after (none: the first page), whether it walks (cursor or starting_after). */
export interface PageRequest {
  limit: number;
  after: unknown;
  walking: boolean;
}

/** The project's reading of `limit`, `cursor` and `starting_after`, refused with its violations. */
export function parsePageRequest(query: Record<string, unknown>, cursors: CursorCodec): PageRequest {
  const unsupported = NOT_IMPLEMENTED.find((name) => query[name] !== undefined);
  if (unsupported !== undefined) throw httpErrors.notImplemented(`the list parameter ${unsupported}`);

  const violations: Violation[] = [];
  let limit = DEFAULT_LIMIT;
  if (query['limit'] !== undefined) {
    const parsed = asInteger(query['limit']);
    if (parsed === null || parsed < 1 || parsed > MAX_LIMIT)
      violations.push({ pointer: '/limit', detail: `limit must be an integer from 1 to ${MAX_LIMIT}` });
    else limit = parsed;
  }
  const usesCursor = query['cursor'] !== undefined && query['cursor'] !== '';
  const usesStartingAfter = query['starting_after'] !== undefined && query['starting_after'] !== '';
  if (usesCursor && usesStartingAfter)
    violations.push({ pointer: '/starting_after', detail: 'use either cursor or starting_after, not both' });
  let after: unknown = null;
  if (usesStartingAfter) {
    after = asInteger(query['starting_after']);
    if (after === null) violations.push({ pointer: '/starting_after', detail: 'starting_after must be an integer id' });
  }
  if (usesCursor) {
    const cursor = cursors.decode(query['cursor']);
    if (!cursor) violations.push({ pointer: '/cursor', detail: 'cursor is not valid' });
    else if (cursor.resource !== RESOURCE)
      violations.push({ pointer: '/cursor', detail: `cursor belongs to another list (${cursor.resource})` });
    else if (cursor.sort !== SORT)
      violations.push({
        pointer: '/sort',
        detail: `sort differs from the sort the cursor was made with (${cursor.sort}); repeat the same sort on every request of a walk`,
      });
    else if (cursor.values.length !== 1) violations.push({ pointer: '/cursor', detail: 'cursor is not valid' });
    else after = cursor.values[0];
  }
  if (violations.length > 0) throw httpErrors.violations('invalid_list_query', violations);
  return { limit, after, walking: usesCursor || usesStartingAfter };
}

/** The page as the project answers it: `limit + 1` rows read, the next cursor over the last row's id, `total` when given (a walk's first page). */
export function presentPage(rows: CustomerRow[], limit: number, cursors: CursorCodec, total: number | undefined) {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  const last = items[items.length - 1];
  return {
    customers: items.map(presentCustomer),
    has_more: hasMore,
    next_cursor: hasMore && last ? cursors.encode({ resource: RESOURCE, sort: SORT, values: [last.id] }) : null,
    ...(total === undefined ? {} : { total }),
  };
}

/** The list's columns, for the statements of either dialect. */
export const CUSTOMER_COLUMNS = COLUMNS;

/**
 * `GET /v10/customers` with `limit`, `cursor` and `starting_after`: a keyset page of `limit + 1`
 * rows by id, the next cursor signed over the last row's id, and `total` from the brand's
 * maintained row counter on a walk's first page, as the project's list answers.
 */
export function listCustomers(db: Sqlite, cursors: CursorCodec): RequestHandler {
  // `+?`, not `?`: a bare parameter compared with an indexed column under an ORDER BY makes
  // SQLite compile the statement again on every run (the project's SQLite compiler writes `+?`
  // for the same reason, persistence-kysely's connection.ts).
  const firstPage = db.prepare<[number, number], CustomerRow>(
    `select ${COLUMNS} from customers where brand_id = +? order by id limit +?`,
  );
  const pageAfter = db.prepare<[number, unknown, number], CustomerRow>(
    `select ${COLUMNS} from customers where brand_id = +? and id > +? order by id limit +?`,
  );
  const rowCount = db
    .prepare<[number], number>("select row_count from row_counts where brand_id = ? and resource = 'customers'")
    .pluck();

  return (req, res) => {
    const brandId = principalOf(res)!.brandId;
    const { limit, after, walking } = parsePageRequest(req.query, cursors);
    const rows = after === null ? firstPage.all(brandId, limit + 1) : pageAfter.all(brandId, after, limit + 1);
    res.json(presentPage(rows, limit, cursors, walking ? undefined : (rowCount.get(brandId) ?? 0)));
  };
}
