import {
  AdHocReturnMode,
  BrandSettings,
  BrandSettingsRepository,
  DocumentType,
  ExportMark,
  ExportMarkRepository,
  IdGenerator,
  InvoicingMode,
  TimelineRepository,
} from '@brand/core';
import { Selectable } from 'kysely';
import { BrandSettingsTable } from '../../tables/orders.tables';
import { selectInChunks, unique } from '../batches';
import { bulkInsert } from '../bulk-insert';
import { Executor, fromFlag, toFlag } from '../executor';
import { fromJson, toJson, toNullableNumber } from '../json-columns';

const rowToSettings = (r: Selectable<BrandSettingsTable>): BrandSettings => ({
  brandId: Number(r.brand_id),
  invoicing: r.invoicing as InvoicingMode,
  requiresDrop: fromFlag(r.requires_drop),
  defaultVatRateBasisPoints: Number(r.default_vat_rate_basis_points),
  adHocReturnMode: r.ad_hoc_return_mode as AdHocReturnMode | null,
  trackingLinkTemplates: fromJson<Record<string, string>>(r.tracking_link_templates, {}),
  updatedAt: r.updated_at,
});

const SETTINGS_UPSERT =
  'on conflict ("brand_id") do update set "invoicing" = excluded."invoicing", "requires_drop" = excluded."requires_drop", ' +
  '"default_vat_rate_basis_points" = excluded."default_vat_rate_basis_points", "ad_hoc_return_mode" = excluded."ad_hoc_return_mode", ' +
  '"tracking_link_templates" = excluded."tracking_link_templates", "updated_at" = excluded."updated_at"';

export function brandSettingsRepository(executor: Executor): BrandSettingsRepository {
  const { db } = executor;
  return {
    async find(brandId) {
      const row = await db.selectFrom('brand_settings').selectAll().where('brand_id', '=', brandId).executeTakeFirst();
      return row ? rowToSettings(row) : null;
    },
    async save(settings) {
      await bulkInsert(
        executor,
        'brand_settings',
        [
          {
            brand_id: settings.brandId,
            invoicing: settings.invoicing,
            requires_drop: toFlag(settings.requiresDrop),
            default_vat_rate_basis_points: settings.defaultVatRateBasisPoints,
            ad_hoc_return_mode: settings.adHocReturnMode,
            tracking_link_templates: toJson(settings.trackingLinkTemplates),
            updated_at: settings.updatedAt,
          },
        ],
        { conflict: SETTINGS_UPSERT },
      );
    },
  };
}

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
        kind: r.kind,
        note: r.note,
        systemId: r.system_id,
        userId: toNullableNumber(r.user_id),
        createdAt: r.created_at,
      }));
    },
  };
}
