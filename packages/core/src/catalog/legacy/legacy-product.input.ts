/*
 * What the older interface's product and variant bodies carry, in the core's words: the commands
 * of the legacy product and variant writes.
 */

/** Prices of a variant in one currency, as decimals (at most 2 decimals); fields not sent keep their value (new: 0, 0, null). */
export interface LegacyPriceInput {
  salesPrice?: number | string;
  recSalesPrice?: number | string;
  offerPrice?: number | string | null;
}

/** Sets the in-stock quantity at one location. `delivery` (a date or null) is recorded in the stock ledger's note. */
export interface LegacyStockInput {
  quantity: number;
  delivery?: string | null;
}

/**
 * A variant as the older interface sends it: SKU, EAN, attributes, picture, prices per currency and
 * stock per stock type.
 */
export interface LegacyVariantInput {
  sku: string;
  /** Digits; the older form sends an integer. */
  ean?: string | number | null;
  /** At least one attribute; every variant of a product has the same names. */
  attributes: Record<string, string>;
  picture?: string | null;
  /** Keyed by ISO 4217 currency code; a new variant needs a price in the brand's base currency. */
  prices?: Record<string, LegacyPriceInput>;
  /**
   * Keyed by stock type: `stock` (or `default`) is the brand's default inventory location, any
   * other key the name of one of the brand's inventory locations (exact spelling).
   */
  inventory?: Record<string, LegacyStockInput>;
}

/** `PUT …/variants/{id}`: any of the fields; attribute values may change, names may not. */
export type LegacyVariantChanges = Partial<LegacyVariantInput>;

/** A product's root fields as the older interface sends them. */
export interface LegacyProductFields {
  itemNumber: string;
  name: string;
  description?: string | null;
  subbrandId?: number | null;
  collectionId?: number | null;
  /** The primary image URL (kept as text; see `LEGACY_IMAGE_META_KEY`). */
  image?: string | null;
  images?: string[];
  active?: boolean;
  /** How many pieces make a colli; the older form has one size (see `applyLegacyColli`). */
  colli?: number | null;
}

/** `PUT /api/products/{id}`: root fields only; fields not sent keep their value. */
export type LegacyProductChanges = Partial<LegacyProductFields>;

/* A variant command after `normalizeVariant` (legacy-product-rules.ts) has checked it. */

/** A currency's prices of a checked variant, in minor units; undefined fields were not sent. */
export interface NormalizedPrice {
  currency: string;
  salesPrice?: number;
  recSalesPrice?: number;
  offerPrice?: number | null;
}

/** The stock sent under one stock-type key, with the pointer its problems are reported at. */
export interface NormalizedStock {
  key: string;
  quantity: number;
  delivery: string | null;
  pointer: string;
}

/** A variant's input after checking: trimmed, amounts in minor units; undefined fields were not sent. */
export interface NormalizedVariant {
  pointer: string;
  sku?: string;
  ean?: string | null;
  attributes?: Record<string, string>;
  picture?: string | null;
  prices?: NormalizedPrice[];
  inventory: NormalizedStock[];
}
