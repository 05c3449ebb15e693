import { DomainEvent, EVENT_ID_PREFIX, EVENT_TYPES, EmittedEventType, EventObjects } from '@brand/core';
import { Static, Type } from '@sinclair/typebox';
import { component, dateTime, oneOfValues } from '../http/wire-schema';
import { BulkOperationSchema, presentBulkOperation } from './bulk-operation.presenter';
import { CreditNoteSchema, presentCreditNote } from './credit-note.presenter';
import { CustomerSchema, presentCustomerWithoutIncludes } from './customer.presenter';
import { InvoiceSchema, presentInvoice } from './invoice.presenter';
import { OrderSchema, presentOrder } from './order.presenter';
import { ProductSchema, presentProduct } from './product.presenter';
import {
  DeliveryNoteSchema,
  ProductionOrderSchema,
  presentDeliveryNote,
  presentProductionOrder,
} from './production.presenter';
import { AlertSchema, ReturnSchema, presentAlert, presentReturn } from './return.presenter';
import { ShipmentSchema, presentShipment } from './shipment.presenter';
import { AvailableStockSchema, presentAvailableStock } from './stock.presenter';
import { SupplierSchema, presentSupplier } from './supplier.presenter';

/** An event's public id: `evt_` and its number (ids are per platform, so the brand is not in it). */
export const eventPublicId = (id: number): string => `${EVENT_ID_PREFIX}${id}`;

/** The number in an event's public id, or null for anything that is not one. */
export function eventNumberOf(publicId: string | undefined): number | null {
  const match = /^evt_(\d{1,15})$/.exec(publicId ?? '');
  return match ? Number(match[1]) : null;
}

export const EventSchema = component(
  'Event',
  Type.Object({
    id: Type.String({ description: '`evt_` and a number; the same id is the `webhook-id` of its deliveries' }),
    type: oneOfValues(EVENT_TYPES),
    created_at: dateTime('When the change it announces committed'),
    data: Type.Object({
      object: Type.Union(
        [
          OrderSchema,
          ShipmentSchema,
          InvoiceSchema,
          CreditNoteSchema,
          ReturnSchema,
          ProductionOrderSchema,
          DeliveryNoteSchema,
          AlertSchema,
          AvailableStockSchema,
          CustomerSchema,
          SupplierSchema,
          ProductSchema,
          BulkOperationSchema,
        ],
        {
          description:
            'The resource as `GET` of it answered when the change committed, by the prefix of `type`: an order, ' +
            'shipment, invoice, credit note, return or production order with its lines; a delivery note, an alert, ' +
            'a customer, a supplier or a product (without includes); for `inventory.changed` the row of ' +
            '`GET /v10/inventory-available` of the variant and location whose in stock or available moved; for a ' +
            '`*.deleted` type the resource as `GET` showed it last (`product.deleted`: with its variants, which ' +
            'were deleted with it); for `bulk_operation.finished` the operation with its final counts. ' +
            'Timelines and export marks are not part of an event.',
        },
      ),
    }),
  }),
);
export type EventWire = Static<typeof EventSchema>;
type EventObjectWire = EventWire['data']['object'];

/** How each event type's object is shown: as the `GET` of its resource shows it, without timeline or export marks. */
const OBJECT_PRESENTERS: { [K in EmittedEventType]: (object: EventObjects[K]) => EventObjectWire } = {
  'order.created': presentOrderObject,
  'order.updated': presentOrderObject,
  'order.approved': presentOrderObject,
  'order.cancelled': presentOrderObject,
  'order.archived': presentOrderObject,
  'shipment.created': presentShipmentObject,
  'shipment.delivered': presentShipmentObject,
  'shipment.cancelled': presentShipmentObject,
  'invoice.created': presentInvoiceObject,
  'invoice.booked': presentInvoiceObject,
  'credit_note.created': presentCreditNoteObject,
  'credit_note.booked': presentCreditNoteObject,
  'return.created': presentReturnObject,
  'return.updated': presentReturnObject,
  'return.approved': presentReturnObject,
  'return.received': presentReturnObject,
  'return.credited': presentReturnObject,
  'production_order.approved': presentProductionOrderObject,
  'production_order.closed': presentProductionOrderObject,
  'delivery_note.received': (note) => presentDeliveryNote(note),
  'alert.created': presentAlert,
  'alert.resolved': presentAlert,
  'inventory.changed': presentAvailableStock,
  'customer.created': presentCustomerObject,
  'customer.updated': presentCustomerObject,
  'customer.deleted': presentCustomerObject,
  'supplier.deleted': (supplier) => presentSupplier(supplier, []),
  'product.created': (aggregate) => presentProduct(aggregate),
  'product.updated': (aggregate) => presentProduct(aggregate),
  // Its variants went with it and cannot be fetched any more: a copy kept of them learns which.
  'product.deleted': (aggregate) => presentProduct(aggregate, ['variants']),
  'bulk_operation.finished': presentBulkOperation,
};

function presentOrderObject(order: EventObjects['order.created']): EventObjectWire {
  return presentOrder(order, { includeLines: true, exports: [] });
}
function presentShipmentObject(shipment: EventObjects['shipment.created']): EventObjectWire {
  return presentShipment(shipment, { includeLines: true });
}
function presentInvoiceObject(invoice: EventObjects['invoice.created']): EventObjectWire {
  return presentInvoice(invoice, { includeLines: true });
}
function presentCreditNoteObject(creditNote: EventObjects['credit_note.created']): EventObjectWire {
  return presentCreditNote(creditNote, { includeLines: true });
}
function presentReturnObject(ret: EventObjects['return.created']): EventObjectWire {
  return presentReturn(ret);
}
function presentProductionOrderObject(order: EventObjects['production_order.approved']): EventObjectWire {
  // Its lines without their product and variant (those are includes of the production order's GET).
  return presentProductionOrder(order, { includes: ['lines'], related: NO_PRODUCTION_RELATED, exports: [] });
}
function presentCustomerObject(customer: EventObjects['customer.created']): EventObjectWire {
  return presentCustomerWithoutIncludes(customer);
}

/** Production orders' related records, none of which an event shows. */
const NO_PRODUCTION_RELATED = {
  suppliers: new Map(),
  deliveryNotes: new Map(),
  salesOrders: new Map(),
  channels: new Map(),
  products: new Map(),
  variants: new Map(),
  exports: new Map(),
};

/** An event as the feed (and a webhook delivery) shows it. */
export function presentEvent(event: DomainEvent): EventWire {
  const present = OBJECT_PRESENTERS[event.type] as (object: DomainEvent['object']) => EventObjectWire;
  return {
    id: eventPublicId(event.id),
    type: event.type,
    created_at: event.createdAt,
    data: { object: present(event.object) },
  };
}
