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
import {
  Static,
  Type,
  arrayOf,
  boolean,
  component,
  componentNamed,
  dateTime,
  integer,
  mapOf,
  nullable,
  optional,
  string,
  stringMap,
} from '../../http/wire-schema';
import { LegacyCollectionSchema, presentLegacyCollection } from './legacy-collection.presenter';
import { money, moneyOrNull } from '../amounts';

export const LegacyPriceSchema = Type.Object({
  sales_price: Type.Number(),
  rec_sales_price: Type.Number(),
  offer_price: nullable(Type.Number()),
});
export type LegacyPriceWire = Static<typeof LegacyPriceSchema>;

/** In stock and available at one location (`stock` is the default location). */
export const LegacyStockSchema = Type.Object({
  quantity: integer('In stock'),
  available: integer('In stock minus reserved'),
});
export type LegacyStockWire = Static<typeof LegacyStockSchema>;

/** A variant in the older form. */
export const LegacyVariantSchema = component(
  'LegacyVariantObject',
  Type.Object({
    id: integer(),
    entity_id: integer('The brand'),
    product_id: integer(),
    sku: string(),
    picture: nullable(string()),
    ean: nullable(integer(), {
      description: 'Digits of the EAN as an integer (leading zeros are lost); null when none',
    }),
    attributes: stringMap(),
    prices: mapOf(LegacyPriceSchema, 'Keyed by currency code'),
    created_at: dateTime(),
    updated_at: dateTime(),
    inventory: optional(
      mapOf(
        LegacyStockSchema,
        'Keyed by stock type (stock = the default location, else the location name); with includes[]=variants.inventory and in answers to writes',
      ),
    ),
  }),
);
export type LegacyVariantWire = Static<typeof LegacyVariantSchema>;

export const LegacySubbrandSchema = component(
  'LegacySubbrandObject',
  Type.Object({
    id: integer(),
    brand_id: integer(),
    name: string(),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
);
export type LegacySubbrandWire = Static<typeof LegacySubbrandSchema>;

/** Categories as a product shows them (no includes of their own); `LegacyCategory` adds the includes. */
export const LegacyProductCategorySchema = Type.Object({
  id: integer(),
  brand_id: integer(),
  parent: nullable(integer(), { description: 'The parent category; null for a top category' }),
  name: string(),
  created_at: dateTime(),
  updated_at: dateTime(),
});
export type LegacyProductCategoryWire = Static<typeof LegacyProductCategorySchema>;

/** A product in the older form. */
export const LegacyProductSchema = component(
  'LegacyProductObject',
  Type.Object({
    id: integer(),
    brand_id: integer(),
    subbrand_id: nullable(integer()),
    collection_id: nullable(integer()),
    item_number: string(),
    name: string(),
    description: nullable(string()),
    image: nullable(string()),
    images: arrayOf(string()),
    active: boolean(),
    colli: nullable(integer(), { description: 'Pieces per colli (the first colli size)' }),
    attributes: arrayOf(string(), 'Attribute names of the variants'),
    created_at: dateTime(),
    updated_at: dateTime(),
    variants: arrayOf(LegacyVariantSchema),
    // `LegacyCategory` lists its products, so the product names it.
    categories: optional(
      arrayOf(componentNamed<LegacyProductCategoryWire>('LegacyCategory'), 'With includes[]=categories'),
    ),
    collection: optional(nullable(LegacyCollectionSchema, { description: 'With includes[]=collection' })),
    subbrand: optional(nullable(LegacySubbrandSchema, { description: 'With includes[]=subbrand' })),
    tags: optional(arrayOf(string(), 'With includes[]=tags')),
  }),
);
export type LegacyProductWire = Static<typeof LegacyProductSchema>;

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
