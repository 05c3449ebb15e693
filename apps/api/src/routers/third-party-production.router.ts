import { listThirdPartyDeliveryNotes, receiveDeliveryNote, thirdPartyDeliveryNoteListDefinition } from '@brand/core';
import { ThirdPartyProductionReceiveDto, toDeliveryNoteReceipt } from '../dtos/production.dto';
import { Surface } from '../http/route';
import { listRequest, listResponse } from '../listing/list-request';
import { listOf, wrapped } from '../http/wire-schema';
import {
  ThirdPartyDeliveryNoteSchema,
  presentThirdPartyDeliveryNote,
} from '../presenters/third-party-delivery-note.presenter';
import { RouterDeps } from './router-deps';

const TAG = '3PL production';

/** The warehouse's side of production under /3pl/production: the delivery notes to expect, and receipts of them. */
export function thirdPartyProductionRouter(deps: RouterDeps): Surface<'current'> {
  return new Surface('3pl-production', 'current', ['/3pl/production'])
    .route({
      method: 'get',
      path: '/3pl/production/orders/delivery-notes',
      summary: 'List production delivery notes (3PL form)',
      description:
        'Delivery notes of production orders in the warehouse form, with total. Filters: supplier_id, created_at, updated_at. ' +
        'Page with limit and 0-based page, or walk with cursor (then without total).',
      tag: TAG,
      scopes: ['production:read'],
      list: thirdPartyDeliveryNoteListDefinition,
      status: 200,
      response: {
        description: 'A page of delivery notes',
        schema: listOf('production_order_delivery_notes', ThirdPartyDeliveryNoteSchema),
      },
      handler: async ({ principal, req }) => {
        const result = await listThirdPartyDeliveryNotes(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse(
          'production_order_delivery_notes',
          result,
          thirdPartyDeliveryNoteListDefinition,
          deps.cursors,
          presentThirdPartyDeliveryNote,
        );
      },
    })
    .route({
      method: 'post',
      path: '/3pl/production/receive',
      summary: 'Report a production delivery received',
      description:
        "Adds the pieces to the note's lines and In stock at the brand's default location. Receipts add up: a note may be received in several calls, " +
        'and more pieces than expected are accepted (the warehouse reports what arrived). Lines must be on the note (by sku or ean); the production order ' +
        "must be open. meta is merged into the note's meta; production_order_delivery_note_meta is ignored. All lines or none are booked.",
      tag: TAG,
      scopes: ['production:write'],
      body: ThirdPartyProductionReceiveDto,
      status: 200,
      response: {
        description: 'The delivery note as received',
        schema: wrapped('production_order_delivery_note', ThirdPartyDeliveryNoteSchema),
      },
      handler: async ({ principal, body }) => {
        const view = await receiveDeliveryNote(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          receipt: toDeliveryNoteReceipt(body.production_order_delivery_note),
        });
        return { production_order_delivery_note: presentThirdPartyDeliveryNote(view) };
      },
    });
}
