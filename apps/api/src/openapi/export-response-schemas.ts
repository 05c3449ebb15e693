import { JsonSchema } from '../http/route';
import { dateTime, money, nullable, ref, required } from './schema-building';

/**
 * Response objects of the export interface and of the warehouse's (3PL) shipments, declared by
 * hand beside `RESPONSE_SCHEMAS`. Keep `ThirdPartyShipment` in step with
 * `presenters/third-party-shipment.presenter.ts`; the 3PL tests compare its properties with
 * what the presenter returns. The v10 documents (Order, Shipment, Invoice, CreditNote,
 * AccountingEntry) and the shapes shared with them (ExportMark, OrderAddress, ShippingCode,
 * ResponsiblePerson, Colli) are declared in `orders-response-schemas.ts`.
 */

const shipmentLine = required({
  type: 'object',
  properties: {
    product_name: { type: 'string', description: 'Product name without attributes' },
    item_number: { type: 'string', description: 'Product-level item number' },
    attributes: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Variant attributes (colors, sizes)',
    },
    full_name: {
      type: 'string',
      description: "Product name plus attribute values ('Shirt - Black / M'), for delivery notes and packing lists",
    },
    sku: { type: 'string' },
    ean: nullable('string'),
    country_of_origin: nullable('string', { description: '2-letter ISO code' }),
    composition: nullable('string'),
    hs_tariff_code: nullable('string'),
    quantity: { type: 'integer', description: 'Pieces to pack' },
    unit_price: money("Price per piece after the order line's discount; the customs value"),
    total_price: money('quantity × unit_price'),
  },
});

const shipmentOrder = required({
  type: 'object',
  properties: {
    order_number: { type: 'integer' },
    order_meta: { type: 'object', additionalProperties: true, description: 'Custom fields of the order; {} when none' },
    payment_term: {
      oneOf: [
        required({
          type: 'object',
          properties: {
            name: { type: 'string' },
            erp_code: { type: 'string', description: "The payment terms' code" },
          },
        }),
        { type: 'null' },
      ],
      description: "The customer's payment terms; null when the customer has none",
    },
    shipping: nullable('number', {
      description: "The order's shipping cost when it travels on this shipment (the order's first); null otherwise",
    }),
  },
});

const thirdPartyShipment = required({
  type: 'object',
  description:
    "A picking instruction in the warehouse's form. Use shipment_number as the warehouse's order number (an order may have several shipments).",
  properties: {
    id: { type: 'integer', description: 'Taken by cancel and mark-as-exported' },
    shipment_number: { type: 'integer' },
    order_number: { type: 'integer', description: 'The order the shipment was made from (not unique per shipment)' },
    order_type: { type: 'string', enum: ['b2b', 'b2c'] },
    status: { type: 'string', enum: ['open', 'completed', 'cancelled'] },
    notes: nullable('string', { description: 'Notes / packing instructions from the brand' }),
    reference: nullable('string', { description: "Typically the end-customer's own order number" }),
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    customer_number: { type: 'string' },
    shipping_code: {
      ...ref('ShippingCode'),
      description: 'The order\'s; code "default" (drop_point_id null) when the order named none',
    },
    invoice_address: { oneOf: [ref('OrderAddress'), { type: 'null' }] },
    delivery_address: { oneOf: [ref('OrderAddress'), { type: 'null' }] },
    orders: { type: 'array', items: ref('ThirdPartyShipmentOrder') },
    responsible_person: { oneOf: [ref('ResponsiblePerson'), { type: 'null' }] },
    email: nullable('string', { description: "The order's e-mail, else the customer's" }),
    telephone: nullable('string', { description: "The order's telephone, else the customer's" }),
    vat_number: nullable('string', { description: "The customer's VAT number" }),
    eori_number: nullable('string', { description: "The customer's EORI number" }),
    carrier: nullable('string', { description: 'Set on delivery' }),
    colli: { type: 'array', items: ref('Colli'), description: 'Parcels reported on delivery; [] before' },
    lines: { type: 'array', items: ref('ThirdPartyShipmentLine') },
    created_at: dateTime,
    updated_at: dateTime,
    exports: { type: 'array', items: ref('ExportMark'), description: 'Which systems marked it exported, and when' },
  },
});

/** Named schemas of the export interface, merged into `components.schemas`. */
export const EXPORT_RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ThirdPartyShipmentLine: shipmentLine,
  ThirdPartyShipmentOrder: shipmentOrder,
  ThirdPartyShipment: thirdPartyShipment,
};

/** `{ "<key>": [<item>…], "has_more", "next_cursor" }`: an export page, walked by cursor and never counted. */
export function exportResponseSchema(key: string, itemSchema: string): JsonSchema {
  return {
    type: 'object',
    required: [key, 'has_more', 'next_cursor'],
    properties: {
      [key]: {
        type: 'array',
        items: ref(itemSchema),
        description: 'Documents this system has not marked exported (at or before not_exported_since)',
      },
      has_more: { type: 'boolean' },
      next_cursor: nullable('string', {
        description:
          'Pass as cursor (with the same system_id and flags) to get the next page; null when has_more is false',
      }),
    },
  };
}

/** `{ "<key>": [<item>…] }`: the documents a mark-as-exported call marked, as they are now. */
export function markResponseSchema(key: string, itemSchema: string): JsonSchema {
  return {
    type: 'object',
    required: [key],
    properties: {
      [key]: { type: 'array', items: ref(itemSchema), description: 'The marked documents, with their exports' },
    },
  };
}
