import {
  DomainEvent,
  Shipment,
  bookCreditNote,
  bookInvoice,
  createReturnPortal,
  creditInvoice,
  deliverShipment,
  finalizePortalReturn,
  getCreditNote,
  getInvoice,
  listEvents,
  markOrdersExported,
  upsertPortalReturn,
} from '../src';
import { customer, errorOf, product, setUpShop, variant } from './orders-shop.support';

type Shop = Awaited<ReturnType<typeof setUpShop>>;

type FinanceType =
  | 'invoice.created'
  | 'invoice.booked'
  | 'credit_note.created'
  | 'credit_note.booked'
  | 'order.archived';
type FinanceEvent = DomainEvent<FinanceType>;

const MINUTE = 60_000;

const isFinance = (event: DomainEvent): event is FinanceEvent =>
  event.type.startsWith('invoice.') || event.type.startsWith('credit_note.') || event.type === 'order.archived';

/** The brand's finance events (and order.archived), oldest first; other modules' events are left out. */
const eventsOf = async (shop: Shop): Promise<FinanceEvent[]> =>
  (await listEvents(shop.deps, { brandId: shop.brand.id, query: { limit: '100' } })).page.items.filter(isFinance);

/** A shop of TEE-M and TEE-L (10 each) and customer C-1, invoicing as asked, with a B2B channel that approves at once. */
async function aShop(invoicing: 'external' | 'in_service') {
  const shop = await setUpShop();
  await shop.settings({ invoicing });
  await shop.products([product('TEE', { variants: [variant('TEE-M'), variant('TEE-L')] })]);
  await shop.customers([customer('C-1')]);
  const channel = await shop.channel('b2b', { autoApprove: true });
  /** Places and approves an order; returns it with its shipment. */
  const order = async (lines: { sku: string; quantity: number }[]) => {
    const placed = await shop.place(channel, { customerNumber: 'C-1', lines });
    return { order: placed.order, shipment: placed.shipment! };
  };
  /** The warehouse delivers the pieces given (default: all the shipment holds), in one parcel. */
  const deliver = (shipment: Shipment, lines?: { sku: string; quantity: number }[]) =>
    deliverShipment(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      delivery: {
        shipmentNumber: shipment.shipmentNumber,
        orderType: 'b2b',
        carrier: 'postnord',
        colli: [
          {
            trackTrace: null,
            trackTraceLink: null,
            ssccNumber: null,
            lines: lines ?? shipment.lines.map((l) => ({ sku: l.sku, quantity: l.quantity })),
          },
        ],
      },
    });
  const book = (invoiceId: number) =>
    bookInvoice(shop.deps, { brandId: shop.brand.id, userId: shop.user.id, invoiceId });
  const credit = (invoiceId: number, lines?: { sku: string; quantity: number }[]) =>
    creditInvoice(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      invoiceId,
      ...(lines ? { lines } : {}),
    });
  const bookNote = (creditNoteId: number) =>
    bookCreditNote(shop.deps, { brandId: shop.brand.id, userId: shop.user.id, creditNoteId });
  const invoiceNow = async (invoiceId: number) =>
    (await getInvoice(shop.deps, { brandId: shop.brand.id, invoiceId })).invoice;
  const noteNow = async (creditNoteId: number) =>
    (await getCreditNote(shop.deps, { brandId: shop.brand.id, creditNoteId })).creditNote;
  const mark = (items: { orderId: number; regulateInventory: boolean }[]) =>
    markOrdersExported(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      items: items.map((item) => ({ ...item, systemId: 'erp', note: null })),
    });
  return { shop, order, deliver, book, credit, bookNote, invoiceNow, noteNow, mark };
}

/** An in-service shop with a delivered order of 3 × TEE-M and 1 × TEE-L and its draft invoice. */
async function aDeliveredOrder() {
  const s = await aShop('in_service');
  const { order, shipment } = await s.order([
    { sku: 'TEE-M', quantity: 3 },
    { sku: 'TEE-L', quantity: 1 },
  ]);
  s.shop.clock.advance(MINUTE);
  const { invoice } = await s.deliver(shipment);
  return { ...s, placed: order, invoice: invoice! };
}

describe('invoice events', () => {
  it('announces the invoice a delivery drafts, as saved, at the instant of the delivery', async () => {
    const { shop, invoice, invoiceNow } = await aDeliveredOrder();
    expect(invoice.status).toBe('draft');

    const events = await eventsOf(shop);
    expect(events).toEqual([
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'invoice.created',
        object: invoice,
        createdAt: shop.clock.now(),
      },
    ]);
    expect(events[0]!.object).toEqual(await invoiceNow(invoice.id));
  });

  it('announces no invoice for a refused delivery, nor for a delivery when the brand invoices outside the service', async () => {
    const inService = await aShop('in_service');
    const { shipment } = await inService.order([{ sku: 'TEE-M', quantity: 2 }]);
    const refused = await errorOf(inService.deliver(shipment, [{ sku: 'TEE-M', quantity: 3 }]));
    expect(refused.code).toBe('validation_failed');
    expect(await eventsOf(inService.shop)).toEqual([]);

    const external = await aShop('external');
    const { shipment: theirs } = await external.order([{ sku: 'TEE-M', quantity: 2 }]);
    const delivered = await external.deliver(theirs);
    expect(delivered.invoice).toBeNull();
    expect(await eventsOf(external.shop)).toEqual([]);
  });

  it('announces a booking with the invoice as booked, then the order it archives, both at the instant of booking', async () => {
    const { shop, placed, invoice, book, invoiceNow } = await aDeliveredOrder();
    shop.clock.advance(MINUTE);
    const booked = await book(invoice.id);
    const archived = (await shop.readOrder(placed.id)).order;
    expect(archived.status).toBe('archived');

    const events = await eventsOf(shop);
    expect(events.map((e) => e.type)).toEqual(['invoice.created', 'invoice.booked', 'order.archived']);
    const [, bookedEvent, archivedEvent] = events;
    expect(bookedEvent).toEqual({
      id: expect.any(Number),
      brandId: shop.brand.id,
      type: 'invoice.booked',
      object: booked.invoice,
      createdAt: shop.clock.now(),
    });
    expect(bookedEvent!.object).toEqual(await invoiceNow(invoice.id));
    expect(archivedEvent!.object).toEqual(archived);
    expect(archivedEvent!.createdAt).toBe(archived.archivedAt);
    expect(archivedEvent!.createdAt).toBe(shop.clock.now());
    expect(archivedEvent!.id).toBeGreaterThan(bookedEvent!.id);
  });

  it('announces a booking that leaves pieces of the order open without archiving it, and not a refused second booking', async () => {
    const s = await aShop('in_service');
    const { order, shipment } = await s.order([{ sku: 'TEE-M', quantity: 3 }]);
    // Two of the three pieces arrive: the third goes back to the order's open quantity.
    const { invoice } = await s.deliver(shipment, [{ sku: 'TEE-M', quantity: 2 }]);
    s.shop.clock.advance(MINUTE);
    const booked = await s.book(invoice!.id);
    s.shop.clock.advance(MINUTE);
    const again = await errorOf(s.book(invoice!.id));
    expect(again.code).toBe('invalid_state_transition');

    const events = await eventsOf(s.shop);
    expect(events.map((e) => e.type)).toEqual(['invoice.created', 'invoice.booked']);
    expect(events[1]!.object).toEqual(booked.invoice);
    expect(events[1]!.createdAt).toBe(booked.invoice.bookedAt);
    const after = await s.shop.readOrder(order.id);
    expect(after.order.status).toBe('approved');

    // The order changed (its pieces were regulated) but was not archived: order.updated follows
    // invoice.booked with the order as saved, and carries the order's `regulated` entry.
    const all = (await listEvents(s.shop.deps, { brandId: s.shop.brand.id, query: { limit: '100' } })).page.items;
    const bookedAt = all.findIndex((e) => e.type === 'invoice.booked');
    expect(all.slice(bookedAt + 1).map((e) => e.type)).toEqual(['order.updated']);
    expect(all[bookedAt + 1]!.object).toEqual(after.order);
    expect(after.order.lines[0]!.regulatedQuantity).toBe(2);
    expect(after.timeline.slice(-2).map((e) => [e.kind, e.createdAt])).toEqual([
      ['booked', booked.invoice.bookedAt],
      ['regulated', booked.invoice.bookedAt],
    ]);
  });
});

describe('credit note events', () => {
  it('announces a credit note drafted from an invoice and its booking, each with the note as saved, and no refused call', async () => {
    const { shop, invoice, book, credit, bookNote, noteNow } = await aDeliveredOrder();
    const notBooked = await errorOf(credit(invoice.id));
    expect(notBooked.code).toBe('invalid_state_transition');
    await book(invoice.id);

    shop.clock.advance(MINUTE);
    const draft = await credit(invoice.id, [{ sku: 'TEE-M', quantity: 1 }]);
    const drafted = shop.clock.now();
    const tooMany = await errorOf(credit(invoice.id, [{ sku: 'TEE-M', quantity: 3 }]));
    expect(tooMany.code).toBe('validation_failed');
    const created = (await eventsOf(shop)).filter((e) => e.type.startsWith('credit_note.'));
    expect(created).toEqual([
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'credit_note.created',
        object: draft,
        createdAt: drafted,
      },
    ]);
    expect(created[0]!.object).toEqual(await noteNow(draft.id));

    shop.clock.advance(MINUTE);
    const { creditNote: booked } = await bookNote(draft.id);
    const twice = await errorOf(bookNote(draft.id));
    expect(twice.code).toBe('invalid_state_transition');
    // The rest of the invoice, credited in a second note.
    shop.clock.advance(MINUTE);
    const rest = await credit(invoice.id);

    const events = (await eventsOf(shop)).filter((e) => e.type.startsWith('credit_note.'));
    expect(events.map((e) => [e.type, e.object.id, e.object.status])).toEqual([
      ['credit_note.created', draft.id, 'draft'],
      ['credit_note.booked', draft.id, 'booked'],
      ['credit_note.created', rest.id, 'draft'],
    ]);
    expect(events[1]!.object).toEqual(booked);
    expect(events[1]!.object).toEqual(await noteNow(draft.id));
    expect(events[1]!.createdAt).toBe(booked.bookedAt);
    expect(events[2]!.object).toEqual(await noteNow(rest.id));
    expect(events[2]!.createdAt).toBe(shop.clock.now());
  });

  it('announces the credit notes a return portal books when it finalizes a return, once, and nothing for a refused call', async () => {
    const shop = await setUpShop();
    await shop.products([product('TEE')]);
    await shop.customers([customer('C-1')]);
    const { order } = await shop.place(await shop.channel('b2c', { autoApprove: true }), {
      customerNumber: 'C-1',
      email: 'anna@example.com',
      lines: [{ sku: 'TEE-M', quantity: 2 }],
    });
    const portal = await createReturnPortal(
      { uow: shop.uow, clock: shop.clock, hasher: shop.hasher },
      { brandId: shop.brand.id, name: 'Webshop returns', type: 'custom' },
    );
    const caller = { brandId: shop.brand.id, userId: shop.user.id, appInternalCode: null, publicId: portal.publicId };
    await upsertPortalReturn(shop.deps, {
      ...caller,
      email: 'anna@example.com',
      orderNumber: order.orderNumber,
      ret: {
        rma: 'RMA-0042',
        status: 'received',
        lines: [{ sku: 'TEE-M', quantity: 1, claimType: 'return', unitPriceInclVat: 4995 }],
      },
    });
    const booked = () => eventsOf(shop).then((events) => events.filter((e) => e.type === 'credit_note.booked'));
    const finalize = (refundTotal: number) =>
      finalizePortalReturn(shop.deps, { ...caller, rma: 'RMA-0042', refundTotal, exchangeTotal: 0 });

    shop.clock.advance(MINUTE);
    const refused = await errorOf(finalize(1000));
    expect(refused.code).toBe('validation_failed');
    expect(await booked()).toEqual([]);

    shop.clock.advance(MINUTE);
    const first = await finalize(4995);
    expect(first.booked).toHaveLength(1);
    shop.clock.advance(MINUTE);
    const second = await finalize(4995);
    expect(second.booked).toEqual([]);

    const events = await booked();
    expect(events).toEqual([
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'credit_note.booked',
        object: first.booked[0],
        createdAt: first.ret.creditedAt,
      },
    ]);
    expect(events[0]!.object).toEqual(
      (await getCreditNote(shop.deps, { brandId: shop.brand.id, creditNoteId: first.booked[0]!.id })).creditNote,
    );
  });
});

describe('order.archived on export', () => {
  it('announces each order an export with regulate_inventory archives, in the order of the items, and no refused call', async () => {
    const s = await aShop('external');
    const { order: first } = await s.order([{ sku: 'TEE-M', quantity: 1 }]);
    const { order: second } = await s.order([{ sku: 'TEE-L', quantity: 2 }]);
    const draft = await s.shop.place(await s.shop.channel('b2b'), {
      customerNumber: 'C-1',
      lines: [{ sku: 'TEE-M', quantity: 1 }],
    });

    s.shop.clock.advance(MINUTE);
    // Marked without regulating: the order stays approved.
    await s.mark([{ orderId: first.id, regulateInventory: false }]);
    const refused = await errorOf(
      s.mark([
        { orderId: second.id, regulateInventory: true },
        { orderId: draft.order.id, regulateInventory: true },
      ]),
    );
    expect(refused.code).toBe('invalid_state_transition');
    expect(await eventsOf(s.shop)).toEqual([]);

    s.shop.clock.advance(MINUTE);
    const archivedAt = s.shop.clock.now();
    await s.mark([
      { orderId: second.id, regulateInventory: true },
      { orderId: first.id, regulateInventory: true },
    ]);
    // Already archived: marking again archives (and announces) nothing.
    s.shop.clock.advance(MINUTE);
    await s.mark([{ orderId: second.id, regulateInventory: true }]);

    const events = await eventsOf(s.shop);
    expect(events.map((e) => [e.type, e.object.id])).toEqual([
      ['order.archived', second.id],
      ['order.archived', first.id],
    ]);
    const [secondNow, firstNow] = [(await s.shop.readOrder(second.id)).order, (await s.shop.readOrder(first.id)).order];
    expect(events[0]!.object).toEqual(secondNow);
    expect(events[1]!.object).toEqual(firstNow);
    expect([secondNow.archivedAt, firstNow.archivedAt]).toEqual([archivedAt, archivedAt]);
    expect(events.map((e) => e.createdAt)).toEqual([archivedAt, archivedAt]);
  });

  it('refuses regulating on export when the brand invoices in the service, announcing nothing', async () => {
    const s = await aShop('in_service');
    const { order } = await s.order([{ sku: 'TEE-M', quantity: 1 }]);
    const refused = await errorOf(s.mark([{ orderId: order.id, regulateInventory: true }]));
    expect(refused.code).toBe('validation_failed');
    expect(await eventsOf(s.shop)).toEqual([]);
  });
});
