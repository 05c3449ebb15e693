import { ListQuery, ListRows } from '../listing/list-query';
import {
  Category,
  Product,
  Collection,
  CostPriceSet,
  Drop,
  ProductAggregate,
  ProductImage,
  ProductLocale,
  Subbrand,
  Variant,
  VariantPrice,
} from './catalog.entities';

/** A variant together with its product's item number, for lookups by SKU, EAN or id. */
export interface VariantRef {
  variant: Variant;
  itemNumber: string;
}

/**
 * A variant as selling it needs it: the variant, its product's ordering terms and its prices.
 * Lighter than an aggregate (no drops, categories, cost prices, suppliers or translations) and
 * read without locks, so that placing orders does not queue behind catalog writes.
 */
export interface SaleableVariant {
  variant: Omit<Variant, 'dropIds'>;
  product: Omit<Product, 'categoryIds'>;
  prices: VariantPrice[];
}

/**
 * Products as aggregates (variants, prices, cost prices, drops, categories, supplier links,
 * translations), read and written in batches so that a sync of 100 products is a handful of
 * statements, not thousands. Every method is scoped by brand.
 */
export interface ProductRepository {
  findByItemNumbers(brandId: number, itemNumbers: string[]): Promise<ProductAggregate[]>;
  findByIds(brandId: number, ids: number[]): Promise<ProductAggregate[]>;
  /**
   * Products attached to any of the categories (each product once, in id order), as complete
   * aggregates; `GET /api/categories?includes[]=products` groups them by `product.categoryIds`.
   * @example const inShoes = await tx.products.findByCategoryIds(brandId, [shoes.id]);
   */
  findByCategoryIds(brandId: number, categoryIds: number[]): Promise<ProductAggregate[]>;
  findVariantsBySkus(brandId: number, skus: string[]): Promise<VariantRef[]>;
  findVariantsByEans(brandId: number, eans: string[]): Promise<VariantRef[]>;
  findVariantsByIds(brandId: number, ids: number[]): Promise<VariantRef[]>;
  /** Variants by SKU or by EAN (in id order) with their product and prices, for pricing an order. */
  findSaleableVariants(brandId: number, keys: { skus?: string[]; eans?: string[] }): Promise<SaleableVariant[]>;
  /**
   * Inserts or updates each product and the variants in its aggregate (variants not in the
   * aggregate are left alone), and makes the stored prices, cost prices, drops, categories,
   * supplier links and translations of the saved products/variants equal to the aggregate's.
   */
  saveAll(brandId: number, aggregates: ProductAggregate[]): Promise<void>;
  /** Deletes a product with its variants and everything hanging off them. */
  deleteProduct(brandId: number, productId: number): Promise<void>;
  deleteVariant(brandId: number, variantId: number): Promise<void>;
  /** Kinds of data (orders, invoices, …) still referring to the product's variants; empty when it may be deleted. */
  dependentsOfProduct(brandId: number, productId: number): Promise<string[]>;
  dependentsOfVariant(brandId: number, variantId: number): Promise<string[]>;
  /** `GET /v10/products` and `GET /api/products`: products, with variants loaded as `includes` asks. */
  list(brandId: number, query: ListQuery): Promise<ListRows<ProductAggregate>>;
  /** `GET /v10/variants`. */
  listVariants(brandId: number, query: ListQuery): Promise<ListRows<VariantRef>>;
}

/**
 * Categories (older interface): top categories and their subcategories, by id or by (parent, name).
 */
export interface CategoryRepository {
  insert(category: Category): Promise<void>;
  update(category: Category): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<Category[]>;
  /** Categories by (parent, name); names compare case-insensitively. */
  findByNames(brandId: number, keys: { parentId: number | null; name: string }[]): Promise<Category[]>;
  /** Children of the given parents. */
  findChildren(brandId: number, parentIds: number[]): Promise<Category[]>;
  /** Deletes the categories with their subcategories and detaches their products (products are never deleted). */
  delete(brandId: number, ids: number[]): Promise<void>;
  list(brandId: number, query: ListQuery): Promise<ListRows<Category>>;
}

/** Collections (older interface). */
export interface CollectionRepository {
  insert(collection: Collection): Promise<void>;
  update(collection: Collection): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<Collection[]>;
  list(brandId: number, query: ListQuery): Promise<ListRows<Collection>>;
}

/** Sub-brands (older interface). */
export interface SubbrandRepository {
  insert(subbrand: Subbrand): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<Subbrand[]>;
}

/** Drops (delivery windows) of a brand, by id or code. */
export interface DropRepository {
  insert(drop: Drop): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<Drop[]>;
  findByCodes(brandId: number, codes: string[]): Promise<Drop[]>;
  list(brandId: number, query: ListQuery): Promise<ListRows<Drop>>;
}

/** The brand's cost price sets. */
export interface CostPriceSetRepository {
  insert(set: CostPriceSet): Promise<void>;
  /** Every cost price set of the brand (there are few). */
  all(brandId: number): Promise<CostPriceSet[]>;
}

/** The languages a brand translates its products into. */
export interface ProductLocaleRepository {
  insert(locale: ProductLocale): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<ProductLocale[]>;
  findByCodes(brandId: number, codes: string[]): Promise<ProductLocale[]>;
  /**
   * Every locale of the brand, in id order (a brand translates into a handful of languages, so
   * `GET /v10/product-locales` filters and pages them in memory).
   * @example const locales = await tx.productLocales.all(brandId); // [{ id: 1, code: 'de', name: 'German', … }]
   */
  all(brandId: number): Promise<ProductLocale[]>;
}

/**
 * Downloaded product images: their metadata and variant attachments (the bytes live in the
 * `BlobStore`).
 */
export interface ProductImageRepository {
  findByProductIds(brandId: number, productIds: number[]): Promise<ProductImage[]>;
  /** Any image of the brand already made from one of these URLs (to reuse its bytes). */
  findBySourceUrls(brandId: number, urls: string[]): Promise<ProductImage[]>;
  findByExistanceKeys(brandId: number, keys: string[]): Promise<ProductImage[]>;
  /** Inserts or updates the images (by id), including their variant attachments. */
  saveAll(images: ProductImage[]): Promise<void>;
  delete(brandId: number, ids: number[]): Promise<void>;
}

/** The catalog module's repositories; the declaration below adds them to `Repositories`. */
export interface CatalogRepositories {
  products: ProductRepository;
  categories: CategoryRepository;
  collections: CollectionRepository;
  subbrands: SubbrandRepository;
  drops: DropRepository;
  costPriceSets: CostPriceSetRepository;
  productLocales: ProductLocaleRepository;
  productImages: ProductImageRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends CatalogRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The catalog module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    products: true;
    variants: true;
    categories: true;
    collections: true;
    subbrands: true;
    drops: true;
    cost_price_sets: true;
    product_locales: true;
    product_images: true;
  }
}
