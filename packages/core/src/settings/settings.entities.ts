/**
 * What a brand decides about how its documents behave. A brand that never saved settings gets
 * `defaultBrandSettings` (external invoicing, no drop requirement, 25 % VAT, ad hoc returns off).
 */

/** Who issues invoices: an external ERP (stock regulated by the orders' mark-as-exported) or this service. */
export type InvoicingMode = 'external' | 'in_service';

/** How `POST /3pl/returns/create-ad-hoc-return` behaves; null = ad hoc returns are off. */
export type AdHocReturnMode = 'always_credit_note' | 'credit_note_if_no_rma' | 'alert_if_no_rma';

/**
 * What a brand decided about how its documents behave: who invoices, whether orders need a drop,
 * the default VAT rate, how ad hoc returns are handled and its tracking-link templates.
 */
export interface BrandSettings {
  brandId: number;
  invoicing: InvoicingMode;
  /** Orders must name a drop (unless their channel has a fixed one). */
  requiresDrop: boolean;
  /** VAT rate of new orders in basis points of a percent (25 % → 2500). */
  defaultVatRateBasisPoints: number;
  adHocReturnMode: AdHocReturnMode | null;
  /**
   * Tracking-link templates per carrier code (`{track_trace}` is replaced by the colli's tracking
   * number); they extend and override the built-in ones of `trackingLinkFor`.
   */
  trackingLinkTemplates: Record<string, string>;
  updatedAt: string | null;
}

/** Every `InvoicingMode`. */
export const INVOICING_MODES: readonly InvoicingMode[] = ['external', 'in_service'];
/** Every `AdHocReturnMode` (besides null: off). */
export const AD_HOC_RETURN_MODES: readonly AdHocReturnMode[] = [
  'always_credit_note',
  'credit_note_if_no_rma',
  'alert_if_no_rma',
];

export function defaultBrandSettings(brandId: number): BrandSettings {
  return {
    brandId,
    invoicing: 'external',
    requiresDrop: false,
    defaultVatRateBasisPoints: 2500,
    adHocReturnMode: null,
    trackingLinkTemplates: {},
    updatedAt: null,
  };
}
