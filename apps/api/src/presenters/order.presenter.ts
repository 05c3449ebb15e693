import {
  ExportMark,
  Invoice,
  Order,
  OrderAddress,
  OrderLine,
  Shipment,
  NewTimelineEvent,
  orderLifecycle,
  reservedQuantityOf,
  ORDER_TYPES,
} from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  boolean,
  component,
  country,
  currency,
  dateTime,
  integer,
  meta,
  amount,
  nullable,
  oneOfValues,
  optional,
  percentage,
  string,
  stringMap,
} from '../http/wire-schema';
import { exportMarksProperty, presentExportMarks } from './export-mark.presenter';
import { InvoiceSchema, presentInvoice } from './invoice.presenter';
import { ShipmentSchema, presentShipment } from './shipment.presenter';
import { TimelineEventSchema, presentTimeline } from './timeline.presenter';
import { money, percent } from './amounts';

/** An address copied onto an order (also the shape of the 3PL shipment's addresses). */
export const OrderAddressSchema = component(
  'OrderAddress',
  Type.Object({
    name: string('Top line, typically the receiving party'),
    att: nullable(string()),
    address: string('Street with house number, floor'),
    zip: string(),
    region: string(),
    city: string(),
    country: country(),
  }),
);
export type OrderAddressWire = Static<typeof OrderAddressSchema>;

export const ShippingCodeSchema = component(
  'ShippingCode',
  Type.Object({ code: string(), drop_point_id: nullable(string()) }),
);
export type ShippingCodeWire = Static<typeof ShippingCodeSchema>;

export const ResponsiblePersonSchema = component(
  'ResponsiblePerson',
  Type.Object({ email: string(), first_name: string(), last_name: nullable(string()) }),
);
export type ResponsiblePersonWire = Static<typeof ResponsiblePersonSchema>;

export const OrderLineSchema = component(
  'OrderLine',
  Type.Object({
    id: integer(),
    variant_id: integer(),
    product_id: integer(),
    sku: string(),
    ean: nullable(string()),
    item_number: string(),
    product_name: string(),
    attributes: stringMap(),
    quantity: integer(),
    reserved_quantity: integer('Pieces the line still holds (lowering Available)'),
    shipped_quantity: integer('Pieces on shipments that are not cancelled'),
    delivered_quantity: integer('Pieces the warehouse reported delivered'),
    invoiced_quantity: integer(),
    regulated_quantity: integer('Pieces taken out of In stock'),
    unit_price: amount('Per piece before the discount (incl. VAT when prices_include_vat)'),
    discount_percentage: percentage('Discount'),
    total_price: amount('quantity × unit_price less the discount'),
  }),
);
export type OrderLineWire = Static<typeof OrderLineSchema>;

export const OrderSchema = component(
  'Order',
  Type.Object({
    id: integer(),
    order_number: integer(),
    status: oneOfValues(orderLifecycle.states),
    order_type: oneOfValues(ORDER_TYPES),
    order_channel_id: integer(),
    customer_id: integer(),
    customer_number: string(),
    drop_id: nullable(integer()),
    currency: currency(),
    vat_rate: percentage('VAT rate'),
    prices_include_vat: boolean('B2C: line prices include VAT and the totals are derived from them'),
    email: nullable(string()),
    telephone: nullable(string()),
    reference: nullable(string()),
    notes: nullable(string()),
    invoice_address: nullable(OrderAddressSchema),
    delivery_address: nullable(OrderAddressSchema),
    shipping_code: nullable(ShippingCodeSchema),
    shipping_cost: nullable(Type.Number(), {
      description: 'Shipping charged, in the VAT basis of the lines; at most 2 decimals',
    }),
    responsible_person: nullable(ResponsiblePersonSchema),
    order_meta: meta('Custom fields of the order'),
    net_total: amount('Without VAT'),
    vat_total: amount('VAT'),
    total: amount('net_total + vat_total'),
    approved_at: nullable(dateTime(), { description: 'When it was approved' }),
    cancelled_at: nullable(dateTime(), { description: 'When it was cancelled' }),
    archived_at: nullable(dateTime(), { description: 'When it was archived' }),
    created_at: dateTime(),
    updated_at: dateTime(),
    exports: exportMarksProperty(false),
    lines: optional(arrayOf(OrderLineSchema, 'With includes[]=lines on lists; always on a single order')),
    timeline: optional(arrayOf(TimelineEventSchema, 'On GET /v10/orders/{id}, oldest first')),
    shipments: optional(arrayOf(ShipmentSchema, 'On GET /v10/orders/{id} with includes[]=shipments')),
    invoices: optional(arrayOf(InvoiceSchema, 'On GET /v10/orders/{id} with includes[]=invoices')),
  }),
);
export type OrderWire = Static<typeof OrderSchema>;

export function presentOrderAddress(address: OrderAddress | null): OrderAddressWire | null {
  if (!address) return null;
  return {
    name: address.name,
    att: address.att,
    address: address.address,
    zip: address.zip,
    region: address.region,
    city: address.city,
    country: address.country,
  };
}

export function presentOrderLine(line: OrderLine): OrderLineWire {
  return {
    id: line.id,
    variant_id: line.variantId,
    product_id: line.productId,
    sku: line.sku,
    ean: line.ean,
    item_number: line.itemNumber,
    product_name: line.productName,
    attributes: { ...line.attributes },
    quantity: line.quantity,
    reserved_quantity: reservedQuantityOf(line),
    shipped_quantity: line.shippedQuantity,
    delivered_quantity: line.deliveredQuantity,
    invoiced_quantity: line.invoicedQuantity,
    regulated_quantity: line.regulatedQuantity,
    unit_price: money(line.unitPrice),
    discount_percentage: percent(line.discountBasisPoints),
    total_price: money(line.totalPrice),
  };
}

/** An order as lists, exports and the back office show it; `lines` only when asked for. */
export function presentOrder(
  order: Order,
  options: { includeLines: boolean; exports: readonly ExportMark[] },
): OrderWire {
  const wire: OrderWire = {
    id: order.id,
    order_number: order.orderNumber,
    status: order.status,
    order_type: order.orderType,
    order_channel_id: order.orderChannelId,
    customer_id: order.customerId,
    customer_number: order.customerNumber,
    drop_id: order.dropId,
    currency: order.currency,
    vat_rate: percent(order.vatRateBasisPoints),
    prices_include_vat: order.pricesIncludeVat,
    email: order.email,
    telephone: order.telephone,
    reference: order.reference,
    notes: order.notes,
    invoice_address: presentOrderAddress(order.invoiceAddress),
    delivery_address: presentOrderAddress(order.deliveryAddress),
    shipping_code: order.shippingCode
      ? { code: order.shippingCode.code, drop_point_id: order.shippingCode.dropPointId }
      : null,
    shipping_cost: order.shippingCost === null ? null : money(order.shippingCost),
    responsible_person: order.responsiblePerson
      ? {
          email: order.responsiblePerson.email,
          first_name: order.responsiblePerson.firstName,
          last_name: order.responsiblePerson.lastName,
        }
      : null,
    order_meta: { ...order.orderMeta },
    net_total: money(order.netTotal),
    vat_total: money(order.vatTotal),
    total: money(order.total),
    approved_at: order.approvedAt,
    cancelled_at: order.cancelledAt,
    archived_at: order.archivedAt,
    created_at: order.createdAt,
    updated_at: order.updatedAt,
    exports: presentExportMarks(options.exports),
  };
  if (options.includeLines) wire.lines = order.lines.map(presentOrderLine);
  return wire;
}

/**
 * `GET /v10/orders/{id}`: the order with its lines and timeline, and its shipments and invoices
 * when included (those embedded documents carry no `exports`; GET them for their marks).
 */
export function presentOrderDetail(
  detail: {
    order: Order;
    shipments: readonly Shipment[];
    invoices: readonly Invoice[];
    exports: readonly ExportMark[];
    timeline: readonly NewTimelineEvent[];
  },
  includes: readonly string[],
): OrderWire {
  const wire = presentOrder(detail.order, { includeLines: true, exports: detail.exports });
  wire.timeline = presentTimeline(detail.timeline);
  if (includes.includes('shipments'))
    wire.shipments = detail.shipments.map((s) => presentShipment(s, { includeLines: true }));
  if (includes.includes('invoices'))
    wire.invoices = detail.invoices.map((i) => presentInvoice(i, { includeLines: true }));
  return wire;
}
