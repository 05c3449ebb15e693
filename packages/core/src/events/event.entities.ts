import { BulkOperation } from '../bulk-operations/bulk-operation.entities';
import { ProductAggregate } from '../catalog/catalog.entities';
import { Customer } from '../customers/customer.entities';
import { DocumentType, TimelineKind } from '../documents/document.entities';
import { CreditNote, Invoice } from '../finance/finance.entities';
import { Shipment } from '../fulfilment/shipment.entities';
import { AvailableStock } from '../inventory/inventory.entities';
import { Order } from '../orders/order.entities';
import { DeliveryNote, ProductionOrder } from '../production/production.entities';
import { Alert, Return } from '../returns/return.entities';
import { Supplier } from '../suppliers/supplier.entities';

/**
 * Every type of event the platform announces (DESIGN §10), `<resource>.<what happened>`. A feed
 * filter or a webhook subscription may name any of them.
 */
export const EVENT_TYPES = [
  'order.created',
  'order.updated',
  'order.approved',
  'order.cancelled',
  'order.archived',
  'shipment.created',
  'shipment.delivered',
  'shipment.cancelled',
  'invoice.created',
  'invoice.booked',
  'credit_note.created',
  'credit_note.booked',
  'return.created',
  'return.updated',
  'return.approved',
  'return.received',
  'return.credited',
  'production_order.approved',
  'production_order.closed',
  'delivery_note.received',
  'alert.created',
  'alert.resolved',
  'inventory.changed',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'supplier.deleted',
  'product.created',
  'product.updated',
  'product.deleted',
  'bulk_operation.finished',
] as const;

/** One of `EVENT_TYPES`. */
export type EventType = (typeof EVENT_TYPES)[number];

/** Whether a string names an event type. */
export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * What each event type carries: the resource as it stood when the change committed (the API
 * presents it as `GET` of that resource answers; `inventory.changed` carries the row of
 * `GET /v10/inventory-available`; a `*.deleted` type the resource as it was stored just before its
 * deletion, which `GET` showed last). Every type of `EVENT_TYPES` has its object here, and each is
 * emitted by the use cases that make the change (see docs/decisions/events.md).
 */
export interface EventObjects {
  'order.created': Order;
  'order.updated': Order;
  'order.approved': Order;
  'order.cancelled': Order;
  'order.archived': Order;
  'shipment.created': Shipment;
  'shipment.delivered': Shipment;
  'shipment.cancelled': Shipment;
  'invoice.created': Invoice;
  'invoice.booked': Invoice;
  'credit_note.created': CreditNote;
  'credit_note.booked': CreditNote;
  'return.created': Return;
  'return.updated': Return;
  'return.approved': Return;
  'return.received': Return;
  'return.credited': Return;
  'production_order.approved': ProductionOrder;
  'production_order.closed': ProductionOrder;
  'delivery_note.received': DeliveryNote;
  'alert.created': Alert;
  'alert.resolved': Alert;
  'inventory.changed': AvailableStock;
  'customer.created': Customer;
  'customer.updated': Customer;
  'customer.deleted': Customer;
  'supplier.deleted': Supplier;
  'product.created': ProductAggregate;
  'product.updated': ProductAggregate;
  'product.deleted': ProductAggregate;
  'bulk_operation.finished': BulkOperation;
}

/** An event type some use case emits. */
export type EmittedEventType = keyof EventObjects;

/**
 * Something that happened to a brand's data, written in the transaction that made it happen (the
 * outbox): it exists exactly when the change committed. `id` orders events as they were written.
 */
export type DomainEvent<T extends EmittedEventType = EmittedEventType> = {
  [K in T]: { id: number; brandId: number; type: K; object: EventObjects[K]; createdAt: string };
}[T];

/**
 * The event types that announce a change of a document with a timeline (`order.*`, `shipment.*`,
 * `invoice.*`, `credit_note.*`, `return.*`, `production_order.*`, `delivery_note.*`): each one
 * recorded also writes the document's timeline entry of that change (`recordEvents`).
 */
export type DocumentEventType = Extract<EmittedEventType, `${DocumentType}.${string}`>;

/**
 * What the document's timeline says of a change: the human note and the user whose token made
 * it. The event's object cannot tell either (the note is worded by the use case, from what it
 * did: "placed on channel Webshop", "booked as accounting entry 7"), so the use case hands them
 * to `recordEvents` with the event; they are written to the timeline only, never to the outbox.
 */
export interface TimelineNote {
  note: string | null;
  userId: number | null;
}

/**
 * What changed an order's quantities without moving its status, as the order's timeline names it:
 * a shipment of it made or cancelled, a shipment delivered, invoiced pieces taken out of In stock.
 */
export type OrderUpdateKind = Extract<
  TimelineKind,
  'shipment_created' | 'shipment_cancelled' | 'delivered' | 'regulated'
>;

/**
 * The timeline note of `order.updated`, which also names its entry's kind: one event type has
 * several causes, and the order's timeline keeps telling them apart as it did before the event
 * existed (`shipment_created`, `delivered`, …) instead of a bare `updated`.
 */
export interface OrderUpdateNote extends TimelineNote {
  kind: OrderUpdateKind;
}

/** The timeline note a document event of type `K` carries. */
export type TimelineNoteOf<K extends DocumentEventType> = K extends 'order.updated' ? OrderUpdateNote : TimelineNote;

/**
 * An event before storage numbers it. An event of a document (`DocumentEventType`) must carry
 * its `timeline` note: the timeline entry of the change is derived from the event, so requiring
 * it here means no use case can announce a document's change and leave its timeline silent or
 * nameless by forgetting it (`order.updated` names the entry's kind too, `TimelineNoteOf`). Other
 * events (inventory, customers, suppliers, products, alerts) have none.
 */
export type NewDomainEvent<T extends EmittedEventType = EmittedEventType> = {
  [K in T]: K extends DocumentEventType
    ? { type: K; object: EventObjects[K]; timeline: TimelineNoteOf<K> }
    : { type: K; object: EventObjects[K] };
}[T];
