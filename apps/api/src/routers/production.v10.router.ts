import {
  approveProductionOrder,
  closeProductionOrder,
  createDeliveryNote,
  createProductionOrder,
  deliveryNoteListDefinition,
  exportProductionOrders,
  getProductionOrder,
  listDeliveryNotes,
  listProductionOrders,
  markDocumentsExported,
  productionOrderExportListDefinition,
  productionOrderListDefinition,
} from '@brand/core';
import { exportScopeInput, flag } from '../dtos/export.dto';
import {
  CreateDeliveryNoteDto,
  CreateProductionOrderDto,
  ProductionOrderExportQueryDto,
  ProductionOrdersMarkAsExportedDto,
  toCreateDeliveryNoteInput,
  toCreateProductionOrderInput,
  toProductionOrderMarks,
} from '../dtos/production.dto';
import { pathId } from '../http/path-id';
import { Surface } from '../http/route';
import { listRequest, listRequestForIds, listResponse } from '../listing/list-request';
import { exportPageOf, listOf, markedOf, wrapped } from '../http/wire-schema';
import {
  DeliveryNoteSchema,
  ProductionOrderSchema,
  presentDeliveryNote,
  presentProductionOrder,
} from '../presenters/production.presenter';
import { RouterDeps } from './router-deps';

const TAG = 'Production';

/** What `GET /v10/production-orders/{id}` may include (lines are always shown). */
const DETAIL_INCLUDES = productionOrderExportListDefinition.includes;

/**
 * Production of the current interface: production orders (create, approve, close, read, list),
 * their delivery notes to the warehouse, and the production order export. The export routes come
 * before `/v10/production-orders/:id`, so `export` is not taken for an id.
 */
export function productionV10Router(deps: RouterDeps): Surface<'current'> {
  return new Surface('v10-production', 'current', ['/v10'])
    .route({
      method: 'get',
      path: '/v10/production-orders/export',
      summary: 'Export production orders',
      description:
        "Open production orders this system_id has not marked exported; include_open=1 adds drafts (the spec's name) and include_closed=1 closed ones. " +
        'Includes: deliveryNotes, lines, lines.product, lines.variant, salesOrders, salesOrders.delivery, salesOrders.lines, salesOrders.lines.product, ' +
        'salesOrders.lines.variant, salesOrders.shop (the order channel), supplier. Walk by cursor until has_more is false, import, then confirm with ' +
        'POST /v10/production-orders/mark-as-exported; unmarked orders keep appearing. not_exported_since re-exports orders marked after it.',
      tag: 'Exports',
      scopes: ['production:read'],
      list: productionOrderExportListDefinition,
      query: ProductionOrderExportQueryDto,
      status: 200,
      response: {
        description: 'A page of production orders to export',
        schema: exportPageOf('production_orders', ProductionOrderSchema),
      },
      handler: async ({ principal, req, query }) => {
        const result = await exportProductionOrders(deps, {
          list: await listRequest(req, principal.brandId, deps.cursors),
          ...exportScopeInput(query),
          includeOpen: flag(query.include_open),
          includeClosed: flag(query.include_closed),
        });
        const includes = result.query.includes;
        return listResponse('production_orders', result, productionOrderExportListDefinition, deps.cursors, (order) =>
          presentProductionOrder(order, {
            includes,
            related: result.related,
            exports: result.exports.get(order.id) ?? [],
          }),
        );
      },
    })
    .route({
      method: 'post',
      path: '/v10/production-orders/mark-as-exported',
      summary: 'Confirm exported production orders',
      description:
        'At most 10 production orders. An unknown id, or one of another brand, is a 422 naming its item, and then nothing is marked. ' +
        "Marking again is harmless. The note shows in the production order's timeline. Answers with the marked orders and their lines.",
      tag: 'Exports',
      scopes: ['production:write'],
      body: ProductionOrdersMarkAsExportedDto,
      status: 200,
      response: {
        description: 'The marked production orders',
        schema: markedOf('production_orders', ProductionOrderSchema),
      },
      handler: async ({ principal, body }) => {
        const items = toProductionOrderMarks(body);
        await markDocumentsExported(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          documentType: 'production_order',
          arrayKey: 'production_orders',
          idKey: 'production_order_id',
          items,
        });
        const request = listRequestForIds(
          principal.brandId,
          items.map((item) => item.documentId),
        );
        const result = await listProductionOrders(deps, {
          ...request,
          query: { ...request.query, includes: ['lines'] },
        });
        return {
          production_orders: result.page.items.map((order) =>
            presentProductionOrder(order, {
              includes: ['lines'],
              related: result.related,
              exports: result.related.exports.get(order.id) ?? [],
            }),
          ),
        };
      },
    })
    .route({
      method: 'get',
      path: '/v10/production-orders',
      summary: 'List production orders',
      description:
        'Sort by id or updated_at; filters id, production_order_number, status, supplier_id, created_at, updated_at. ' +
        'includes[]=lines, deliveryNotes, supplier add those. Page with limit and 0-based page (with total), or walk with cursor.',
      tag: TAG,
      scopes: ['production:read'],
      list: productionOrderListDefinition,
      status: 200,
      response: {
        description: 'A page of production orders',
        schema: listOf('production_orders', ProductionOrderSchema),
      },
      handler: async ({ principal, req }) => {
        const result = await listProductionOrders(deps, await listRequest(req, principal.brandId, deps.cursors));
        const includes = result.query.includes;
        return listResponse('production_orders', result, productionOrderListDefinition, deps.cursors, (order) =>
          presentProductionOrder(order, {
            includes,
            related: result.related,
            exports: result.related.exports.get(order.id) ?? [],
          }),
        );
      },
    })
    .route({
      method: 'post',
      path: '/v10/production-orders',
      summary: 'Create a production order',
      description:
        'A draft production order with an active supplier of the brand (by supplier_number). Lines name variants by sku or ean, one line per variant; ' +
        "currency defaults to the supplier's; sales_order_ids must be orders of the brand. Anything wrong is a 422 naming each field, and nothing is written.",
      tag: TAG,
      scopes: ['production:write'],
      body: CreateProductionOrderDto,
      status: 201,
      response: {
        description: 'The new production order (draft)',
        schema: wrapped('production_order', ProductionOrderSchema),
      },
      handler: async ({ principal, body }) => {
        const order = await createProductionOrder(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          productionOrder: toCreateProductionOrderInput(body),
        });
        const detail = await getProductionOrder(deps, { brandId: principal.brandId, productionOrderId: order.id });
        return {
          production_order: presentProductionOrder(detail.productionOrder, {
            includes: ['lines'],
            related: detail.related,
            exports: detail.exports,
            timeline: detail.timeline,
          }),
        };
      },
    })
    .route({
      method: 'get',
      path: '/v10/production-orders/:id',
      summary: 'Get a production order',
      description: `With its lines and timeline (always); includes[] adds ${DETAIL_INCLUDES.filter((i) => i !== 'lines').join(', ')}.`,
      tag: TAG,
      scopes: ['production:read'],
      includes: { resource: 'production_order', allowed: DETAIL_INCLUDES },
      status: 200,
      response: {
        description: 'The production order',
        schema: wrapped('production_order', ProductionOrderSchema),
      },
      handler: async ({ principal, params, includes }) => {
        const productionOrderId = pathId(params['id'], 'production order');
        // The catalog of the lines is only read when an include shows it.
        const withCatalog = includes.some((i) => i.endsWith('.product') || i.endsWith('.variant'));
        const detail = await getProductionOrder(deps, { brandId: principal.brandId, productionOrderId, withCatalog });
        return {
          production_order: presentProductionOrder(detail.productionOrder, {
            includes: ['lines', ...includes],
            related: detail.related,
            exports: detail.exports,
            timeline: detail.timeline,
          }),
        };
      },
    })
    .route({
      method: 'post',
      path: '/v10/production-orders/:id/approve',
      summary: 'Approve a production order',
      description:
        'draft → open: the order goes to the supplier and delivery notes may be announced. Any other status is a 422 invalid_state_transition.',
      tag: TAG,
      scopes: ['production:write'],
      status: 200,
      response: {
        description: 'The approved production order, as GET shows it',
        schema: wrapped('production_order', ProductionOrderSchema),
      },
      handler: async ({ principal, params }) => {
        const productionOrderId = pathId(params['id'], 'production order');
        await approveProductionOrder(deps, { brandId: principal.brandId, userId: principal.userId, productionOrderId });
        return { production_order: await presentDetail(deps, principal.brandId, productionOrderId) };
      },
    })
    .route({
      method: 'post',
      path: '/v10/production-orders/:id/close',
      summary: 'Close a production order',
      description:
        'open → closed: the warehouse can no longer receive its delivery notes. Any other status is a 422 invalid_state_transition.',
      tag: TAG,
      scopes: ['production:write'],
      status: 200,
      response: {
        description: 'The closed production order, as GET shows it',
        schema: wrapped('production_order', ProductionOrderSchema),
      },
      handler: async ({ principal, params }) => {
        const productionOrderId = pathId(params['id'], 'production order');
        await closeProductionOrder(deps, { brandId: principal.brandId, userId: principal.userId, productionOrderId });
        return { production_order: await presentDetail(deps, principal.brandId, productionOrderId) };
      },
    })
    .route({
      method: 'post',
      path: '/v10/production-orders/:id/delivery-notes',
      summary: 'Announce a delivery of a production order',
      description:
        'Only on an open production order (else 422). Lines name variants of the production order by sku or ean; their pieces are added to the ' +
        "production lines' expected_quantity (more than ordered is accepted). The warehouse sees the note in GET /3pl/production/orders/delivery-notes.",
      tag: TAG,
      scopes: ['production:write'],
      body: CreateDeliveryNoteDto,
      status: 201,
      response: {
        description: 'The new delivery note (expected)',
        schema: wrapped('production_order_delivery_note', DeliveryNoteSchema),
      },
      handler: async ({ principal, params, body }) => {
        const { deliveryNote } = await createDeliveryNote(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          productionOrderId: pathId(params['id'], 'production order'),
          deliveryNote: toCreateDeliveryNoteInput(body),
        });
        return { production_order_delivery_note: presentDeliveryNote(deliveryNote) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/production-order-delivery-notes',
      summary: 'List production delivery notes',
      description:
        'With their lines. Filters id, production_order_delivery_note_number, production_order_id, supplier_id, status, created_at, updated_at; sort by id.',
      tag: TAG,
      scopes: ['production:read'],
      list: deliveryNoteListDefinition,
      status: 200,
      response: {
        description: 'A page of delivery notes',
        schema: listOf('production_order_delivery_notes', DeliveryNoteSchema),
      },
      handler: async ({ principal, req }) => {
        const result = await listDeliveryNotes(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse(
          'production_order_delivery_notes',
          result,
          deliveryNoteListDefinition,
          deps.cursors,
          (note) => presentDeliveryNote(note),
        );
      },
    });
}

/** A production order as GET shows it without includes (lines and timeline). */
async function presentDetail(deps: RouterDeps, brandId: number, productionOrderId: number) {
  const detail = await getProductionOrder(deps, { brandId, productionOrderId });
  return presentProductionOrder(detail.productionOrder, {
    includes: ['lines'],
    related: detail.related,
    exports: detail.exports,
    timeline: detail.timeline,
  });
}
