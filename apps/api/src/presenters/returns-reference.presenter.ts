import { ClaimCause, ReturnPortal } from '@brand/core';

export interface ClaimCauseWire {
  id: number;
  code: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export function presentClaimCause(cause: ClaimCause): ClaimCauseWire {
  return { id: cause.id, code: cause.code, name: cause.name, created_at: cause.createdAt, updated_at: cause.updatedAt };
}

export interface ReturnPortalWire {
  id: number;
  /** Goes into `/v10/external-return-portals/{public_id}/returns`. */
  public_id: string;
  name: string;
  type: string;
  requires_claim_causes: boolean;
  created_at: string;
  updated_at: string;
}

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
