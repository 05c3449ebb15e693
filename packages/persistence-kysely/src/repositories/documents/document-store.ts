import { DocumentType, ExportScope, ListQuery, ListRows } from '@brand/core';
import { Insertable, Kysely, Selectable } from 'kysely';
import { Database } from '../../database';
import { brandTableList, fetchList, fetchListPage, ListColumns, ListSource } from '../../listing/list-sql';
import { groupBy, selectInChunks, unique } from '../batches';
import { bulkInsert, upsertByIdWithinBrand } from '../bulk-insert';
import { Executor } from '../executor';
import { adjustRowCount, CountedResource } from '../row-counts';
import { exportScopeSql, lockedInTransaction } from './document-sql';

type Table = keyof Database;

/** The insert half of an upsert by id within the brand: an existing document is left to the upsert. */
const INSERT_ONLY = 'on conflict ("brand_id", "id") do nothing';
/** Postgres: a row the upsert inserted has no deleting transaction yet; an updated one has the upsert's. */
const INSERTED = '(xmax = 0) as "inserted"';

/** How one document aggregate (a row and its lines) maps onto its two tables. */
export interface DocumentSpec<T extends { id: number; brandId: number }, P extends Table, L extends Table> {
  table: P;
  linesTable: L;
  /** The lines' column naming the document (`order_id`, …). */
  parentColumn: keyof Database[L] & string;
  documentType: DocumentType;
  /** The list keys of the document's list definition. */
  columns: ListColumns;
  /** The kept count of the brand's documents (`row_counts`), when its list's total reads it. */
  counted?: CountedResource;
  /** Its filtered pages pick their ids first on Postgres (see `brandTableList`). */
  keysFirst?: boolean;
  /** Columns an upsert overwrites on an existing document / line (never id, brand or parent). */
  updateColumns: readonly (keyof Database[P] & string)[];
  lineUpdateColumns: readonly (keyof Database[L] & string)[];
  toRow(document: T): Insertable<Database[P]>;
  linesToRows(document: T): Insertable<Database[L]>[];
  fromRows(row: Selectable<Database[P]>, lines: Selectable<Database[L]>[]): T;
}

const lists = new WeakMap<object, ListSource<object>>();

/** A document kind's list, one per spec, so that its compiled page statements are kept across requests. */
function listOf<P extends Table>(spec: {
  table: P;
  columns: ListColumns;
  counted?: CountedResource;
  keysFirst?: boolean;
}): ListSource<Selectable<Database[P]>> {
  let list = lists.get(spec);
  if (!list) {
    list = brandTableList(spec.table, spec.columns, spec.counted, { keysFirst: spec.keysFirst ?? false });
    lists.set(spec, list);
  }
  return list as ListSource<Selectable<Database[P]>>;
}

/**
 * The reads and writes every document repository (orders, shipments, invoices, credit notes)
 * shares, in a few statements each:
 * - `save`: one upsert of the document row and one multi-row upsert of its lines (by id within
 *   the brand; lines are never deleted). A document or line id of another brand is an error. A
 *   counted kind (`counted`) moves its kept count when the save inserts the document: on
 *   Postgres the upsert says so itself; on SQLite an insert that leaves an existing row alone
 *   comes first, then the upsert when it did not insert (one writer: nothing comes in between).
 * - `find`: the documents whose `column` is one of `values`, by id, locked inside a Postgres
 *   write transaction; their lines in one `parent in (…)` read.
 * - `list` / `listForExport`: the keyset/offset list (`fetchList`), the export one restricted by
 *   `exportScopeSql` and never counted; lines of the whole page in one read when wanted.
 */
export function documentStore<T extends { id: number; brandId: number }, P extends Table, L extends Table>(
  executor: Executor,
  spec: DocumentSpec<T, P, L>,
) {
  const { dialect } = executor;
  // The spec's generic table names defeat Kysely's per-table typing; the spec's mappers are typed.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table is a type parameter
  const db = executor.db as unknown as Kysely<any>;
  const upsert = upsertByIdWithinBrand(spec.table, spec.updateColumns);
  const lineUpsert = upsertByIdWithinBrand(spec.linesTable, spec.lineUpdateColumns);
  const table: string = spec.table;
  const linesTable: string = spec.linesTable;
  const parentColumn: string = spec.parentColumn;
  const base = (brandId: number) => db.selectFrom(table).selectAll().where(`${table}.brand_id`, '=', brandId);

  async function withLines(brandId: number, rows: Selectable<Database[P]>[], load: boolean): Promise<T[]> {
    const ids = rows.map((r) => Number((r as { id: number }).id));
    const lines = load
      ? await selectInChunks(ids, (chunk) =>
          db
            .selectFrom(linesTable)
            .selectAll()
            .where('brand_id', '=', brandId)
            .where(parentColumn, 'in', chunk)
            .execute(),
        )
      : [];
    const byParent = groupBy(lines as Record<string, unknown>[], (l) => Number(l[parentColumn]));
    return rows.map((row) => {
      const own = (byParent.get(Number((row as { id: number }).id)) ?? []).sort((a, b) => Number(a.id) - Number(b.id));
      return spec.fromRows(row, own as Selectable<Database[L]>[]);
    });
  }

  /** Upserts a counted document's row; answers 1 when it was inserted, else 0. */
  async function upsertCounting(row: Insertable<Database[P]>): Promise<number> {
    if (dialect === 'postgres') {
      const written = await bulkInsert(executor, spec.table, [row], { conflict: upsert, returning: INSERTED });
      return (written.rows[0] as { inserted?: boolean } | undefined)?.inserted === true ? 1 : 0;
    }
    if ((await bulkInsert(executor, spec.table, [row], { conflict: INSERT_ONLY })).written > 0) return 1;
    await bulkInsert(executor, spec.table, [row], { conflict: upsert });
    return 0;
  }

  return {
    async save(document: T): Promise<void> {
      const row = spec.toRow(document);
      if (spec.counted === undefined) await bulkInsert(executor, spec.table, [row], { conflict: upsert });
      else await adjustRowCount(executor, document.brandId, spec.counted, await upsertCounting(row));
      await bulkInsert(executor, spec.linesTable, spec.linesToRows(document), { conflict: lineUpsert });
    },

    async find(brandId: number, column: string, values: readonly number[]): Promise<T[]> {
      const rows = await selectInChunks(unique(values), (chunk) =>
        lockedInTransaction(executor, base(brandId).where(`${table}.${column}`, 'in', chunk)).execute(),
      );
      rows.sort((a, b) => Number(a.id) - Number(b.id));
      return withLines(brandId, rows as Selectable<Database[P]>[], true);
    },

    async list(brandId: number, query: ListQuery, loadLines: boolean): Promise<ListRows<T>> {
      const { rows, total } = await fetchListPage(executor, listOf(spec), brandId, query);
      return { rows: await withLines(brandId, rows, loadLines), total };
    },

    async listForExport(
      brandId: number,
      query: ListQuery,
      scope: ExportScope,
      loadLines: boolean,
    ): Promise<ListRows<T>> {
      const scoped = exportScopeSql(dialect, spec.table, spec.documentType, brandId, scope);
      if (!scoped) return { rows: [], total: null };
      const { rows } = await fetchList(
        base(brandId).where(scoped),
        { ...query, withTotal: false },
        spec.columns,
        dialect,
      );
      return { rows: await withLines(brandId, rows as Selectable<Database[P]>[], loadLines), total: null };
    },
  };
}
