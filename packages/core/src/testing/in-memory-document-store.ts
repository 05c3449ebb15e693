import { DocumentType, ExportMark, ExportScope } from '../documents/document.entities';
import { listInMemory } from '../listing/in-memory-list';
import { ListDefinition, ListQuery, ListRows } from '../listing/list-query';

/**
 * The in-memory twin of persistence's `documentStore` (`repositories/documents/document-store.ts`):
 * the reads and writes every document repository in memory shares (orders, shipments, invoices,
 * credit notes, accounting entries, production orders, delivery notes, returns), and the row
 * helpers under them that the modules' other brand-scoped rows use too. Every read answers
 * copies, so a caller changing what it got changes nothing stored.
 */

/** A deep copy, as a row read back from a database is: nothing shared with what is stored. */
export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The rows by id ascending (a copy of the array; the rows themselves are not copied). */
export const byId = <T extends { id: number }>(rows: T[]): T[] => [...rows].sort((a, b) => a.id - b.id);

/** Adds a copy of the row; an id already stored is an error, as a primary key is. */
export function insertRow<T extends { id: number }>(rows: T[], row: T, what: string): void {
  if (rows.some((r) => r.id === row.id)) throw new Error(`${what} ${row.id} already exists`);
  rows.push(clone(row));
}

/** The brand's rows that pass `test`, by id ascending, copied. */
export function pickRows<T extends { id: number; brandId: number }>(
  rows: T[],
  brandId: number,
  test: (row: T) => boolean,
): T[] {
  return clone(byId(rows.filter((r) => r.brandId === brandId && test(r))));
}

/** One page of the brand's rows under the list query (the reference list semantics), copied. */
export function listRows<T extends { id: number; brandId: number }>(
  definition: ListDefinition<T>,
  rows: T[],
  brandId: number,
  query: ListQuery,
): ListRows<T> {
  const { rows: page, total } = listInMemory(
    definition,
    query,
    rows.filter((r) => r.brandId === brandId),
  );
  return { rows: clone(page), total };
}

/** What a document needs to be stored: an id within its brand and, for the export scope, maybe a status. */
interface StoredDocument {
  id: number;
  brandId: number;
  status?: string;
}

/** How one kind of document sits in the binding's state. */
export interface InMemoryDocumentSpec<T extends StoredDocument> {
  /** The kind's rows in the state of the binding. */
  rows: () => T[];
  /** The export marks of every document kind (they live with the orders' state). */
  marks: () => ExportMark[];
  /** Reads the list keys of a document (the caller validated the query against its own definition). */
  definition: ListDefinition<T>;
  /** The kind export marks and scopes name. */
  documentType: DocumentType;
  /** The kind as error messages name it (`credit note`). */
  what: string;
}

/**
 * The reads and writes of one document kind, with the semantics every adapter must match:
 * - `save`: inserts the document or replaces it; its lines are upserted by id and never removed
 *   (a line missing from the saved aggregate stays), and come back by id ascending. Saving under
 *   another brand's id is an error.
 * - `find`: the brand's documents that pass `test`, by id ascending.
 * - `list`: the list query over the brand's documents, counted when the query asks.
 * - `listForExport`: the documents whose status is one of `scope.statuses` (any status when
 *   undefined) and that have no mark of `scope.systemId` with `exportedAt <= scope.notExportedSince`,
 *   then the list query; it never counts (`total: null`).
 */
export function inMemoryDocumentStore<T extends StoredDocument>(spec: InMemoryDocumentSpec<T>) {
  /** Whether the document is neither hidden from `scope`'s system by an earlier mark nor out of its statuses. */
  function exportable(brandId: number, scope: ExportScope): (document: T) => boolean {
    const hidden = new Set(
      spec
        .marks()
        .filter(
          (m) =>
            m.brandId === brandId &&
            m.documentType === spec.documentType &&
            m.systemId === scope.systemId &&
            m.exportedAt <= scope.notExportedSince,
        )
        .map((m) => m.documentId),
    );
    return (document) =>
      !hidden.has(document.id) &&
      (scope.statuses === undefined || (document.status !== undefined && scope.statuses.includes(document.status)));
  }

  return {
    save(document: T & { lines: { id: number }[] }): void {
      const rows = spec.rows();
      const index = rows.findIndex((r) => r.id === document.id);
      if (index < 0) {
        rows.push(clone({ ...document, lines: byId(document.lines) }));
        return;
      }
      const existing = rows[index]! as T & { lines: { id: number }[] };
      if (existing.brandId !== document.brandId)
        throw new Error(`${spec.what} ${document.id} belongs to another brand`);
      const lines = new Map(existing.lines.map((l) => [l.id, l]));
      for (const line of document.lines) lines.set(line.id, line);
      rows[index] = clone({ ...document, lines: byId([...lines.values()]) });
    },

    find(brandId: number, test: (document: T) => boolean): T[] {
      return pickRows(spec.rows(), brandId, test);
    },

    list(brandId: number, query: ListQuery): ListRows<T> {
      return listRows(spec.definition, spec.rows(), brandId, query);
    },

    listForExport(brandId: number, query: ListQuery, scope: ExportScope): ListRows<T> {
      const keep = exportable(brandId, scope);
      const { rows } = listInMemory(
        spec.definition,
        { ...query, withTotal: false },
        spec.rows().filter((r) => r.brandId === brandId && keep(r)),
      );
      return { rows: clone(rows), total: null };
    },
  };
}
