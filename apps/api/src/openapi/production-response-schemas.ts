import { JsonSchema } from '../http/route';
import { date, dateTime, meta, nullable, nullableDateTime, ref, required } from './schema-building';

/**
 * Response objects of production (v10 production orders and delivery notes, the 3PL delivery
 * note), declared by hand beside `RESPONSE_SCHEMAS`. Keep them in step with
 * `presenters/production.presenter.ts`; the production tests compare the declared properties
 * with what the presenter returns.
 */
const attributes: JsonSchema = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'Variant attributes (colors, sizes)',
};

const product = required({
  type: 'object',
  description: 'A compact catalog product',
  properties: {
    id: { type: 'integer' },
    item_number: { type: 'string' },
    name: { type: 'string' },
    active: { type: 'boolean' },
    meta: meta('Custom fields'),
  },
});

const variant = required({
  type: 'object',
  description: 'A compact catalog variant',
  properties: {
    id: { type: 'integer' },
    product_id: { type: 'integer' },
    sku: { type: 'string' },
    ean: nullable('string'),
    attributes,
    archived: { type: 'boolean' },
    meta: meta('Custom fields'),
  },
});

const productionOrderLine = required(
  {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      variant_id: { type: 'integer' },
      product_id: { type: 'integer' },
      sku: { type: 'string' },
      ean: nullable('string'),
      item_number: { type: 'string' },
      product_name: { type: 'string' },
      attributes,
      country_of_origin: nullable('string'),
      composition: nullable('string'),
      hs_tariff_code: nullable('string'),
      quantity: { type: 'integer', description: 'Pieces ordered from the supplier' },
      unit_cost: nullable('number', {
        description: 'Cost per piece in the production order currency; at most 2 decimals',
      }),
      expected_quantity: { type: 'integer', description: 'Pieces announced on delivery notes' },
      received_quantity: { type: 'integer', description: 'Pieces the warehouse received' },
      product: { oneOf: [product, { type: 'null' }], description: 'With includes[]=lines.product (export)' },
      variant: { oneOf: [variant, { type: 'null' }], description: 'With includes[]=lines.variant (export)' },
    },
  },
  ['product', 'variant'],
);

const deliveryNoteLine = required({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    production_order_line_id: { type: 'integer' },
    variant_id: { type: 'integer' },
    sku: { type: 'string' },
    ean: nullable('string'),
    item_number: { type: 'string' },
    product_name: { type: 'string' },
    attributes,
    expected_quantity: { type: 'integer' },
    received_quantity: { type: 'integer', description: 'Pieces received so far (receipts add up)' },
  },
});

const deliveryNote = required(
  {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      delivery_note_number: {
        type: 'integer',
        description: "Number from the brand's delivery note series; the warehouse receives by it",
      },
      production_order_id: { type: 'integer' },
      production_order_number: { type: 'integer' },
      supplier_id: { type: 'integer' },
      status: { type: 'string', enum: ['expected', 'received'] },
      currency: { type: 'string' },
      expected_delivery: date('YYYY-MM-DD; null when unknown'),
      notes: nullable('string'),
      meta: meta('Custom fields of the delivery note (production_order_delivery_note_meta)'),
      received_at: nullableDateTime('The latest receipt'),
      created_at: dateTime,
      updated_at: dateTime,
      lines: { type: 'array', items: ref('DeliveryNoteLine') },
      timeline: { type: 'array', items: ref('TimelineEvent') },
    },
  },
  ['timeline'],
);

const salesOrder = required(
  {
    type: 'object',
    description: 'A sales order the production makes goods for',
    properties: {
      id: { type: 'integer' },
      order_number: { type: 'integer' },
      status: { type: 'string' },
      order_type: { type: 'string', enum: ['b2b', 'b2c'] },
      customer_id: { type: 'integer' },
      customer_number: { type: 'string' },
      reference: nullable('string'),
      created_at: dateTime,
      delivery: {
        oneOf: [ref('OrderAddress'), { type: 'null' }],
        description: 'With salesOrders.delivery: the delivery address',
      },
      lines: {
        type: 'array',
        description: 'With salesOrders.lines',
        items: required(
          {
            type: 'object',
            properties: {
              id: { type: 'integer' },
              variant_id: { type: 'integer' },
              sku: { type: 'string' },
              ean: nullable('string'),
              quantity: { type: 'integer' },
              product: { oneOf: [product, { type: 'null' }], description: 'With salesOrders.lines.product' },
              variant: { oneOf: [variant, { type: 'null' }], description: 'With salesOrders.lines.variant' },
            },
          },
          ['product', 'variant'],
        ),
      },
      shop: { oneOf: [ref('OrderChannel'), { type: 'null' }], description: 'With salesOrders.shop: the order channel' },
    },
  },
  ['delivery', 'lines', 'shop'],
);

const productionOrder = required(
  {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      production_order_number: { type: 'integer', description: "Number from the brand's production order series" },
      status: { type: 'string', enum: ['draft', 'open', 'closed'] },
      supplier_id: { type: 'integer' },
      supplier_number: { type: 'string' },
      currency: { type: 'string' },
      expected_delivery: date('YYYY-MM-DD; null when unknown'),
      notes: nullable('string'),
      production_order_meta: meta('Custom fields'),
      sales_order_ids: {
        type: 'array',
        items: { type: 'integer' },
        description: 'Sales orders this production makes goods for',
      },
      approved_at: nullableDateTime('When it was approved (draft → open)'),
      closed_at: nullableDateTime('When it was closed'),
      created_at: dateTime,
      updated_at: dateTime,
      exports: { type: 'array', items: ref('ExportMark'), description: 'Which systems marked it exported, and when' },
      lines: {
        type: 'array',
        items: ref('ProductionOrderLine'),
        description: 'With includes[]=lines (always on GET by id)',
      },
      delivery_notes: { type: 'array', items: ref('DeliveryNote'), description: 'With includes[]=deliveryNotes' },
      supplier: { oneOf: [ref('Supplier'), { type: 'null' }], description: 'With includes[]=supplier' },
      sales_orders: {
        type: 'array',
        items: ref('ProductionSalesOrder'),
        description: 'With includes[]=salesOrders (or one of its sub-includes)',
      },
      timeline: { type: 'array', items: ref('TimelineEvent'), description: 'GET by id' },
    },
  },
  ['lines', 'delivery_notes', 'supplier', 'sales_orders', 'timeline'],
);

const thirdPartyDeliveryNoteLine = required({
  type: 'object',
  properties: {
    product_name: { type: 'string' },
    item_number: { type: 'string' },
    attributes,
    full_name: { type: 'string', description: "Product name plus attribute values ('Shirt - Black / M')" },
    sku: { type: 'string' },
    ean: nullable('string'),
    country_of_origin: nullable('string'),
    composition: nullable('string'),
    hs_tariff_code: nullable('string'),
    expected_quantity: { type: 'integer', description: 'Pieces expected' },
    received_quantity: { type: 'integer', description: 'Pieces received so far' },
  },
});

const thirdPartyDeliveryNote = required({
  type: 'object',
  description:
    "A production delivery announced to the warehouse, in the warehouse's form. Receive it by production_order_delivery_note_number.",
  properties: {
    id: { type: 'integer' },
    production_order_delivery_note_number: { type: 'integer', description: 'The number of the delivery' },
    production_order_number: { type: 'integer' },
    status: { type: 'string', enum: ['expected', 'received'] },
    supplier_number: { type: 'string' },
    supplier: { type: 'string', description: 'Supplier name' },
    currency: { type: 'string' },
    expected_delivery: date('Expected delivery date; null when unknown'),
    notes: nullable('string'),
    production_order_delivery_note_meta: meta('Custom fields of the delivery note'),
    production_order_meta: meta('Custom fields of the production order'),
    received_at: nullableDateTime('The latest receipt'),
    created_at: dateTime,
    updated_at: dateTime,
    lines: { type: 'array', items: ref('ThirdPartyDeliveryNoteLine') },
  },
});

/** Named schemas of production, merged into `components.schemas`. */
export const PRODUCTION_RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ProductionOrder: productionOrder,
  ProductionOrderLine: productionOrderLine,
  ProductionSalesOrder: salesOrder,
  DeliveryNote: deliveryNote,
  DeliveryNoteLine: deliveryNoteLine,
  ThirdPartyDeliveryNote: thirdPartyDeliveryNote,
  ThirdPartyDeliveryNoteLine: thirdPartyDeliveryNoteLine,
};
