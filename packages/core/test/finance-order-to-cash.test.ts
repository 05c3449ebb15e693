import {
  bookCreditNote,
  bookInvoice,
  creditInvoice,
  deliverShipment,
  exportAccountingEntries,
  exportOrders,
  markDocumentsExported,
  markOrdersExported,
} from '../src';
import { customer, product, setUpShop } from './orders-shop.support';

/** The whole path on the real use cases: place, approve, deliver, invoice, book, credit, export. */
describe('orders to cash', () => {
  async function aShopWithAnOrder(invoicing: 'external' | 'in_service', quantity: number) {
    const shop = await setUpShop();
    await shop.settings({ invoicing });
    await shop.products([product('TEE')]);
    await shop.customers([customer('C-1')]);
    const channel = await shop.channel('b2b', { autoApprove: true });
    const { order, shipment } = await shop.place(channel, {
      customerNumber: 'C-1',
      lines: [{ sku: 'TEE-M', quantity }],
    });
    return { shop, order, shipment: shipment! };
  }

  it('in-service invoicing: the delivered shipment is invoiced, booking regulates the stock and archives the order', async () => {
    const { shop, order, shipment } = await aShopWithAnOrder('in_service', 3);
    expect(await shop.stock('TEE-M')).toEqual({ inStock: 10, available: 7 });
    const { invoice } = await deliverShipment(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      delivery: {
        shipmentNumber: shipment.shipmentNumber,
        orderType: 'b2b',
        carrier: 'postnord',
        colli: [{ trackTrace: null, trackTraceLink: null, ssccNumber: null, lines: [{ sku: 'TEE-M', quantity: 3 }] }],
      },
    });
    // 3 × 19.99 net + 25 % VAT.
    expect(invoice).toMatchObject({ status: 'draft', netTotal: 5997, vatTotal: 1499, total: 7496 });

    const booked = await bookInvoice(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      invoiceId: invoice!.id,
    });
    expect(booked.accountingEntry.lines.reduce((s, l) => s + l.debit - l.credit, 0)).toBe(0);
    expect(await shop.stock('TEE-M')).toEqual({ inStock: 7, available: 7 });
    expect((await shop.readOrder(order.id)).order.status).toBe('archived');

    // Exporting with regulate_inventory is refused here: booking did the regulating.
    const refused = markOrdersExported(shop.deps, {
      brandId: shop.brand.id,
      userId: null,
      items: [{ orderId: order.id, systemId: 'erp', note: null, regulateInventory: true }],
    });
    await expect(refused).rejects.toMatchObject({ code: 'validation_failed' });

    const credit = await creditInvoice(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      invoiceId: invoice!.id,
      lines: [{ sku: 'TEE-M', quantity: 1 }],
    });
    const { accountingEntry: reversal } = await bookCreditNote(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      creditNoteId: credit.id,
    });
    expect(reversal.lines).toEqual([
      { account: 'accounts_receivable', debit: 0, credit: 2499 },
      { account: 'revenue', debit: 1999, credit: 0 },
      { account: 'vat_payable', debit: 500, credit: 0 },
    ]);

    const ledger = await exportAccountingEntries(shop.deps, {
      list: { brandId: shop.brand.id, query: {} },
      systemId: 'ledger',
    });
    expect(ledger.page.items.map((e) => e.documentType)).toEqual(['invoice', 'credit_note']);
    await markDocumentsExported(shop.deps, {
      brandId: shop.brand.id,
      userId: null,
      documentType: 'accounting_entry',
      arrayKey: 'accounting_entries',
      idKey: 'accounting_entry_id',
      items: ledger.page.items.map((e) => ({ documentId: e.id, systemId: 'ledger', note: null })),
    });
    expect(
      (await exportAccountingEntries(shop.deps, { list: { brandId: shop.brand.id, query: {} }, systemId: 'ledger' }))
        .page.items,
    ).toEqual([]);
  });

  it('external invoicing: the ERP exports the order and marking it with regulate_inventory takes its pieces out of stock', async () => {
    const { shop, order } = await aShopWithAnOrder('external', 1);
    expect(await shop.stock('TEE-M')).toEqual({ inStock: 10, available: 9 });
    const exported = await exportOrders(shop.deps, {
      list: { brandId: shop.brand.id, query: { includes: ['lines'] } },
      systemId: 'erp',
    });
    expect(exported.page.items.map((o) => o.id)).toEqual([order.id]);

    await markOrdersExported(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      items: [{ orderId: order.id, systemId: 'erp', note: 'SO-1', regulateInventory: true }],
    });

    expect(await shop.stock('TEE-M')).toEqual({ inStock: 9, available: 9 });
    const { order: archived, exports } = await shop.readOrder(order.id);
    expect(archived.status).toBe('archived');
    expect(exports).toEqual([expect.objectContaining({ systemId: 'erp', note: 'SO-1' })]);
  });
});
