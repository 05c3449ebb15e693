import {
  DeliveryNote,
  DeliveryNoteLine,
  DeliveryNoteView,
  ExportMark,
  Meta,
  Order,
  OrderLine,
  Product,
  ProductionOrder,
  ProductionOrderLine,
  ProductionRelated,
  TimelineEvent,
  Variant,
} from '@brand/core';
import { ExportMarkWire, presentExportMarks } from './export-mark.presenter';
import { OrderAddressWire, presentOrderAddress } from './order.presenter';
import { OrderChannelWire, presentOrderChannel } from './order-channel.presenter';
import { SupplierWire, presentSupplier } from './supplier.presenter';
import { fullName } from './third-party-shipment.presenter';
import { TimelineEventWire, presentTimeline } from './timeline.presenter';
import { moneyOrNull } from './amounts';

/** A compact catalog product, as the production export's `lines.product` includes show it. */
export interface ProductionProductWire {
  id: number;
  item_number: string;
  name: string;
  active: boolean;
  meta: Meta;
}

/** A compact catalog variant (`lines.variant`). */
export interface ProductionVariantWire {
  id: number;
  product_id: number;
  sku: string;
  ean: string | null;
  attributes: Record<string, string>;
  archived: boolean;
  meta: Meta;
}

export interface ProductionOrderLineWire {
  id: number;
  variant_id: number;
  product_id: number;
  sku: string;
  ean: string | null;
  item_number: string;
  product_name: string;
  attributes: Record<string, string>;
  country_of_origin: string | null;
  composition: string | null;
  hs_tariff_code: string | null;
  quantity: number;
  unit_cost: number | null;
  expected_quantity: number;
  received_quantity: number;
  product?: ProductionProductWire | null;
  variant?: ProductionVariantWire | null;
}

export interface DeliveryNoteLineWire {
  id: number;
  production_order_line_id: number;
  variant_id: number;
  sku: string;
  ean: string | null;
  item_number: string;
  product_name: string;
  attributes: Record<string, string>;
  expected_quantity: number;
  received_quantity: number;
}

export interface DeliveryNoteWire {
  id: number;
  delivery_note_number: number;
  production_order_id: number;
  production_order_number: number;
  supplier_id: number;
  status: string;
  currency: string;
  expected_delivery: string | null;
  notes: string | null;
  meta: Meta;
  received_at: string | null;
  created_at: string;
  updated_at: string;
  lines: DeliveryNoteLineWire[];
  timeline?: TimelineEventWire[];
}

/** A sales order the production makes goods for, as the export's `salesOrders` includes show it. */
export interface SalesOrderWire {
  id: number;
  order_number: number;
  status: string;
  order_type: string;
  customer_id: number;
  customer_number: string;
  reference: string | null;
  created_at: string;
  delivery?: OrderAddressWire | null;
  lines?: Array<{
    id: number;
    variant_id: number;
    sku: string;
    ean: string | null;
    quantity: number;
    product?: ProductionProductWire | null;
    variant?: ProductionVariantWire | null;
  }>;
  shop?: OrderChannelWire | null;
}

export interface ProductionOrderWire {
  id: number;
  production_order_number: number;
  status: string;
  supplier_id: number;
  supplier_number: string;
  currency: string;
  expected_delivery: string | null;
  notes: string | null;
  production_order_meta: Meta;
  sales_order_ids: number[];
  approved_at: string | null;
  closed_at: string | null;
  created_at: string;
  updated_at: string;
  exports: ExportMarkWire[];
  lines?: ProductionOrderLineWire[];
  delivery_notes?: DeliveryNoteWire[];
  supplier?: SupplierWire | null;
  sales_orders?: SalesOrderWire[];
  timeline?: TimelineEventWire[];
}

const presentProduct = (product: Omit<Product, 'categoryIds'> | undefined): ProductionProductWire | null =>
  product
    ? {
        id: product.id,
        item_number: product.itemNumber,
        name: product.name,
        active: product.active,
        meta: product.meta,
      }
    : null;

const presentVariant = (variant: Omit<Variant, 'dropIds'> | undefined): ProductionVariantWire | null =>
  variant
    ? {
        id: variant.id,
        product_id: variant.productId,
        sku: variant.sku,
        ean: variant.ean,
        attributes: variant.attributes,
        archived: variant.archived,
        meta: variant.meta,
      }
    : null;

function presentLine(
  line: ProductionOrderLine,
  includes: readonly string[],
  related: ProductionRelated,
): ProductionOrderLineWire {
  const wire: ProductionOrderLineWire = {
    id: line.id,
    variant_id: line.variantId,
    product_id: line.productId,
    sku: line.sku,
    ean: line.ean,
    item_number: line.itemNumber,
    product_name: line.productName,
    attributes: line.attributes,
    country_of_origin: line.countryOfOrigin,
    composition: line.composition,
    hs_tariff_code: line.hsTariffCode,
    quantity: line.quantity,
    unit_cost: moneyOrNull(line.unitCost),
    expected_quantity: line.expectedQuantity,
    received_quantity: line.receivedQuantity,
  };
  if (includes.includes('lines.product')) wire.product = presentProduct(related.products.get(line.productId));
  if (includes.includes('lines.variant')) wire.variant = presentVariant(related.variants.get(line.variantId));
  return wire;
}

function presentDeliveryNoteLine(line: DeliveryNoteLine): DeliveryNoteLineWire {
  return {
    id: line.id,
    production_order_line_id: line.productionOrderLineId,
    variant_id: line.variantId,
    sku: line.sku,
    ean: line.ean,
    item_number: line.itemNumber,
    product_name: line.productName,
    attributes: line.attributes,
    expected_quantity: line.expectedQuantity,
    received_quantity: line.receivedQuantity,
  };
}

/** A delivery note in the back-office (v10) form. */
export function presentDeliveryNote(note: DeliveryNote, timeline?: readonly TimelineEvent[]): DeliveryNoteWire {
  const wire: DeliveryNoteWire = {
    id: note.id,
    delivery_note_number: note.deliveryNoteNumber,
    production_order_id: note.productionOrderId,
    production_order_number: note.productionOrderNumber,
    supplier_id: note.supplierId,
    status: note.status,
    currency: note.currency,
    expected_delivery: note.expectedDelivery,
    notes: note.notes,
    meta: note.meta,
    received_at: note.receivedAt,
    created_at: note.createdAt,
    updated_at: note.updatedAt,
    lines: note.lines.map(presentDeliveryNoteLine),
  };
  if (timeline) wire.timeline = presentTimeline(timeline);
  return wire;
}

function presentSalesOrder(order: Order, includes: readonly string[], related: ProductionRelated): SalesOrderWire {
  const wire: SalesOrderWire = {
    id: order.id,
    order_number: order.orderNumber,
    status: order.status,
    order_type: order.orderType,
    customer_id: order.customerId,
    customer_number: order.customerNumber,
    reference: order.reference,
    created_at: order.createdAt,
  };
  if (includes.includes('salesOrders.delivery')) wire.delivery = presentOrderAddress(order.deliveryAddress);
  if (includes.includes('salesOrders.shop')) {
    const channel = related.channels.get(order.orderChannelId);
    wire.shop = channel ? presentOrderChannel(channel) : null;
  }
  if (includes.includes('salesOrders.lines')) {
    wire.lines = order.lines.map((line: OrderLine) => {
      const item: NonNullable<SalesOrderWire['lines']>[number] = {
        id: line.id,
        variant_id: line.variantId,
        sku: line.sku,
        ean: line.ean,
        quantity: line.quantity,
      };
      if (includes.includes('salesOrders.lines.product'))
        item.product = presentProduct(related.products.get(line.productId));
      if (includes.includes('salesOrders.lines.variant'))
        item.variant = presentVariant(related.variants.get(line.variantId));
      return item;
    });
  }
  return wire;
}

/**
 * A production order in the v10 form. Includes (`lines`, `deliveryNotes`, `supplier`,
 * `salesOrders` and their sub-includes) add their keys; `related` holds what they need.
 */
export function presentProductionOrder(
  order: ProductionOrder,
  options: {
    includes: readonly string[];
    related: ProductionRelated;
    exports: readonly ExportMark[];
    timeline?: readonly TimelineEvent[];
  },
): ProductionOrderWire {
  const { includes, related } = options;
  const wire: ProductionOrderWire = {
    id: order.id,
    production_order_number: order.productionOrderNumber,
    status: order.status,
    supplier_id: order.supplierId,
    supplier_number: order.supplierNumber,
    currency: order.currency,
    expected_delivery: order.expectedDelivery,
    notes: order.notes,
    production_order_meta: order.productionOrderMeta,
    sales_order_ids: order.salesOrderIds,
    approved_at: order.approvedAt,
    closed_at: order.closedAt,
    created_at: order.createdAt,
    updated_at: order.updatedAt,
    exports: presentExportMarks(options.exports),
  };
  if (includes.some((i) => i === 'lines' || i.startsWith('lines.')))
    wire.lines = order.lines.map((l) => presentLine(l, includes, related));
  if (includes.includes('deliveryNotes'))
    wire.delivery_notes = (related.deliveryNotes.get(order.id) ?? []).map((n) => presentDeliveryNote(n));
  if (includes.includes('supplier')) {
    const supplier = related.suppliers.get(order.supplierId);
    wire.supplier = supplier ? presentSupplier(supplier, []) : null;
  }
  if (includes.some((i) => i.startsWith('salesOrders'))) {
    wire.sales_orders = order.salesOrderIds.flatMap((id) => {
      const sales = related.salesOrders.get(id);
      return sales ? [presentSalesOrder(sales, includes, related)] : [];
    });
  }
  if (options.timeline) wire.timeline = presentTimeline(options.timeline);
  return wire;
}

/** A line of the 3PL delivery note: the spec's fields, plus `received_quantity` so far. */
export interface ThirdPartyDeliveryNoteLineWire {
  product_name: string;
  item_number: string;
  attributes: Record<string, string>;
  full_name: string;
  sku: string;
  ean: string | null;
  country_of_origin: string | null;
  composition: string | null;
  hs_tariff_code: string | null;
  expected_quantity: number;
  received_quantity: number;
}

/** "Production order delivery note (3PL form)" of the spec, plus id, status and the production order number. */
export interface ThirdPartyDeliveryNoteWire {
  id: number;
  production_order_delivery_note_number: number;
  production_order_number: number;
  status: string;
  supplier_number: string;
  supplier: string;
  currency: string;
  expected_delivery: string | null;
  notes: string | null;
  production_order_delivery_note_meta: Meta;
  production_order_meta: Meta;
  received_at: string | null;
  created_at: string;
  updated_at: string;
  lines: ThirdPartyDeliveryNoteLineWire[];
}

export function presentThirdPartyDeliveryNote(view: DeliveryNoteView): ThirdPartyDeliveryNoteWire {
  const { note, productionOrder, supplier } = view;
  return {
    id: note.id,
    production_order_delivery_note_number: note.deliveryNoteNumber,
    production_order_number: note.productionOrderNumber,
    status: note.status,
    supplier_number: supplier.supplierNumber,
    supplier: supplier.name,
    currency: note.currency,
    expected_delivery: note.expectedDelivery,
    notes: note.notes,
    production_order_delivery_note_meta: note.meta,
    production_order_meta: productionOrder.productionOrderMeta,
    received_at: note.receivedAt,
    created_at: note.createdAt,
    updated_at: note.updatedAt,
    lines: note.lines.map((line) => ({
      product_name: line.productName,
      item_number: line.itemNumber,
      attributes: line.attributes,
      full_name: fullName(line.productName, line.attributes),
      sku: line.sku,
      ean: line.ean,
      country_of_origin: line.countryOfOrigin,
      composition: line.composition,
      hs_tariff_code: line.hsTariffCode,
      expected_quantity: line.expectedQuantity,
      received_quantity: line.receivedQuantity,
    })),
  };
}
