import { Order } from '../orders/order.entities';

/**
 * Every type of event the platform announces (DESIGN §10), `<resource>.<what happened>`. A feed
 * filter or a webhook subscription may name any of them; the use cases emit them as their modules
 * learn to (`EventObjects` lists those emitted so far).
 */
export const EVENT_TYPES = [
  'order.created',
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
  'return.approved',
  'return.received',
  'return.credited',
  'production_order.approved',
  'production_order.closed',
  'delivery_note.received',
  'alert.created',
  'inventory.changed',
  'customer.created',
  'customer.updated',
  'product.created',
  'product.updated',
] as const;

/** One of `EVENT_TYPES`. */
export type EventType = (typeof EVENT_TYPES)[number];

/** Whether a string names an event type. */
export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * What each emitted event type carries: the resource as it stood when the change committed (the
 * API presents it as `GET` of that resource answers). A type joins this map when a use case
 * emits it, so an event of a type without an emitter cannot be written.
 */
export interface EventObjects {
  'order.created': Order;
  'order.approved': Order;
  'order.cancelled': Order;
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

/** An event before storage numbers it. */
export type NewDomainEvent<T extends EmittedEventType = EmittedEventType> = {
  [K in T]: { type: K; object: EventObjects[K] };
}[T];
