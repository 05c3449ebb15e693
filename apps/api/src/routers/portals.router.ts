import { finalizePortalReturn, upsertPortalReturn } from '@brand/core';
import {
  FinalizePortalReturnDto,
  UpsertPortalReturnDto,
  toFinalizeAmounts,
  toPortalReturn,
} from '../dtos/portal-return.dto';
import { Surface } from '../http/route';
import { pathPublicId } from '../http/path-id';
import { Type, boolean, integer, string } from '../http/wire-schema';
import { PortalReturnSchema, presentPortalReturn } from '../presenters/portal-return.presenter';
import { RouterDeps } from './router-deps';

/**
 * The external return portal interface (/v10/external-return-portals/{publicId}/…). It sits
 * under /v10 and authenticates the same way; it is its own surface because its callers are
 * partner portals rather than ERPs. The portal must be the brand's (else 404), external (the
 * `service` portal is a 422) and, for a partner type, called by that partner's app (else 403).
 */
export function portalsRouter(deps: RouterDeps): Surface<'current'> {
  return new Surface('portals', 'current', ['/v10/external-return-portals'])
    .route({
      method: 'put',
      path: '/v10/external-return-portals/:publicId/returns',
      summary: 'Create or update a portal return',
      description:
        'Idempotent upsert keyed by (portal, rma): a new rma creates an approved return (201, created true; email and order_number required); ' +
        'an existing one is merged (200, created false; email and order_number, when sent, must match its order). Lines are the full desired set, ' +
        'matched to the stored ones by (a) variant, claim type, cause, text and price, (b) variant, else new; unmatched stored lines are deleted. ' +
        'status received receives every expected piece and drafts the credit note net of the fees. Replaying a body changes nothing.',
      tag: 'Return portals',
      scopes: ['returns:write'],
      body: UpsertPortalReturnDto,
      status: 201,
      response: {
        description: 'The return was created',
        schema: Type.Object({
          return: PortalReturnSchema,
          created: boolean('true (HTTP 201) when this call created the return; false (HTTP 200) when it existed'),
        }),
        also: { status: 200, description: 'The return existed and was merged (or left as it was)' },
      },
      handler: async (context) => {
        const { principal, params, body } = context;
        const { email, orderNumber, ret } = toPortalReturn(body);
        const result = await upsertPortalReturn(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          appInternalCode: principal.appInternalCode,
          publicId: pathPublicId(params['publicId'], 'return portal'),
          ...(email !== undefined ? { email } : {}),
          ...(orderNumber !== undefined ? { orderNumber } : {}),
          ret,
        });
        if (!result.created) context.answerWith(200);
        return { return: presentPortalReturn(result), created: result.created };
      },
    })
    .route({
      method: 'post',
      path: '/v10/external-return-portals/:publicId/returns/finalize',
      summary: 'Finalize a portal return',
      description:
        'Books every draft credit note of a received return and moves it to credited. refund + exchange must equal the credited total within 0.01 ' +
        '(the error shows the amounts) and the exchange may not exceed it. Once credited, calling again succeeds and books nothing.',
      tag: 'Return portals',
      scopes: ['returns:write'],
      body: FinalizePortalReturnDto,
      status: 200,
      response: {
        description: 'The return is credited',
        schema: Type.Object({
          success: Type.Literal(true),
          return_id: integer(),
          rma: string('As stored'),
        }),
      },
      handler: async ({ principal, params, body }) => {
        const { ret } = await finalizePortalReturn(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          appInternalCode: principal.appInternalCode,
          publicId: pathPublicId(params['publicId'], 'return portal'),
          rma: body.rma,
          ...toFinalizeAmounts(body),
        });
        return { success: true as const, return_id: ret.id, rma: ret.rma };
      },
    });
}
