import { Product, Variant } from '../catalog/catalog.entities';
import { ExportMark } from '../documents/document.entities';
import { marksByDocument } from '../orders/marks-by-document';
import { Order, OrderChannel } from '../orders/order.entities';
import { Supplier } from '../suppliers/supplier.entities';
import { Repositories } from '../shared/unit-of-work.ports';
import { DeliveryNote, ProductionOrder } from './production.entities';

/** What the production order list and its export use: the orders and what their view shows. */
export type ProductionOrderListRepositories = Pick<
  Repositories,
  'deliveryNotes' | 'exportMarks' | 'orderChannels' | 'orders' | 'productionOrders' | 'products' | 'suppliers'
>;

/**
 * What production responses show besides the documents themselves, loaded with one read per kind
 * for a whole page: suppliers, delivery notes, sales orders with their channels, and the catalog
 * products and variants the lines name (the export's `lines.product`, `salesOrders.lines.variant`, …).
 */
export interface ProductionRelated {
  suppliers: Map<number, Supplier>;
  deliveryNotes: Map<number, DeliveryNote[]>;
  salesOrders: Map<number, Order>;
  channels: Map<number, OrderChannel>;
  products: Map<number, Omit<Product, 'categoryIds'>>;
  variants: Map<number, Omit<Variant, 'dropIds'>>;
  exports: Map<number, ExportMark[]>;
}

/** Which related data to load (includes asked for); suppliers are always loaded (the 3PL form names them). */
export interface RelatedWanted {
  deliveryNotes?: boolean;
  salesOrders?: boolean;
  catalog?: boolean;
  exports?: boolean;
}

/** Suppliers of a page by id (a brand has few; one read each). */
export async function suppliersById(
  repos: Pick<Repositories, 'suppliers'>,
  brandId: number,
  supplierIds: readonly number[],
): Promise<Map<number, Supplier>> {
  const found = new Map<number, Supplier>();
  for (const id of new Set(supplierIds)) {
    const supplier = await repos.suppliers.findById(brandId, id);
    if (supplier) found.set(id, supplier);
  }
  return found;
}

export async function loadProductionRelated(
  repos: Pick<Repositories, 'deliveryNotes' | 'exportMarks' | 'orderChannels' | 'orders' | 'products' | 'suppliers'>,
  brandId: number,
  orders: readonly ProductionOrder[],
  wanted: RelatedWanted,
): Promise<ProductionRelated> {
  const related: ProductionRelated = {
    suppliers: await suppliersById(
      repos,
      brandId,
      orders.map((o) => o.supplierId),
    ),
    deliveryNotes: new Map(),
    salesOrders: new Map(),
    channels: new Map(),
    products: new Map(),
    variants: new Map(),
    exports: new Map(),
  };
  if (orders.length === 0) return related;
  const orderIds = orders.map((o) => o.id);
  if (wanted.deliveryNotes) {
    for (const id of orderIds) related.deliveryNotes.set(id, []);
    for (const note of await repos.deliveryNotes.findByProductionOrderIds(brandId, orderIds))
      related.deliveryNotes.get(note.productionOrderId)?.push(note);
  }
  if (wanted.salesOrders) {
    const salesOrderIds = [...new Set(orders.flatMap((o) => o.salesOrderIds))];
    const salesOrders = salesOrderIds.length ? await repos.orders.findByIds(brandId, salesOrderIds) : [];
    for (const order of salesOrders) related.salesOrders.set(order.id, order);
    const channelIds = [...new Set(salesOrders.map((o) => o.orderChannelId))];
    for (const channel of channelIds.length ? await repos.orderChannels.findByIds(brandId, channelIds) : [])
      related.channels.set(channel.id, channel);
  }
  if (wanted.catalog) {
    const skus = [
      ...new Set([
        ...orders.flatMap((o) => o.lines.map((l) => l.sku)),
        ...[...related.salesOrders.values()].flatMap((o) => o.lines.map((l) => l.sku)),
      ]),
    ];
    for (const found of skus.length ? await repos.products.findSaleableVariants(brandId, { skus }) : []) {
      related.products.set(found.product.id, found.product);
      related.variants.set(found.variant.id, found.variant);
    }
  }
  if (wanted.exports) related.exports = await marksByDocument(repos, brandId, 'production_order', orderIds);
  return related;
}

/** A delivery note with what its 3PL form shows: its production order (meta) and supplier. */
export interface DeliveryNoteView {
  note: DeliveryNote;
  productionOrder: ProductionOrder;
  supplier: Supplier;
}

export async function loadDeliveryNoteViews(
  repos: Pick<Repositories, 'productionOrders' | 'suppliers'>,
  brandId: number,
  notes: readonly DeliveryNote[],
): Promise<DeliveryNoteView[]> {
  if (notes.length === 0) return [];
  const orders = await repos.productionOrders.findByIds(brandId, [...new Set(notes.map((n) => n.productionOrderId))]);
  const ordersById = new Map(orders.map((o) => [o.id, o]));
  const suppliers = await suppliersById(
    repos,
    brandId,
    notes.map((n) => n.supplierId),
  );
  return notes.map((note) => {
    const productionOrder = ordersById.get(note.productionOrderId);
    const supplier = suppliers.get(note.supplierId);
    if (!productionOrder || !supplier)
      throw new Error(`delivery note ${note.id} refers to a missing production order or supplier`);
    return { note, productionOrder, supplier };
  });
}
