import { Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/** Kinds added by the catalog whose ids come from Postgres sequences `ids_<kind>`. */
export const CATALOG_ID_KINDS = [
  'products',
  'variants',
  'categories',
  'collections',
  'subbrands',
  'drops',
  'cost_price_sets',
  'product_locales',
  'product_images',
  'inventory_locations',
  'stock_balances',
  'stock_movements',
] as const;

/**
 * Products, variants and everything hanging off them; categories, collections, sub-brands, drops,
 * images; inventory locations, stock balances and the stock ledger.
 *
 * Deleting a product cascades to its variants, images and links; deleting a variant cascades to
 * its prices, cost prices, drop links, image links, balances and ledger rows (stock of a variant
 * that no longer exists means nothing; documents that refer to a variant block its deletion
 * instead). Suppliers, cost price sets, drops, locales and locations referred to by a product
 * cannot be deleted (the foreign key is the backstop of the dependents check).
 */
export function catalogMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        for (const kind of CATALOG_ID_KINDS) await sql`create sequence ${sql.id(`ids_${kind}`)}`.execute(db);
      }

      // Indexes of child rows lead with the parent key (foreign-key cascades and checks need that)
      // followed by brand_id: a lookup `brand_id = ? and parent_id in (…)` then constrains two
      // columns of the child index, so SQLite's planner (which has no statistics) prefers it to
      // the (brand_id, id) keyset index, which would scan every row of the brand.
      await db.schema
        .createTable('subbrands')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('subbrands_brand_id_idx').on('subbrands').columns(['brand_id', 'id']).execute();

      await db.schema
        .createTable('collections')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('visibility', 'text', (c) => c.notNull())
        .addColumn('allowed_customer_ids', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('collections_brand_id_idx').on('collections').columns(['brand_id', 'id']).execute();

      await db.schema
        .createTable('products')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('item_number', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('make_to_order_b2b', 'integer', (c) => c.notNull())
        .addColumn('make_to_order_b2c', 'integer', (c) => c.notNull())
        .addColumn('meta', 'text', (c) => c.notNull())
        .addColumn('weight', bigint)
        .addColumn('weight_type', 'text', (c) => c.notNull())
        .addColumn('no_inventory', 'integer', (c) => c.notNull())
        .addColumn('release_date', 'text')
        .addColumn('noos', 'integer', (c) => c.notNull())
        .addColumn('min_order_quantity', 'integer')
        .addColumn('custom_sort', 'integer')
        .addColumn('order_colli_only', 'integer', (c) => c.notNull())
        .addColumn('colli', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('meta_title', 'text')
        .addColumn('meta_description', 'text')
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('use_sort_b2c', 'integer', (c) => c.notNull())
        .addColumn('subbrand_id', bigint, (c) => c.references('subbrands.id'))
        .addColumn('collection_id', bigint, (c) => c.references('collections.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('products_item_number_uq', ['brand_id', 'item_number'])
        .execute();
      await db.schema.createIndex('products_brand_id_idx').on('products').columns(['brand_id', 'id']).execute();

      await db.schema
        .createTable('variants')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('product_id', bigint, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('ean', 'text')
        .addColumn('attributes', 'text', (c) => c.notNull())
        .addColumn('archived', 'integer', (c) => c.notNull())
        .addColumn('b2c_available', 'integer', (c) => c.notNull())
        .addColumn('make_to_order_b2b', 'integer')
        .addColumn('make_to_order_b2c', 'integer')
        .addColumn('noos', 'integer')
        .addColumn('weight', bigint)
        .addColumn('weight_type', 'text')
        .addColumn('release_date', 'text')
        .addColumn('meta', 'text', (c) => c.notNull())
        .addColumn('picture', 'text')
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('variants_sku_uq', ['brand_id', 'sku'])
        .execute();
      await db.schema.createIndex('variants_brand_id_idx').on('variants').columns(['brand_id', 'id']).execute();
      await db.schema
        .createIndex('variants_product_idx')
        .on('variants')
        .columns(['product_id', 'brand_id', 'position'])
        .execute();
      await db.schema.createIndex('variants_ean_idx').on('variants').columns(['brand_id', 'ean']).execute();

      await db.schema
        .createTable('variant_prices')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('variant_id', bigint, (c) => c.notNull().references('variants.id').onDelete('cascade'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('sales_price', bigint, (c) => c.notNull())
        .addColumn('rec_sales_price', bigint, (c) => c.notNull())
        .addColumn('offer_price', bigint)
        .addColumn('b2c_offer_price', bigint)
        .addPrimaryKeyConstraint('variant_prices_pk', ['variant_id', 'currency'])
        .execute();

      await db.schema
        .createTable('cost_price_sets')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('is_default', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('cost_price_sets_brand_id_idx')
        .on('cost_price_sets')
        .columns(['brand_id', 'id'])
        .execute();
      // One default set per currency: two syncs creating it at once collide here and the loser retries.
      await sql`create unique index cost_price_sets_default_uq on cost_price_sets (brand_id, currency) where is_default = 1`.execute(
        db,
      );

      await db.schema
        .createTable('variant_cost_prices')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('variant_id', bigint, (c) => c.notNull().references('variants.id').onDelete('cascade'))
        .addColumn('cost_price_set_id', bigint, (c) => c.notNull().references('cost_price_sets.id'))
        .addColumn('cost_price', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('variant_cost_prices_pk', ['variant_id', 'cost_price_set_id'])
        .execute();

      await db.schema
        .createTable('product_suppliers')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('product_id', bigint, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('supplier_id', bigint, (c) => c.notNull().references('suppliers.id'))
        .addColumn('is_primary', 'integer', (c) => c.notNull())
        .addColumn('lead_time_type', 'text', (c) => c.notNull())
        .addColumn('lead_time_from', 'integer')
        .addColumn('lead_time_to', 'integer')
        .addColumn('cost_price_set_id', bigint, (c) => c.references('cost_price_sets.id'))
        .addPrimaryKeyConstraint('product_suppliers_pk', ['product_id', 'supplier_id'])
        .execute();
      // Deleting a supplier checks for links (and the foreign key needs it too).
      await db.schema
        .createIndex('product_suppliers_supplier_idx')
        .on('product_suppliers')
        .columns(['supplier_id'])
        .execute();

      await db.schema
        .createTable('product_locales')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addUniqueConstraint('product_locales_code_uq', ['brand_id', 'code'])
        .execute();

      await db.schema
        .createTable('product_translations')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('product_id', bigint, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('locale_id', bigint, (c) => c.notNull().references('product_locales.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('meta_title', 'text')
        .addColumn('meta_description', 'text')
        .addPrimaryKeyConstraint('product_translations_pk', ['product_id', 'locale_id'])
        .execute();

      await db.schema
        .createTable('categories')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        // A subcategory cannot outlive its top category (the older interface deletes both).
        .addColumn('parent_id', bigint, (c) => c.references('categories.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('categories_brand_id_idx').on('categories').columns(['brand_id', 'id']).execute();
      await db.schema
        .createIndex('categories_parent_idx')
        .on('categories')
        .columns(['parent_id', 'brand_id'])
        .execute();
      // Names are unique per parent ignoring case; coalesce makes top categories (NULL parent)
      // collide with each other too, since NULLs are distinct in a plain unique index.
      await sql`create unique index categories_name_uq on categories (brand_id, coalesce(parent_id, 0), name_key)`.execute(
        db,
      );

      await db.schema
        .createTable('product_categories')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('product_id', bigint, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('category_id', bigint, (c) => c.notNull().references('categories.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('product_categories_pk', ['product_id', 'category_id'])
        .execute();
      await db.schema
        .createIndex('product_categories_category_idx')
        .on('product_categories')
        .columns(['category_id'])
        .execute();

      await db.schema
        .createTable('drops')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('drops_code_uq', ['brand_id', 'code'])
        .execute();
      await db.schema.createIndex('drops_brand_id_idx').on('drops').columns(['brand_id', 'id']).execute();

      await db.schema
        .createTable('variant_drops')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('variant_id', bigint, (c) => c.notNull().references('variants.id').onDelete('cascade'))
        .addColumn('drop_id', bigint, (c) => c.notNull().references('drops.id'))
        .addPrimaryKeyConstraint('variant_drops_pk', ['variant_id', 'drop_id'])
        .execute();
      await db.schema.createIndex('variant_drops_drop_idx').on('variant_drops').columns(['drop_id']).execute();

      await db.schema
        .createTable('product_images')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('product_id', bigint, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('blob_key', 'text', (c) => c.notNull())
        .addColumn('source_url', 'text', (c) => c.notNull())
        .addColumn('existance_key', 'text')
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size_bytes', bigint, (c) => c.notNull())
        .addColumn('alt', 'text')
        .addColumn('filename', 'text')
        .addColumn('sort', 'integer', (c) => c.notNull())
        .addColumn('sort_b2c', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('product_images_product_idx')
        .on('product_images')
        .columns(['product_id', 'brand_id', 'sort', 'id'])
        .execute();
      await db.schema
        .createIndex('product_images_source_url_idx')
        .on('product_images')
        .columns(['brand_id', 'source_url'])
        .execute();
      await db.schema
        .createIndex('product_images_existance_key_idx')
        .on('product_images')
        .columns(['brand_id', 'existance_key'])
        .execute();

      await db.schema
        .createTable('product_image_variants')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('image_id', bigint, (c) => c.notNull().references('product_images.id').onDelete('cascade'))
        .addColumn('variant_id', bigint, (c) => c.notNull().references('variants.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('product_image_variants_pk', ['image_id', 'variant_id'])
        .execute();
      await db.schema
        .createIndex('product_image_variants_variant_idx')
        .on('product_image_variants')
        .columns(['variant_id'])
        .execute();

      await db.schema
        .createTable('inventory_locations')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('is_default', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('inventory_locations_brand_id_idx')
        .on('inventory_locations')
        .columns(['brand_id', 'id'])
        .execute();
      // Exactly one default per brand, even when two first syncs create it at once (the loser retries).
      await sql`create unique index inventory_locations_default_uq on inventory_locations (brand_id) where is_default = 1`.execute(
        db,
      );

      await db.schema
        .createTable('stock_balances')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('variant_id', bigint, (c) => c.notNull().references('variants.id').onDelete('cascade'))
        .addColumn('location_id', bigint, (c) => c.notNull().references('inventory_locations.id'))
        .addColumn('in_stock', 'integer', (c) => c.notNull())
        .addColumn('reserved', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('stock_balances_variant_location_uq', ['variant_id', 'brand_id', 'location_id'])
        .execute();
      // Inventory available pages by (brand, balance id).
      await db.schema
        .createIndex('stock_balances_brand_id_idx')
        .on('stock_balances')
        .columns(['brand_id', 'id'])
        .execute();

      await db.schema
        .createTable('stock_movements')
        .addColumn('id', bigint, (c) => c.primaryKey())
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('variant_id', bigint, (c) => c.notNull().references('variants.id').onDelete('cascade'))
        .addColumn('location_id', bigint, (c) => c.notNull().references('inventory_locations.id'))
        .addColumn('in_stock_delta', 'integer', (c) => c.notNull())
        .addColumn('reserved_delta', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('document_type', 'text')
        .addColumn('document_id', bigint)
        .addColumn('user_id', bigint)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // A variant's ledger, newest first.
      await db.schema
        .createIndex('stock_movements_variant_idx')
        .on('stock_movements')
        .columns(['variant_id', 'created_at', 'id'])
        .execute();
    },
    async down() {
      throw new Error('The catalog migration cannot be undone');
    },
  };
}
