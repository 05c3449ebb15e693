import { Customer, PaymentTerms } from '../customers/customer.entities';
import { ExportMark } from '../documents/document.entities';
import { marksByDocument } from '../orders/marks-by-document';
import { Order } from '../orders/order.entities';
import { Repositories } from '../shared/unit-of-work.ports';
import { Shipment } from './shipment.entities';
import { settleAll } from '../shared/settle-all';

/** A shipment with what its 3PL form shows besides itself: its order, the customer, the customer's payment terms and the export marks. */
export interface ShipmentView {
  shipment: Shipment;
  order: Order;
  customer: Customer;
  paymentTerms: PaymentTerms | null;
  exports: ExportMark[];
}

/**
 * Loads the views of a page of shipments with one read per kind (orders, customers, payment
 * terms, export marks), keeping the shipments' order.
 */
export async function loadShipmentViews(
  repos: Pick<Repositories, 'customers' | 'exportMarks' | 'orders' | 'paymentTerms'>,
  brandId: number,
  shipments: Shipment[],
): Promise<ShipmentView[]> {
  if (shipments.length === 0) return [];
  const orderIds = [...new Set(shipments.map((s) => s.orderId))];
  const [orders, exports] = await settleAll([
    repos.orders.findByIds(brandId, orderIds),
    marksByDocument(
      repos,
      brandId,
      'shipment',
      shipments.map((s) => s.id),
    ),
  ]);
  const ordersById = new Map(orders.map((o) => [o.id, o]));
  // Orders copy the customer number, the sync key, which lets one read fetch every customer.
  const customers = await repos.customers.findByNumbers(brandId, [...new Set(orders.map((o) => o.customerNumber))]);
  const customersById = new Map(customers.map((c) => [c.id, c]));
  const termsIds = [...new Set(customers.flatMap((c) => (c.paymentTermsId !== null ? [c.paymentTermsId] : [])))];
  const terms = termsIds.length ? await repos.paymentTerms.findByIds(brandId, termsIds) : [];
  const termsById = new Map(terms.map((t) => [t.id, t]));
  const views: ShipmentView[] = [];
  for (const shipment of shipments) {
    const order = ordersById.get(shipment.orderId);
    if (!order) throw new Error(`shipment ${shipment.id} refers to order ${shipment.orderId}, which is missing`);
    let customer = customersById.get(order.customerId);
    if (!customer) {
      const found = await repos.customers.findById(brandId, order.customerId);
      if (!found) throw new Error(`order ${order.id} refers to customer ${order.customerId}, which is missing`);
      customersById.set(found.id, found);
      customer = found;
    }
    const paymentTerms = customer.paymentTermsId !== null ? (termsById.get(customer.paymentTermsId) ?? null) : null;
    views.push({ shipment, order, customer, paymentTerms, exports: exports.get(shipment.id) ?? [] });
  }
  return views;
}
