import {
  LegacyProductRelations,
  ProductAggregate,
  Subbrand,
  VariantRecord,
  attributeNamesOf,
  legacyColliOf,
  legacyEanOf,
  legacyImageOf,
  legacyImagesOf,
  productAttributes,
  variantsInOrder,
} from '@brand/core';
import { LegacyCollectionWire, presentLegacyCollection } from './legacy-collection.presenter';
import { money, moneyOrNull } from '../amounts';

export interface LegacyPriceWire {
  sales_price: number;
  rec_sales_price: number;
  offer_price: number | null;
}

/** In stock and available at one location (`stock` is the default location). */
export interface LegacyStockWire {
  quantity: number;
  available: number;
}

/** A variant in the older form. */
export interface LegacyVariantWire {
  id: number;
  entity_id: number;
  product_id: number;
  sku: string;
  picture: string | null;
  ean: number | null;
  attributes: Record<string, string>;
  /** Keyed by currency code. */
  prices: Record<string, LegacyPriceWire>;
  created_at: string;
  updated_at: string;
  /** Keyed by stock type; with `includes[]=variants.inventory` and in answers to writes. */
  inventory?: Record<string, LegacyStockWire>;
}

export interface LegacySubbrandWire {
  id: number;
  brand_id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

/** Categories as a product shows them (no includes of their own). */
export interface LegacyProductCategoryWire {
  id: number;
  brand_id: number;
  parent: number | null;
  name: string;
  created_at: string;
  updated_at: string;
}

/** A product in the older form. */
export interface LegacyProductWire {
  id: number;
  brand_id: number;
  subbrand_id: number | null;
  collection_id: number | null;
  item_number: string;
  name: string;
  description: string | null;
  image: string | null;
  images: string[];
  active: boolean;
  colli: number | null;
  attributes: string[];
  created_at: string;
  updated_at: string;
  variants: LegacyVariantWire[];
  categories?: LegacyProductCategoryWire[];
  collection?: LegacyCollectionWire | null;
  subbrand?: LegacySubbrandWire | null;
  tags?: string[];
}

const NO_RELATIONS: LegacyProductRelations = {
  includes: [],
  categories: new Map(),
  collections: new Map(),
  subbrands: new Map(),
  stock: new Map(),
};

function presentSubbrand(subbrand: Subbrand): LegacySubbrandWire {
  return {
    id: subbrand.id,
    brand_id: subbrand.brandId,
    name: subbrand.name,
    created_at: subbrand.createdAt,
    updated_at: subbrand.updatedAt,
  };
}

/** A variant; `inventory` appears when the relations carry `variants.inventory`. */
export function presentLegacyVariant(
  record: VariantRecord,
  relations: LegacyProductRelations = NO_RELATIONS,
): LegacyVariantWire {
  const { variant } = record;
  const wire: LegacyVariantWire = {
    id: variant.id,
    entity_id: variant.brandId,
    product_id: variant.productId,
    sku: variant.sku,
    picture: variant.picture,
    ean: legacyEanOf(variant),
    attributes: { ...variant.attributes },
    prices: Object.fromEntries(
      [...record.prices]
        .sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0))
        .map((p) => [
          p.currency,
          {
            sales_price: money(p.salesPrice),
            rec_sales_price: money(p.recSalesPrice),
            offer_price: moneyOrNull(p.offerPrice),
          },
        ]),
    ),
    created_at: variant.createdAt,
    updated_at: variant.updatedAt,
  };
  if (relations.includes.includes('variants.inventory')) {
    wire.inventory = Object.fromEntries(
      (relations.stock.get(variant.id) ?? []).map((s) => [s.key, { quantity: s.inStock, available: s.available }]),
    );
  }
  return wire;
}

/** A product with its variants (in their order) and whatever the relations include. */
export function presentLegacyProduct(
  aggregate: ProductAggregate,
  relations: LegacyProductRelations = NO_RELATIONS,
): LegacyProductWire {
  const { product } = aggregate;
  const attributes = productAttributes(aggregate);
  const wire: LegacyProductWire = {
    id: product.id,
    brand_id: product.brandId,
    subbrand_id: product.subbrandId,
    collection_id: product.collectionId,
    item_number: product.itemNumber,
    name: product.name,
    description: product.description,
    image: legacyImageOf(product),
    images: legacyImagesOf(product),
    active: product.active,
    colli: legacyColliOf(product),
    attributes: attributes ? attributeNamesOf(attributes) : [],
    created_at: product.createdAt,
    updated_at: product.updatedAt,
    variants: variantsInOrder(aggregate).map((record) => presentLegacyVariant(record, relations)),
  };
  const { includes } = relations;
  if (includes.includes('categories')) {
    wire.categories = product.categoryIds.flatMap((id) => {
      const c = relations.categories.get(id);
      return c
        ? [
            {
              id: c.id,
              brand_id: c.brandId,
              parent: c.parentId,
              name: c.name,
              created_at: c.createdAt,
              updated_at: c.updatedAt,
            },
          ]
        : [];
    });
  }
  if (includes.includes('collection')) {
    const collection = product.collectionId !== null ? relations.collections.get(product.collectionId) : undefined;
    wire.collection = collection ? presentLegacyCollection(collection) : null;
  }
  if (includes.includes('subbrand')) {
    const subbrand = product.subbrandId !== null ? relations.subbrands.get(product.subbrandId) : undefined;
    wire.subbrand = subbrand ? presentSubbrand(subbrand) : null;
  }
  if (includes.includes('tags')) wire.tags = [...product.tags];
  return wire;
}
