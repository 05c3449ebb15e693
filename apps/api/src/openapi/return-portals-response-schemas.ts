import { JsonSchema } from '../http/route';
import { nullable } from './schema-building';

/**
 * Response objects of the external return portal interface, declared by hand beside
 * `RESPONSE_SCHEMAS`. Keep them in step with `presenters/portal-return.presenter.ts`;
 * `return-portals-openapi.test.ts` compares them.
 */

const portalReturnLine: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'variant_id',
    'quantity',
    'expected_return',
    'returned',
    'claim_type',
    'claim_cause_id',
    'net_price',
    'unit_price_incl_vat',
    'text',
    'regulate_inventory',
  ],
  properties: {
    id: { type: 'integer', description: 'Stable across updates when the line is matched' },
    variant_id: { type: 'integer' },
    quantity: { type: 'integer', description: 'Same value as expected_return' },
    expected_return: { type: 'integer', description: 'Pieces the customer said would come back' },
    returned: nullable('integer', { description: 'Pieces received; null until the return is received' }),
    claim_type: { type: 'string', enum: ['return', 'claim'] },
    claim_cause_id: nullable('integer'),
    net_price: {
      type: 'number',
      description: "unit_price_incl_vat without VAT (the order's rate), half up to the cent",
    },
    unit_price_incl_vat: { type: 'number', description: 'Echoed' },
    text: nullable('string', { description: "The customer's comment" }),
    regulate_inventory: { type: 'boolean' },
  },
};

const portalReturn: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'rma',
    'rma_number',
    'return_status',
    'source',
    'notes',
    'return_fee_incl_vat',
    'exchange_fee_incl_vat',
    'labelless_code',
    'track_trace',
    'track_trace_link',
    'storefront_refund_gift_card',
    'storefront_refund_gift_card_bonus_type',
    'storefront_refund_gift_card_bonus_value',
    'storefront_refund_gift_card_free_shipping',
    'total_price_after_vat',
    'lines',
  ],
  properties: {
    id: { type: 'integer', description: 'Internal return id' },
    rma: { type: 'string', description: 'The external RMA' },
    rma_number: { type: 'integer', description: 'The digits of rma' },
    return_status: { type: 'string', enum: ['approved', 'received', 'credited'] },
    source: { type: 'string', description: 'Type of the portal that owns the return' },
    notes: nullable('string'),
    return_fee_incl_vat: nullable('number', { description: 'Echoed' }),
    exchange_fee_incl_vat: nullable('number', { description: 'Echoed' }),
    labelless_code: nullable('string'),
    track_trace: nullable('string'),
    track_trace_link: nullable('string'),
    storefront_refund_gift_card: { type: 'boolean' },
    storefront_refund_gift_card_bonus_type: { type: ['string', 'null'], enum: ['percentage', 'fixed', null] },
    storefront_refund_gift_card_bonus_value: nullable('number'),
    storefront_refund_gift_card_free_shipping: { type: 'boolean' },
    total_price_after_vat: nullable('number', {
      description: 'Total refunded incl. VAT: the sum of the credit notes (net of fees); null before receipt',
    }),
    lines: { type: 'array', items: { $ref: '#/components/schemas/PortalReturnLine' } },
  },
};

/** Named schemas merged into `components.schemas` with the other response schemas. */
export const RETURN_PORTALS_RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  PortalReturn: portalReturn,
  PortalReturnLine: portalReturnLine,
};

/** `PUT …/returns`: `{ return, created }`. */
export const PORTAL_UPSERT_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['return', 'created'],
  properties: {
    return: { $ref: '#/components/schemas/PortalReturn' },
    created: {
      type: 'boolean',
      description: 'true (HTTP 201) when this call created the return; false (HTTP 200) when it existed',
    },
  },
};

/** `POST …/returns/finalize`: `{ success, return_id, rma }`. */
export const PORTAL_FINALIZE_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['success', 'return_id', 'rma'],
  properties: {
    success: { type: 'boolean', const: true },
    return_id: { type: 'integer' },
    rma: { type: 'string', description: 'As stored' },
  },
};
