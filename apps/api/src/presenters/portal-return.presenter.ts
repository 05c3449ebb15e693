import {
  CLAIM_TYPES,
  CreditNote,
  Return,
  ReturnLine,
  ReturnPortal,
  ReturnStatus,
  divideRounded,
  netOfVat,
  returnLifecycle,
  GIFT_CARD_BONUS_TYPES,
} from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  boolean,
  component,
  integer,
  amount,
  nullable,
  oneOfValues,
  string,
} from '../http/wire-schema';
import { money, moneyOrNull } from './amounts';

/*
 * The spec's "External-portal return": what the upsert answers. Amounts are decimals of the
 * return's currency, incl. VAT as the portal sends them, except `net_price`.
 */

export const PortalReturnLineSchema = component(
  'PortalReturnLine',
  Type.Object({
    id: integer('Stable across updates when the line is matched'),
    variant_id: integer(),
    quantity: integer('Same value as expected_return'),
    expected_return: integer('Pieces the customer said would come back'),
    returned: nullable(integer('Pieces received; null until the return is received')),
    claim_type: oneOfValues(CLAIM_TYPES),
    claim_cause_id: nullable(integer()),
    net_price: amount("unit_price_incl_vat without VAT (the order's rate), half up to the cent"),
    unit_price_incl_vat: amount('Echoed'),
    text: nullable(string("The customer's comment")),
    regulate_inventory: boolean(),
  }),
);
export type PortalReturnLineWire = Static<typeof PortalReturnLineSchema>;

export const PortalReturnSchema = component(
  'PortalReturn',
  Type.Object({
    id: integer('Internal return id'),
    rma: string('The external RMA'),
    rma_number: integer('The digits of rma'),
    // A portal return is never open (see portalReturnStatus).
    return_status: oneOfValues(returnLifecycle.states.filter((state) => state !== 'open')),
    source: string('Type of the portal that owns the return'),
    notes: nullable(string()),
    return_fee_incl_vat: nullable(amount('Echoed')),
    exchange_fee_incl_vat: nullable(amount('Echoed')),
    labelless_code: nullable(string()),
    track_trace: nullable(string()),
    track_trace_link: nullable(string()),
    storefront_refund_gift_card: boolean(),
    storefront_refund_gift_card_bonus_type: nullable(oneOfValues(GIFT_CARD_BONUS_TYPES)),
    storefront_refund_gift_card_bonus_value: nullable(Type.Number()),
    storefront_refund_gift_card_free_shipping: boolean(),
    total_price_after_vat: nullable(
      amount('Total refunded incl. VAT: the sum of the credit notes (net of fees); null before receipt'),
    ),
    lines: arrayOf(PortalReturnLineSchema),
  }),
);
export type PortalReturnWire = Static<typeof PortalReturnSchema>;

/** Portal returns start at approved (the upsert creates them so): a portal return is never open. */
function portalReturnStatus(status: ReturnStatus): PortalReturnWire['return_status'] {
  if (status === 'open') throw new Error('a portal return is never open');
  return status;
}

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
    return_status: portalReturnStatus(ret.status),
    source: portal.type,
    notes: ret.notes,
    return_fee_incl_vat: moneyOrNull(ret.returnFeeInclVat),
    exchange_fee_incl_vat: moneyOrNull(ret.exchangeFeeInclVat),
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
