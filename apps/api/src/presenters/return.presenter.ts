import {
  Alert,
  ClaimType,
  CreditNote,
  ExportMark,
  Return,
  ReturnLine,
  ReturnSource,
  ReturnStatus,
  TimelineEvent,
} from '@brand/core';
import { CreditNoteWire, presentCreditNote } from './credit-note.presenter';
import { ExportMarkWire, presentExportMarks } from './export-mark.presenter';

import { TimelineEventWire, presentTimeline } from './timeline.presenter';
import { money, percent } from './amounts';

/*
 * A return (RMA) of the current interface (`/v10/returns`), and the dashboard alert. Amounts are
 * decimals of the return's currency; unit prices are in the return's VAT basis (prices_include_vat).
 */

export interface ReturnLineWire {
  id: number;
  order_line_id: number | null;
  variant_id: number;
  product_id: number;
  sku: string;
  ean: string | null;
  item_number: string;
  product_name: string;
  attributes: Record<string, string>;
  expected_quantity: number;
  received_quantity: number;
  claim_type: ClaimType;
  claim_cause_id: number | null;
  unit_price: number;
  discount_percentage: number;
  unit_price_incl_vat: number | null;
  comments: string | null;
  regulate_inventory: boolean;
  refund_storefront: boolean;
}

export interface ReturnWire {
  id: number;
  return_number: number;
  rma: string;
  rma_number: number;
  status: ReturnStatus;
  source: ReturnSource;
  return_portal_id: number | null;
  order_id: number | null;
  order_number: number | null;
  shipment_id: number | null;
  customer_id: number;
  currency: string;
  vat_rate: number;
  prices_include_vat: boolean;
  notes: string | null;
  return_meta: Record<string, unknown>;
  shipping_method: string | null;
  track_trace: string | null;
  track_trace_link: string | null;
  carrier_code: string | null;
  carrier_label: string | null;
  labelless_code: string | null;
  return_fee_incl_vat: number | null;
  exchange_fee_incl_vat: number | null;
  storefront_refund_gift_card: boolean;
  storefront_refund_gift_card_bonus_type: string | null;
  storefront_refund_gift_card_bonus_value: number | null;
  storefront_refund_gift_card_free_shipping: boolean;
  approved_at: string | null;
  received_at: string | null;
  credited_at: string | null;
  created_at: string;
  updated_at: string;
  lines: ReturnLineWire[];
  /** Absent only on returns embedded in another document. */
  exports?: ExportMarkWire[];
  /** On a single return: its credit notes with their lines. */
  credit_notes?: CreditNoteWire[];
  /** On a single return, oldest first. */
  timeline?: TimelineEventWire[];
}

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

const optionalMoney = (minor: number | null): number | null => (minor === null ? null : money(minor));

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
    return_fee_incl_vat: optionalMoney(ret.returnFeeInclVat),
    exchange_fee_incl_vat: optionalMoney(ret.exchangeFeeInclVat),
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

export interface AlertWire {
  id: number;
  kind: Alert['kind'];
  status: Alert['status'];
  message: string;
  return_id: number;
  credit_note_id: number | null;
  resolved_at: string | null;
  created_at: string;
  updated_at: string;
}

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
