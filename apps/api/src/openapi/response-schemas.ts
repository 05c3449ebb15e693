import { JsonSchema } from '../http/route';
import { dateTime, nullable, ref } from './schema-building';
import { CATALOG_RESPONSE_SCHEMAS } from './catalog-response-schemas';
import { EXPORT_RESPONSE_SCHEMAS } from './export-response-schemas';
import { LEGACY_RESPONSE_SCHEMAS } from './legacy-response-schemas';
import { ORDERS_RESPONSE_SCHEMAS } from './orders-response-schemas';
import { PRODUCTION_RESPONSE_SCHEMAS } from './production-response-schemas';
import { RETURNS_REFERENCE_RESPONSE_SCHEMAS } from './returns-reference-response-schemas';
import { RETURNS_RESPONSE_SCHEMAS } from './returns-response-schemas';
import { RETURN_PORTALS_RESPONSE_SCHEMAS } from './return-portals-response-schemas';

/**
 * Response objects, declared by hand (the presenters' types are not reflected at runtime). Keep
 * them in step with `src/presenters`; the OpenAPI test checks that the list endpoints' objects
 * carry the fields declared here.
 */

const address: JsonSchema = {
  type: 'object',
  required: ['id', 'title', 'name', 'address', 'address_2', 'zip', 'city', 'region', 'country', 'remote_erp_id'],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    name: { type: 'string' },
    address: { type: 'string' },
    address_2: nullable('string'),
    zip: { type: 'string' },
    city: { type: 'string' },
    region: nullable('string'),
    country: { type: 'string', pattern: '^[A-Z]{2}$' },
    remote_erp_id: nullable('string'),
  },
};

const customerGroup: JsonSchema = {
  type: 'object',
  required: ['id', 'code', 'name', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'integer' },
    code: { type: 'string' },
    name: { type: 'string' },
    created_at: dateTime,
    updated_at: dateTime,
  },
};

const paymentTerms: JsonSchema = {
  type: 'object',
  required: ['id', 'code', 'name', 'days', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'integer' },
    code: { type: 'string' },
    name: { type: 'string' },
    days: { type: 'integer', description: 'Days until payment is due' },
    created_at: dateTime,
    updated_at: dateTime,
  },
};

const customer: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'customer_number',
    'name',
    'currency',
    'discount_percentage',
    'active',
    'email',
    'telephone',
    'vat_number',
    'eori_number',
    'customer_group_id',
    'payment_terms_id',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'integer' },
    customer_number: { type: 'string' },
    name: { type: 'string' },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    discount_percentage: { type: 'number', minimum: 0, maximum: 100, description: 'Percent, at most 2 decimals' },
    active: { type: 'boolean' },
    email: nullable('string'),
    telephone: nullable('string'),
    vat_number: nullable('string'),
    eori_number: nullable('string'),
    customer_group_id: nullable('integer'),
    payment_terms_id: nullable('integer'),
    created_at: dateTime,
    updated_at: dateTime,
    addresses: { type: 'array', items: ref('Address'), description: 'With includes[]=addresses' },
    customer_group: { oneOf: [ref('CustomerGroup'), { type: 'null' }], description: 'With includes[]=customer_group' },
    payment_terms: { oneOf: [ref('PaymentTerms'), { type: 'null' }], description: 'With includes[]=payment_terms' },
  },
};

const supplier: JsonSchema = {
  type: 'object',
  required: ['id', 'supplier_number', 'name', 'currency', 'active', 'email', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'integer' },
    supplier_number: { type: 'string' },
    name: { type: 'string' },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    active: { type: 'boolean' },
    email: nullable('string'),
    created_at: dateTime,
    updated_at: dateTime,
    addresses: { type: 'array', items: ref('Address'), description: 'With includes[]=addresses' },
  },
};

const errorObject: JsonSchema = {
  type: 'object',
  required: ['status', 'code', 'title', 'detail'],
  properties: {
    status: { type: 'integer', description: 'The HTTP status, repeated' },
    code: {
      type: ['string', 'integer'],
      description:
        'Stable machine-readable code, e.g. validation_failed, insufficient_scope; on the older /api interface the integer of its code table (40001, 1000001 …) where one applies',
    },
    title: { type: 'string', description: 'The kind of problem; the same for every occurrence' },
    detail: { type: 'string', description: 'What is wrong in this request' },
    source: {
      type: 'object',
      properties: {
        pointer: { type: 'string', description: 'JSON pointer into the body, e.g. /customers/2/addresses/0/zip' },
        parameter: { type: 'string', description: 'The query parameter, e.g. filter_groups[0][filters][0][key]' },
        header: { type: 'string', description: 'The request header' },
      },
    },
    meta: {
      type: 'object',
      additionalProperties: true,
      description: 'Details such as missing_scopes or allowed_methods',
    },
  },
};

/** Named schemas of responses, merged into `components.schemas`. */
export const RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Address: address,
  Customer: customer,
  CustomerGroup: customerGroup,
  PaymentTerms: paymentTerms,
  Supplier: supplier,
  ...CATALOG_RESPONSE_SCHEMAS,
  ...ORDERS_RESPONSE_SCHEMAS,
  ...PRODUCTION_RESPONSE_SCHEMAS,
  ...RETURNS_REFERENCE_RESPONSE_SCHEMAS,
  ...RETURNS_RESPONSE_SCHEMAS,
  ...RETURN_PORTALS_RESPONSE_SCHEMAS,
  ...LEGACY_RESPONSE_SCHEMAS,
  ...EXPORT_RESPONSE_SCHEMAS,
  ErrorObject: errorObject,
  ErrorEnvelope: {
    type: 'object',
    required: ['errors'],
    properties: { errors: { type: 'array', minItems: 1, items: ref('ErrorObject') } },
  },
};

/** `{ "<key>": [<item>…], "has_more", "next_cursor", "total"? }`. */
export function listResponseSchema(key: string, itemSchema: string): JsonSchema {
  return {
    type: 'object',
    required: [key, 'has_more', 'next_cursor'],
    properties: {
      [key]: { type: 'array', items: ref(itemSchema) },
      has_more: { type: 'boolean' },
      next_cursor: nullable('string', {
        description: 'Pass as cursor to get the next page; null when has_more is false',
      }),
      total: {
        type: 'integer',
        description: 'Rows matching the filters; absent when cursor or starting_after is used',
      },
    },
  };
}

/** `{ "<key>": <object> }`. */
export function objectResponseSchema(key: string, schema: string): JsonSchema {
  return { type: 'object', required: [key], properties: { [key]: ref(schema) } };
}

/** `{ "<key>": [{ "<number key>", "id", "action" }…] }`. */
export function syncResponseSchema(key: string, numberKey: string): JsonSchema {
  return {
    type: 'object',
    required: [key],
    properties: {
      [key]: {
        type: 'array',
        items: {
          type: 'object',
          required: [numberKey, 'id', 'action'],
          properties: {
            [numberKey]: { type: 'string' },
            id: nullable('integer', { description: 'null when a delete found nothing to delete' }),
            action: { type: 'string', enum: ['created', 'updated', 'unchanged', 'deleted', 'absent'] },
          },
        },
      },
    },
  };
}
