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

/**
 * What a timeline entry says happened, a stable machine word (stored as text; the API shows it as
 * `kind`). Most entries are a document's own change announced by a domain event, written from
 * that event (`timelineOfEvents`, documents/timeline-from-events.ts, maps each document event
 * type to its kind); the others are written by the use case, as no event announces them: a change
 * seen from another document (an order's `shipment_created`), or a change without an event type
 * (`exported`, `regulated`).
 */
export type TimelineKind =
  /** The document was made. From `<document>.created`; production orders and delivery notes by hand. */
  | 'created'
  /** Order, return, production order approved (`order.approved`, `return.approved`, `production_order.approved`). */
  | 'approved'
  /** Order or shipment cancelled (`order.cancelled`, `shipment.cancelled`). */
  | 'cancelled'
  /** Order archived (`order.archived`). */
  | 'archived'
  /** Shipment delivered (`shipment.delivered`); on its order (`order.updated`): a shipment of it was delivered. */
  | 'delivered'
  /** Invoice or credit note booked (`invoice.booked`, `credit_note.booked`); on the order, by hand: an invoice of it was booked. */
  | 'booked'
  /** Return credited (`return.credited`); on an invoice, by hand: a credit note of it was drafted or booked. */
  | 'credited'
  /** Return or delivery note received (`return.received`, `delivery_note.received`). */
  | 'received'
  /** Production order closed (`production_order.closed`). */
  | 'closed'
  /** By hand: a system marked the document exported (`systemId` says which, `note` is the mark's). */
  | 'exported'
  /**
   * Pieces of an order taken out of In stock: on the order, by `order.updated` when booking its
   * invoice regulated them and left it open, else by hand (beside its `archived`); on the invoice, by hand.
   */
  | 'regulated'
  /** On an order, a shipment of it was made: by `order.updated` (partial shipments), else by hand (beside its `approved`). */
  | 'shipment_created'
  /** On an order (`order.updated`): the warehouse cancelled a shipment of it, whose pieces are open again. */
  | 'shipment_cancelled'
  /** By hand, on an order: a return of it was announced. */
  | 'return_announced'
  /** By hand, on a production order: a delivery note of it was announced. */
  | 'delivery_note_created'
  /** By hand, on a production order: a delivery note of it was received. */
  | 'delivery_note_received'
  /** By hand, on a return: its credit note was drafted from an alert. */
  | 'credit_note_issued'
  /** By hand, on a return: the warehouse's ad hoc return was matched to it. */
  | 'ad_hoc_matched'
  /**
   * On a return, its return portal changed it: by `return.updated`, or by hand when the same call
   * receives it (its `return.received` announces the return as both left it).
   */
  | 'updated';

/** What happened to a document, newest last (created, approved, exported to X, delivered, …). */
export interface TimelineEvent {
  id: number;
  brandId: number;
  documentType: DocumentType;
  documentId: number;
  kind: TimelineKind;
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
