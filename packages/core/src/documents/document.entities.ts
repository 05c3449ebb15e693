/**
 * What every exportable document shares: per-system export marks and a timeline. They live
 * beside the documents (keyed by document type and id), so a new document type needs no new
 * tables for them.
 */

/** Documents that can be exported, marked and carry a timeline. Returns and production documents join in later modules. */
export type DocumentType =
  | 'order'
  | 'shipment'
  | 'invoice'
  | 'credit_note'
  | 'accounting_entry'
  | 'return'
  | 'production_order'
  | 'delivery_note';

/** One system's confirmation that it imported a document (`POST …/mark-as-exported`). */
export interface ExportMark {
  brandId: number;
  documentType: DocumentType;
  documentId: number;
  /** The receiving system's name as the integration sends it; systems export independently. */
  systemId: string;
  /** The latest mark of this system (marking again moves it; the document stays hidden either way). */
  exportedAt: string;
  note: string | null;
}

/** What happened to a document, newest last (created, approved, exported to X, delivered, …). */
export interface TimelineEvent {
  id: number;
  brandId: number;
  documentType: DocumentType;
  documentId: number;
  /** A stable machine word: `created`, `approved`, `cancelled`, `exported`, `delivered`, `booked`, … */
  kind: string;
  /** Human text; for `exported` the note sent with the mark. */
  note: string | null;
  /** For `exported`: the system that marked it. */
  systemId: string | null;
  userId: number | null;
  createdAt: string;
}

/** A timeline event before storage numbers it. */
export type NewTimelineEvent = Omit<TimelineEvent, 'id'>;

/**
 * Which documents an export GET returns beyond the list query: those not marked by `systemId` at
 * or before `notExportedSince`, in one of `statuses`. With the default `notExportedSince` (now),
 * that is "never marked by this system"; an earlier instant re-exports what was marked after it.
 */
export interface ExportScope {
  systemId: string;
  notExportedSince: string;
  /** Statuses to include; undefined for documents without a status (accounting entries). */
  statuses?: readonly string[];
}
