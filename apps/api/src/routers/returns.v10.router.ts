import {
  alertListDefinition,
  approveReturn,
  createReturn,
  creditNoteFromAlert,
  getReturn,
  listAlerts,
  listReturns,
  returnListDefinition,
} from '@brand/core';
import { CreateReturnDto, toCreateReturnLines } from '../dtos/return.dto';
import { documentNumber } from '../dtos/decorators';
import { pathId } from '../http/path-id';
import { Surface } from '../http/route';
import { listRequest, listResponse } from '../listing/list-request';
import { Type, listOf, wrapped } from '../http/wire-schema';
import { CreditNoteSchema, presentCreditNote } from '../presenters/credit-note.presenter';
import {
  AlertSchema,
  ReturnSchema,
  presentAlert,
  presentReturn,
  presentReturnDetail,
} from '../presenters/return.presenter';
import { RouterDeps } from './router-deps';

const TAG = 'Returns';

/**
 * Returns (RMAs) in the back office: announce one for an order, approve it, read them, and the
 * dashboard alerts ad hoc returns raise. Receipt is the warehouse's (/3pl/returns/receive), portal
 * returns arrive through /v10/external-return-portals.
 */
export function returnsV10Router(deps: RouterDeps): Surface<'current'> {
  return new Surface('v10-returns', 'current', ['/v10'])
    .route({
      method: 'post',
      path: '/v10/returns',
      summary: 'Announce a return (RMA)',
      description:
        'An RMA for pieces of an approved or archived order, status open (approve it to send it to the warehouse). Lines name variants of the order by sku or ean; ' +
        "per variant at most the order's pieces less what its other returns already expect. Lines are priced as their order lines; claim_cause_code matches " +
        'a claim cause ignoring case (unknown or shared by several causes: 422). The RMA is the return number as text.',
      tag: TAG,
      scopes: ['returns:write'],
      body: CreateReturnDto,
      status: 201,
      response: {
        description: 'The new return with its lines',
        schema: wrapped('return', ReturnSchema),
        showsLessThanGet: 'the credit notes and timeline; GET the return for them and its ETag',
      },
      handler: async ({ principal, body }) => {
        const ret = await createReturn(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          orderNumber: documentNumber(body.order_number),
          notes: body.notes ?? null,
          lines: toCreateReturnLines(body),
        });
        return { return: presentReturn(ret, { exports: [] }) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/returns',
      summary: 'List returns',
      description:
        'Returns of every source (back office, portals, ad hoc) with their lines. Sort by id (default) or updated_at.',
      tag: TAG,
      scopes: ['returns:read'],
      list: returnListDefinition,
      status: 200,
      response: { description: 'A page of returns', schema: listOf('returns', ReturnSchema) },
      handler: async ({ principal, req }) => {
        const result = await listReturns(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('returns', result, returnListDefinition, deps.cursors, (ret) =>
          presentReturn(ret, { exports: result.exports.get(ret.id) ?? [] }),
        );
      },
    })
    .route({
      method: 'get',
      path: '/v10/returns/:id',
      summary: 'Get a return',
      description: 'With its lines, export marks, credit notes (with their lines) and timeline.',
      tag: TAG,
      scopes: ['returns:read'],
      includes: { resource: 'return', allowed: ['lines'] },
      status: 200,
      response: { description: 'The return', schema: wrapped('return', ReturnSchema) },
      handler: async ({ principal, params }) => {
        return {
          return: presentReturnDetail(
            await getReturn(deps, { brandId: principal.brandId, returnId: pathId(params['id'], 'return') }),
          ),
        };
      },
    })
    .route({
      method: 'post',
      path: '/v10/returns/:id/approve',
      summary: 'Approve a return',
      description:
        'open → approved: the RMA appears in the warehouse export and can be received. Any other status is a 422 (invalid_state_transition).',
      tag: TAG,
      scopes: ['returns:write'],
      status: 200,
      response: {
        description: 'The approved return, as GET shows it',
        schema: wrapped('return', ReturnSchema),
      },
      handler: async ({ principal, params }) => {
        const returnId = pathId(params['id'], 'return');
        await approveReturn(deps, { brandId: principal.brandId, userId: principal.userId, returnId });
        return { return: presentReturnDetail(await getReturn(deps, { brandId: principal.brandId, returnId })) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/alerts',
      summary: 'List dashboard alerts',
      description:
        'Decisions waiting for staff, such as ad hoc returns that matched no RMA (ad_hoc_return_mode alert_if_no_rma). Filter status eq open for the pending ones.',
      tag: TAG,
      scopes: ['returns:read'],
      list: alertListDefinition,
      status: 200,
      response: { description: 'A page of alerts', schema: listOf('alerts', AlertSchema) },
      handler: async ({ principal, req }) => {
        const result = await listAlerts(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('alerts', result, alertListDefinition, deps.cursors, presentAlert);
      },
    })
    .route({
      method: 'post',
      path: '/v10/alerts/:id/credit-note',
      summary: 'Issue the credit note of an alert',
      description:
        "Drafts the credit note of the alert's ad hoc return (its received pieces, at the order lines' prices) and resolves the alert. " +
        'A resolved alert is a 422 (invalid_state_transition): its credit note exists already.',
      tag: TAG,
      scopes: ['returns:write'],
      status: 201,
      response: {
        description: 'The resolved alert and the draft credit note',
        schema: Type.Object({ alert: AlertSchema, credit_note: CreditNoteSchema }),
      },
      handler: async ({ principal, params }) => {
        const { alert, creditNote } = await creditNoteFromAlert(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          alertId: pathId(params['id'], 'alert'),
        });
        return {
          alert: presentAlert(alert),
          credit_note: presentCreditNote(creditNote, { includeLines: true, exports: [] }),
        };
      },
    });
}
