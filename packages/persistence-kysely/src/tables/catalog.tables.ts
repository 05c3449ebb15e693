/**
 * Row types of the catalog tables. Booleans are 0/1, timestamps ISO-8601 UTC text, money in
 * minor units (bigint), and free-form structures (meta, attributes, colli, tags, a collection's
 * allowed customers) JSON text, in both dialects. Child rows have no order of their own: the
 * adapters return them by their natural key (prices by currency, category ids ascending, …).
 */

export interface ProductsTable {
  id: number;
  brand_id: number;
  item_number: string;
  name: string;
  description: string | null;
  active: number;
  make_to_order_b2b: number;
  make_to_order_b2c: number;
  /** JSON object. */
  meta: string;
  weight: number | null;
  weight_type: string;
  no_inventory: number;
  release_date: string | null;
  noos: number;
  min_order_quantity: number | null;
  custom_sort: number | null;
  order_colli_only: number;
  /** JSON array of integers. */
  colli: string;
  url: string | null;
  meta_title: string | null;
  meta_description: string | null;
  /** JSON array of strings (tags are never filtered on, so no table of their own). */
  tags: string;
  use_sort_b2c: number;
  subbrand_id: number | null;
  collection_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface VariantsTable {
  id: number;
  brand_id: number;
  product_id: number;
  sku: string;
  ean: string | null;
  /** JSON object of attribute name → value. */
  attributes: string;
  archived: number;
  b2c_available: number;
  /** Overrides of the product's fields: NULL means "as the product". */
  make_to_order_b2b: number | null;
  make_to_order_b2c: number | null;
  noos: number | null;
  weight: number | null;
  weight_type: string | null;
  release_date: string | null;
  /** JSON object. */
  meta: string;
  picture: string | null;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface VariantPricesTable {
  brand_id: number;
  variant_id: number;
  currency: string;
  sales_price: number;
  rec_sales_price: number;
  offer_price: number | null;
  b2c_offer_price: number | null;
}

export interface CostPriceSetsTable {
  id: number;
  brand_id: number;
  label: string;
  currency: string;
  is_default: number;
  created_at: string;
}

export interface VariantCostPricesTable {
  brand_id: number;
  variant_id: number;
  cost_price_set_id: number;
  cost_price: number;
}

export interface ProductSuppliersTable {
  brand_id: number;
  product_id: number;
  supplier_id: number;
  is_primary: number;
  lead_time_type: string;
  lead_time_from: number | null;
  lead_time_to: number | null;
  cost_price_set_id: number | null;
}

export interface ProductLocalesTable {
  id: number;
  brand_id: number;
  code: string;
  name: string;
}

export interface ProductTranslationsTable {
  brand_id: number;
  product_id: number;
  locale_id: number;
  name: string;
  description: string | null;
  meta_title: string | null;
  meta_description: string | null;
}

export interface CategoriesTable {
  id: number;
  brand_id: number;
  parent_id: number | null;
  name: string;
  /**
   * The name lower-cased by JavaScript (`toLowerCase`), so that "unique per parent, ignoring
   * case" means the same on SQLite (whose lower() folds ASCII only), Postgres and in memory.
   */
  name_key: string;
  created_at: string;
  updated_at: string;
}

export interface ProductCategoriesTable {
  brand_id: number;
  product_id: number;
  category_id: number;
}

export interface CollectionsTable {
  id: number;
  brand_id: number;
  title: string;
  active: number;
  visibility: string;
  /** JSON array of customer ids (a visibility setting, not a reference that blocks deleting a customer). */
  allowed_customer_ids: string;
  created_at: string;
  updated_at: string;
}

export interface SubbrandsTable {
  id: number;
  brand_id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface DropsTable {
  id: number;
  brand_id: number;
  code: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface VariantDropsTable {
  brand_id: number;
  variant_id: number;
  drop_id: number;
}

export interface ProductImagesTable {
  id: number;
  brand_id: number;
  product_id: number;
  blob_key: string;
  source_url: string;
  existance_key: string | null;
  content_type: string;
  size_bytes: number;
  alt: string | null;
  filename: string | null;
  sort: number;
  sort_b2c: number | null;
  created_at: string;
  updated_at: string;
}

export interface ProductImageVariantsTable {
  brand_id: number;
  image_id: number;
  variant_id: number;
}

declare module '../database' {
  /** The catalog tables. */
  interface Database {
    products: ProductsTable;
    variants: VariantsTable;
    variant_prices: VariantPricesTable;
    cost_price_sets: CostPriceSetsTable;
    variant_cost_prices: VariantCostPricesTable;
    product_suppliers: ProductSuppliersTable;
    product_locales: ProductLocalesTable;
    product_translations: ProductTranslationsTable;
    categories: CategoriesTable;
    product_categories: ProductCategoriesTable;
    collections: CollectionsTable;
    subbrands: SubbrandsTable;
    drops: DropsTable;
    variant_drops: VariantDropsTable;
    product_images: ProductImagesTable;
    product_image_variants: ProductImageVariantsTable;
  }
}
