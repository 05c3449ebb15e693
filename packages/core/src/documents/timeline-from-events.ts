import { DocumentEventType, NewDomainEvent } from '../events/event.entities';
import { DocumentType, NewTimelineEvent, TimelineKind } from './document.entities';

/**
 * The timeline as a consumer of the domain events: each event announcing a change of a document
 * (`DocumentEventType`) is that document's timeline entry of the change, written by
 * `recordEvents` in the same transaction, so the timeline says exactly what was announced, when
 * the change committed. The kind is the event type's action, mapped here type by type so that a
 * new document event type cannot be added without deciding what its timeline says — but for
 * `order.updated`, whose causes differ (a shipment made, cancelled or delivered, pieces
 * regulated): its event names its kind (`OrderUpdateNote`).
 */
const KIND_OF: { readonly [K in Exclude<DocumentEventType, 'order.updated'>]: TimelineKind } = {
  'order.created': 'created',
  'order.approved': 'approved',
  'order.cancelled': 'cancelled',
  'order.archived': 'archived',
  'shipment.created': 'created',
  'shipment.delivered': 'delivered',
  'shipment.cancelled': 'cancelled',
  'invoice.created': 'created',
  'invoice.booked': 'booked',
  'credit_note.created': 'created',
  'credit_note.booked': 'booked',
  'return.created': 'created',
  'return.updated': 'updated',
  'return.approved': 'approved',
  'return.received': 'received',
  'return.credited': 'credited',
  'production_order.approved': 'approved',
  'production_order.closed': 'closed',
  'delivery_note.received': 'received',
};

function isDocumentEvent(event: NewDomainEvent): event is NewDomainEvent<DocumentEventType> {
  return event.type === 'order.updated' || Object.hasOwn(KIND_OF, event.type);
}

function kindOf(event: NewDomainEvent<DocumentEventType>): TimelineKind {
  return event.type === 'order.updated' ? event.timeline.kind : KIND_OF[event.type];
}

/**
 * The timeline entries of events recorded together at `at`, in their order: one per event of a
 * document — on the document named by the type's resource and the object's id, of the type's
 * kind, with the event's timeline note and user — and none for other events.
 */
export function timelineOfEvents(brandId: number, at: string, events: readonly NewDomainEvent[]): NewTimelineEvent[] {
  return events.filter(isDocumentEvent).map((event) => ({
    brandId,
    // The resource of a document event type is its DocumentType (`${DocumentType}.${string}`).
    documentType: event.type.slice(0, event.type.indexOf('.')) as DocumentType,
    documentId: event.object.id,
    kind: kindOf(event),
    note: event.timeline.note,
    systemId: null,
    userId: event.timeline.userId,
    createdAt: at,
  }));
}
