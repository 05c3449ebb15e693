import { JsonSchema } from '../http/route';
import { dateTime, nullable, ref, required } from './schema-building';

/**
 * Response objects of the older `/api` interface, declared by hand beside `RESPONSE_SCHEMAS`.
 * Keep them in step with `src/presenters/legacy`; the legacy OpenAPI test compares their
 * properties with what the presenters return.
 */

const category = required(
  {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      brand_id: { type: 'integer' },
      parent: nullable('integer', { description: 'The parent category; null for a top category' }),
      name: { type: 'string' },
      created_at: dateTime,
      updated_at: dateTime,
      children: { type: 'array', items: ref('LegacyCategory'), description: 'With includes[]=children' },
      products: { type: 'array', items: ref('LegacyProductObject'), description: 'With includes[]=products' },
    },
  },
  ['children', 'products'],
);

const collection = required({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    brand_id: { type: 'integer' },
    active: { type: 'boolean' },
    title: { type: 'string' },
    visibility: { type: 'string', enum: ['own_entity', 'customers_custom'] },
    allowed_customers: {
      type: 'array',
      items: { type: 'integer' },
      description: 'Customer ids; used when visibility is customers_custom',
    },
    created_at: dateTime,
    updated_at: dateTime,
  },
});

const subbrand = required({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    brand_id: { type: 'integer' },
    name: { type: 'string' },
    created_at: dateTime,
    updated_at: dateTime,
  },
});

const variant = required(
  {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      entity_id: { type: 'integer', description: 'The brand' },
      product_id: { type: 'integer' },
      sku: { type: 'string' },
      picture: nullable('string'),
      ean: nullable('integer', {
        description: 'Digits of the EAN as an integer (leading zeros are lost); null when none',
      }),
      attributes: { type: 'object', additionalProperties: { type: 'string' } },
      prices: {
        type: 'object',
        description: 'Keyed by currency code',
        additionalProperties: {
          type: 'object',
          required: ['sales_price', 'rec_sales_price', 'offer_price'],
          properties: {
            sales_price: { type: 'number' },
            rec_sales_price: { type: 'number' },
            offer_price: nullable('number'),
          },
        },
      },
      created_at: dateTime,
      updated_at: dateTime,
      inventory: {
        type: 'object',
        description:
          'Keyed by stock type (stock = the default location, else the location name); with includes[]=variants.inventory and in answers to writes',
        additionalProperties: {
          type: 'object',
          required: ['quantity', 'available'],
          properties: {
            quantity: { type: 'integer', description: 'In stock' },
            available: { type: 'integer', description: 'In stock minus reserved' },
          },
        },
      },
    },
  },
  ['inventory'],
);

const product = required(
  {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      brand_id: { type: 'integer' },
      subbrand_id: nullable('integer'),
      collection_id: nullable('integer'),
      item_number: { type: 'string' },
      name: { type: 'string' },
      description: nullable('string'),
      image: nullable('string'),
      images: { type: 'array', items: { type: 'string' } },
      active: { type: 'boolean' },
      colli: nullable('integer', { description: 'Pieces per colli (the first colli size)' }),
      attributes: { type: 'array', items: { type: 'string' }, description: 'Attribute names of the variants' },
      created_at: dateTime,
      updated_at: dateTime,
      variants: { type: 'array', items: ref('LegacyVariantObject') },
      categories: { type: 'array', items: ref('LegacyCategory'), description: 'With includes[]=categories' },
      collection: {
        oneOf: [ref('LegacyCollectionObject'), { type: 'null' }],
        description: 'With includes[]=collection',
      },
      subbrand: { oneOf: [ref('LegacySubbrandObject'), { type: 'null' }], description: 'With includes[]=subbrand' },
      tags: { type: 'array', items: { type: 'string' }, description: 'With includes[]=tags' },
    },
  },
  ['categories', 'collection', 'subbrand', 'tags'],
);

/** Named schemas of the older interface's responses, merged into `components.schemas`. */
export const LEGACY_RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  LegacyCategory: category,
  LegacyCollectionObject: collection,
  LegacySubbrandObject: subbrand,
  LegacyVariantObject: variant,
  LegacyProductObject: product,
};

/** `{ "total": n, "<key>": [<item>…] }`: the older interface's list answer. */
export function legacyListResponseSchema(key: string, itemSchema: string): JsonSchema {
  return {
    type: 'object',
    required: ['total', key],
    properties: {
      total: { type: 'integer', description: 'Rows matching the filters' },
      [key]: { type: 'array', items: ref(itemSchema) },
    },
  };
}

/** `{ "<key>": <object> }`. */
export function legacyObjectResponseSchema(key: string, schema: string): JsonSchema {
  return { type: 'object', required: [key], properties: { [key]: ref(schema) } };
}

/** The bare object. */
export function legacyBareResponseSchema(schema: string): JsonSchema {
  return ref(schema);
}
