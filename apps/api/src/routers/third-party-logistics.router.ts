import {
  cancelShipment,
  deliverShipment,
  exportThirdPartyShipments,
  listThirdPartyShipments,
  markDocumentsExported,
  thirdPartyShipmentExportListDefinition,
  thirdPartyShipmentListDefinition,
} from '@brand/core';
import {
  ShipmentExportQueryDto,
  ShipmentsMarkAsExportedDto,
  exportScopeInput,
  flag,
  toMarkItem,
} from '../dtos/export.dto';
import { documentNumber } from '../dtos/decorators';
import {
  ThirdPartyCancelShipmentDto,
  ThirdPartyDeliverShipmentDto,
  toDelivery,
} from '../dtos/third-party-shipment.dto';
import { Surface } from '../http/route';
import { listRequest, listRequestForIds, listResponse } from '../listing/list-request';
import { exportPageOf, listOf, markedOf, wrapped } from '../http/wire-schema';
import { ThirdPartyShipmentSchema, presentThirdPartyShipment } from '../presenters/third-party-shipment.presenter';
import { RouterDeps } from './router-deps';

const TAG = '3PL shipments';

/**
 * The warehouse (3PL) interface under /3pl: shipments in their flat form, their export, and the
 * warehouse's reports (delivered, cancelled). Returns and production deliveries arrive in later changes.
 */
export function thirdPartyLogisticsRouter(deps: RouterDeps): Surface<'current'> {
  return new Surface('3pl', 'current', ['/3pl'])
    .route({
      method: 'get',
      path: '/3pl/shipments',
      summary: 'List shipments (3PL form)',
      description:
        'Shipments of every status in the warehouse form, with total. Page with limit and 0-based page, or walk with cursor (then without total). ' +
        'Filters: customer_id, created_at, updated_at (and id, status). The export (GET /3pl/shipments/export) is recommended over this list.',
      tag: TAG,
      scopes: ['fulfilment:read'],
      list: thirdPartyShipmentListDefinition,
      status: 200,
      response: { description: 'A page of shipments', schema: listOf('shipments', ThirdPartyShipmentSchema) },
      handler: async ({ principal, req }) => {
        const result = await listThirdPartyShipments(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse(
          'shipments',
          result,
          thirdPartyShipmentListDefinition,
          deps.cursors,
          presentThirdPartyShipment,
        );
      },
    })
    .route({
      method: 'get',
      path: '/3pl/shipments/export',
      summary: 'Export shipments (3PL form)',
      description:
        'Open shipments this system_id has not marked exported (include_cancelled=1 and include_completed=1 add those). ' +
        'Walk by cursor until has_more is false, import, then confirm with POST /3pl/shipments/mark-as-exported; unmarked shipments keep appearing. ' +
        'not_exported_since re-exports shipments marked after it. Each order inside carries shipping.',
      tag: TAG,
      scopes: ['fulfilment:read'],
      list: thirdPartyShipmentExportListDefinition,
      query: ShipmentExportQueryDto,
      status: 200,
      response: {
        description: 'A page of shipments to export',
        schema: exportPageOf('shipments', ThirdPartyShipmentSchema),
      },
      handler: async ({ principal, req, query }) => {
        const result = await exportThirdPartyShipments(deps, {
          list: await listRequest(req, principal.brandId, deps.cursors),
          ...exportScopeInput(query),
          includeCancelled: flag(query.include_cancelled),
          includeCompleted: flag(query.include_completed),
        });
        return listResponse(
          'shipments',
          result,
          thirdPartyShipmentExportListDefinition,
          deps.cursors,
          presentThirdPartyShipment,
        );
      },
    })
    .route({
      method: 'post',
      path: '/3pl/shipments/deliver',
      summary: 'Report a shipment delivered',
      description:
        'Completes an open shipment (only once; a second report is a 422) and records the carrier and colli. ' +
        "order_type must be the order's; every line must be on the shipment, and no more pieces than it holds; fewer are allowed " +
        '(the rest goes back to the order as open pieces). A colli without track_trace_link gets one built from track_trace and the carrier, when a template is known.',
      tag: TAG,
      scopes: ['fulfilment:write'],
      body: ThirdPartyDeliverShipmentDto,
      status: 200,
      response: {
        description: 'The completed shipment',
        schema: wrapped('shipment', ThirdPartyShipmentSchema),
      },
      handler: async ({ principal, body }) => {
        const { shipment } = await deliverShipment(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          delivery: toDelivery(body.delivery_note),
        });
        return { shipment: presentThirdPartyShipment(shipment) };
      },
    })
    .route({
      method: 'post',
      path: '/3pl/shipments/cancel',
      summary: 'Cancel a shipment',
      description:
        'Cancels an open shipment, not its order: the order keeps its status and reservations, and the pieces become open again. ' +
        'A completed or cancelled shipment cannot be cancelled (422).',
      tag: TAG,
      scopes: ['fulfilment:write'],
      body: ThirdPartyCancelShipmentDto,
      status: 200,
      response: {
        description: 'The cancelled shipment',
        schema: wrapped('shipment', ThirdPartyShipmentSchema),
      },
      handler: async ({ principal, body }) => {
        const view = await cancelShipment(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          ...(body.shipment_id !== undefined ? { shipmentId: body.shipment_id } : {}),
          ...(body.shipment_number !== undefined ? { shipmentNumber: documentNumber(body.shipment_number) } : {}),
        });
        return { shipment: presentThirdPartyShipment(view) };
      },
    })
    .route({
      method: 'post',
      path: '/3pl/shipments/mark-as-exported',
      summary: 'Confirm exported shipments',
      description:
        "At most 10 shipments. They no longer appear in this system's exports (v10 and 3PL); other systems still see them. " +
        "An unknown id is a 422 naming its item, and then nothing is marked. The note shows in the shipment's timeline. Marking again is harmless.",
      tag: TAG,
      scopes: ['fulfilment:write'],
      body: ShipmentsMarkAsExportedDto,
      status: 200,
      response: { description: 'The marked shipments', schema: markedOf('shipments', ThirdPartyShipmentSchema) },
      handler: async ({ principal, body }) => {
        await markDocumentsExported(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          documentType: 'shipment',
          arrayKey: 'shipments',
          idKey: 'shipment_id',
          items: body.shipments.map((item) => toMarkItem(item, item.shipment_id)),
        });
        const ids = body.shipments.map((item) => item.shipment_id);
        const { page } = await listThirdPartyShipments(deps, listRequestForIds(principal.brandId, ids));
        return { shipments: page.items.map(presentThirdPartyShipment) };
      },
    });
}
