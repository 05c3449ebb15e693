import type { components } from './generated/api';

type Schemas = components['schemas'];
type EventSchema = Schemas['Event'];

/** Every event type the API announces, from the `type` enum of the document's `Event` schema. */
export type BrandEventType = EventSchema['type'];

/**
 * The schema of the object an event carries, by the resource its type starts with (DESIGN §10:
 * the object is what `GET` of that resource answers; `inventory.changed` carries the row of
 * `GET /v10/inventory-available`). The document states the object only as a union of these, so
 * the pairing is written here; indexing the schemas with it below fails the build when a schema
 * is renamed.
 */
type ObjectSchemaByResource = {
  order: 'Order';
  shipment: 'Shipment';
  invoice: 'Invoice';
  credit_note: 'CreditNote';
  return: 'Return';
  production_order: 'ProductionOrder';
  delivery_note: 'DeliveryNote';
  alert: 'Alert';
  inventory: 'AvailableStock';
  customer: 'Customer';
  supplier: 'Supplier';
  product: 'Product';
  bulk_operation: 'BulkOperation';
};

/** The object of an event of type `T`; a type of a resource not paired above gets the document's union. */
export type BrandEventObject<T extends BrandEventType> = T extends `${infer Resource}.${string}`
  ? Resource extends keyof ObjectSchemaByResource
    ? Schemas[ObjectSchemaByResource[Resource]]
    : EventSchema['data']['object']
  : never;

/**
 * An event as the feed shows it and a webhook delivers it: a union discriminated on `type`, so
 * `switch (event.type)` narrows `event.data.object` to the resource.
 */
export type BrandEvent = {
  [T in BrandEventType]: Omit<EventSchema, 'type' | 'data'> & { type: T; data: { object: BrandEventObject<T> } };
}[BrandEventType];
