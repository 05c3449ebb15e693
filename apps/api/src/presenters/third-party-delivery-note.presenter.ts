import { DeliveryNoteView, deliveryNoteLifecycle } from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  component,
  dateTime,
  day,
  integer,
  meta,
  nullable,
  oneOfValues,
  string,
  stringMap,
} from '../http/wire-schema';
import { fullName } from './third-party-shipment.presenter';

/** A line of the 3PL delivery note: the spec's fields, plus `received_quantity` so far. */
export const ThirdPartyDeliveryNoteLineSchema = component(
  'ThirdPartyDeliveryNoteLine',
  Type.Object({
    product_name: string(),
    item_number: string(),
    attributes: stringMap('Variant attributes (colors, sizes)'),
    full_name: string("Product name plus attribute values ('Shirt - Black / M')"),
    sku: string(),
    ean: nullable(string()),
    country_of_origin: nullable(string()),
    composition: nullable(string()),
    hs_tariff_code: nullable(string()),
    expected_quantity: integer('Pieces expected'),
    received_quantity: integer('Pieces received so far'),
  }),
);
export type ThirdPartyDeliveryNoteLineWire = Static<typeof ThirdPartyDeliveryNoteLineSchema>;

/** "Production order delivery note (3PL form)" of the spec, plus id, status and the production order number. */
export const ThirdPartyDeliveryNoteSchema = component(
  'ThirdPartyDeliveryNote',
  Type.Object(
    {
      id: integer(),
      production_order_delivery_note_number: integer('The number of the delivery'),
      production_order_number: integer(),
      status: oneOfValues(deliveryNoteLifecycle.states),
      supplier_number: string(),
      supplier: string('Supplier name'),
      currency: string(),
      expected_delivery: nullable(day('Expected delivery date; null when unknown')),
      notes: nullable(string()),
      production_order_delivery_note_meta: meta('Custom fields of the delivery note'),
      production_order_meta: meta('Custom fields of the production order'),
      received_at: nullable(dateTime('The latest receipt')),
      created_at: dateTime(),
      updated_at: dateTime(),
      lines: arrayOf(ThirdPartyDeliveryNoteLineSchema),
    },
    {
      description:
        "A production delivery announced to the warehouse, in the warehouse's form. Receive it by production_order_delivery_note_number.",
    },
  ),
);
export type ThirdPartyDeliveryNoteWire = Static<typeof ThirdPartyDeliveryNoteSchema>;

/** A delivery note in the warehouse's (3PL) form, with its production order's custom fields and its supplier. */
export function presentThirdPartyDeliveryNote(view: DeliveryNoteView): ThirdPartyDeliveryNoteWire {
  const { note, productionOrder, supplier } = view;
  return {
    id: note.id,
    production_order_delivery_note_number: note.deliveryNoteNumber,
    production_order_number: note.productionOrderNumber,
    status: note.status,
    supplier_number: supplier.supplierNumber,
    supplier: supplier.name,
    currency: note.currency,
    expected_delivery: note.expectedDelivery,
    notes: note.notes,
    production_order_delivery_note_meta: note.meta,
    production_order_meta: productionOrder.productionOrderMeta,
    received_at: note.receivedAt,
    created_at: note.createdAt,
    updated_at: note.updatedAt,
    lines: note.lines.map((line) => ({
      product_name: line.productName,
      item_number: line.itemNumber,
      attributes: line.attributes,
      full_name: fullName(line.productName, line.attributes),
      sku: line.sku,
      ean: line.ean,
      country_of_origin: line.countryOfOrigin,
      composition: line.composition,
      hs_tariff_code: line.hsTariffCode,
      expected_quantity: line.expectedQuantity,
      received_quantity: line.receivedQuantity,
    })),
  };
}
