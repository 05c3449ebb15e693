import {
  ExportMark,
  Invoice,
  Meta,
  Order,
  OrderAddress,
  OrderLine,
  OrderStatus,
  OrderType,
  Shipment,
  TimelineEvent,
  reservedQuantityOf,
} from '@brand/core';
import { ExportMarkWire, presentExportMarks } from './export-mark.presenter';
import { InvoiceWire, presentInvoice } from './invoice.presenter';
import { ShipmentWire, presentShipment } from './shipment.presenter';
import { TimelineEventWire, presentTimeline } from './timeline.presenter';
import { money, percent } from './amounts';

/** An address copied onto an order (also the shape of the 3PL shipment's addresses). */
export interface OrderAddressWire {
  name: string;
  att: string | null;
  address: string;
  zip: string;
  region: string;
  city: string;
  country: string;
}

export interface ShippingCodeWire {
  code: string;
  drop_point_id: string | null;
}

export interface ResponsiblePersonWire {
  email: string;
  first_name: string;
  last_name: string | null;
}

export interface OrderLineWire {
  id: number;
  variant_id: number;
  product_id: number;
  sku: string;
  ean: string | null;
  item_number: string;
  product_name: string;
  attributes: Record<string, string>;
  quantity: number;
  /** Pieces the line still holds in stock (lowering Available). */
  reserved_quantity: number;
  shipped_quantity: number;
  delivered_quantity: number;
  invoiced_quantity: number;
  regulated_quantity: number;
  unit_price: number;
  discount_percentage: number;
  total_price: number;
}

export interface OrderWire {
  id: number;
  order_number: number;
  status: OrderStatus;
  order_type: OrderType;
  order_channel_id: number;
  customer_id: number;
  customer_number: string;
  drop_id: number | null;
  currency: string;
  vat_rate: number;
  prices_include_vat: boolean;
  email: string | null;
  telephone: string | null;
  reference: string | null;
  notes: string | null;
  invoice_address: OrderAddressWire | null;
  delivery_address: OrderAddressWire | null;
  shipping_code: ShippingCodeWire | null;
  shipping_cost: number | null;
  responsible_person: ResponsiblePersonWire | null;
  order_meta: Meta;
  net_total: number;
  vat_total: number;
  total: number;
  approved_at: string | null;
  cancelled_at: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  exports: ExportMarkWire[];
  lines?: OrderLineWire[];
  timeline?: TimelineEventWire[];
  shipments?: ShipmentWire[];
  invoices?: InvoiceWire[];
}

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
    timeline: readonly TimelineEvent[];
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
