import { JsonSchema } from '../http/route';
import { dateTime } from './schema-building';

/**
 * Response objects of the returns back office's reference data (claim causes, return portals),
 * declared by hand beside `RESPONSE_SCHEMAS`. Keep them in step with
 * `presenters/returns-reference.presenter.ts`; `returns-reference-openapi.test.ts` compares them.
 */

const claimCause: JsonSchema = {
  type: 'object',
  required: ['id', 'code', 'name', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'integer' },
    code: {
      type: 'string',
      description: 'Return lines name the cause by it (claim_cause_code), ignoring case; not unique',
    },
    name: { type: 'string' },
    created_at: dateTime,
    updated_at: dateTime,
  },
};

const returnPortal: JsonSchema = {
  type: 'object',
  required: ['id', 'public_id', 'name', 'type', 'requires_claim_causes', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'integer' },
    public_id: { type: 'string', description: 'Goes into /v10/external-return-portals/{public_id}/returns' },
    name: { type: 'string' },
    type: {
      type: 'string',
      description: '`service` (internal), `custom` (any app) or a partner portal type (apps with that internal_code)',
    },
    requires_claim_causes: {
      type: 'boolean',
      description: 'Lines announced through the portal must name a claim cause',
    },
    created_at: dateTime,
    updated_at: dateTime,
  },
};

/** Named schemas merged into `components.schemas` with the other response schemas. */
export const RETURNS_REFERENCE_RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ClaimCause: claimCause,
  ReturnPortal: returnPortal,
};
