import {
  CatalogRelations,
  Category,
  LeadTimeType,
  Meta,
  ProductAggregate,
  ProductSupplierLink,
  Subbrand,
  Supplier,
  WeightUnit,
  emptyCatalogRelations,
} from '@brand/core';
import { MediaUrl, ProductImageWire, presentProductImage } from './product-image.presenter';
import { ProductTranslationWire, presentProductTranslation } from './product-locale.presenter';
import { VariantWire, presentVariant, presentWeight } from './variant.presenter';

/** A category of a product, with the names the product sync uses for it. */
export interface ProductCategoryWire {
  id: number;
  parent_id: number | null;
  name: string;
  /** The top category's name (the category's own name when it is a top category). */
  top_category: string;
  /** The subcategory's name, or null for a top category. */
  sub_category: string | null;
  created_at: string;
  updated_at: string;
}

export function presentProductCategory(
  category: Category,
  categories: ReadonlyMap<number, Category>,
): ProductCategoryWire {
  const parent = category.parentId !== null ? categories.get(category.parentId) : undefined;
  return {
    id: category.id,
    parent_id: category.parentId,
    name: category.name,
    top_category: parent ? parent.name : category.name,
    sub_category: category.parentId !== null ? category.name : null,
    created_at: category.createdAt,
    updated_at: category.updatedAt,
  };
}

/** A supplier link of a product, in the shape the product sync takes it. */
export interface ProductSupplierWire {
  supplier_id: number;
  /** Null only if the supplier could not be loaded. */
  supplier_number: string | null;
  name: string | null;
  primary: boolean;
  lead_time_type: LeadTimeType;
  lead_time_from: number | null;
  lead_time_to: number | null;
  cost_price_set_id: number | null;
}

export function presentProductSupplier(
  link: ProductSupplierLink,
  suppliers: ReadonlyMap<number, Supplier>,
): ProductSupplierWire {
  const supplier = suppliers.get(link.supplierId);
  return {
    supplier_id: link.supplierId,
    supplier_number: supplier?.supplierNumber ?? null,
    name: supplier?.name ?? null,
    primary: link.primary,
    lead_time_type: link.leadTimeType,
    lead_time_from: link.leadTimeFrom,
    lead_time_to: link.leadTimeTo,
    cost_price_set_id: link.costPriceSetId,
  };
}

/** Image URLs relative to the API's origin, for callers that do not know the public media origin. */
export const relativeMediaUrl: MediaUrl = (blobKey) => `/media/${blobKey}`;

export interface SubbrandWire {
  id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

export function presentSubbrand(subbrand: Subbrand): SubbrandWire {
  return { id: subbrand.id, name: subbrand.name, created_at: subbrand.createdAt, updated_at: subbrand.updatedAt };
}

export interface ProductWire {
  id: number;
  item_number: string;
  name: string;
  description: string | null;
  active: boolean;
  make_to_order_b2b: boolean;
  make_to_order_b2c: boolean;
  meta: Meta;
  /** In `weight_type` units, up to 3 decimals. */
  weight: number | null;
  weight_type: WeightUnit;
  no_inventory: boolean;
  release_date: string | null;
  noos: boolean;
  min_order_quantity: number | null;
  custom_sort: number | null;
  order_colli_only: boolean;
  colli: number[];
  url: string | null;
  meta_title: string | null;
  meta_description: string | null;
  tags: string[];
  use_sort_b2c: boolean;
  subbrand_id: number | null;
  collection_id: number | null;
  category_ids: number[];
  created_at: string;
  updated_at: string;
  variants?: VariantWire[];
  categories?: ProductCategoryWire[];
  suppliers?: ProductSupplierWire[];
  translations?: ProductTranslationWire[];
  images?: ProductImageWire[];
}

/** A variant of the variant list, with its product when `includes[]=product` asks for it (null: the product is gone). */
export type VariantWithProductWire = VariantWire & { product?: ProductWire | null };

/**
 * A product as the wire shows it. `includes` are the product list's names (`variants`,
 * `variants.prices`, `variants.inventory`, `variants.cost_prices`, `categories`, `suppliers`,
 * `translations`, `images`; a `variants.*` name shows the variants too); related records come
 * from `relations`; `mediaUrl` makes the public URL of an image (as the image sync shows it).
 * Without includes only the product's own fields are shown.
 *
 * @example presentProduct(aggregate) // the bare product, e.g. to embed in another response
 */
export function presentProduct(
  aggregate: ProductAggregate,
  includes: readonly string[] = [],
  relations: CatalogRelations = emptyCatalogRelations(),
  mediaUrl: MediaUrl = relativeMediaUrl,
): ProductWire {
  const { product } = aggregate;
  const wire: ProductWire = {
    id: product.id,
    item_number: product.itemNumber,
    name: product.name,
    description: product.description,
    active: product.active,
    make_to_order_b2b: product.makeToOrderB2b,
    make_to_order_b2c: product.makeToOrderB2c,
    meta: product.meta,
    weight: presentWeight(product.weight),
    weight_type: product.weightType,
    no_inventory: product.noInventory,
    release_date: product.releaseDate,
    noos: product.noos,
    min_order_quantity: product.minOrderQuantity,
    custom_sort: product.customSort,
    order_colli_only: product.orderColliOnly,
    colli: product.colli,
    url: product.url,
    meta_title: product.metaTitle,
    meta_description: product.metaDescription,
    tags: product.tags,
    use_sort_b2c: product.useSortB2c,
    subbrand_id: product.subbrandId,
    collection_id: product.collectionId,
    category_ids: product.categoryIds,
    created_at: product.createdAt,
    updated_at: product.updatedAt,
  };
  const variantIncludes = includes
    .filter((name) => name.startsWith('variants.'))
    .map((name) => name.slice('variants.'.length));
  if (includes.includes('variants') || variantIncludes.length > 0) {
    const variants = [...aggregate.variants].sort(
      (a, b) => a.variant.position - b.variant.position || a.variant.id - b.variant.id,
    );
    wire.variants = variants.map((record) => presentVariant(record, product.itemNumber, variantIncludes, relations));
  }
  if (includes.includes('categories')) {
    wire.categories = product.categoryIds.flatMap((id) => {
      const category = relations.categories.get(id);
      return category ? [presentProductCategory(category, relations.categories)] : [];
    });
  }
  if (includes.includes('suppliers'))
    wire.suppliers = aggregate.suppliers.map((link) => presentProductSupplier(link, relations.suppliers));
  if (includes.includes('translations'))
    wire.translations = aggregate.translations.map((t) => presentProductTranslation(t, relations.locales));
  if (includes.includes('images'))
    wire.images = (relations.images.get(product.id) ?? []).map((image) => presentProductImage(image, mediaUrl));
  return wire;
}
