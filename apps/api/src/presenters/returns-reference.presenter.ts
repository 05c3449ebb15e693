import { ClaimCause, ReturnPortal } from '@brand/core';
import { Static, Type, boolean, component, dateTime, integer, string } from '../http/wire-schema';

export const ClaimCauseSchema = component(
  'ClaimCause',
  Type.Object({
    id: integer(),
    code: string('Return lines name the cause by it (claim_cause_code), ignoring case; not unique'),
    name: string(),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
);
export type ClaimCauseWire = Static<typeof ClaimCauseSchema>;

export function presentClaimCause(cause: ClaimCause): ClaimCauseWire {
  return { id: cause.id, code: cause.code, name: cause.name, created_at: cause.createdAt, updated_at: cause.updatedAt };
}

export const ReturnPortalSchema = component(
  'ReturnPortal',
  Type.Object({
    id: integer(),
    public_id: string('Goes into /v10/external-return-portals/{public_id}/returns'),
    name: string(),
    type: string('`service` (internal), `custom` (any app) or a partner portal type (apps with that internal_code)'),
    requires_claim_causes: boolean('Lines announced through the portal must name a claim cause'),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
);
export type ReturnPortalWire = Static<typeof ReturnPortalSchema>;

export function presentReturnPortal(portal: ReturnPortal): ReturnPortalWire {
  return {
    id: portal.id,
    public_id: portal.publicId,
    name: portal.name,
    type: portal.type,
    requires_claim_causes: portal.requiresClaimCauses,
    created_at: portal.createdAt,
    updated_at: portal.updatedAt,
  };
}
