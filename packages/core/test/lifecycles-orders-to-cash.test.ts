import {
  FinancialDocumentStatus,
  OrderStatus,
  ShipmentStatus,
  approveOrder,
  bookCreditNote,
  bookInvoice,
  cancelOrder,
  cancelShipment,
  creditInvoice,
  deliverShipment,
  financialDocumentLifecycle,
  getCreditNote,
  getInvoice,
  getShipment,
  markOrdersExported,
  orderLifecycle,
  shipmentLifecycle,
} from '../src';
import { walkLifecycle } from './lifecycle-walk.support';
import { customer, product, setUpShop } from './orders-shop.support';

type Shop = Awaited<ReturnType<typeof setUpShop>>;

/** A shop (invoicing as given) with one order of 3 × TEE-M, approved at once when `autoApprove`. */
async function aShopWithAnOrder(options: { autoApprove: boolean; invoicing?: 'external' | 'in_service' }) {
  const shop = await setUpShop();
  if (options.invoicing) await shop.settings({ invoicing: options.invoicing });
  await shop.products([product('TEE')]);
  await shop.customers([customer('C-1')]);
  const channel = await shop.channel('b2b', { autoApprove: options.autoApprove });
  const { order, shipment } = await shop.place(channel, {
    customerNumber: 'C-1',
    lines: [{ sku: 'TEE-M', quantity: 3 }],
  });
  return { shop, order, shipment };
}

const by = (shop: Shop) => ({ brandId: shop.brand.id, userId: shop.user.id });

function deliver(shop: Shop, shipmentNumber: number) {
  return deliverShipment(shop.deps, {
    ...by(shop),
    delivery: {
      shipmentNumber,
      orderType: 'b2b',
      carrier: 'gls',
      colli: [{ trackTrace: null, trackTraceLink: null, ssccNumber: null, lines: [{ sku: 'TEE-M', quantity: 3 }] }],
    },
  });
}

describe('the order lifecycle, walked through its use cases', () => {
  interface Placed {
    shop: Shop;
    orderId: number;
  }
  const approve = ({ shop, orderId }: Placed) => approveOrder(shop.deps, { ...by(shop), orderId });
  const cancel = ({ shop, orderId }: Placed) => cancelOrder(shop.deps, { ...by(shop), orderId });
  // Exporting with regulate_inventory regulates an approved order's stock and archives it.
  const archive = ({ shop, orderId }: Placed) =>
    markOrdersExported(shop.deps, {
      ...by(shop),
      items: [{ orderId, systemId: 'erp', note: null, regulateInventory: true }],
    });

  walkLifecycle<OrderStatus, Placed>(
    {
      machine: orderLifecycle,
      async arrange(state) {
        const { shop, order } = await aShopWithAnOrder({ autoApprove: false });
        const placed = { shop, orderId: order.id };
        if (state === 'approved' || state === 'archived') await approve(placed);
        if (state === 'archived') await archive(placed);
        if (state === 'cancelled') await cancel(placed);
        return placed;
      },
      movers: { approved: approve, cancelled: cancel, archived: archive },
      statusOf: async ({ shop, orderId }) => (await shop.readOrder(orderId)).order.status,
    },
    // Marking an order exported again is idempotent: a cancelled or archived order keeps its status.
    { idempotent: ['archived'] },
  );
});

describe('the shipment lifecycle, walked through its use cases', () => {
  interface Shipped {
    shop: Shop;
    shipmentId: number;
    shipmentNumber: number;
  }
  const complete = ({ shop, shipmentNumber }: Shipped) => deliver(shop, shipmentNumber);
  const cancel = ({ shop, shipmentId }: Shipped) => cancelShipment(shop.deps, { ...by(shop), shipmentId });

  walkLifecycle<ShipmentStatus, Shipped>({
    machine: shipmentLifecycle,
    async arrange(state) {
      const { shop, shipment } = await aShopWithAnOrder({ autoApprove: true });
      const shipped = { shop, shipmentId: shipment!.id, shipmentNumber: shipment!.shipmentNumber };
      if (state === 'completed') await complete(shipped);
      if (state === 'cancelled') await cancel(shipped);
      return shipped;
    },
    movers: { completed: complete, cancelled: cancel },
    statusOf: async ({ shop, shipmentId }) =>
      (await getShipment(shop.deps, { brandId: shop.brand.id, shipmentId })).shipment.status,
  });
});

/** In-service invoicing: delivering the shipment drafts the invoice. */
async function aDraftInvoice() {
  const { shop, shipment } = await aShopWithAnOrder({ autoApprove: true, invoicing: 'in_service' });
  const { invoice } = await deliver(shop, shipment!.shipmentNumber);
  return { shop, invoiceId: invoice!.id };
}

describe('the invoice lifecycle, walked through its use cases', () => {
  interface Invoiced {
    shop: Shop;
    invoiceId: number;
  }
  const book = ({ shop, invoiceId }: Invoiced) => bookInvoice(shop.deps, { ...by(shop), invoiceId });

  walkLifecycle<FinancialDocumentStatus, Invoiced>({
    machine: financialDocumentLifecycle,
    async arrange(state) {
      const invoiced = await aDraftInvoice();
      if (state === 'booked') await book(invoiced);
      return invoiced;
    },
    movers: { booked: book },
    statusOf: async ({ shop, invoiceId }) =>
      (await getInvoice(shop.deps, { brandId: shop.brand.id, invoiceId })).invoice.status,
  });
});

describe('the credit note lifecycle, walked through its use cases', () => {
  interface Credited {
    shop: Shop;
    creditNoteId: number;
  }
  const book = ({ shop, creditNoteId }: Credited) => bookCreditNote(shop.deps, { ...by(shop), creditNoteId });

  walkLifecycle<FinancialDocumentStatus, Credited>({
    machine: financialDocumentLifecycle,
    async arrange(state) {
      const { shop, invoiceId } = await aDraftInvoice();
      await bookInvoice(shop.deps, { ...by(shop), invoiceId });
      const creditNote = await creditInvoice(shop.deps, {
        ...by(shop),
        invoiceId,
        lines: [{ sku: 'TEE-M', quantity: 1 }],
      });
      const credited = { shop, creditNoteId: creditNote.id };
      if (state === 'booked') await book(credited);
      return credited;
    },
    movers: { booked: book },
    statusOf: async ({ shop, creditNoteId }) =>
      (await getCreditNote(shop.deps, { brandId: shop.brand.id, creditNoteId })).creditNote.status,
  });
});
