import {
  DocumentRepositories,
  DocumentType,
  ExportMark,
  ExportMarkRepository,
  IdGenerator,
  TimelineKind,
  TimelineRepository,
} from '@brand/core';
import { selectInChunks, unique } from '../batches';
import { bulkInsert } from '../bulk-insert';
import { Executor, RepositoryFactories } from '../executor';
import { toNullableNumber } from '../json-columns';

/** Marking again replaces the mark of the same (document, system): the latest time and note win. */
const MARK_UPSERT =
  'on conflict ("brand_id", "document_type", "document_id", "system_id") do update set "exported_at" = excluded."exported_at", "note" = excluded."note"';

const markKey = (m: ExportMark): string =>
  `${m.brandId}\u0000${m.documentType}\u0000${m.documentId}\u0000${m.systemId}`;

export function exportMarkRepository(executor: Executor): ExportMarkRepository {
  const { db } = executor;
  return {
    async mark(marks) {
      // One row per key and statement (an upsert may not touch a row twice); the last mark wins.
      const latest = new Map<string, ExportMark>();
      for (const m of marks) latest.set(markKey(m), m);
      await bulkInsert(
        executor,
        'document_exports',
        [...latest.values()].map((m) => ({
          brand_id: m.brandId,
          document_type: m.documentType,
          document_id: m.documentId,
          system_id: m.systemId,
          exported_at: m.exportedAt,
          note: m.note,
        })),
        { conflict: MARK_UPSERT },
      );
    },
    async marksOf(brandId, documentType, documentIds) {
      const rows = await selectInChunks(unique(documentIds), (chunk) =>
        db
          .selectFrom('document_exports')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('document_type', '=', documentType)
          .where('document_id', 'in', chunk)
          .execute(),
      );
      return rows
        .map(
          (r): ExportMark => ({
            brandId: Number(r.brand_id),
            documentType: r.document_type as DocumentType,
            documentId: Number(r.document_id),
            systemId: r.system_id,
            exportedAt: r.exported_at,
            note: r.note,
          }),
        )
        .sort(
          (a, b) =>
            a.documentId - b.documentId ||
            compareText(a.exportedAt, b.exportedAt) ||
            compareText(a.systemId, b.systemId),
        );
    },
  };
}

/** Code-point order (as the in-memory adapter compares), independent of the database collation. */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function timelineRepository(executor: Executor, ids: IdGenerator): TimelineRepository {
  const { db } = executor;
  return {
    async append(events) {
      if (events.length === 0) return;
      const eventIds = await ids.next('timeline_events', events.length);
      await bulkInsert(
        executor,
        'timeline_events',
        events.map((e, i) => ({
          id: eventIds[i]!,
          brand_id: e.brandId,
          document_type: e.documentType,
          document_id: e.documentId,
          kind: e.kind,
          note: e.note,
          system_id: e.systemId,
          user_id: e.userId,
          created_at: e.createdAt,
        })),
      );
    },
    async eventsOf(brandId, documentType, documentId) {
      const rows = await db
        .selectFrom('timeline_events')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('document_type', '=', documentType)
        .where('document_id', '=', documentId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: Number(r.id),
        brandId: Number(r.brand_id),
        documentType: r.document_type as DocumentType,
        documentId: Number(r.document_id),
        kind: r.kind as TimelineKind,
        note: r.note,
        systemId: r.system_id,
        userId: toNullableNumber(r.user_id),
        createdAt: r.created_at,
      }));
    },
  };
}

/** The documents module's repositories, as the unit of work makes them. */
export const documentRepositoryFactories: RepositoryFactories<DocumentRepositories> = {
  exportMarks: (executor) => exportMarkRepository(executor),
  timeline: (executor, bound) => timelineRepository(executor, bound.ids),
};
