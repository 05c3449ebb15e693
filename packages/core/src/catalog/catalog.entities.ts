/**
 * The catalog: products with variants, prices per currency, cost prices, categories,
 * collections, drops, suppliers, translations and images. Amounts are integers of a fixed
 * scale (see each field); every record belongs to one brand.
 */

/** The unit a product's or variant's weight is given in. */
export type WeightUnit = 'g' | 'kg';
/** The unit of a supplier's lead time for a product. */
export type LeadTimeType = 'weeks' | 'days';
/**
 * How a product sync treats the list items (categories, suppliers, …) it does not send: `replace`
 * drops them, `append` keeps them.
 */
export type SyncMode = 'replace' | 'append';

/** Key/value custom fields; syncs merge them partially (sent keys replace, others stay). */
export type Meta = Record<string, unknown>;

/**
 * A product of a brand's catalog: the fields its variants share, each variant being what is sold (a
 * size, a colour).
 */
export interface Product {
  id: number;
  brandId: number;
  /** Unique per brand; the sync match key. */
  itemNumber: string;
  name: string;
  description: string | null;
  /** Sellable / shown in the webshop. */
  active: boolean;
  makeToOrderB2b: boolean;
  makeToOrderB2c: boolean;
  meta: Meta;
  /** Weight in thousandths of `weightType` (1.5 kg → 1500), or null. */
  weight: number | null;
  weightType: WeightUnit;
  /** Digital goods: no inventory is stored or changed. */
  noInventory: boolean;
  /** YYYY-MM-DD; not ready to ship before it. */
  releaseDate: string | null;
  /** Never-out-of-stock programme: sells beyond stock. */
  noos: boolean;
  minOrderQuantity: number | null;
  customSort: number | null;
  orderColliOnly: boolean;
  /** Colli sizes (pieces per colli). */
  colli: number[];
  url: string | null;
  metaTitle: string | null;
  metaDescription: string | null;
  tags: string[];
  /** Images are ordered by `sortB2c` instead of `sort` on B2C channels. */
  useSortB2c: boolean;
  /** Older interface: sub-brand and collection the product belongs to. */
  subbrandId: number | null;
  collectionId: number | null;
  categoryIds: number[];
  createdAt: string;
  updatedAt: string;
}

/**
 * One sellable article of a product (a size, a colour), found by its SKU; its fields override the
 * product's where set.
 */
export interface Variant {
  id: number;
  brandId: number;
  productId: number;
  /** Unique per brand; the sync match key. */
  sku: string;
  ean: string | null;
  /** Variant attributes such as color and size (name → value). */
  attributes: Record<string, string>;
  /** Cannot be sold on B2B. */
  archived: boolean;
  /** False blocks B2C sale. */
  b2cAvailable: boolean;
  /** Overrides of the product's fields; null means "as the product". */
  makeToOrderB2b: boolean | null;
  makeToOrderB2c: boolean | null;
  noos: boolean | null;
  weight: number | null;
  weightType: WeightUnit | null;
  releaseDate: string | null;
  meta: Meta;
  /** Older interface: the variant's picture URL. */
  picture: string | null;
  /** Order of the variant within its product. */
  position: number;
  dropIds: number[];
  createdAt: string;
  updatedAt: string;
}

/** Prices of one variant in one currency, in minor units. */
export interface VariantPrice {
  variantId: number;
  currency: string;
  /** Wholesale (B2B). */
  salesPrice: number;
  /** Retail (B2C and storefronts). */
  recSalesPrice: number;
  /** Replaces salesPrice on B2B when set. */
  offerPrice: number | null;
  /** Replaces recSalesPrice on B2C when set (puts the variant on sale). */
  b2cOfferPrice: number | null;
}

/** A named set of cost prices in one currency; each currency has a default set. */
export interface CostPriceSet {
  id: number;
  brandId: number;
  label: string;
  currency: string;
  isDefault: boolean;
  createdAt: string;
}

/** Cost of one variant in one cost price set, in minor units of the set's currency. */
export interface VariantCostPrice {
  variantId: number;
  costPriceSetId: number;
  costPrice: number;
}

/** A supplier of a product, with its lead time and cost price set; one supplier may be primary. */
export interface ProductSupplierLink {
  productId: number;
  supplierId: number;
  primary: boolean;
  leadTimeType: LeadTimeType;
  leadTimeFrom: number | null;
  leadTimeTo: number | null;
  costPriceSetId: number | null;
}

/** A language the brand translates products into (e.g. code `de`). */
export interface ProductLocale {
  id: number;
  brandId: number;
  code: string;
  name: string;
}

/** A product's name, description and SEO texts in one of the brand's product locales. */
export interface ProductTranslation {
  productId: number;
  localeId: number;
  name: string;
  description: string | null;
  metaTitle: string | null;
  metaDescription: string | null;
}

/** Top categories have no parent; subcategories have a top category as parent. */
export interface Category {
  id: number;
  brandId: number;
  parentId: number | null;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** A collection of products (older interface), and who may view it. */
export interface Collection {
  id: number;
  brandId: number;
  title: string;
  active: boolean;
  /** Who may view the products: `own_entity`, `customers_custom`, … */
  visibility: string;
  /** Customers allowed when visibility is `customers_custom`. */
  allowedCustomerIds: number[];
  createdAt: string;
  updatedAt: string;
}

/** A sub-brand a product can belong to (older interface). */
export interface Subbrand {
  id: number;
  brandId: number;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** A delivery window / season; B2B orders may have to name one. */
export interface Drop {
  id: number;
  brandId: number;
  code: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** A downloaded product image, stored in the blob store. */
export interface ProductImage {
  id: number;
  brandId: number;
  productId: number;
  /** Where the bytes live in the blob store. */
  blobKey: string;
  /** The URL it was downloaded from; a URL already received is not downloaded again. */
  sourceUrl: string;
  /** Stands for the URL when deciding whether the image exists (expiring URLs). */
  existanceKey: string | null;
  contentType: string;
  sizeBytes: number;
  alt: string | null;
  filename: string | null;
  sort: number;
  sortB2c: number | null;
  /** Variants the image is attached to (empty: the whole product). */
  variantIds: number[];
  createdAt: string;
  updatedAt: string;
}

/** A product with everything a sync or a detail page needs. */
export interface ProductAggregate {
  product: Product;
  variants: VariantRecord[];
  suppliers: ProductSupplierLink[];
  translations: ProductTranslation[];
}

/** A variant with its prices per currency and its cost prices. */
export interface VariantRecord {
  variant: Variant;
  prices: VariantPrice[];
  costPrices: VariantCostPrice[];
}
