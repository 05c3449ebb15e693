import { Meta } from '../catalog/catalog.entities';

/**
 * Returns (RMAs): pieces a customer sends back, announced before they arrive (back office or an
 * external return portal) or reported by the warehouse as they arrive (ad hoc). Receiving a
 * return issues a draft credit note for the received pieces, net of the return's fees; finalizing
 * (portal) or booking (back office) the credit note credits it. Amounts are minor units of the
 * return's currency (the order's).
 */

/** `open` → `approved` → `received` → `credited` (see `returnLifecycle`). */
export type ReturnStatus = 'open' | 'approved' | 'received' | 'credited';

/** Where a return was announced: the back office, an external return portal, or the warehouse (ad hoc). */
export type ReturnSource = 'back_office' | 'portal' | 'ad_hoc';

/** `return`: the customer sends goods back; `claim`: a complaint (damaged, wrong item). Only returns restock. */
export type ClaimType = 'return' | 'claim';

/**
 * Pieces of one variant on a return: a copy of its catalog data, the pieces expected and received,
 * the claim type and cause, and the price the credit note refunds.
 */
export interface ReturnLine {
  id: number;
  returnId: number;
  /** The order line the pieces were bought on, when the variant is on the return's order. */
  orderLineId: number | null;
  variantId: number;
  productId: number;
  /** Copies of the catalog when the line was made (as order lines keep them). */
  sku: string;
  ean: string | null;
  itemNumber: string;
  productName: string;
  attributes: Record<string, string>;
  countryOfOrigin: string | null;
  composition: string | null;
  hsTariffCode: string | null;
  /** Pieces the customer said would come back (`expected_quantity`, the portal's `quantity`). */
  expectedQuantity: number;
  /** Pieces the warehouse received (`returned`); 0 until received. */
  receivedQuantity: number;
  claimType: ClaimType;
  claimCauseId: number | null;
  /**
   * Price per piece the credit note pays, in the return's VAT basis (`pricesIncludeVat`):
   * the order line's price (back office, ad hoc) or derived from `unitPriceInclVat` (portal).
   */
  unitPrice: number;
  discountBasisPoints: number;
  /** As the portal sent it (minor units incl. VAT); null for returns not made by a portal. */
  unitPriceInclVat: number | null;
  /** The customer's comment (`text`). */
  comments: string | null;
  /** Received pieces of claim type `return` go back in stock only when true. */
  regulateInventory: boolean;
  /** Ad hoc: refund the line in the external storefront (`should_refund_storefront`). */
  refundStorefront: boolean;
}

/** How a storefront gift card refund's bonus is given: a percentage or a fixed amount. */
export type GiftCardBonusType = 'percentage' | 'fixed';
/** Every gift card bonus type, for validation and documentation of the wire. */
export const GIFT_CARD_BONUS_TYPES: readonly GiftCardBonusType[] = ['percentage', 'fixed'];

/**
 * A return or claim of a customer (an RMA): where it was announced, the pieces coming back, the
 * fees charged, and where it is in its lifecycle (`returnLifecycle`).
 */
export interface Return {
  id: number;
  brandId: number;
  /** Per-brand document number (the back office's RMA number). */
  returnNumber: number;
  /** The RMA as integrations name it: the portal's external RMA, or `returnNumber` as text. */
  rma: string;
  /** The digits of `rma` as a number (portal rule); `returnNumber` for the others. */
  rmaNumber: number;
  status: ReturnStatus;
  source: ReturnSource;
  /** The portal that owns it (source `portal`). */
  returnPortalId: number | null;
  /** The order the pieces were bought on; null only for ad hoc returns without one. */
  orderId: number | null;
  orderNumber: number | null;
  /** The shipment an ad hoc return came back from. */
  shipmentId: number | null;
  customerId: number;
  currency: string;
  vatRateBasisPoints: number;
  pricesIncludeVat: boolean;
  notes: string | null;
  returnMeta: Meta;
  /** Label of the shipping method chosen in a portal. */
  shippingMethod: string | null;
  trackTrace: string | null;
  trackTraceLink: string | null;
  carrierCode: string | null;
  carrierLabel: string | null;
  labellessCode: string | null;
  /** Fees charged to the customer, minor units incl. VAT; deducted from the credit note. */
  returnFeeInclVat: number | null;
  exchangeFeeInclVat: number | null;
  storefrontRefundGiftCard: boolean;
  storefrontRefundGiftCardBonusType: GiftCardBonusType | null;
  /** Echoed as sent (a percentage or an amount, per the bonus type); decimal text. */
  storefrontRefundGiftCardBonusValue: string | null;
  storefrontRefundGiftCardFreeShipping: boolean;
  approvedAt: string | null;
  receivedAt: string | null;
  creditedAt: string | null;
  createdByUserId: number | null;
  createdAt: string;
  updatedAt: string;
  lines: ReturnLine[];
}

/** Why a customer returns or claims (`damaged`, `too_small`): a brand's own list, codes not unique. */
export interface ClaimCause {
  id: number;
  brandId: number;
  code: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** `service` is the platform's own (internal) portal; every other type is external. */
export const INTERNAL_RETURN_PORTAL_TYPE = 'service';

/** A return portal returns are announced through, addressed by its public id. */
export interface ReturnPortal {
  id: number;
  brandId: number;
  /** The id in `/v10/external-return-portals/{publicId}/…`. */
  publicId: string;
  name: string;
  /** `service` (internal), `custom` (any app), or a partner's type (only an app whose internal code is that type). */
  type: string;
  /** Lines must name a claim cause. */
  requiresClaimCauses: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Whether an alert still waits for staff (`open`) or was dealt with (`resolved`). */
export type AlertStatus = 'open' | 'resolved';

/** A dashboard alert: something staff must decide (an ad hoc return without an RMA, in `alert_if_no_rma` mode). */
export interface Alert {
  id: number;
  brandId: number;
  kind: 'ad_hoc_return_without_rma';
  returnId: number;
  message: string;
  status: AlertStatus;
  /** The credit note issued from the alert (`POST /v10/alerts/{id}/credit-note`), which resolves it. */
  creditNoteId: number | null;
  resolvedAt: string | null;
  createdAt: string;
  updatedAt: string;
}
