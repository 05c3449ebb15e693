import {
  CatalogRelations,
  Category,
  LeadTimeType,
  ProductAggregate,
  ProductSupplierLink,
  Subbrand,
  Supplier,
  emptyCatalogRelations,
} from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  boolean,
  component,
  componentNamed,
  dateTime,
  day,
  integer,
  meta,
  nullable,
  oneOfValues,
  optional,
  string,
} from '../http/wire-schema';
import { MediaUrl, ProductImageSchema, presentProductImage } from './product-image.presenter';
import { ProductTranslationSchema, presentProductTranslation } from './product-locale.presenter';
import { VariantSchema, VariantWire, presentVariant, presentWeight, weightUnit } from './variant.presenter';

/** A category of a product, with the names the product sync uses for it. */
export const ProductCategorySchema = component(
  'ProductCategory',
  Type.Object({
    id: integer(),
    parent_id: nullable(integer(), { description: 'null for a top category' }),
    name: string(),
    // A top category is its own top category.
    top_category: string("The top category's name"),
    sub_category: nullable(string(), { description: "The subcategory's name; null for a top category" }),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
);
export type ProductCategoryWire = Static<typeof ProductCategorySchema>;

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
export const ProductSupplierSchema = component(
  'ProductSupplier',
  Type.Object({
    supplier_id: integer(),
    // Null only if the supplier could not be loaded.
    supplier_number: nullable(string()),
    name: nullable(string()),
    primary: boolean(),
    lead_time_type: oneOfValues<LeadTimeType>(['weeks', 'days']),
    lead_time_from: nullable(integer()),
    lead_time_to: nullable(integer()),
    cost_price_set_id: nullable(integer()),
  }),
);
export type ProductSupplierWire = Static<typeof ProductSupplierSchema>;

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

export const SubbrandSchema = component(
  'Subbrand',
  Type.Object({ id: integer(), name: string(), created_at: dateTime(), updated_at: dateTime() }),
);
export type SubbrandWire = Static<typeof SubbrandSchema>;

export function presentSubbrand(subbrand: Subbrand): SubbrandWire {
  return { id: subbrand.id, name: subbrand.name, created_at: subbrand.createdAt, updated_at: subbrand.updatedAt };
}

export const ProductSchema = component(
  'Product',
  Type.Object({
    id: integer(),
    item_number: string(),
    name: string(),
    description: nullable(string()),
    active: boolean('Sellable / shown in the webshop'),
    make_to_order_b2b: boolean(),
    make_to_order_b2c: boolean(),
    meta: meta('Custom fields'),
    weight: nullable(Type.Number(), { description: 'In weight_type units, at most 3 decimals' }),
    weight_type: weightUnit,
    no_inventory: boolean(),
    release_date: nullable(day('Not ready to ship before it')),
    noos: boolean('Never-out-of-stock programme'),
    min_order_quantity: nullable(integer()),
    custom_sort: nullable(integer()),
    order_colli_only: boolean(),
    colli: arrayOf(integer()),
    url: nullable(string()),
    meta_title: nullable(string()),
    meta_description: nullable(string()),
    tags: arrayOf(string()),
    use_sort_b2c: boolean(),
    subbrand_id: nullable(integer()),
    collection_id: nullable(integer()),
    category_ids: arrayOf(integer()),
    created_at: dateTime(),
    updated_at: dateTime(),
    // `Variant` (below) shows its product, so the product names it; its variants never carry a product.
    variants: optional(
      arrayOf(componentNamed<VariantWire>('Variant'), 'With includes[]=variants or any variants.* include'),
    ),
    categories: optional(arrayOf(ProductCategorySchema, 'With includes[]=categories')),
    suppliers: optional(arrayOf(ProductSupplierSchema, 'With includes[]=suppliers')),
    translations: optional(arrayOf(ProductTranslationSchema, 'With includes[]=translations')),
    images: optional(arrayOf(ProductImageSchema, 'With includes[]=images, ordered by sort')),
  }),
);
export type ProductWire = Static<typeof ProductSchema>;

/** A variant of the variant list, with its product when `includes[]=product` asks for it (null: the product is gone). */
export const VariantWithProductSchema = component(
  'Variant',
  Type.Object({
    ...VariantSchema.properties,
    product: optional(nullable(ProductSchema, { description: 'With includes[]=product (variant list and detail)' })),
  }),
);
export type VariantWithProductWire = Static<typeof VariantWithProductSchema>;

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
