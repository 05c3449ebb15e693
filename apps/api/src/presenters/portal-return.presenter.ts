import {
  ClaimType,
  CreditNote,
  GiftCardBonusType,
  Return,
  ReturnLine,
  ReturnPortal,
  divideRounded,
  netOfVat,
} from '@brand/core';
import { money } from './amounts';

/*
 * The spec's "External-portal return": what the upsert answers. Amounts are decimals of the
 * return's currency, incl. VAT as the portal sends them, except `net_price`.
 */

export interface PortalReturnLineWire {
  id: number;
  variant_id: number;
  quantity: number;
  expected_return: number;
  returned: number | null;
  claim_type: ClaimType;
  claim_cause_id: number | null;
  net_price: number;
  unit_price_incl_vat: number;
  text: string | null;
  regulate_inventory: boolean;
}

export interface PortalReturnWire {
  id: number;
  rma: string;
  rma_number: number;
  return_status: Return['status'];
  source: string;
  notes: string | null;
  return_fee_incl_vat: number | null;
  exchange_fee_incl_vat: number | null;
  labelless_code: string | null;
  track_trace: string | null;
  track_trace_link: string | null;
  storefront_refund_gift_card: boolean;
  storefront_refund_gift_card_bonus_type: GiftCardBonusType | null;
  storefront_refund_gift_card_bonus_value: number | null;
  storefront_refund_gift_card_free_shipping: boolean;
  total_price_after_vat: number | null;
  lines: PortalReturnLineWire[];
}

const optionalMoney = (minor: number | null): number | null => (minor === null ? null : money(minor));

/** The price incl. VAT a line refunds: as the portal sent it (a line made elsewhere derives it from its price). */
function unitPriceInclVat(line: ReturnLine, ret: Return): number {
  if (line.unitPriceInclVat !== null) return line.unitPriceInclVat;
  return ret.pricesIncludeVat
    ? line.unitPrice
    : line.unitPrice + divideRounded(BigInt(line.unitPrice) * BigInt(ret.vatRateBasisPoints), 10_000n);
}

export function presentPortalReturnLine(line: ReturnLine, ret: Return): PortalReturnLineWire {
  const inclVat = unitPriceInclVat(line, ret);
  return {
    id: line.id,
    variant_id: line.variantId,
    quantity: line.expectedQuantity,
    expected_return: line.expectedQuantity,
    // Nothing was counted before the return was received.
    returned: ret.status === 'open' || ret.status === 'approved' ? null : line.receivedQuantity,
    claim_type: line.claimType,
    claim_cause_id: line.claimCauseId,
    net_price: money(netOfVat(inclVat, ret.vatRateBasisPoints)),
    unit_price_incl_vat: money(inclVat),
    text: line.comments,
    regulate_inventory: line.regulateInventory,
  };
}

/** A return as its portal sees it; `total_price_after_vat` is what its credit notes refund (null before one is issued). */
export function presentPortalReturn(result: {
  ret: Return;
  portal: ReturnPortal;
  creditNotes: readonly CreditNote[];
}): PortalReturnWire {
  const { ret, portal, creditNotes } = result;
  return {
    id: ret.id,
    rma: ret.rma,
    rma_number: ret.rmaNumber,
    return_status: ret.status,
    source: portal.type,
    notes: ret.notes,
    return_fee_incl_vat: optionalMoney(ret.returnFeeInclVat),
    exchange_fee_incl_vat: optionalMoney(ret.exchangeFeeInclVat),
    labelless_code: ret.labellessCode,
    track_trace: ret.trackTrace,
    track_trace_link: ret.trackTraceLink,
    storefront_refund_gift_card: ret.storefrontRefundGiftCard,
    storefront_refund_gift_card_bonus_type: ret.storefrontRefundGiftCardBonusType,
    // Kept as the decimal text the portal sent; shown as the number it is.
    storefront_refund_gift_card_bonus_value:
      ret.storefrontRefundGiftCardBonusValue === null ? null : Number(ret.storefrontRefundGiftCardBonusValue),
    storefront_refund_gift_card_free_shipping: ret.storefrontRefundGiftCardFreeShipping,
    total_price_after_vat:
      creditNotes.length === 0 ? null : money(creditNotes.reduce((sum, note) => sum + note.total, 0)),
    lines: ret.lines.map((line) => presentPortalReturnLine(line, ret)),
  };
}
