/**
 * Row types of claim causes, return portals, returns (with lines) and alerts. Booleans are 0/1,
 * timestamps ISO-8601 UTC text, money in minor units (bigint), rates and discounts in basis
 * points, structures (meta, attributes) JSON text, in both dialects. Every table carries
 * `brand_id`. Unlike the other documents' lines, return lines are deleted when a save leaves them out.
 */

export interface ClaimCausesTable {
  id: number;
  brand_id: number;
  code: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface ReturnPortalsTable {
  id: number;
  brand_id: number;
  /** Globally unique (the portal routes resolve the portal before the brand). */
  public_id: string;
  name: string;
  type: string;
  requires_claim_causes: number;
  created_at: string;
  updated_at: string;
}

export interface ReturnsTable {
  id: number;
  brand_id: number;
  return_number: number;
  rma: string;
  rma_number: number;
  status: string;
  source: string;
  /** Unique with (brand_id, rma) when not NULL. */
  return_portal_id: number | null;
  order_id: number | null;
  order_number: number | null;
  shipment_id: number | null;
  customer_id: number;
  currency: string;
  vat_rate_basis_points: number;
  prices_include_vat: number;
  notes: string | null;
  /** JSON object. */
  return_meta: string;
  shipping_method: string | null;
  track_trace: string | null;
  track_trace_link: string | null;
  carrier_code: string | null;
  carrier_label: string | null;
  labelless_code: string | null;
  return_fee_incl_vat: number | null;
  exchange_fee_incl_vat: number | null;
  storefront_refund_gift_card: number;
  storefront_refund_gift_card_bonus_type: string | null;
  /** Decimal text, echoed as sent. */
  storefront_refund_gift_card_bonus_value: string | null;
  storefront_refund_gift_card_free_shipping: number;
  approved_at: string | null;
  received_at: string | null;
  credited_at: string | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ReturnLinesTable {
  id: number;
  brand_id: number;
  return_id: number;
  order_line_id: number | null;
  variant_id: number;
  product_id: number;
  sku: string;
  ean: string | null;
  item_number: string;
  product_name: string;
  /** JSON object of attribute name → value. */
  attributes: string;
  country_of_origin: string | null;
  composition: string | null;
  hs_tariff_code: string | null;
  expected_quantity: number;
  received_quantity: number;
  claim_type: string;
  claim_cause_id: number | null;
  unit_price: number;
  discount_basis_points: number;
  unit_price_incl_vat: number | null;
  comments: string | null;
  regulate_inventory: number;
  refund_storefront: number;
}

export interface AlertsTable {
  id: number;
  brand_id: number;
  kind: string;
  return_id: number;
  message: string;
  status: string;
  credit_note_id: number | null;
  resolved_at: string | null;
  created_at: string;
  updated_at: string;
}

declare module '../database' {
  /** The returns tables. */
  interface Database {
    claim_causes: ClaimCausesTable;
    return_portals: ReturnPortalsTable;
    returns: ReturnsTable;
    return_lines: ReturnLinesTable;
    alerts: AlertsTable;
  }
}
