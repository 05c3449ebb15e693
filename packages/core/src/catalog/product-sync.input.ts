import { IdOrCode } from '../shared/reference';
import { SyncOutcome } from '../shared/sync-outcome';
import { LeadTimeType, Meta, SyncMode, WeightUnit } from './catalog.entities';

/** A decimal as sent: a JSON number or its text (`19.99`, `"19.99"`); read exactly, never as float arithmetic. */
export type DecimalInput = number | string;

/**
 * One item of `POST /products/sync`, already of the right JSON types (the API's DTO checked
 * them). A field left out keeps its stored value (or gets its default on a new product); `null`
 * clears a field that may be empty.
 */
export interface ProductSyncItem {
  /** The match key; never changed by a sync (another value is another product). */
  itemNumber: string;
  /** Required for a new product. */
  name?: string;
  description?: string | null;
  active?: boolean;
  makeToOrderB2b?: boolean;
  makeToOrderB2c?: boolean;
  /** Partial: sent keys replace, keys not sent stay, a key sent as `null` is removed. */
  meta?: Meta;
  /** Up to 3 decimals of `weightType`. */
  weight?: DecimalInput | null;
  weightType?: WeightUnit;
  noInventory?: boolean;
  /** YYYY-MM-DD. */
  releaseDate?: string | null;
  noos?: boolean;
  minOrderQuantity?: number | null;
  customSort?: number | null;
  orderColliOnly?: boolean;
  /** Colli sizes, positive integers; replaces the stored list. */
  colli?: number[];
  url?: string | null;
  metaTitle?: string | null;
  metaDescription?: string | null;
  /** Replaces the product's tag set. */
  tags?: string[];
  /** Deletes the product (and its variants); refused while orders or other data refer to it. */
  delete?: boolean;
  categories?: { mode: SyncMode; categories: ProductCategoryInput[] };
  suppliers?: { mode: SyncMode; suppliers: ProductSupplierInput[] };
  /** Upserted per locale; locales not sent keep their translation. */
  translations?: ProductTranslationInput[];
  /** Required (at least one) for a new product. Variants not sent are left alone. */
  variants?: VariantSyncItem[];
}

/** A category by name: the top category and, unless empty, a subcategory under it. */
export interface ProductCategoryInput {
  topCategory: string;
  /** `null`/empty: the top category itself. */
  subCategory?: string | null;
  /** Create the top and/or subcategory when missing (default: a missing category is an error). */
  createIfMissing?: boolean;
}

/**
 * A supplier of a synced product, named by supplier number, with its lead time and cost price set.
 */
export interface ProductSupplierInput {
  /** Must name an existing supplier of the brand. */
  supplierNumber: string;
  primary?: boolean;
  /** Default `weeks`. */
  leadTimeType?: LeadTimeType;
  leadTimeFrom?: number | null;
  leadTimeTo?: number | null;
  /** Label of a cost price set in the supplier's currency (created when missing); default: the currency's default set. */
  costPriceSet?: string | null;
}

/** A synced product's texts in one product locale. */
export interface ProductTranslationInput {
  /** `product_locale_id` / `product_locale_code`. */
  locale: IdOrCode;
  name: string;
  /** Left out: kept (or null on a new translation); `null` clears. */
  description?: string | null;
  metaTitle?: string | null;
  metaDescription?: string | null;
}

/** One variant of a product item; matched by SKU within the brand. */
export interface VariantSyncItem {
  sku: string;
  /** Required (non-empty) for a new variant; on an update only the attributes sent change. */
  attributes?: Record<string, string>;
  ean?: string | null;
  archived?: boolean;
  b2cAvailable?: boolean;
  delete?: boolean;
  /** Overrides of the product's fields; `null` means "as the product". */
  makeToOrderB2b?: boolean | null;
  makeToOrderB2c?: boolean | null;
  weightType?: WeightUnit | null;
  noos?: boolean | null;
  weight?: DecimalInput | null;
  releaseDate?: string | null;
  /** Partial, like the product's meta. */
  meta?: Meta;
  /** Keyed by ISO 4217 code; `null` removes the variant's price in that currency. */
  prices?: Record<string, VariantPriceInput | null>;
  drops?: { mode: SyncMode; drops: IdOrCode[] };
  /** Stock changes, applied in order. */
  inventory?: InventoryChangeInput[];
  /** Downloaded and attached to the variant; a URL the brand already has is not downloaded again. */
  images?: VariantImageInput[];
  costPrices?: VariantCostPriceInput[];
}

/** A price in one currency; fields left out keep the stored value (defaults 0, 0, null, null). */
export interface VariantPriceInput {
  salesPrice?: DecimalInput;
  recSalesPrice?: DecimalInput;
  offerPrice?: DecimalInput | null;
  b2cOfferPrice?: DecimalInput | null;
}

/** Exactly one of `quantity` (sets in stock) and `adjustment` (adds to it). */
export interface InventoryChangeInput {
  quantity?: number;
  adjustment?: number;
  text?: string | null;
  /** Default: the brand's default location (created when the brand has none yet). */
  inventoryLocationId?: number;
}

/** An image of a synced variant, downloaded from `url` by the image sync. */
export interface VariantImageInput {
  url: string;
  alt?: string | null;
}

/**
 * A cost price. The set is named by id (must exist, in `currency`), by label (the set with that
 * label in `currency`, created when missing), or not at all (the currency's default set, created
 * when missing).
 */
export interface VariantCostPriceInput {
  currency: string;
  costPriceSetId?: number;
  costPriceSetLabel?: string;
  costPrice: DecimalInput;
}

/** The command of `syncProducts`. */
export interface ProductSyncCommand {
  brandId: number;
  /** The acting user, recorded on stock movements. */
  userId?: number | null;
  products: ProductSyncItem[];
}

/** What a sync did with one item: created, updated or left unchanged (or, for deletes, deleted or absent). */
export type SyncAction = SyncOutcome['action'];

/** What the sync did with one variant of a product item, by SKU. */
export interface VariantSyncOutcome {
  sku: string;
  id: number | null;
  action: SyncAction;
}

/** What the sync did with one product item and each variant it named. */
export interface ProductSyncOutcome {
  itemNumber: string;
  id: number | null;
  action: SyncAction;
  variants: VariantSyncOutcome[];
}
