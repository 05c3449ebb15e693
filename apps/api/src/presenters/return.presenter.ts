import {
  Alert,
  CLAIM_TYPES,
  CreditNote,
  ExportMark,
  GIFT_CARD_BONUS_TYPES,
  Return,
  ReturnLine,
  ReturnSource,
  TimelineEvent,
  alertLifecycle,
  returnLifecycle,
} from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  boolean,
  component,
  currency,
  dateTime,
  integer,
  meta,
  amount,
  nullable,
  oneOfValues,
  optional,
  percentage,
  string,
  stringMap,
} from '../http/wire-schema';
import { CreditNoteSchema, presentCreditNote } from './credit-note.presenter';
import { ExportMarkSchema, presentExportMarks } from './export-mark.presenter';
import { TimelineEventSchema, presentTimeline } from './timeline.presenter';
import { money, moneyOrNull, percent } from './amounts';

/*
 * A return (RMA) of the current interface (`/v10/returns`), and the dashboard alert. Amounts are
 * decimals of the return's currency; unit prices are in the return's VAT basis (prices_include_vat).
 */

const ALERT_KINDS = ['ad_hoc_return_without_rma'] as const satisfies readonly Alert['kind'][];

const RETURN_SOURCES = ['back_office', 'portal', 'ad_hoc'] as const satisfies readonly ReturnSource[];

export const ReturnLineSchema = component(
  'ReturnLine',
  Type.Object({
    id: integer(),
    order_line_id: nullable(integer('The order line the pieces were bought on')),
    variant_id: integer(),
    product_id: integer(),
    sku: string(),
    ean: nullable(string()),
    item_number: string(),
    product_name: string(),
    attributes: stringMap('Variant attributes (colors, sizes)'),
    expected_quantity: integer('Pieces announced'),
    received_quantity: integer('Pieces the warehouse received; 0 until received'),
    claim_type: oneOfValues(CLAIM_TYPES),
    claim_cause_id: nullable(integer()),
    unit_price: amount("Per piece the credit note pays, in the return's VAT basis"),
    discount_percentage: percentage('Discount on unit_price'),
    unit_price_incl_vat: nullable(amount('As a portal sent it; null otherwise')),
    comments: nullable(string("The customer's comment")),
    regulate_inventory: boolean('Received pieces of claim type return go back in stock'),
    refund_storefront: boolean('Ad hoc returns: refund the line in the external storefront'),
  }),
);
export type ReturnLineWire = Static<typeof ReturnLineSchema>;

export const ReturnSchema = component(
  'Return',
  Type.Object({
    id: integer(),
    return_number: integer("Number from the brand's return series"),
    rma: string('The RMA integrations use: the return number as text, or the portal’s external RMA'),
    rma_number: integer('The digits of rma as a number'),
    status: oneOfValues(returnLifecycle.states),
    source: oneOfValues(RETURN_SOURCES),
    return_portal_id: nullable(integer()),
    order_id: nullable(integer()),
    order_number: nullable(integer()),
    shipment_id: nullable(integer('Ad hoc returns: the shipment the pieces came back from')),
    customer_id: integer(),
    currency: currency(),
    vat_rate: percentage("The order's VAT rate"),
    prices_include_vat: boolean(),
    notes: nullable(string()),
    return_meta: meta('Custom fields of the return'),
    shipping_method: nullable(string()),
    track_trace: nullable(string()),
    track_trace_link: nullable(string()),
    carrier_code: nullable(string()),
    carrier_label: nullable(string()),
    labelless_code: nullable(string()),
    return_fee_incl_vat: nullable(amount('Deducted from the credit note')),
    exchange_fee_incl_vat: nullable(amount('Deducted from the credit note')),
    storefront_refund_gift_card: boolean(),
    storefront_refund_gift_card_bonus_type: nullable(oneOfValues(GIFT_CARD_BONUS_TYPES)),
    storefront_refund_gift_card_bonus_value: nullable(Type.Number()),
    storefront_refund_gift_card_free_shipping: boolean(),
    approved_at: nullable(dateTime('When it was approved')),
    received_at: nullable(dateTime('When the warehouse received it')),
    credited_at: nullable(dateTime('When its credit notes were booked')),
    created_at: dateTime(),
    updated_at: dateTime(),
    lines: arrayOf(ReturnLineSchema),
    // Absent only on returns embedded in another document.
    exports: optional(arrayOf(ExportMarkSchema, 'Systems that marked it exported (3PL), each with its latest mark')),
    credit_notes: optional(arrayOf(CreditNoteSchema, 'On a single return: its credit notes, with their lines')),
    timeline: optional(arrayOf(TimelineEventSchema, 'On a single return, oldest first')),
  }),
);
export type ReturnWire = Static<typeof ReturnSchema>;

export function presentReturnLine(line: ReturnLine): ReturnLineWire {
  return {
    id: line.id,
    order_line_id: line.orderLineId,
    variant_id: line.variantId,
    product_id: line.productId,
    sku: line.sku,
    ean: line.ean,
    item_number: line.itemNumber,
    product_name: line.productName,
    attributes: line.attributes,
    expected_quantity: line.expectedQuantity,
    received_quantity: line.receivedQuantity,
    claim_type: line.claimType,
    claim_cause_id: line.claimCauseId,
    unit_price: money(line.unitPrice),
    discount_percentage: percent(line.discountBasisPoints),
    unit_price_incl_vat: line.unitPriceInclVat === null ? null : money(line.unitPriceInclVat),
    comments: line.comments,
    regulate_inventory: line.regulateInventory,
    refund_storefront: line.refundStorefront,
  };
}

/** A return with its lines; `exports` when given. */
export function presentReturn(ret: Return, options: { exports?: readonly ExportMark[] } = {}): ReturnWire {
  const wire: ReturnWire = {
    id: ret.id,
    return_number: ret.returnNumber,
    rma: ret.rma,
    rma_number: ret.rmaNumber,
    status: ret.status,
    source: ret.source,
    return_portal_id: ret.returnPortalId,
    order_id: ret.orderId,
    order_number: ret.orderNumber,
    shipment_id: ret.shipmentId,
    customer_id: ret.customerId,
    currency: ret.currency,
    vat_rate: percent(ret.vatRateBasisPoints),
    prices_include_vat: ret.pricesIncludeVat,
    notes: ret.notes,
    return_meta: ret.returnMeta,
    shipping_method: ret.shippingMethod,
    track_trace: ret.trackTrace,
    track_trace_link: ret.trackTraceLink,
    carrier_code: ret.carrierCode,
    carrier_label: ret.carrierLabel,
    labelless_code: ret.labellessCode,
    return_fee_incl_vat: moneyOrNull(ret.returnFeeInclVat),
    exchange_fee_incl_vat: moneyOrNull(ret.exchangeFeeInclVat),
    storefront_refund_gift_card: ret.storefrontRefundGiftCard,
    storefront_refund_gift_card_bonus_type: ret.storefrontRefundGiftCardBonusType,
    // Kept as the decimal text the portal sent; shown as the number it is.
    storefront_refund_gift_card_bonus_value:
      ret.storefrontRefundGiftCardBonusValue === null ? null : Number(ret.storefrontRefundGiftCardBonusValue),
    storefront_refund_gift_card_free_shipping: ret.storefrontRefundGiftCardFreeShipping,
    approved_at: ret.approvedAt,
    received_at: ret.receivedAt,
    credited_at: ret.creditedAt,
    created_at: ret.createdAt,
    updated_at: ret.updatedAt,
    lines: ret.lines.map(presentReturnLine),
  };
  if (options.exports) wire.exports = presentExportMarks(options.exports);
  return wire;
}

/** `GET /v10/returns/{id}`: the return with its exports, credit notes (with lines) and timeline. */
export function presentReturnDetail(detail: {
  ret: Return;
  creditNotes: readonly CreditNote[];
  exports: readonly ExportMark[];
  timeline: readonly TimelineEvent[];
}): ReturnWire {
  const wire = presentReturn(detail.ret, { exports: detail.exports });
  wire.credit_notes = detail.creditNotes.map((note) => presentCreditNote(note, { includeLines: true }));
  wire.timeline = presentTimeline(detail.timeline);
  return wire;
}

export const AlertSchema = component(
  'Alert',
  Type.Object({
    id: integer(),
    kind: oneOfValues(ALERT_KINDS),
    status: oneOfValues(alertLifecycle.states),
    message: string(),
    return_id: integer(),
    credit_note_id: nullable(integer('The credit note issued from the alert, which resolved it')),
    resolved_at: nullable(dateTime('When it was resolved')),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
);
export type AlertWire = Static<typeof AlertSchema>;

export function presentAlert(alert: Alert): AlertWire {
  return {
    id: alert.id,
    kind: alert.kind,
    status: alert.status,
    message: alert.message,
    return_id: alert.returnId,
    credit_note_id: alert.creditNoteId,
    resolved_at: alert.resolvedAt,
    created_at: alert.createdAt,
    updated_at: alert.updatedAt,
  };
}
