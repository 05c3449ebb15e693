import { JsonSchema } from '../http/route';
import { dateTime, money, nullable, nullableDateTime, ref, required } from './schema-building';

/**
 * Response objects of the returns flow (v10 returns and alerts, the 3PL return), declared by hand
 * beside `RESPONSE_SCHEMAS`. Keep them in step with `presenters/return.presenter.ts` and
 * `presenters/third-party-return.presenter.ts`; the returns tests compare the declared properties
 * with what the presenters return.
 */
const percent = (description: string): JsonSchema => ({
  type: 'number',
  minimum: 0,
  maximum: 100,
  description: `${description}, in percent; at most 2 decimals`,
});
const RETURN_STATUSES = ['open', 'approved', 'received', 'credited'];
const attributes: JsonSchema = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'Variant attributes (colors, sizes)',
};

const returnLine = required({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    order_line_id: nullable('integer', { description: 'The order line the pieces were bought on' }),
    variant_id: { type: 'integer' },
    product_id: { type: 'integer' },
    sku: { type: 'string' },
    ean: nullable('string'),
    item_number: { type: 'string' },
    product_name: { type: 'string' },
    attributes,
    expected_quantity: { type: 'integer', description: 'Pieces announced' },
    received_quantity: { type: 'integer', description: 'Pieces the warehouse received; 0 until received' },
    claim_type: { type: 'string', enum: ['return', 'claim'] },
    claim_cause_id: nullable('integer'),
    unit_price: money("Per piece the credit note pays, in the return's VAT basis"),
    discount_percentage: percent('Discount on unit_price'),
    unit_price_incl_vat: nullable('number', { description: 'As a portal sent it; null otherwise' }),
    comments: nullable('string', { description: "The customer's comment" }),
    regulate_inventory: { type: 'boolean', description: 'Received pieces of claim type return go back in stock' },
    refund_storefront: { type: 'boolean', description: 'Ad hoc returns: refund the line in the external storefront' },
  },
});

const ret = required(
  {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      return_number: { type: 'integer', description: "Number from the brand's return series" },
      rma: {
        type: 'string',
        description: 'The RMA integrations use: the return number as text, or the portal’s external RMA',
      },
      rma_number: { type: 'integer', description: 'The digits of rma as a number' },
      status: { type: 'string', enum: RETURN_STATUSES },
      source: { type: 'string', enum: ['back_office', 'portal', 'ad_hoc'] },
      return_portal_id: nullable('integer'),
      order_id: nullable('integer'),
      order_number: nullable('integer'),
      shipment_id: nullable('integer', { description: 'Ad hoc returns: the shipment the pieces came back from' }),
      customer_id: { type: 'integer' },
      currency: { type: 'string', pattern: '^[A-Z]{3}$' },
      vat_rate: percent("The order's VAT rate"),
      prices_include_vat: { type: 'boolean' },
      notes: nullable('string'),
      return_meta: { type: 'object', additionalProperties: true },
      shipping_method: nullable('string'),
      track_trace: nullable('string'),
      track_trace_link: nullable('string'),
      carrier_code: nullable('string'),
      carrier_label: nullable('string'),
      labelless_code: nullable('string'),
      return_fee_incl_vat: nullable('number', { description: 'Deducted from the credit note' }),
      exchange_fee_incl_vat: nullable('number', { description: 'Deducted from the credit note' }),
      storefront_refund_gift_card: { type: 'boolean' },
      storefront_refund_gift_card_bonus_type: { type: ['string', 'null'], enum: ['percentage', 'fixed', null] },
      storefront_refund_gift_card_bonus_value: nullable('number'),
      storefront_refund_gift_card_free_shipping: { type: 'boolean' },
      approved_at: nullableDateTime('When it was approved'),
      received_at: nullableDateTime('When the warehouse received it'),
      credited_at: nullableDateTime('When its credit notes were booked'),
      created_at: dateTime,
      updated_at: dateTime,
      lines: { type: 'array', items: ref('ReturnLine') },
      exports: {
        type: 'array',
        items: ref('ExportMark'),
        description: 'Systems that marked it exported (3PL), each with its latest mark',
      },
      credit_notes: {
        type: 'array',
        items: ref('CreditNote'),
        description: 'On a single return: its credit notes, with their lines',
      },
      timeline: { type: 'array', items: ref('TimelineEvent'), description: 'On a single return, oldest first' },
    },
  },
  ['exports', 'credit_notes', 'timeline'],
);

const alert = required({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string', enum: ['ad_hoc_return_without_rma'] },
    status: { type: 'string', enum: ['open', 'resolved'] },
    message: { type: 'string' },
    return_id: { type: 'integer' },
    credit_note_id: nullable('integer', { description: 'The credit note issued from the alert, which resolved it' }),
    resolved_at: nullableDateTime('When it was resolved'),
    created_at: dateTime,
    updated_at: dateTime,
  },
});

const thirdPartyReturnLine = required({
  type: 'object',
  properties: {
    product_name: { type: 'string', description: 'Product name without attributes' },
    item_number: { type: 'string', description: 'Product-level item number' },
    attributes,
    full_name: { type: 'string', description: 'Product name plus attribute values' },
    sku: { type: 'string' },
    ean: nullable('string'),
    country_of_origin: nullable('string', { description: '2-letter ISO code' }),
    composition: nullable('string'),
    hs_tariff_code: nullable('string'),
    returned: { type: 'integer', description: 'Pieces received at the warehouse (0 until received)' },
    expected_quantity: { type: 'integer', description: 'Pieces expected' },
  },
});

const thirdPartyReturn = required({
  type: 'object',
  description: "A return RMA in the warehouse's form.",
  properties: {
    id: { type: 'integer', description: 'Taken by mark-as-exported' },
    return_number: { type: 'integer' },
    rma: { type: 'string', description: 'Taken by POST /3pl/returns/receive' },
    status: { type: 'string', enum: RETURN_STATUSES },
    order_number: nullable('integer', { description: 'The order the return relates to' }),
    customer_number: { type: 'string' },
    customer: { type: 'string', description: 'Customer name' },
    customer_meta: { type: 'object', additionalProperties: true, description: 'Custom fields of the customer; {}' },
    customer_vat_number: nullable('string'),
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    notes: nullable('string', { description: 'Notes to the return delivery' }),
    return_meta: { type: 'object', additionalProperties: true, description: '{} when none' },
    shipping_method: nullable('string', { description: 'Label of the shipping method chosen in a return portal' }),
    track_trace: nullable('string'),
    track_trace_link: nullable('string'),
    carrier_code: nullable('string'),
    carrier_label: nullable('string'),
    created_at: dateTime,
    updated_at: dateTime,
    lines: { type: 'array', items: ref('ThirdPartyReturnLine') },
    exports: { type: 'array', items: ref('ExportMark'), description: 'Which systems marked it exported, and when' },
  },
});

/** Named schemas of the returns flow, merged into `components.schemas`. */
export const RETURNS_RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Return: ret,
  ReturnLine: returnLine,
  Alert: alert,
  ThirdPartyReturn: thirdPartyReturn,
  ThirdPartyReturnLine: thirdPartyReturnLine,
};

/** `POST /3pl/returns/create-ad-hoc-return`. */
export const adHocReturnResponseSchema: JsonSchema = {
  type: 'object',
  required: ['return', 'matched_rma', 'alert_id'],
  properties: {
    return: ref('ThirdPartyReturn'),
    matched_rma: {
      type: 'boolean',
      description:
        'true: an approved RMA of the order expected these pieces and was received instead of making a new return',
    },
    alert_id: nullable('integer', {
      description: 'alert_if_no_rma mode without a matching RMA: the dashboard alert made (no credit note yet)',
    }),
  },
};

/** `POST /v10/alerts/{id}/credit-note`. */
export const alertCreditNoteResponseSchema: JsonSchema = {
  type: 'object',
  required: ['alert', 'credit_note'],
  properties: { alert: ref('Alert'), credit_note: ref('CreditNote') },
};
