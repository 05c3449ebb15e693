import { recordEvents } from '../events/record-events';
import { Shipment } from '../fulfilment/shipment.entities';
import { Order } from '../orders/order.entities';
import { documentTotals, lineTotal } from '../shared/money';
import { Repositories } from '../shared/unit-of-work.ports';
import { FinancialLine, Invoice } from './finance.entities';

/**
 * In-service invoicing: a delivered shipment is billed by a draft invoice for the pieces the
 * warehouse delivered, at the order lines' prices, plus the shipping cost the shipment carries.
 * Returns the invoice (saved, and announced as `invoice.created` in the caller's transaction) and
 * the order with the pieces counted as invoiced (the caller saves it). Nothing is billed (null)
 * when nothing was delivered.
 */
export async function draftInvoiceForShipment(
  tx: Pick<
    Repositories,
    | 'documentNumbers'
    | 'events'
    | 'ids'
    | 'invoices'
    | 'timeline'
    | 'webhookDeliveries'
    | 'transaction'
    | 'webhookEndpoints'
  >,
  input: { order: Order; shipment: Shipment; userId: number | null; at: string },
): Promise<{ invoice: Invoice | null; order: Order }> {
  const { order, shipment, at } = input;
  const delivered = shipment.lines.filter((l) => l.deliveredQuantity > 0);
  if (delivered.length === 0 && !shipment.shippingCost) return { invoice: null, order };
  const byLine = new Map(order.lines.map((l) => [l.id, l]));
  const lineIds = await tx.ids.next('invoice_lines', delivered.length + (shipment.shippingCost ? 1 : 0));
  const lines: FinancialLine[] = delivered.map((s, i) => {
    const orderLine = byLine.get(s.orderLineId)!;
    return {
      id: lineIds[i]!,
      kind: 'product',
      orderLineId: orderLine.id,
      variantId: orderLine.variantId,
      sku: orderLine.sku,
      description: orderLine.productName,
      quantity: s.deliveredQuantity,
      unitPrice: orderLine.unitPrice,
      discountBasisPoints: orderLine.discountBasisPoints,
      totalPrice: lineTotal(s.deliveredQuantity, orderLine.unitPrice, orderLine.discountBasisPoints),
    };
  });
  if (shipment.shippingCost) {
    lines.push({
      id: lineIds[delivered.length]!,
      kind: 'shipping',
      orderLineId: null,
      variantId: null,
      sku: null,
      description: 'Shipping',
      quantity: 1,
      unitPrice: shipment.shippingCost,
      discountBasisPoints: 0,
      totalPrice: shipment.shippingCost,
    });
  }
  const [id] = await tx.ids.next('invoices');
  const invoice: Invoice = {
    id: id!,
    brandId: order.brandId,
    invoiceNumber: await tx.documentNumbers.next(order.brandId, 'invoice'),
    status: 'draft',
    orderId: order.id,
    shipmentId: shipment.id,
    customerId: order.customerId,
    currency: order.currency,
    vatRateBasisPoints: order.vatRateBasisPoints,
    pricesIncludeVat: order.pricesIncludeVat,
    ...documentTotals(
      lines.reduce((sum, l) => sum + l.totalPrice, 0),
      order.vatRateBasisPoints,
      order.pricesIncludeVat,
    ),
    inventoryRegulated: false,
    bookedAt: null,
    createdAt: at,
    updatedAt: at,
    lines,
  };
  await tx.invoices.save(invoice);
  await recordEvents(tx, order.brandId, at, [
    {
      type: 'invoice.created',
      object: invoice,
      timeline: { note: `drafted for delivered shipment ${shipment.shipmentNumber}`, userId: input.userId },
    },
  ]);
  const invoiced = new Map(delivered.map((s) => [s.orderLineId, s.deliveredQuantity]));
  return {
    invoice,
    order: {
      ...order,
      lines: order.lines.map((l) => ({ ...l, invoicedQuantity: l.invoicedQuantity + (invoiced.get(l.id) ?? 0) })),
    },
  };
}
