import {
  DeliveryNote,
  DeliveryNoteLine,
  ExportMark,
  Order,
  OrderLine,
  Product,
  ProductionOrder,
  ProductionOrderLine,
  ProductionRelated,
  TimelineEvent,
  Variant,
  deliveryNoteLifecycle,
  orderLifecycle,
  productionOrderLifecycle,
  ORDER_TYPES,
} from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  boolean,
  component,
  dateTime,
  day,
  integer,
  meta,
  amount,
  nullable,
  oneOfValues,
  optional,
  string,
  stringMap,
} from '../http/wire-schema';
import { ExportMarkSchema, presentExportMarks } from './export-mark.presenter';
import { OrderAddressSchema, presentOrderAddress } from './order.presenter';
import { OrderChannelSchema, presentOrderChannel } from './order-channel.presenter';
import { SupplierSchema, presentSupplier } from './supplier.presenter';
import { TimelineEventSchema, presentTimeline } from './timeline.presenter';
import { moneyOrNull } from './amounts';

const attributes = () => stringMap('Variant attributes (colors, sizes)');

/** A compact catalog product, as the production export's `lines.product` includes show it. */
export const ProductionProductSchema = Type.Object({
  id: integer(),
  item_number: string(),
  name: string(),
  active: boolean(),
  meta: meta('Custom fields'),
});
export type ProductionProductWire = Static<typeof ProductionProductSchema>;

/** A compact catalog variant (`lines.variant`). */
export const ProductionVariantSchema = Type.Object({
  id: integer(),
  product_id: integer(),
  sku: string(),
  ean: nullable(string()),
  attributes: attributes(),
  archived: boolean(),
  meta: meta('Custom fields'),
});
export type ProductionVariantWire = Static<typeof ProductionVariantSchema>;

// The include's description replaces the object's own when null is added, so it says both.
const includedProduct = (include: string) =>
  optional(nullable(ProductionProductSchema, { description: `A compact catalog product; with ${include}` }));
const includedVariant = (include: string) =>
  optional(nullable(ProductionVariantSchema, { description: `A compact catalog variant; with ${include}` }));

export const ProductionOrderLineSchema = component(
  'ProductionOrderLine',
  Type.Object({
    id: integer(),
    variant_id: integer(),
    product_id: integer(),
    sku: string(),
    ean: nullable(string()),
    item_number: string(),
    product_name: string(),
    attributes: attributes(),
    country_of_origin: nullable(string()),
    composition: nullable(string()),
    hs_tariff_code: nullable(string()),
    quantity: integer('Pieces ordered from the supplier'),
    unit_cost: nullable(amount('Cost per piece in the production order currency')),
    expected_quantity: integer('Pieces announced on delivery notes'),
    received_quantity: integer('Pieces the warehouse received'),
    product: includedProduct('includes[]=lines.product (export)'),
    variant: includedVariant('includes[]=lines.variant (export)'),
  }),
);
export type ProductionOrderLineWire = Static<typeof ProductionOrderLineSchema>;

export const DeliveryNoteLineSchema = component(
  'DeliveryNoteLine',
  Type.Object({
    id: integer(),
    production_order_line_id: integer(),
    variant_id: integer(),
    sku: string(),
    ean: nullable(string()),
    item_number: string(),
    product_name: string(),
    attributes: attributes(),
    expected_quantity: integer(),
    received_quantity: integer('Pieces received so far (receipts add up)'),
  }),
);
export type DeliveryNoteLineWire = Static<typeof DeliveryNoteLineSchema>;

export const DeliveryNoteSchema = component(
  'DeliveryNote',
  Type.Object({
    id: integer(),
    production_order_delivery_note_number: integer(
      "Number from the brand's delivery note series; the warehouse receives by it (the 3PL surface's name for it)",
    ),
    production_order_id: integer(),
    production_order_number: integer(),
    supplier_id: integer(),
    status: oneOfValues(deliveryNoteLifecycle.states),
    currency: string(),
    expected_delivery: nullable(day('YYYY-MM-DD; null when unknown')),
    notes: nullable(string()),
    meta: meta('Custom fields of the delivery note (production_order_delivery_note_meta)'),
    received_at: nullable(dateTime('The latest receipt')),
    created_at: dateTime(),
    updated_at: dateTime(),
    lines: arrayOf(DeliveryNoteLineSchema),
    timeline: optional(arrayOf(TimelineEventSchema)),
  }),
);
export type DeliveryNoteWire = Static<typeof DeliveryNoteSchema>;

/** A line of a sales order, as the export's `salesOrders.lines` includes show it. */
const SalesOrderLineSchema = Type.Object({
  id: integer(),
  variant_id: integer(),
  sku: string(),
  ean: nullable(string()),
  quantity: integer(),
  product: includedProduct('salesOrders.lines.product'),
  variant: includedVariant('salesOrders.lines.variant'),
});
type SalesOrderLineWire = Static<typeof SalesOrderLineSchema>;

/** A sales order the production makes goods for, as the export's `salesOrders` includes show it. */
export const SalesOrderSchema = component(
  'ProductionSalesOrder',
  Type.Object(
    {
      id: integer(),
      order_number: integer(),
      status: oneOfValues(orderLifecycle.states),
      order_type: oneOfValues(ORDER_TYPES),
      customer_id: integer(),
      customer_number: string(),
      reference: nullable(string()),
      created_at: dateTime(),
      delivery: optional(
        nullable(OrderAddressSchema, { description: 'With salesOrders.delivery: the delivery address' }),
      ),
      lines: optional(arrayOf(SalesOrderLineSchema, 'With salesOrders.lines')),
      shop: optional(nullable(OrderChannelSchema, { description: 'With salesOrders.shop: the order channel' })),
    },
    { description: 'A sales order the production makes goods for' },
  ),
);
export type SalesOrderWire = Static<typeof SalesOrderSchema>;

export const ProductionOrderSchema = component(
  'ProductionOrder',
  Type.Object({
    id: integer(),
    production_order_number: integer("Number from the brand's production order series"),
    status: oneOfValues(productionOrderLifecycle.states),
    supplier_id: integer(),
    supplier_number: string(),
    currency: string(),
    expected_delivery: nullable(day('YYYY-MM-DD; null when unknown')),
    notes: nullable(string()),
    production_order_meta: meta('Custom fields'),
    sales_order_ids: arrayOf(integer(), 'Sales orders this production makes goods for'),
    approved_at: nullable(dateTime('When it was approved (draft → open)')),
    closed_at: nullable(dateTime('When it was closed')),
    created_at: dateTime(),
    updated_at: dateTime(),
    exports: arrayOf(ExportMarkSchema, 'Which systems marked it exported, and when'),
    lines: optional(arrayOf(ProductionOrderLineSchema, 'With includes[]=lines (always on GET by id)')),
    delivery_notes: optional(arrayOf(DeliveryNoteSchema, 'With includes[]=deliveryNotes')),
    supplier: optional(nullable(SupplierSchema, { description: 'With includes[]=supplier' })),
    sales_orders: optional(arrayOf(SalesOrderSchema, 'With includes[]=salesOrders (or one of its sub-includes)')),
    timeline: optional(arrayOf(TimelineEventSchema, 'GET by id')),
  }),
);
export type ProductionOrderWire = Static<typeof ProductionOrderSchema>;

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
    production_order_delivery_note_number: note.deliveryNoteNumber,
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
      const item: SalesOrderLineWire = {
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
