// Response shapes are checked on every response a test receives by test/support/response-conformance.ts.
import request from 'supertest';
import { Return, ReturnLine } from '@brand/core';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { presentPortalReturn, presentPortalReturnLine } from '../src/presenters/portal-return.presenter';
import { useTestApp } from './support/test-app';

interface Operation {
  security: Record<string, string[]>[];
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } };
  responses: Record<string, { content?: { 'application/json': { schema: { properties?: Record<string, unknown> } } } }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
}

const AT = '2026-01-01T00:00:00.000Z';
const LINE: ReturnLine = {
  id: 1,
  returnId: 1,
  orderLineId: null,
  variantId: 1,
  productId: 1,
  sku: 'S',
  ean: null,
  itemNumber: 'I',
  productName: 'P',
  attributes: {},
  countryOfOrigin: null,
  composition: null,
  hsTariffCode: null,
  expectedQuantity: 1,
  receivedQuantity: 0,
  claimType: 'return',
  claimCauseId: null,
  unitPrice: 1000,
  discountBasisPoints: 0,
  unitPriceInclVat: 1250,
  comments: null,
  regulateInventory: true,
  refundStorefront: false,
};
const RETURN: Return = {
  id: 1,
  brandId: 1,
  returnNumber: 1,
  rma: 'R1',
  rmaNumber: 1,
  status: 'approved',
  source: 'portal',
  returnPortalId: 1,
  orderId: 1,
  orderNumber: 1,
  shipmentId: null,
  customerId: 1,
  currency: 'EUR',
  vatRateBasisPoints: 2500,
  pricesIncludeVat: false,
  notes: null,
  returnMeta: {},
  shippingMethod: null,
  trackTrace: null,
  trackTraceLink: null,
  carrierCode: null,
  carrierLabel: null,
  labellessCode: null,
  returnFeeInclVat: null,
  exchangeFeeInclVat: null,
  storefrontRefundGiftCard: false,
  storefrontRefundGiftCardBonusType: null,
  storefrontRefundGiftCardBonusValue: null,
  storefrontRefundGiftCardFreeShipping: false,
  approvedAt: AT,
  receivedAt: null,
  creditedAt: null,
  createdByUserId: null,
  createdAt: AT,
  updatedAt: AT,
  lines: [LINE],
};
const PRESENTED: Record<string, object> = {
  PortalReturn: presentPortalReturn({
    ret: RETURN,
    portal: {
      id: 1,
      brandId: 1,
      publicId: 'p',
      name: 'N',
      type: 'custom',
      requiresClaimCauses: false,
      createdAt: AT,
      updatedAt: AT,
    },
    creditNotes: [],
  }),
  PortalReturnLine: presentPortalReturnLine(LINE, RETURN),
};

for (const dialect of oneTestDialect()) {
  describe(`OpenAPI of the external return portals [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let doc: Document;

    beforeAll(async () => {
      doc = (await request(t.server).get('/openapi.json')).body as Document;
    });

    it('documents the upsert with 201 and 200 and the finalize with 200, both needing returns:write', () => {
      const put = doc.paths['/v10/external-return-portals/{publicId}/returns']?.['put'];
      const post = doc.paths['/v10/external-return-portals/{publicId}/returns/finalize']?.['post'];
      for (const operation of [put, post]) {
        expect(operation!.security).toEqual([
          { bearer: ['returns:write'], app_key: [] },
          { access_token: ['returns:write'], app_key: [] },
        ]);
      }
      expect(Object.keys(put!.responses['201']!.content!['application/json'].schema.properties!)).toEqual([
        'return',
        'created',
      ]);
      expect(put!.responses['200']!.content).toEqual(put!.responses['201']!.content);
      expect(Object.keys(post!.responses['200']!.content!['application/json'].schema.properties!)).toEqual([
        'success',
        'return_id',
        'rma',
      ]);
      expect(put!.requestBody!.content['application/json'].schema.$ref).toBe(
        '#/components/schemas/UpsertPortalReturnDto',
      );
      expect(doc.components.schemas['FinalizePortalReturnDto']!.required).toEqual([
        'rma',
        'refund_total_price_after_vat',
      ]);
      expect(doc.components.schemas['UpsertPortalReturnDto']!.required).toEqual(['return']);
    });

    // The spec lists every field as always present: the presenter sends exactly these, and the
    // document marks each of them required.
    const SPEC_RETURN_FIELDS = [
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
    ];
    const SPEC_LINE_FIELDS = [
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
    ];

    it('presents a portal return and its lines with exactly the fields the spec lists', () => {
      expect(Object.keys(PRESENTED['PortalReturn']!).sort()).toEqual([...SPEC_RETURN_FIELDS].sort());
      expect(Object.keys(PRESENTED['PortalReturnLine']!).sort()).toEqual([...SPEC_LINE_FIELDS].sort());
    });

    it('documents every field the spec lists as required', () => {
      expect([...doc.components.schemas['PortalReturn']!.required!].sort()).toEqual([...SPEC_RETURN_FIELDS].sort());
      expect([...doc.components.schemas['PortalReturnLine']!.required!].sort()).toEqual([...SPEC_LINE_FIELDS].sort());
    });
  });
}
