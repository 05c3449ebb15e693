import {
  approveOrder,
  cancelOrder,
  createOrderChannel,
  createPartialShipment,
  getBrandSettings,
  getOrder,
  getOrderChannel,
  getShipment,
  listOrderChannels,
  listOrders,
  listShipments,
  orderChannelListDefinition,
  orderListDefinition,
  placeOrder,
  shipmentListDefinition,
  updateBrandSettings,
} from '@brand/core';
import {
  ApproveOrderDto,
  CreateOrderChannelDto,
  CreatePartialShipmentDto,
  PlaceOrderRequestDto,
  toArticleQuantity,
  toPlaceOrderInput,
} from '../dtos/order.dto';
import { UpdateSettingsDto, toSettingsChanges } from '../dtos/settings.dto';
import { Surface } from '../http/route';
import { listRequest, listResponse } from '../listing/list-request';
import { listOf, wrapped } from '../http/wire-schema';
import { OrderChannelSchema, presentOrderChannel } from '../presenters/order-channel.presenter';
import { OrderSchema, presentOrder, presentOrderDetail } from '../presenters/order.presenter';
import { SettingsSchema, presentSettings } from '../presenters/settings.presenter';
import { ShipmentSchema, presentShipment, presentShipmentDetail } from '../presenters/shipment.presenter';
import { isPathId, pathId, pathPublicId } from '../http/path-id';
import { RouterDeps } from './router-deps';

const ORDER_DETAIL_INCLUDES = ['lines', 'shipments', 'invoices'];

/**
 * The order channel a path names: digits (as `pathId` reads an id) are its id, anything else its
 * public id. Public ids are 24 URL-safe characters, longer than any id a path may carry, so no
 * value names both.
 */
function orderChannelOfPath(raw: string | undefined): { id: number } | { publicId: string } {
  return isPathId(raw) ? { id: Number(raw) } : { publicId: pathPublicId(raw, 'order channel') };
}

/**
 * Orders of the current interface: channels, order creation, the order back office (approve,
 * cancel, partial shipments), shipments as documents, and the brand's settings.
 */
export function ordersV10Router(deps: RouterDeps): Surface<'current'> {
  return new Surface('v10-orders', 'current', ['/v10'])
    .route({
      method: 'post',
      path: '/v10/order-channels',
      summary: 'Create an order channel',
      description:
        'Where orders come from (a webshop, an ERP, a marketplace). Orders are created on the channel by its public_id.',
      tag: 'Orders',
      scopes: ['orders:write'],
      body: CreateOrderChannelDto,
      status: 201,
      response: { description: 'The new order channel', schema: wrapped('order_channel', OrderChannelSchema) },
      handler: async ({ principal, body }) => {
        const channel = await createOrderChannel(deps, {
          brandId: principal.brandId,
          name: body.name,
          orderType: body.order_type,
          ...(body.auto_approve !== undefined ? { autoApprove: body.auto_approve } : {}),
          ...(body.drop_id !== undefined ? { dropId: body.drop_id } : {}),
        });
        return { order_channel: presentOrderChannel(channel) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/order-channels',
      summary: 'List order channels',
      tag: 'Orders',
      scopes: ['orders:read'],
      list: orderChannelListDefinition,
      status: 200,
      response: {
        description: 'A page of order channels',
        schema: listOf('order_channels', OrderChannelSchema),
      },
      handler: async ({ principal, req }) => {
        const result = await listOrderChannels(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('order_channels', result, orderChannelListDefinition, deps.cursors, presentOrderChannel);
      },
    })
    .route({
      method: 'get',
      path: '/v10/order-channels/:id',
      summary: 'Get an order channel',
      description:
        'By its id or by its public_id (the one orders are placed with): the two cannot be confused, an id being digits ' +
        'and a public_id 24 characters. The channel as GET /v10/order-channels lists it.',
      tag: 'Orders',
      scopes: ['orders:read'],
      status: 200,
      response: { description: 'The order channel', schema: wrapped('order_channel', OrderChannelSchema) },
      handler: async ({ principal, params }) => {
        const channel = await getOrderChannel(deps, {
          brandId: principal.brandId,
          channel: orderChannelOfPath(params['id']),
        });
        return { order_channel: presentOrderChannel(channel) };
      },
    })
    .route({
      method: 'post',
      path: '/v10/order-channels/:publicId/orders',
      summary: 'Create an order',
      description:
        'Prices the lines (B2B: offer or sales price less the customer discount, net; B2C: B2C offer or recommended price incl. VAT) and reserves their pieces ' +
        '(Available drops, In stock does not). Refused (422, nothing written) for an unknown SKU/EAN, an inactive product, an archived variant (B2B), ' +
        'a variant not available on B2C, a quantity below the minimum or outside the colli sizes, a missing drop when the brand requires one, an inactive ' +
        'customer, a missing price in the currency, or short stock (one error per short line). A channel with auto_approve approves the order and creates its shipment.',
      tag: 'Orders',
      scopes: ['orders:write'],
      body: PlaceOrderRequestDto,
      status: 201,
      response: { description: 'The new order with its lines', schema: wrapped('order', OrderSchema) },
      handler: async ({ principal, params, body }) => {
        const placed = await placeOrder(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          channelPublicId: pathPublicId(params['publicId'], 'order channel'),
          order: toPlaceOrderInput(body.order),
        });
        // As GET shows it (so the answer's ETag is the one GET gives): a new order has no exports,
        // and its shipment is shown only with includes[]=shipments.
        const detail = { order: placed.order, shipments: [], invoices: [], exports: [], timeline: placed.timeline };
        return { order: presentOrderDetail(detail, []) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/orders',
      summary: 'List orders',
      description: 'Sort by id (default) or updated_at; includes[]=lines adds the lines.',
      tag: 'Orders',
      scopes: ['orders:read'],
      list: orderListDefinition,
      status: 200,
      response: { description: 'A page of orders', schema: listOf('orders', OrderSchema) },
      handler: async ({ principal, req }) => {
        const result = await listOrders(deps, await listRequest(req, principal.brandId, deps.cursors));
        const includeLines = result.query.includes.includes('lines');
        return listResponse('orders', result, orderListDefinition, deps.cursors, (order) =>
          presentOrder(order, { includeLines, exports: result.exports.get(order.id) ?? [] }),
        );
      },
    })
    .route({
      method: 'get',
      path: '/v10/orders/:id',
      summary: 'Get an order',
      description:
        'With its lines and timeline (always); includes[]=shipments and includes[]=invoices add those documents.',
      tag: 'Orders',
      scopes: ['orders:read'],
      includes: { resource: 'order', allowed: ORDER_DETAIL_INCLUDES },
      status: 200,
      response: { description: 'The order', schema: wrapped('order', OrderSchema) },
      handler: async ({ principal, params, includes }) => {
        const detail = await getOrder(deps, { brandId: principal.brandId, orderId: pathId(params['id'], 'order') });
        return { order: presentOrderDetail(detail, includes) };
      },
    })
    .route({
      method: 'post',
      path: '/v10/orders/:id/approve',
      summary: 'Approve an order',
      description: 'draft → approved. Creates one shipment for every open piece unless create_shipment is false.',
      tag: 'Orders',
      scopes: ['orders:write'],
      body: ApproveOrderDto,
      optionalBody: true,
      status: 200,
      response: { description: 'The approved order, as GET shows it', schema: wrapped('order', OrderSchema) },
      handler: async ({ principal, params, body }) => {
        const orderId = pathId(params['id'], 'order');
        await approveOrder(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          orderId,
          ...(body.create_shipment !== undefined ? { createShipment: body.create_shipment } : {}),
        });
        // Read back as GET shows it: an order exported as a draft keeps its marks.
        return { order: presentOrderDetail(await getOrder(deps, { brandId: principal.brandId, orderId }), []) };
      },
    })
    .route({
      method: 'post',
      path: '/v10/orders/:id/cancel',
      summary: 'Cancel an order',
      description:
        'draft | approved → cancelled: releases what the order still reserves and cancels its open shipments. Refused once a shipment is delivered.',
      tag: 'Orders',
      scopes: ['orders:write'],
      status: 200,
      response: { description: 'The cancelled order, as GET shows it', schema: wrapped('order', OrderSchema) },
      handler: async ({ principal, params }) => {
        const orderId = pathId(params['id'], 'order');
        await cancelOrder(deps, { brandId: principal.brandId, userId: principal.userId, orderId });
        return { order: presentOrderDetail(await getOrder(deps, { brandId: principal.brandId, orderId }), []) };
      },
    })
    .route({
      method: 'post',
      path: '/v10/orders/:id/shipments',
      summary: 'Create a partial shipment',
      description:
        "Ships some open pieces of an approved order: per variant at most the open pieces of that variant's lines.",
      tag: 'Fulfilment',
      scopes: ['orders:write'],
      body: CreatePartialShipmentDto,
      status: 201,
      response: {
        description: 'The new shipment with its lines',
        schema: wrapped('shipment', ShipmentSchema),
        showsLessThanGet: 'the timeline; GET the shipment for it and its ETag',
      },
      handler: async ({ principal, params, body }) => {
        const shipment = await createPartialShipment(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          orderId: pathId(params['id'], 'order'),
          lines: body.lines.map(toArticleQuantity),
        });
        return { shipment: presentShipment(shipment, { includeLines: true, exports: [] }) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/shipments',
      summary: 'List shipments',
      description: 'Sort by id (default) or created_at; includes[]=lines adds the lines.',
      tag: 'Fulfilment',
      scopes: ['fulfilment:read'],
      list: shipmentListDefinition,
      status: 200,
      response: { description: 'A page of shipments', schema: listOf('shipments', ShipmentSchema) },
      handler: async ({ principal, req }) => {
        const result = await listShipments(deps, await listRequest(req, principal.brandId, deps.cursors));
        const includeLines = result.query.includes.includes('lines');
        return listResponse('shipments', result, shipmentListDefinition, deps.cursors, (shipment) =>
          presentShipment(shipment, { includeLines, exports: result.exports.get(shipment.id) ?? [] }),
        );
      },
    })
    .route({
      method: 'get',
      path: '/v10/shipments/:id',
      summary: 'Get a shipment',
      description: 'With its lines and timeline.',
      tag: 'Fulfilment',
      scopes: ['fulfilment:read'],
      includes: { resource: 'shipment', allowed: ['lines'] },
      status: 200,
      response: { description: 'The shipment', schema: wrapped('shipment', ShipmentSchema) },
      handler: async ({ principal, params }) => {
        const detail = await getShipment(deps, {
          brandId: principal.brandId,
          shipmentId: pathId(params['id'], 'shipment'),
        });
        return { shipment: presentShipmentDetail(detail) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/settings',
      summary: "Get the brand's settings",
      description:
        'A brand that never changed them gets the defaults (external invoicing, no drop requirement, 25 % VAT, ad hoc returns off) with updated_at null.',
      tag: 'Settings',
      scopes: ['settings:read'],
      singleton: true,
      status: 200,
      response: { description: 'The settings', schema: wrapped('settings', SettingsSchema) },
      handler: async ({ principal }) => {
        return { settings: presentSettings(await getBrandSettings(deps, { brandId: principal.brandId })) };
      },
    })
    .route({
      method: 'patch',
      path: '/v10/settings',
      summary: "Change the brand's settings",
      description: 'Fields not sent keep their value.',
      tag: 'Settings',
      scopes: ['settings:write'],
      body: UpdateSettingsDto,
      status: 200,
      response: { description: 'The settings after the change', schema: wrapped('settings', SettingsSchema) },
      handler: async ({ principal, body }) => {
        return {
          settings: presentSettings(
            await updateBrandSettings(deps, { brandId: principal.brandId, changes: toSettingsChanges(body) }),
          ),
        };
      },
    });
}
