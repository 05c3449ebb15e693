import { ListDefinition } from '../listing/list-query';
import { AvailableStock, InventoryLocation } from '../inventory/inventory.entities';
import { Category, Collection, Drop, ProductAggregate } from './catalog.entities';
import { VariantRef } from './catalog.ports';

const productFields: ListDefinition<ProductAggregate>['fields'] = {
  id: { type: 'integer', get: (a) => a.product.id },
  item_number: { type: 'string', get: (a) => a.product.itemNumber },
  name: { type: 'string', get: (a) => a.product.name },
  active: { type: 'boolean', get: (a) => a.product.active },
  no_inventory: { type: 'boolean', get: (a) => a.product.noInventory },
  noos: { type: 'boolean', get: (a) => a.product.noos },
  collection_id: { type: 'integer', get: (a) => a.product.collectionId },
  subbrand_id: { type: 'integer', get: (a) => a.product.subbrandId },
  release_date: { type: 'string', get: (a) => a.product.releaseDate },
  created_at: { type: 'datetime', get: (a) => a.product.createdAt },
  updated_at: { type: 'datetime', get: (a) => a.product.updatedAt },
};
const productFilterKeys = [
  'id',
  'item_number',
  'name',
  'active',
  'no_inventory',
  'noos',
  'collection_id',
  'subbrand_id',
  'release_date',
  'created_at',
  'updated_at',
];

/** `GET /v10/products`. */
export const productListDefinition: ListDefinition<ProductAggregate> = {
  resource: 'products',
  fields: productFields,
  sortKeys: ['id'],
  filterKeys: productFilterKeys,
  includes: [
    'variants',
    'variants.prices',
    'variants.inventory',
    'variants.cost_prices',
    'categories',
    'suppliers',
    'translations',
    'images',
  ],
};

/** `GET /api/products` (the older interface's includes). */
export const legacyProductListDefinition: ListDefinition<ProductAggregate> = {
  resource: 'api_products',
  fields: productFields,
  sortKeys: ['id', 'item_number', 'name', 'created_at', 'updated_at'],
  filterKeys: productFilterKeys,
  includes: ['categories', 'collection', 'subbrand', 'tags', 'variants', 'variants.inventory'],
};

/** `GET /v10/variants`. */
export const variantListDefinition: ListDefinition<VariantRef> = {
  resource: 'variants',
  fields: {
    id: { type: 'integer', get: (v) => v.variant.id },
    sku: { type: 'string', get: (v) => v.variant.sku },
    ean: { type: 'string', get: (v) => v.variant.ean },
    product_id: { type: 'integer', get: (v) => v.variant.productId },
    item_number: { type: 'string', get: (v) => v.itemNumber },
    archived: { type: 'boolean', get: (v) => v.variant.archived },
    b2c_available: { type: 'boolean', get: (v) => v.variant.b2cAvailable },
    created_at: { type: 'datetime', get: (v) => v.variant.createdAt },
    updated_at: { type: 'datetime', get: (v) => v.variant.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: [
    'id',
    'sku',
    'ean',
    'product_id',
    'item_number',
    'archived',
    'b2c_available',
    'created_at',
    'updated_at',
  ],
  includes: ['prices', 'inventory', 'cost_prices', 'product'],
};

/** `GET /v10/inventory-available`: cursor-only, never counted. */
export const availableStockListDefinition: ListDefinition<AvailableStock> = {
  resource: 'inventory_available',
  fields: {
    id: { type: 'integer', get: (r) => r.id },
    variant_id: { type: 'integer', get: (r) => r.variantId },
    sku: { type: 'string', get: (r) => r.sku },
    ean: { type: 'string', get: (r) => r.ean },
    inventory_location_id: { type: 'integer', get: (r) => r.locationId },
    in_stock: { type: 'integer', get: (r) => r.inStock },
    available: { type: 'integer', get: (r) => r.available },
    updated_at: { type: 'datetime', get: (r) => r.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['variant_id', 'sku', 'ean', 'inventory_location_id', 'in_stock', 'available', 'updated_at'],
  includes: [],
  cursorOnly: true,
};

/** `GET /api/categories`. */
export const categoryListDefinition: ListDefinition<Category> = {
  resource: 'api_categories',
  fields: {
    id: { type: 'integer', get: (c) => c.id },
    parent: { type: 'integer', get: (c) => c.parentId },
    name: { type: 'string', get: (c) => c.name },
    created_at: { type: 'datetime', get: (c) => c.createdAt },
    updated_at: { type: 'datetime', get: (c) => c.updatedAt },
  },
  sortKeys: ['id', 'name', 'created_at', 'updated_at'],
  filterKeys: ['id', 'parent', 'name', 'created_at', 'updated_at'],
  includes: ['children', 'products'],
};

/** `GET /api/collections`. */
export const collectionListDefinition: ListDefinition<Collection> = {
  resource: 'api_collections',
  fields: {
    id: { type: 'integer', get: (c) => c.id },
    title: { type: 'string', get: (c) => c.title },
    active: { type: 'boolean', get: (c) => c.active },
    visibility: { type: 'string', get: (c) => c.visibility },
    created_at: { type: 'datetime', get: (c) => c.createdAt },
    updated_at: { type: 'datetime', get: (c) => c.updatedAt },
  },
  sortKeys: ['id', 'title', 'created_at', 'updated_at'],
  filterKeys: ['id', 'title', 'active', 'visibility', 'created_at', 'updated_at'],
  includes: [],
};

/** `GET /v10/drops`. */
export const dropListDefinition: ListDefinition<Drop> = {
  resource: 'drops',
  fields: {
    id: { type: 'integer', get: (d) => d.id },
    code: { type: 'string', get: (d) => d.code },
    name: { type: 'string', get: (d) => d.name },
    created_at: { type: 'datetime', get: (d) => d.createdAt },
    updated_at: { type: 'datetime', get: (d) => d.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['id', 'code', 'name', 'created_at', 'updated_at'],
  includes: [],
};

/** `GET /v10/inventory-locations`. */
export const inventoryLocationListDefinition: ListDefinition<InventoryLocation> = {
  resource: 'inventory_locations',
  fields: {
    id: { type: 'integer', get: (l) => l.id },
    name: { type: 'string', get: (l) => l.name },
    is_default: { type: 'boolean', get: (l) => l.isDefault },
    created_at: { type: 'datetime', get: (l) => l.createdAt },
    updated_at: { type: 'datetime', get: (l) => l.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['id', 'name', 'is_default', 'created_at', 'updated_at'],
  includes: [],
};
