import {
  claimCauseListDefinition,
  createClaimCause,
  createReturnPortal,
  listClaimCauses,
  listReturnPortals,
  returnPortalListDefinition,
} from '@brand/core';
import { CreateClaimCauseDto, CreateReturnPortalDto } from '../dtos/returns-reference.dto';
import { Surface } from '../http/route';
import { listRequest, listResponse } from '../listing/list-request';
import { listOf, wrapped } from '../http/wire-schema';
import {
  ClaimCauseSchema,
  ReturnPortalSchema,
  presentClaimCause,
  presentReturnPortal,
} from '../presenters/returns-reference.presenter';
import { RouterDeps } from './router-deps';

/**
 * The returns back office's reference data: claim causes (why pieces come back) and return
 * portals (where returns are announced). Returns themselves live in `returns.v10.router.ts`.
 */
export function returnsReferenceV10Router(deps: RouterDeps): Surface<'current'> {
  return new Surface('v10-returns-reference', 'current', ['/v10'])
    .route({
      method: 'post',
      path: '/v10/claim-causes',
      summary: 'Create a claim cause',
      description: 'Return lines name a cause by its code (claim_cause_code, ignoring case) or id.',
      tag: 'Returns',
      scopes: ['returns:write'],
      body: CreateClaimCauseDto,
      status: 201,
      response: { description: 'The new claim cause', schema: wrapped('claim_cause', ClaimCauseSchema) },
      handler: async ({ principal, body }) => {
        const cause = await createClaimCause(deps, { brandId: principal.brandId, code: body.code, name: body.name });
        return { claim_cause: presentClaimCause(cause) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/claim-causes',
      summary: 'List claim causes',
      tag: 'Returns',
      scopes: ['returns:read'],
      list: claimCauseListDefinition,
      status: 200,
      response: { description: 'A page of claim causes', schema: listOf('claim_causes', ClaimCauseSchema) },
      handler: async ({ principal, req }) => {
        const result = await listClaimCauses(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('claim_causes', result, claimCauseListDefinition, deps.cursors, presentClaimCause);
      },
    })
    .route({
      method: 'post',
      path: '/v10/return-portals',
      summary: 'Create a return portal',
      description:
        'Returns are announced through the portal at /v10/external-return-portals/{public_id}/returns; the public_id is generated.',
      tag: 'Returns',
      scopes: ['returns:write'],
      body: CreateReturnPortalDto,
      status: 201,
      response: { description: 'The new return portal', schema: wrapped('return_portal', ReturnPortalSchema) },
      handler: async ({ principal, body }) => {
        const portal = await createReturnPortal(deps, {
          brandId: principal.brandId,
          name: body.name,
          type: body.type,
          ...(body.requires_claim_causes !== undefined ? { requiresClaimCauses: body.requires_claim_causes } : {}),
        });
        return { return_portal: presentReturnPortal(portal) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/return-portals',
      summary: 'List return portals',
      tag: 'Returns',
      scopes: ['returns:read'],
      list: returnPortalListDefinition,
      status: 200,
      response: {
        description: 'A page of return portals',
        schema: listOf('return_portals', ReturnPortalSchema),
      },
      handler: async ({ principal, req }) => {
        const result = await listReturnPortals(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('return_portals', result, returnPortalListDefinition, deps.cursors, presentReturnPortal);
      },
    });
}
