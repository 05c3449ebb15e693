import { JsonSchema } from '../http/route';
import { currency, dateTime, money, nullable, nullableDateTime, ref, required } from './schema-building';

/**
 * Response objects of orders, order channels, shipments, invoices, credit notes, accounting
 * entries and settings, declared by hand beside `RESPONSE_SCHEMAS`. Keep them in step with
 * their presenters; `orders-openapi.test.ts` compares the properties declared here with what
 * the presenters return.
 */
const percent = (description: string): JsonSchema => ({
  type: 'number',
  minimum: 0,
  maximum: 100,
  description: `${description}, in percent (25 = 25 %); at most 2 decimals`,
});
const exportsProperty = (embeddedNote: boolean): JsonSchema => ({
  type: 'array',
  items: ref('ExportMark'),
  description: `Systems that marked the document exported, each with its latest mark${embeddedNote ? '; absent on documents embedded in another (GET them for their marks)' : ''}`,
});

const exportMark = required({
  type: 'object',
  properties: {
    system_id: { type: 'string', description: 'The system that confirmed the export' },
    exported_at: dateTime,
    note: nullable('string'),
  },
});

const timelineEvent = required({
  type: 'object',
  properties: {
    kind: {
      type: 'string',
      description:
        'created, approved, cancelled, shipment_created, delivered, booked, regulated, archived, exported, credited …',
    },
    note: nullable('string'),
    system_id: nullable('string', { description: 'For exported: the system that marked it' }),
    user_id: nullable('integer', { description: 'The user whose token made the change' }),
    created_at: dateTime,
  },
});

const orderChannel = required({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    public_id: { type: 'string', description: 'Goes into POST /v10/order-channels/{public_id}/orders' },
    name: { type: 'string' },
    order_type: { type: 'string', enum: ['b2b', 'b2c'] },
    auto_approve: {
      type: 'boolean',
      description: 'Orders are approved (and get their shipment) as soon as they are created',
    },
    drop_id: nullable('integer', { description: 'Every order of the channel belongs to this drop' }),
    created_at: dateTime,
    updated_at: dateTime,
  },
});

const orderAddress = required({
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Top line, typically the receiving party' },
    att: nullable('string'),
    address: { type: 'string', description: 'Street with house number, floor' },
    zip: { type: 'string' },
    region: { type: 'string' },
    city: { type: 'string' },
    country: { type: 'string', pattern: '^[A-Z]{2}$' },
  },
});

const shippingCode = required({
  type: 'object',
  properties: { code: { type: 'string' }, drop_point_id: nullable('string') },
});

const responsiblePerson = required({
  type: 'object',
  properties: { email: { type: 'string' }, first_name: { type: 'string' }, last_name: nullable('string') },
});

const orderLine = required({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    variant_id: { type: 'integer' },
    product_id: { type: 'integer' },
    sku: { type: 'string' },
    ean: nullable('string'),
    item_number: { type: 'string' },
    product_name: { type: 'string' },
    attributes: { type: 'object', additionalProperties: { type: 'string' } },
    quantity: { type: 'integer' },
    reserved_quantity: { type: 'integer', description: 'Pieces the line still holds (lowering Available)' },
    shipped_quantity: { type: 'integer', description: 'Pieces on shipments that are not cancelled' },
    delivered_quantity: { type: 'integer', description: 'Pieces the warehouse reported delivered' },
    invoiced_quantity: { type: 'integer' },
    regulated_quantity: { type: 'integer', description: 'Pieces taken out of In stock' },
    unit_price: money('Per piece before the discount (incl. VAT when prices_include_vat)'),
    discount_percentage: percent('Discount'),
    total_price: money('quantity × unit_price less the discount'),
  },
});

const ORDER_OPTIONAL = ['lines', 'timeline', 'shipments', 'invoices'];
const order = required(
  {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      order_number: { type: 'integer' },
      status: { type: 'string', enum: ['draft', 'approved', 'cancelled', 'archived'] },
      order_type: { type: 'string', enum: ['b2b', 'b2c'] },
      order_channel_id: { type: 'integer' },
      customer_id: { type: 'integer' },
      customer_number: { type: 'string' },
      drop_id: nullable('integer'),
      currency,
      vat_rate: percent('VAT rate'),
      prices_include_vat: {
        type: 'boolean',
        description: 'B2C: line prices include VAT and the totals are derived from them',
      },
      email: nullable('string'),
      telephone: nullable('string'),
      reference: nullable('string'),
      notes: nullable('string'),
      invoice_address: { oneOf: [ref('OrderAddress'), { type: 'null' }] },
      delivery_address: { oneOf: [ref('OrderAddress'), { type: 'null' }] },
      shipping_code: { oneOf: [ref('ShippingCode'), { type: 'null' }] },
      shipping_cost: nullable('number', {
        description: 'Shipping charged, in the VAT basis of the lines; at most 2 decimals',
      }),
      responsible_person: { oneOf: [ref('ResponsiblePerson'), { type: 'null' }] },
      order_meta: { type: 'object', additionalProperties: true },
      net_total: money('Without VAT'),
      vat_total: money('VAT'),
      total: money('net_total + vat_total'),
      approved_at: nullableDateTime('When it was approved'),
      cancelled_at: nullableDateTime('When it was cancelled'),
      archived_at: nullableDateTime('When it was archived'),
      created_at: dateTime,
      updated_at: dateTime,
      exports: exportsProperty(false),
      lines: {
        type: 'array',
        items: ref('OrderLine'),
        description: 'With includes[]=lines on lists; always on a single order',
      },
      timeline: { type: 'array', items: ref('TimelineEvent'), description: 'On GET /v10/orders/{id}, oldest first' },
      shipments: {
        type: 'array',
        items: ref('Shipment'),
        description: 'On GET /v10/orders/{id} with includes[]=shipments',
      },
      invoices: {
        type: 'array',
        items: ref('Invoice'),
        description: 'On GET /v10/orders/{id} with includes[]=invoices',
      },
    },
  },
  ORDER_OPTIONAL,
);

const colli = required({
  type: 'object',
  properties: {
    track_trace: nullable('string'),
    track_trace_link: nullable('string', {
      description: "As the warehouse sent it, or built from the carrier's template",
    }),
    sscc_number: nullable('string'),
    lines: {
      type: 'array',
      items: required({ type: 'object', properties: { sku: { type: 'string' }, quantity: { type: 'integer' } } }),
    },
  },
});

const shipmentLine = required({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    order_line_id: { type: 'integer' },
    variant_id: { type: 'integer' },
    sku: { type: 'string' },
    ean: nullable('string'),
    quantity: { type: 'integer', description: 'Pieces to pack' },
    delivered_quantity: { type: 'integer', description: 'Pieces the warehouse reported delivered' },
  },
});

const shipment = required(
  {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      shipment_number: { type: 'integer', description: "The warehouse's order number" },
      order_id: { type: 'integer' },
      order_number: { type: 'integer' },
      customer_id: { type: 'integer' },
      status: { type: 'string', enum: ['open', 'completed', 'cancelled'] },
      shipping_cost: nullable('number', {
        description: "The order's shipping cost on its first shipment; null on the others",
      }),
      carrier: nullable('string', { description: 'Set on delivery' }),
      colli: { type: 'array', items: ref('Colli'), description: 'Parcels reported on delivery' },
      delivered_at: nullableDateTime('When the warehouse reported it delivered'),
      cancelled_at: nullableDateTime('When it was cancelled'),
      created_at: dateTime,
      updated_at: dateTime,
      exports: exportsProperty(true),
      lines: {
        type: 'array',
        items: ref('ShipmentLine'),
        description: 'With includes[]=lines on lists; always on a single shipment',
      },
      timeline: { type: 'array', items: ref('TimelineEvent'), description: 'On GET /v10/shipments/{id}, oldest first' },
    },
  },
  ['exports', 'lines', 'timeline'],
);

const financialLine = required({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string', enum: ['product', 'shipping', 'fee'] },
    order_line_id: nullable('integer', { description: 'The order line billed or credited; null for fees' }),
    variant_id: nullable('integer'),
    sku: nullable('string'),
    description: { type: 'string', description: "The product's name, or the fee's label" },
    quantity: { type: 'integer' },
    unit_price: money('Per piece, in the VAT basis of the document'),
    discount_percentage: percent('Discount'),
    total_price: money('quantity × unit_price less the discount'),
  },
});

const financialDocumentProperties = (
  numberKey: string,
  links: Record<string, JsonSchema>,
): Record<string, JsonSchema> => ({
  id: { type: 'integer' },
  [numberKey]: { type: 'integer' },
  status: { type: 'string', enum: ['draft', 'booked'] },
  ...links,
  customer_id: { type: 'integer' },
  currency,
  vat_rate: percent('VAT rate'),
  prices_include_vat: { type: 'boolean' },
  net_total: money('Without VAT'),
  vat_total: money('VAT'),
  total: money('net_total + vat_total'),
  booked_at: nullableDateTime('When it was booked (final)'),
  created_at: dateTime,
  updated_at: dateTime,
  exports: exportsProperty(true),
  lines: {
    type: 'array',
    items: ref('FinancialLine'),
    description: 'With includes[]=lines on lists; always on a single document',
  },
  timeline: { type: 'array', items: ref('TimelineEvent'), description: 'On a single document, oldest first' },
  accounting_entry: {
    oneOf: [ref('AccountingEntry'), { type: 'null' }],
    description: 'On a single document: the entry its booking wrote; null while it is a draft',
  },
});
const FINANCIAL_OPTIONAL = ['exports', 'lines', 'timeline', 'accounting_entry'];
const withCreditNotes = (properties: Record<string, JsonSchema>): Record<string, JsonSchema> => ({
  ...properties,
  credit_notes: {
    type: 'array',
    items: ref('CreditNote'),
    description: 'On a single invoice: its credit notes, with their lines',
  },
});

const invoice = required(
  {
    type: 'object',
    properties: withCreditNotes(
      financialDocumentProperties('invoice_number', {
        order_id: nullable('integer'),
        shipment_id: nullable('integer', { description: 'The delivered shipment it bills (in-service invoicing)' }),
      }),
    ),
  },
  [...FINANCIAL_OPTIONAL, 'credit_notes'],
);

const creditNote = required(
  {
    type: 'object',
    properties: financialDocumentProperties('credit_note_number', {
      order_id: nullable('integer'),
      invoice_id: nullable('integer', { description: 'The invoice it credits' }),
      return_id: nullable('integer', { description: 'The return it refunds' }),
    }),
  },
  FINANCIAL_OPTIONAL,
);

const accountingEntry = required(
  {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      entry_number: { type: 'integer' },
      document_type: { type: 'string', enum: ['invoice', 'credit_note'] },
      document_id: { type: 'integer' },
      date: { type: 'string', format: 'date', description: 'Day of booking (UTC)' },
      currency,
      lines: {
        type: 'array',
        description: 'Balanced: the debits add up to the credits',
        items: required({
          type: 'object',
          properties: {
            account: { type: 'string', enum: ['accounts_receivable', 'revenue', 'vat_payable'] },
            debit: money('Debit'),
            credit: money('Credit'),
          },
        }),
      },
      created_at: dateTime,
      updated_at: dateTime,
      exports: exportsProperty(true),
      timeline: {
        type: 'array',
        items: ref('TimelineEvent'),
        description: 'On GET /v10/accounting-entries/{id}, oldest first',
      },
    },
  },
  ['exports', 'timeline'],
);

const settings = required({
  type: 'object',
  properties: {
    invoicing: { type: 'string', enum: ['external', 'in_service'] },
    requires_drop: { type: 'boolean' },
    default_vat_rate: percent('VAT rate of new orders'),
    ad_hoc_return_mode: {
      type: ['string', 'null'],
      enum: ['always_credit_note', 'credit_note_if_no_rma', 'alert_if_no_rma', null],
    },
    tracking_link_templates: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Carrier code → URL template containing {track_trace}',
    },
    updated_at: nullableDateTime('null while the brand runs on the defaults'),
  },
});

/** Named schemas of the orders-to-cash objects, merged into `components.schemas` with the other response schemas. */
export const ORDERS_RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ExportMark: exportMark,
  TimelineEvent: timelineEvent,
  OrderChannel: orderChannel,
  OrderAddress: orderAddress,
  ShippingCode: shippingCode,
  ResponsiblePerson: responsiblePerson,
  Order: order,
  OrderLine: orderLine,
  Shipment: shipment,
  ShipmentLine: shipmentLine,
  Colli: colli,
  Invoice: invoice,
  CreditNote: creditNote,
  FinancialLine: financialLine,
  AccountingEntry: accountingEntry,
  Settings: settings,
};
