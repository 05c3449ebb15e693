import { JsonSchema } from '../http/route';
import { date, dateTime, money, nullable, ref, required } from './schema-building';

/**
 * Response objects of the catalog and inventory (products, variants, stock, drops, locations,
 * locales, sub-brands), declared by hand beside `RESPONSE_SCHEMAS`. Keep them in step with the
 * catalog presenters; the catalog OpenAPI test compares their properties with what the
 * presenters return.
 */
const meta: JsonSchema = { type: 'object', additionalProperties: true, description: 'Custom fields' };
const weightType = (nullableToo: boolean): JsonSchema => ({
  type: nullableToo ? ['string', 'null'] : 'string',
  enum: nullableToo ? ['g', 'kg', null] : ['g', 'kg'],
});

const variantPrice = required({
  type: 'object',
  properties: {
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    sales_price: money('Wholesale (B2B) price'),
    rec_sales_price: money('Recommended retail (B2C) price'),
    offer_price: nullable('number', { description: 'Replaces sales_price on B2B when set' }),
    b2c_offer_price: nullable('number', {
      description: 'Replaces rec_sales_price on B2C when set (the variant is on sale)',
    }),
  },
});

const variantCostPrice = required({
  type: 'object',
  properties: {
    cost_price_set_id: { type: 'integer' },
    currency: nullable('string', { description: "The cost price set's currency" }),
    label: nullable('string', { description: "The cost price set's label" }),
    cost_price: money('Cost in the set currency'),
  },
});

const stockBalance = required({
  type: 'object',
  properties: {
    inventory_location_id: { type: 'integer' },
    in_stock: { type: 'integer', description: 'Pieces physically there' },
    reserved: { type: 'integer', description: 'Pieces held by open orders' },
    available: { type: 'integer', description: 'in_stock − reserved: pieces that can still be sold' },
    updated_at: dateTime,
  },
});

const availableStock = required({
  type: 'object',
  properties: {
    id: { type: 'integer', description: 'The stock row id; pass the last one as starting_after' },
    variant_id: { type: 'integer' },
    sku: { type: 'string' },
    ean: nullable('string'),
    inventory_location_id: { type: 'integer' },
    in_stock: { type: 'integer' },
    available: { type: 'integer', description: 'in_stock minus reserved pieces' },
    updated_at: dateTime,
  },
});

const productCategory = required({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    parent_id: nullable('integer', { description: 'null for a top category' }),
    name: { type: 'string' },
    top_category: { type: 'string', description: "The top category's name" },
    sub_category: nullable('string', { description: "The subcategory's name; null for a top category" }),
    created_at: dateTime,
    updated_at: dateTime,
  },
});

const productSupplier = required({
  type: 'object',
  properties: {
    supplier_id: { type: 'integer' },
    supplier_number: nullable('string'),
    name: nullable('string'),
    primary: { type: 'boolean' },
    lead_time_type: { type: 'string', enum: ['weeks', 'days'] },
    lead_time_from: nullable('integer'),
    lead_time_to: nullable('integer'),
    cost_price_set_id: nullable('integer'),
  },
});

const productTranslation = required({
  type: 'object',
  properties: {
    product_locale_id: { type: 'integer' },
    product_locale_code: nullable('string'),
    name: { type: 'string' },
    description: nullable('string'),
    meta_title: nullable('string'),
    meta_description: nullable('string'),
  },
});

/** As the image sync shows an image (`presentProductImage`), without its `action`. */
const productImage = required({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    url: {
      type: 'string',
      format: 'uri',
      description: 'Public URL the platform serves the image at (GET /media/…, no token needed)',
    },
    source_url: { type: 'string', description: 'The URL the image was downloaded from' },
    existance_key: nullable('string'),
    content_type: { type: 'string' },
    size_bytes: { type: 'integer' },
    sort: { type: 'integer' },
    sort_b2c: nullable('integer'),
    alt: nullable('string'),
    filename: nullable('string'),
    variant_ids: {
      type: 'array',
      items: { type: 'integer' },
      description: 'Variants the image is attached to; empty: the whole product',
    },
    created_at: dateTime,
    updated_at: dateTime,
  },
});

const VARIANT_INCLUDES = ['prices', 'inventory', 'cost_prices', 'product'];
const variant = required(
  {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      product_id: { type: 'integer' },
      item_number: { type: 'string', description: "The product's item number" },
      sku: { type: 'string' },
      ean: nullable('string'),
      attributes: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'e.g. {"color": "Navy", "size": "M"}',
      },
      archived: { type: 'boolean', description: 'Cannot be sold on B2B' },
      b2c_available: { type: 'boolean', description: 'False blocks B2C sale' },
      make_to_order_b2b: nullable('boolean', { description: "Override of the product's field; null: as the product" }),
      make_to_order_b2c: nullable('boolean', { description: "Override of the product's field; null: as the product" }),
      noos: nullable('boolean', { description: "Override of the product's field; null: as the product" }),
      weight: nullable('number', { description: "Override of the product's weight, in weight_type units" }),
      weight_type: weightType(true),
      release_date: date("Override of the product's release date"),
      meta,
      position: { type: 'integer', description: 'Order within the product' },
      drop_ids: { type: 'array', items: { type: 'integer' } },
      created_at: dateTime,
      updated_at: dateTime,
      prices: {
        type: 'array',
        items: ref('VariantPrice'),
        description: 'With includes[]=prices (variants.prices on products)',
      },
      inventory: {
        type: 'array',
        items: ref('StockBalance'),
        description: 'With includes[]=inventory (variants.inventory on products); one row per location',
      },
      cost_prices: {
        type: 'array',
        items: ref('VariantCostPrice'),
        description: 'With includes[]=cost_prices (variants.cost_prices on products)',
      },
      product: {
        oneOf: [ref('Product'), { type: 'null' }],
        description: 'With includes[]=product (variant list and detail)',
      },
    },
  },
  VARIANT_INCLUDES,
);

const PRODUCT_INCLUDES = ['variants', 'categories', 'suppliers', 'translations', 'images'];
const product = required(
  {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      item_number: { type: 'string' },
      name: { type: 'string' },
      description: nullable('string'),
      active: { type: 'boolean', description: 'Sellable / shown in the webshop' },
      make_to_order_b2b: { type: 'boolean' },
      make_to_order_b2c: { type: 'boolean' },
      meta,
      weight: nullable('number', { description: 'In weight_type units, at most 3 decimals' }),
      weight_type: weightType(false),
      no_inventory: { type: 'boolean' },
      release_date: date('Not ready to ship before it'),
      noos: { type: 'boolean', description: 'Never-out-of-stock programme' },
      min_order_quantity: nullable('integer'),
      custom_sort: nullable('integer'),
      order_colli_only: { type: 'boolean' },
      colli: { type: 'array', items: { type: 'integer' } },
      url: nullable('string'),
      meta_title: nullable('string'),
      meta_description: nullable('string'),
      tags: { type: 'array', items: { type: 'string' } },
      use_sort_b2c: { type: 'boolean' },
      subbrand_id: nullable('integer'),
      collection_id: nullable('integer'),
      category_ids: { type: 'array', items: { type: 'integer' } },
      created_at: dateTime,
      updated_at: dateTime,
      variants: {
        type: 'array',
        items: ref('Variant'),
        description: 'With includes[]=variants or any variants.* include',
      },
      categories: { type: 'array', items: ref('ProductCategory'), description: 'With includes[]=categories' },
      suppliers: { type: 'array', items: ref('ProductSupplier'), description: 'With includes[]=suppliers' },
      translations: { type: 'array', items: ref('ProductTranslation'), description: 'With includes[]=translations' },
      images: { type: 'array', items: ref('ProductImage'), description: 'With includes[]=images, ordered by sort' },
    },
  },
  PRODUCT_INCLUDES,
);

const drop = required({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    code: { type: 'string' },
    name: { type: 'string' },
    created_at: dateTime,
    updated_at: dateTime,
  },
});

const inventoryLocation = required({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    is_default: { type: 'boolean', description: 'Where stock goes when no location is named; one per brand' },
    created_at: dateTime,
    updated_at: dateTime,
  },
});

const productLocale = required({
  type: 'object',
  properties: { id: { type: 'integer' }, code: { type: 'string' }, name: { type: 'string' } },
});

const subbrand = required({
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, created_at: dateTime, updated_at: dateTime },
});

/** Named catalog schemas, merged into `components.schemas` with the other response schemas. */
export const CATALOG_RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Product: product,
  Variant: variant,
  VariantPrice: variantPrice,
  VariantCostPrice: variantCostPrice,
  StockBalance: stockBalance,
  AvailableStock: availableStock,
  ProductCategory: productCategory,
  ProductSupplier: productSupplier,
  ProductTranslation: productTranslation,
  ProductImage: productImage,
  Drop: drop,
  InventoryLocation: inventoryLocation,
  ProductLocale: productLocale,
  Subbrand: subbrand,
};

/** `{ "<key>": [<item>…], "has_more", "next_cursor" }` of a cursor-only list (never a total). */
export function cursorOnlyListResponseSchema(key: string, itemSchema: string): JsonSchema {
  return {
    type: 'object',
    required: [key, 'has_more', 'next_cursor'],
    properties: {
      [key]: { type: 'array', items: ref(itemSchema) },
      has_more: { type: 'boolean' },
      next_cursor: nullable('string', {
        description: 'Pass as cursor to get the next page; null when has_more is false',
      }),
    },
  };
}
