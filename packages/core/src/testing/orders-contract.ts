import { Variant } from '../catalog/catalog.entities';
import { Customer } from '../customers/customer.entities';
import { DocumentType, ExportMark, ExportScope, NewTimelineEvent, TimelineKind } from '../documents/document.entities';
import { AccountingEntry, CreditNote, FinancialLine, Invoice } from '../finance/finance.entities';
import {
  accountingEntryExportListDefinition,
  accountingEntryListDefinition,
  creditNoteExportListDefinition,
  creditNoteListDefinition,
  invoiceExportListDefinition,
  invoiceListDefinition,
} from '../finance/finance.list-definitions';
import { Shipment, ShipmentLine } from '../fulfilment/shipment.entities';
import { shipmentExportListDefinition, shipmentListDefinition } from '../fulfilment/shipment.list-definitions';
import { Brand } from '../identity/identity.entities';
import { ListDefinition, ListQuery, ListRows, RawListQuery } from '../listing/list-query';
import { runList } from '../listing/run-list';
import { DecodedCursor } from '../listing/validate-list-query';
import { Order, OrderChannel, OrderLine } from '../orders/order.entities';
import {
  orderChannelListDefinition,
  orderExportListDefinition,
  orderListDefinition,
} from '../orders/order.list-definitions';
import { BrandSettings } from '../settings/settings.entities';
import { Repositories } from '../shared/unit-of-work.ports';
import { contractBuilders } from './contract-builders';
import { ContractStorage, saveProductWithVariants, SLOW, useContractStorage, walkByCursor } from './contract-support';

const T0 = '2026-03-01T00:00:00.000Z';
const at = (minute: number): string => new Date(Date.parse(T0) + minute * 60_000).toISOString();

/**
 * The repository contract of the orders-to-cash ports (settings, export marks, timeline, order
 * channels, orders, shipments, invoices, credit notes, accounting entries), run against every
 * storage adapter like the other contract suites. `open` is called once per suite; every test
 * makes its own brand(s). What every adapter promises:
 * - Aggregates read back exactly as saved (JSON fields, nulls), lines by id ascending; a save
 *   upserts lines by id and never removes one; lookups return documents by id ascending.
 * - Another brand's documents are never found, listed or exported.
 * - Order lists carry lines only when `lines` is included; shipment, invoice and credit note
 *   lists always carry them.
 * - Export lists keep the scope's statuses and drop documents marked by the scope's system at or
 *   before `notExportedSince`; marks of other systems do not matter; they are never counted.
 * - One mark per (document, system): marking again moves its time and note.
 * - Timeline events oldest first (created at, then id).
 * - Concurrency: read-modify-write of one order in parallel transactions loses no update, and
 *   reservations checked against locked balances never exceed the stock.
 *
 * @example
 * describeOrdersContract('in-memory orders', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeOrdersContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);

    // ---- builders -------------------------------------------------------------------------

    const { aBrand, aCustomer, aLocation } = contractBuilders(uow, { at: T0, brandLabel: 'Orders brand' });

    /** A product with `count` variants (one EUR price each); returns the variants. */
    async function someVariants(brandId: number, count = 2): Promise<Variant[]> {
      return uow().run((tx) =>
        saveProductWithVariants(tx, brandId, {
          count,
          at: T0,
          pricesOf: (variant) => [
            {
              variantId: variant.id,
              currency: 'EUR',
              salesPrice: 1000,
              recSalesPrice: 2500,
              offerPrice: null,
              b2cOfferPrice: null,
            },
          ],
        }),
      );
    }

    async function aChannel(
      brandId: number,
      fields: Partial<Omit<OrderChannel, 'id' | 'brandId'>> = {},
    ): Promise<OrderChannel> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('order_channels');
        const channel: OrderChannel = {
          id: id!,
          brandId,
          publicId: `pub-${brandId}-${id}-${Math.random().toString(36).slice(2, 10)}`,
          name: `Channel ${id}`,
          orderType: 'b2b',
          autoApprove: false,
          dropId: null,
          createdAt: T0,
          updatedAt: T0,
          ...fields,
        };
        await tx.orderChannels.insert(channel);
        return channel;
      });
    }

    /** What an order needs around it: a brand, a customer, a channel and variants. */
    interface OrderWorld {
      brand: Brand;
      customer: Customer;
      channel: OrderChannel;
      variants: Variant[];
    }

    async function anOrderWorld(label?: string): Promise<OrderWorld> {
      const brand = await aBrand(label);
      const [customer, channel, variants] = [
        await aCustomer(brand.id),
        await aChannel(brand.id),
        await someVariants(brand.id),
      ];
      return { brand, customer, channel, variants };
    }

    function lineFor(variant: Variant, orderId: number, id: number, fields: Partial<OrderLine> = {}): OrderLine {
      return {
        id,
        orderId,
        variantId: variant.id,
        productId: variant.productId,
        sku: variant.sku,
        ean: variant.ean,
        itemNumber: `P-${variant.productId}`,
        productName: 'Shirt',
        attributes: variant.attributes,
        countryOfOrigin: null,
        composition: null,
        hsTariffCode: null,
        tracksInventory: true,
        quantity: 3,
        unitPrice: 1999,
        discountBasisPoints: 1000,
        totalPrice: 5397,
        reservations: [],
        shippedQuantity: 0,
        deliveredQuantity: 0,
        invoicedQuantity: 0,
        regulatedQuantity: 0,
        ...fields,
      };
    }

    /** Draws ids and a number inside `tx` and builds a draft order with one line per variant (not saved). */
    async function draftOrder(
      tx: Pick<Repositories, 'documentNumbers' | 'ids'>,
      world: OrderWorld,
      fields: Partial<Omit<Order, 'id' | 'brandId' | 'lines'>> = {},
    ): Promise<Order> {
      const [id] = await tx.ids.next('orders');
      const lineIds = await tx.ids.next('order_lines', world.variants.length);
      return {
        id: id!,
        brandId: world.brand.id,
        orderNumber: await tx.documentNumbers.next(world.brand.id, 'order'),
        status: 'draft',
        orderType: 'b2b',
        orderChannelId: world.channel.id,
        customerId: world.customer.id,
        customerNumber: world.customer.customerNumber,
        dropId: null,
        currency: 'EUR',
        vatRateBasisPoints: 2500,
        pricesIncludeVat: false,
        email: null,
        telephone: null,
        reference: null,
        notes: null,
        invoiceAddress: null,
        deliveryAddress: null,
        shippingCode: null,
        shippingCost: null,
        responsiblePerson: null,
        orderMeta: {},
        netTotal: 10794,
        vatTotal: 2699,
        total: 13493,
        approvedAt: null,
        cancelledAt: null,
        archivedAt: null,
        createdByUserId: null,
        createdAt: T0,
        updatedAt: T0,
        ...fields,
        lines: world.variants.map((v, i) => lineFor(v, id!, lineIds[i]!)),
      };
    }

    async function anOrder(
      world: OrderWorld,
      fields: Partial<Omit<Order, 'id' | 'brandId' | 'lines'>> = {},
    ): Promise<Order> {
      return uow().run(async (tx) => {
        const order = await draftOrder(tx, world, fields);
        await tx.orders.save(order);
        return order;
      });
    }

    async function aShipment(
      order: Order,
      fields: Partial<Omit<Shipment, 'id' | 'brandId' | 'lines'>> = {},
    ): Promise<Shipment> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('shipments');
        const lineIds = await tx.ids.next('shipment_lines', order.lines.length);
        const shipment: Shipment = {
          id: id!,
          brandId: order.brandId,
          shipmentNumber: await tx.documentNumbers.next(order.brandId, 'shipment'),
          orderId: order.id,
          orderNumber: order.orderNumber,
          customerId: order.customerId,
          status: 'open',
          shippingCost: null,
          carrier: null,
          colli: [],
          deliveredAt: null,
          cancelledAt: null,
          createdAt: T0,
          updatedAt: T0,
          ...fields,
          lines: order.lines.map(
            (l, i): ShipmentLine => ({
              id: lineIds[i]!,
              shipmentId: id!,
              orderLineId: l.id,
              variantId: l.variantId,
              sku: l.sku,
              ean: l.ean,
              quantity: l.quantity,
              deliveredQuantity: 0,
            }),
          ),
        };
        await tx.shipments.save(shipment);
        return shipment;
      });
    }

    async function financialLines(
      tx: Pick<Repositories, 'ids'>,
      kind: 'invoice_lines' | 'credit_note_lines',
      order: Order,
    ): Promise<FinancialLine[]> {
      const ids = await tx.ids.next(kind, order.lines.length + 1);
      return [
        ...order.lines.map(
          (l, i): FinancialLine => ({
            id: ids[i]!,
            kind: 'product',
            orderLineId: l.id,
            variantId: l.variantId,
            sku: l.sku,
            description: l.productName,
            quantity: l.quantity,
            unitPrice: l.unitPrice,
            discountBasisPoints: l.discountBasisPoints,
            totalPrice: l.totalPrice,
          }),
        ),
        {
          id: ids[order.lines.length]!,
          kind: 'shipping',
          orderLineId: null,
          variantId: null,
          sku: null,
          description: 'Shipping',
          quantity: 1,
          unitPrice: 495,
          discountBasisPoints: 0,
          totalPrice: 495,
        },
      ];
    }

    async function anInvoice(
      order: Order,
      fields: Partial<Omit<Invoice, 'id' | 'brandId' | 'lines'>> = {},
    ): Promise<Invoice> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('invoices');
        const invoice: Invoice = {
          id: id!,
          brandId: order.brandId,
          invoiceNumber: await tx.documentNumbers.next(order.brandId, 'invoice'),
          status: 'draft',
          orderId: order.id,
          shipmentId: null,
          customerId: order.customerId,
          currency: 'EUR',
          vatRateBasisPoints: 2500,
          pricesIncludeVat: false,
          netTotal: 11289,
          vatTotal: 2822,
          total: 14111,
          inventoryRegulated: false,
          bookedAt: null,
          createdAt: T0,
          updatedAt: T0,
          ...fields,
          lines: await financialLines(tx, 'invoice_lines', order),
        };
        await tx.invoices.save(invoice);
        return invoice;
      });
    }

    async function aCreditNote(
      order: Order,
      fields: Partial<Omit<CreditNote, 'id' | 'brandId' | 'lines'>> = {},
    ): Promise<CreditNote> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('credit_notes');
        const creditNote: CreditNote = {
          id: id!,
          brandId: order.brandId,
          creditNoteNumber: await tx.documentNumbers.next(order.brandId, 'credit_note'),
          status: 'draft',
          orderId: order.id,
          invoiceId: null,
          returnId: null,
          customerId: order.customerId,
          currency: 'EUR',
          vatRateBasisPoints: 2500,
          pricesIncludeVat: false,
          netTotal: 11289,
          vatTotal: 2822,
          total: 14111,
          bookedAt: null,
          createdAt: T0,
          updatedAt: T0,
          ...fields,
          lines: await financialLines(tx, 'credit_note_lines', order),
        };
        await tx.creditNotes.save(creditNote);
        return creditNote;
      });
    }

    async function anEntry(
      brandId: number,
      documentId: number,
      fields: Partial<Omit<AccountingEntry, 'id' | 'brandId'>> = {},
    ): Promise<AccountingEntry> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('accounting_entries');
        const entry: AccountingEntry = {
          id: id!,
          brandId,
          entryNumber: await tx.documentNumbers.next(brandId, 'accounting_entry'),
          documentType: 'invoice',
          documentId,
          date: '2026-03-01',
          currency: 'EUR',
          lines: [
            { account: 'accounts_receivable', debit: 12500, credit: 0 },
            { account: 'revenue', debit: 0, credit: 10000 },
            { account: 'vat_payable', debit: 0, credit: 2500 },
          ],
          createdAt: T0,
          updatedAt: T0,
          ...fields,
        };
        await tx.accountingEntries.insert(entry);
        return entry;
      });
    }

    const mark = (
      brandId: number,
      documentType: DocumentType,
      documentId: number,
      systemId: string,
      exportedAt: string,
      note: string | null = null,
    ): ExportMark => ({ brandId, documentType, documentId, systemId, exportedAt, note });

    const saveMarks = (...marks: ExportMark[]) => uow().run((tx) => tx.exportMarks.mark(marks));

    const listOf =
      <T>(
        definition: ListDefinition<T>,
        brandId: number,
        fetch: (r: Repositories, q: ListQuery) => Promise<ListRows<T>>,
      ) =>
      (raw: RawListQuery, cursor?: DecodedCursor) =>
        uow().read((r) => runList(definition, { brandId, query: raw, cursor }, (q) => fetch(r, q)));

    const scope = (
      systemId: string,
      statuses?: string[],
      notExportedSince = '2100-01-01T00:00:00.000Z',
    ): ExportScope => ({ systemId, notExportedSince, statuses });

    const ids = <T extends { id: number }>(items: T[]): number[] => items.map((i) => i.id);

    // ---- settings -------------------------------------------------------------------------

    describe('brand settings', () => {
      it('are null until saved, read back as saved, and are replaced by a later save', async () => {
        const brand = await aBrand();
        const other = await aBrand();
        expect(await uow().read((r) => r.settings.find(brand.id))).toBeNull();

        const settings: BrandSettings = {
          brandId: brand.id,
          invoicing: 'in_service',
          requiresDrop: true,
          defaultVatRateBasisPoints: 1250,
          adHocReturnMode: 'credit_note_if_no_rma',
          trackingLinkTemplates: {
            gls: 'https://gls.example/track/{track_trace}',
            dhl: 'https://dhl.example/?id={track_trace}',
          },
          updatedAt: at(1),
        };
        await uow().run((tx) => tx.settings.save(settings));
        expect(await uow().read((r) => r.settings.find(brand.id))).toStrictEqual(settings);
        expect(await uow().read((r) => r.settings.find(other.id))).toBeNull();

        const changed: BrandSettings = {
          ...settings,
          invoicing: 'external',
          requiresDrop: false,
          adHocReturnMode: null,
          trackingLinkTemplates: {},
          updatedAt: at(2),
        };
        await uow().run((tx) => tx.settings.save(changed));
        expect(await uow().read((r) => r.settings.find(brand.id))).toStrictEqual(changed);
      });
    });

    // ---- order channels -------------------------------------------------------------------

    describe('order channels', () => {
      it('are found by public id within their brand, by public id across brands, and by ids', async () => {
        const brand = await aBrand();
        const other = await aBrand();
        const channel = await aChannel(brand.id, { name: 'Webshop', orderType: 'b2c', autoApprove: true });
        const foreign = await aChannel(other.id);

        expect(await uow().read((r) => r.orderChannels.findByPublicId(brand.id, channel.publicId))).toStrictEqual(
          channel,
        );
        expect(await uow().read((r) => r.orderChannels.findByPublicId(brand.id, foreign.publicId))).toBeNull();
        expect(await uow().read((r) => r.orderChannels.findByPublicId(brand.id, 'nope'))).toBeNull();
        expect(await uow().read((r) => r.orderChannels.findByPublicIdAnyBrand(foreign.publicId))).toStrictEqual(
          foreign,
        );
        expect(await uow().read((r) => r.orderChannels.findByPublicIdAnyBrand('nope'))).toBeNull();
        expect(await uow().read((r) => r.orderChannels.findByIds(brand.id, [foreign.id, channel.id]))).toStrictEqual([
          channel,
        ]);
      });

      it("keep their drop and list with filters, never another brand's", async () => {
        const world = await anOrderWorld();
        const drop = await uow().run(async (tx) => {
          const [id] = await tx.ids.next('drops');
          const d = { id: id!, brandId: world.brand.id, code: `D${id}`, name: 'Spring', createdAt: T0, updatedAt: T0 };
          await tx.drops.insert(d);
          return d;
        });
        const b2c = await aChannel(world.brand.id, { name: 'Retail shop', orderType: 'b2c', dropId: drop.id });
        await aChannel((await aBrand()).id, { name: 'Retail elsewhere', orderType: 'b2c' });
        const list = listOf(orderChannelListDefinition, world.brand.id, (r, q) =>
          r.orderChannels.list(world.brand.id, q),
        );

        expect((await list({})).page).toMatchObject({ items: [world.channel, b2c], total: 2 });
        expect(
          (await list({ filter_groups: [{ filters: [{ key: 'order_type', operator: 'eq', value: 'b2c' }] }] })).page
            .items,
        ).toStrictEqual([b2c]);
        expect(
          (await list({ filter_groups: [{ filters: [{ key: 'name', operator: 'ct', value: 'retail' }] }] })).page.items,
        ).toStrictEqual([b2c]);
      });
    });

    // ---- orders ---------------------------------------------------------------------------

    describe('orders', () => {
      it('read back exactly as saved, every field and JSON structure included', async () => {
        const world = await anOrderWorld();
        const order = await uow().run(async (tx) => {
          const draft = await draftOrder(tx, world, {
            status: 'approved',
            orderType: 'b2c',
            currency: 'DKK',
            vatRateBasisPoints: 2500,
            pricesIncludeVat: true,
            email: 'buyer@example.com',
            telephone: '+45 1234',
            reference: 'PO-77',
            notes: 'Leave at the door',
            shippingCost: 4900,
            invoiceAddress: {
              name: 'Buyer ApS',
              att: 'Accounts',
              address: 'Main St 1',
              zip: '2100',
              region: '',
              city: 'Copenhagen',
              country: 'DK',
            },
            deliveryAddress: {
              name: 'Buyer ApS',
              att: null,
              address: 'Dock 4',
              zip: '8000',
              region: 'Midt',
              city: 'Aarhus',
              country: 'DK',
            },
            shippingCode: { code: 'gls_parcelshop', dropPointId: 'PS-12' },
            responsiblePerson: { email: 'r@example.com', firstName: 'Rita', lastName: null },
            orderMeta: { source: 'shopify', nested: { a: [1, 2] } },
            approvedAt: at(5),
            createdByUserId: null,
            createdAt: at(1),
            updatedAt: at(5),
          });
          draft.lines[0] = {
            ...draft.lines[0]!,
            countryOfOrigin: 'PT',
            composition: '100% cotton',
            hsTariffCode: '6109100010',
            tracksInventory: false,
            reservations: [
              { locationId: 7, quantity: 2 },
              { locationId: 9, quantity: 1 },
            ],
            shippedQuantity: 3,
            deliveredQuantity: 2,
            invoicedQuantity: 2,
            regulatedQuantity: 1,
            attributes: { size: 'L', color: 'Navy' },
          };
          await tx.orders.save(draft);
          return draft;
        });

        expect(await uow().read((r) => r.orders.findByIds(world.brand.id, [order.id]))).toStrictEqual([order]);
        expect(await uow().read((r) => r.orders.findByNumbers(world.brand.id, [order.orderNumber]))).toStrictEqual([
          order,
        ]);
      });

      it('updates the order and upserts its lines by id, keeping lines the save leaves out', async () => {
        const world = await anOrderWorld();
        const order = await anOrder(world);
        const [first, second] = order.lines;
        const added = await uow().run(async (tx) => {
          const [lineId] = await tx.ids.next('order_lines');
          const line = lineFor(world.variants[0]!, order.id, lineId!, { quantity: 1, totalPrice: 1799 });
          const changed: Order = {
            ...order,
            status: 'approved',
            approvedAt: at(3),
            updatedAt: at(3),
            total: 99,
            lines: [{ ...first!, shippedQuantity: 2, reservations: [{ locationId: 1, quantity: 1 }] }, line],
          };
          await tx.orders.save(changed);
          return line;
        });

        const [stored] = await uow().read((r) => r.orders.findByIds(world.brand.id, [order.id]));
        expect(stored).toStrictEqual({
          ...order,
          status: 'approved',
          approvedAt: at(3),
          updatedAt: at(3),
          total: 99,
          lines: [{ ...first!, shippedQuantity: 2, reservations: [{ locationId: 1, quantity: 1 }] }, second!, added],
        });
      });

      it("are looked up by ids and numbers in id order, never another brand's", async () => {
        const world = await anOrderWorld();
        const other = await anOrderWorld('Other');
        const one = await anOrder(world);
        const two = await anOrder(world);
        const foreign = await anOrder(other);

        expect(
          ids(await uow().read((r) => r.orders.findByIds(world.brand.id, [two.id, foreign.id, one.id, two.id]))),
        ).toStrictEqual([one.id, two.id]);
        expect(
          ids(await uow().read((r) => r.orders.findByNumbers(world.brand.id, [two.orderNumber, one.orderNumber]))),
        ).toStrictEqual([one.id, two.id]);
        expect(await uow().read((r) => r.orders.findByIds(world.brand.id, []))).toStrictEqual([]);
        // Document numbers are per brand: the other brand's order 1 is not this brand's order 1.
        expect(ids(await uow().read((r) => r.orders.findByNumbers(other.brand.id, [one.orderNumber])))).toStrictEqual([
          foreign.id,
        ]);
      });

      it("refuse a save under another brand's order id", async () => {
        const world = await anOrderWorld();
        const other = await anOrderWorld('Other');
        const foreign = await anOrder(other);
        await expect(
          uow().run(async (tx) =>
            tx.orders.save({
              ...foreign,
              brandId: world.brand.id,
              customerId: world.customer.id,
              orderChannelId: world.channel.id,
            }),
          ),
        ).rejects.toThrow();
        expect(await uow().read((r) => r.orders.findByIds(other.brand.id, [foreign.id]))).toStrictEqual([foreign]);
      });

      it('list by updated_at descending with the id tiebreaker, with lines only when included', async () => {
        const world = await anOrderWorld();
        const a = await anOrder(world, { updatedAt: at(10) });
        const b = await anOrder(world, { updatedAt: at(20) });
        const c = await anOrder(world, { updatedAt: at(10) });
        await anOrder(await anOrderWorld('Other'), { updatedAt: at(30) });
        const list = listOf(orderListDefinition, world.brand.id, (r, q) => r.orders.list(world.brand.id, q));

        const sorted = await list({ sort: [{ key: 'updated_at', direction: 'DESC' }], includes: ['lines'] });
        expect(sorted.page.items).toStrictEqual([b, c, a]);
        expect(sorted.page.total).toBe(3);
        expect((await list({})).page.items).toStrictEqual([a, b, c].map((o) => ({ ...o, lines: [] })));

        const pages = await walkByCursor(orderListDefinition, list, {
          limit: 2,
          sort: [{ key: 'updated_at', direction: 'DESC' }],
        });
        expect(pages.map(ids)).toStrictEqual([[b.id, c.id], [a.id]]);
      });

      it('filter by status, customer and total', async () => {
        const world = await anOrderWorld();
        const draft = await anOrder(world, { total: 5000 });
        const approved = await anOrder(world, { status: 'approved', total: 15000 });
        const list = listOf(orderListDefinition, world.brand.id, (r, q) => r.orders.list(world.brand.id, q));

        expect(
          ids(
            (await list({ filter_groups: [{ filters: [{ key: 'status', operator: 'eq', value: 'approved' }] }] })).page
              .items,
          ),
        ).toStrictEqual([approved.id]);
        expect(
          ids(
            (
              await list({
                filter_groups: [
                  { filters: [{ key: 'customer_id', operator: 'eq', value: String(world.customer.id) }] },
                ],
              })
            ).page.items,
          ),
        ).toStrictEqual([draft.id, approved.id]);
        expect(
          ids(
            (await list({ filter_groups: [{ filters: [{ key: 'total', operator: 'gt', value: '100' }] }] })).page.items,
          ),
        ).toStrictEqual([approved.id]);
      });
    });

    // ---- shipments ------------------------------------------------------------------------

    describe('shipments', () => {
      it('read back exactly as saved, colli included, by id, number and order', async () => {
        const world = await anOrderWorld();
        const order = await anOrder(world);
        const open = await aShipment(order, { shippingCost: 4900 });
        const delivered = await aShipment(order, {
          status: 'completed',
          carrier: 'gls',
          deliveredAt: at(9),
          updatedAt: at(9),
          colli: [
            {
              trackTrace: 'TT1',
              trackTraceLink: 'https://gls.example/TT1',
              ssccNumber: '0037',
              lines: [{ variantId: world.variants[0]!.id, sku: world.variants[0]!.sku, quantity: 2 }],
            },
            { trackTrace: null, trackTraceLink: null, ssccNumber: null, lines: [] },
          ],
        });
        const foreign = await aShipment(await anOrder(await anOrderWorld('Other')));

        expect(
          await uow().read((r) => r.shipments.findByIds(world.brand.id, [delivered.id, open.id, foreign.id])),
        ).toStrictEqual([open, delivered]);
        expect(
          await uow().read((r) => r.shipments.findByNumbers(world.brand.id, [delivered.shipmentNumber])),
        ).toStrictEqual([delivered]);
        expect(
          await uow().read((r) => r.shipments.findByOrderIds(world.brand.id, [order.id, foreign.orderId])),
        ).toStrictEqual([open, delivered]);
      });

      it('update their lines by id', async () => {
        const world = await anOrderWorld();
        const shipment = await aShipment(await anOrder(world));
        const changed: Shipment = {
          ...shipment,
          status: 'completed',
          deliveredAt: at(4),
          updatedAt: at(4),
          lines: shipment.lines.map((l) => ({ ...l, deliveredQuantity: l.quantity - 1 })),
        };
        await uow().run((tx) => tx.shipments.save(changed));
        expect(await uow().read((r) => r.shipments.findByIds(world.brand.id, [shipment.id]))).toStrictEqual([changed]);
      });

      it("list by created_at with lines, never another brand's", async () => {
        const world = await anOrderWorld();
        const order = await anOrder(world);
        const late = await aShipment(order, { createdAt: at(20) });
        const early = await aShipment(order, { createdAt: at(10) });
        await aShipment(await anOrder(await anOrderWorld('Other')));
        const list = listOf(shipmentListDefinition, world.brand.id, (r, q) => r.shipments.list(world.brand.id, q));

        expect((await list({ sort: [{ key: 'created_at', direction: 'ASC' }] })).page).toMatchObject({
          items: [early, late],
          total: 2,
        });
        expect((await list({ sort: [{ key: 'created_at', direction: 'DESC' }] })).page.items).toStrictEqual([
          late,
          early,
        ]);
        expect(
          (await list({ filter_groups: [{ filters: [{ key: 'order_id', operator: 'eq', value: String(order.id) }] }] }))
            .page.items,
        ).toStrictEqual([late, early]);
      });
    });

    // ---- invoices, credit notes, accounting entries ----------------------------------------

    describe('invoices and credit notes', () => {
      it('invoices read back exactly as saved (product and fee lines) by id and order, and update', async () => {
        const world = await anOrderWorld();
        const order = await anOrder(world);
        const shipment = await aShipment(order);
        const invoice = await anInvoice(order, { shipmentId: shipment.id });
        const foreign = await anInvoice(await anOrder(await anOrderWorld('Other')));

        expect(await uow().read((r) => r.invoices.findByIds(world.brand.id, [invoice.id, foreign.id]))).toStrictEqual([
          invoice,
        ]);
        expect(
          await uow().read((r) => r.invoices.findByOrderIds(world.brand.id, [order.id, foreign.orderId!])),
        ).toStrictEqual([invoice]);

        const booked: Invoice = {
          ...invoice,
          status: 'booked',
          bookedAt: at(7),
          inventoryRegulated: true,
          updatedAt: at(7),
        };
        await uow().run((tx) => tx.invoices.save(booked));
        expect(await uow().read((r) => r.invoices.findByIds(world.brand.id, [invoice.id]))).toStrictEqual([booked]);
      });

      it('credit notes read back exactly as saved by id, invoice and return', async () => {
        const world = await anOrderWorld();
        const order = await anOrder(world);
        const invoice = await anInvoice(order);
        const forInvoice = await aCreditNote(order, { invoiceId: invoice.id });
        const forReturn = await aCreditNote(order, {
          orderId: null,
          returnId: 4242,
          status: 'booked',
          bookedAt: at(2),
        });

        expect(
          await uow().read((r) => r.creditNotes.findByIds(world.brand.id, [forReturn.id, forInvoice.id])),
        ).toStrictEqual([forInvoice, forReturn]);
        expect(await uow().read((r) => r.creditNotes.findByInvoiceIds(world.brand.id, [invoice.id]))).toStrictEqual([
          forInvoice,
        ]);
        expect(await uow().read((r) => r.creditNotes.findByReturnIds(world.brand.id, [4242]))).toStrictEqual([
          forReturn,
        ]);
        expect(
          await uow().read((r) => r.creditNotes.findByIds(world.brand.id + 100000, [forInvoice.id])),
        ).toStrictEqual([]);
      });

      it('invoices and credit notes list with lines and filter by status', async () => {
        const world = await anOrderWorld();
        const order = await anOrder(world);
        const draft = await anInvoice(order);
        const booked = await anInvoice(order, { status: 'booked', bookedAt: at(1), updatedAt: at(1) });
        const note = await aCreditNote(order);
        const invoices = listOf(invoiceListDefinition, world.brand.id, (r, q) => r.invoices.list(world.brand.id, q));
        const notes = listOf(creditNoteListDefinition, world.brand.id, (r, q) => r.creditNotes.list(world.brand.id, q));

        expect((await invoices({})).page).toMatchObject({ items: [draft, booked], total: 2 });
        expect(
          (await invoices({ filter_groups: [{ filters: [{ key: 'status', operator: 'eq', value: 'booked' }] }] })).page
            .items,
        ).toStrictEqual([booked]);
        expect((await invoices({ sort: [{ key: 'updated_at', direction: 'DESC' }] })).page.items).toStrictEqual([
          booked,
          draft,
        ]);
        expect((await notes({})).page).toMatchObject({ items: [note], total: 1 });
      });

      it('accounting entries read back as inserted by id and document, and list', async () => {
        const world = await anOrderWorld();
        const invoice = await anInvoice(await anOrder(world));
        const entry = await anEntry(world.brand.id, invoice.id);
        const credit = await anEntry(world.brand.id, 99, { documentType: 'credit_note', lines: [] });
        await anEntry((await aBrand()).id, invoice.id);

        expect(
          await uow().read((r) => r.accountingEntries.findByIds(world.brand.id, [credit.id, entry.id])),
        ).toStrictEqual([entry, credit]);
        expect(
          await uow().read((r) => r.accountingEntries.findByDocument(world.brand.id, 'invoice', invoice.id)),
        ).toStrictEqual(entry);
        expect(
          await uow().read((r) => r.accountingEntries.findByDocument(world.brand.id, 'credit_note', invoice.id)),
        ).toBeNull();
        const list = listOf(accountingEntryListDefinition, world.brand.id, (r, q) =>
          r.accountingEntries.list(world.brand.id, q),
        );
        expect((await list({})).page).toMatchObject({ items: [entry, credit], total: 2 });
        expect(
          (
            await list({
              filter_groups: [{ filters: [{ key: 'document_type', operator: 'eq', value: 'credit_note' }] }],
            })
          ).page.items,
        ).toStrictEqual([credit]);
      });
    });

    // ---- export marks and export lists ----------------------------------------------------

    describe('export marks', () => {
      it('keep one mark per (document, system): marking again moves its time and note', async () => {
        const brand = await aBrand();
        await saveMarks(mark(brand.id, 'order', 1, 'erp', at(1), 'first'), mark(brand.id, 'order', 1, 'wms', at(2)));
        await saveMarks(mark(brand.id, 'order', 1, 'erp', at(3), 'again'), mark(brand.id, 'order', 2, 'erp', at(1)));
        // Twice in one call: the later one wins.
        await saveMarks(mark(brand.id, 'order', 3, 'erp', at(1), 'a'), mark(brand.id, 'order', 3, 'erp', at(4), 'b'));

        expect(await uow().read((r) => r.exportMarks.marksOf(brand.id, 'order', [3, 1, 2]))).toStrictEqual([
          mark(brand.id, 'order', 1, 'wms', at(2)),
          mark(brand.id, 'order', 1, 'erp', at(3), 'again'),
          mark(brand.id, 'order', 2, 'erp', at(1)),
          mark(brand.id, 'order', 3, 'erp', at(4), 'b'),
        ]);
        expect(await uow().read((r) => r.exportMarks.marksOf(brand.id, 'invoice', [1]))).toStrictEqual([]);
        expect(await uow().read((r) => r.exportMarks.marksOf(brand.id + 100000, 'order', [1]))).toStrictEqual([]);
        expect(await uow().read((r) => r.exportMarks.marksOf(brand.id, 'order', []))).toStrictEqual([]);
      });
    });

    describe('export lists', () => {
      it("orders: only the scope's statuses, never those the system marked, re-exported from an earlier notExportedSince", async () => {
        const world = await anOrderWorld();
        const draft = await anOrder(world);
        const approved1 = await anOrder(world, { status: 'approved' });
        const approved2 = await anOrder(world, { status: 'approved' });
        const cancelled = await anOrder(world, { status: 'cancelled' });
        const archived = await anOrder(world, { status: 'archived' });
        const other = await anOrderWorld('Other');
        await anOrder(other, { status: 'approved' });
        const exportOf = (s: ExportScope, raw: RawListQuery = {}) =>
          listOf(orderExportListDefinition, world.brand.id, (r, q) => r.orders.listForExport(world.brand.id, q, s))(
            raw,
          );

        const first = await exportOf(scope('erp', ['approved']));
        expect(ids(first.page.items)).toStrictEqual([approved1.id, approved2.id]);
        expect(first.page.total).toBeNull();
        expect(first.page.items[0]!.lines).toStrictEqual([]);
        expect((await exportOf(scope('erp', ['approved']), { includes: ['lines'] })).page.items).toStrictEqual([
          approved1,
          approved2,
        ]);
        expect(
          ids((await exportOf(scope('erp', ['approved', 'draft', 'cancelled', 'archived']))).page.items),
        ).toStrictEqual([draft.id, approved1.id, approved2.id, cancelled.id, archived.id]);
        expect((await exportOf(scope('erp', []))).page.items).toStrictEqual([]);

        await saveMarks(mark(world.brand.id, 'order', approved1.id, 'erp', at(10)));
        // Another brand's or another type's mark with the same id hides nothing.
        await saveMarks(
          mark(other.brand.id, 'order', approved2.id, 'erp', at(10)),
          mark(world.brand.id, 'invoice', approved2.id, 'erp', at(10)),
        );
        expect(ids((await exportOf(scope('erp', ['approved']))).page.items)).toStrictEqual([approved2.id]);
        // Marks of one system never hide a document from another.
        expect(ids((await exportOf(scope('wms', ['approved']))).page.items)).toStrictEqual([
          approved1.id,
          approved2.id,
        ]);
        // Marked after notExportedSince: exported again; marked at it: hidden.
        expect(ids((await exportOf(scope('erp', ['approved'], at(9)))).page.items)).toStrictEqual([
          approved1.id,
          approved2.id,
        ]);
        expect(ids((await exportOf(scope('erp', ['approved'], at(10)))).page.items)).toStrictEqual([approved2.id]);
        // Marking again later moves the mark: an instant between the two marks re-exports it.
        await saveMarks(mark(world.brand.id, 'order', approved1.id, 'erp', at(20)));
        expect(ids((await exportOf(scope('erp', ['approved'], at(15)))).page.items)).toStrictEqual([
          approved1.id,
          approved2.id,
        ]);
      });

      it('orders: a keyset walk of the export visits every unmarked order once, with list filters applied', async () => {
        const world = await anOrderWorld();
        const orders: Order[] = [];
        for (let i = 0; i < 7; i++)
          orders.push(await anOrder(world, { status: 'approved', reference: i % 2 === 0 ? 'even' : 'odd' }));
        await saveMarks(mark(world.brand.id, 'order', orders[2]!.id, 'erp', at(1)));
        const list = listOf(orderExportListDefinition, world.brand.id, (r, q) =>
          r.orders.listForExport(world.brand.id, q, scope('erp', ['approved'])),
        );

        const pages = await walkByCursor(orderExportListDefinition, list, { limit: 2 });
        expect(pages.map(ids)).toStrictEqual([
          [orders[0]!.id, orders[1]!.id],
          [orders[3]!.id, orders[4]!.id],
          [orders[5]!.id, orders[6]!.id],
        ]);
        const even = await list({
          filter_groups: [{ filters: [{ key: 'reference', operator: 'eq', value: 'even' }] }],
        });
        expect(ids(even.page.items)).toStrictEqual([orders[0]!.id, orders[4]!.id, orders[6]!.id]);
      });

      it('shipments, invoices, credit notes and accounting entries follow the same scope', async () => {
        const world = await anOrderWorld();
        const order = await anOrder(world, { status: 'approved' });
        const openShipment = await aShipment(order);
        const completed = await aShipment(order, { status: 'completed' });
        const draftInvoice = await anInvoice(order);
        const bookedInvoice = await anInvoice(order, { status: 'booked' });
        const draftNote = await aCreditNote(order);
        const bookedNote = await aCreditNote(order, { status: 'booked' });
        const entry1 = await anEntry(world.brand.id, bookedInvoice.id);
        const entry2 = await anEntry(world.brand.id, bookedNote.id, { documentType: 'credit_note' });
        const foreignOrder = await anOrder(await anOrderWorld('Other'), { status: 'approved' });
        await aShipment(foreignOrder);
        await anInvoice(foreignOrder, { status: 'booked' });
        await aCreditNote(foreignOrder, { status: 'booked' });
        await anEntry(foreignOrder.brandId, 1);
        const brandId = world.brand.id;
        const exportShipments = (s: ExportScope) =>
          listOf(shipmentExportListDefinition, brandId, (r, q) => r.shipments.listForExport(brandId, q, s))({});
        const exportInvoices = (s: ExportScope) =>
          listOf(invoiceExportListDefinition, brandId, (r, q) => r.invoices.listForExport(brandId, q, s))({});
        const exportNotes = (s: ExportScope) =>
          listOf(creditNoteExportListDefinition, brandId, (r, q) => r.creditNotes.listForExport(brandId, q, s))({});
        const exportEntries = (s: ExportScope) =>
          listOf(accountingEntryExportListDefinition, brandId, (r, q) =>
            r.accountingEntries.listForExport(brandId, q, s),
          )({});

        expect((await exportShipments(scope('wms', ['open']))).page).toMatchObject({
          items: [openShipment],
          total: null,
        });
        expect((await exportShipments(scope('wms', ['open', 'completed']))).page.items).toStrictEqual([
          openShipment,
          completed,
        ]);
        expect((await exportInvoices(scope('erp', ['booked']))).page).toMatchObject({
          items: [bookedInvoice],
          total: null,
        });
        expect((await exportInvoices(scope('erp', ['booked', 'draft']))).page.items).toStrictEqual([
          draftInvoice,
          bookedInvoice,
        ]);
        expect((await exportNotes(scope('erp', ['booked']))).page).toMatchObject({ items: [bookedNote], total: null });
        expect((await exportNotes(scope('erp', ['draft', 'booked']))).page.items).toStrictEqual([
          draftNote,
          bookedNote,
        ]);
        expect((await exportEntries(scope('erp'))).page).toMatchObject({ items: [entry1, entry2], total: null });

        await saveMarks(
          mark(brandId, 'shipment', openShipment.id, 'wms', at(1)),
          mark(brandId, 'invoice', bookedInvoice.id, 'erp', at(1)),
          mark(brandId, 'credit_note', bookedNote.id, 'erp', at(1)),
          mark(brandId, 'accounting_entry', entry1.id, 'erp', at(1)),
        );
        expect((await exportShipments(scope('wms', ['open', 'completed']))).page.items).toStrictEqual([completed]);
        expect((await exportShipments(scope('erp', ['open']))).page.items).toStrictEqual([openShipment]);
        expect((await exportInvoices(scope('erp', ['booked']))).page.items).toStrictEqual([]);
        expect((await exportInvoices(scope('erp', ['booked'], T0))).page.items).toStrictEqual([bookedInvoice]);
        expect((await exportNotes(scope('erp', ['booked']))).page.items).toStrictEqual([]);
        expect((await exportEntries(scope('erp'))).page.items).toStrictEqual([entry2]);
        // A status list on an entry export is ignored: entries have no status.
        expect((await exportEntries(scope('erp', ['booked']))).page.items).toStrictEqual([entry2]);
      });
    });

    // ---- timeline -------------------------------------------------------------------------

    describe('timeline', () => {
      it("returns a document's events oldest first (created at, then id), no other document's or brand's", async () => {
        const brand = await aBrand();
        const other = await aBrand();
        const event = (
          documentId: number,
          kind: TimelineKind,
          createdAt: string,
          fields: Partial<NewTimelineEvent> = {},
        ): NewTimelineEvent => ({
          brandId: brand.id,
          documentType: 'order',
          documentId,
          kind,
          note: null,
          systemId: null,
          userId: null,
          createdAt,
          ...fields,
        });
        await uow().run((tx) =>
          tx.timeline.append([event(1, 'approved', at(5)), event(1, 'created', at(1), { note: 'placed on Webshop' })]),
        );
        await uow().run((tx) =>
          tx.timeline.append([
            event(1, 'exported', at(5), { note: 'batch 7', systemId: 'erp' }),
            event(2, 'created', at(0)),
            event(1, 'created', at(0), { documentType: 'invoice' }),
            event(1, 'created', at(0), { brandId: other.id }),
          ]),
        );
        await uow().run((tx) => tx.timeline.append([]));

        const events = await uow().read((r) => r.timeline.eventsOf(brand.id, 'order', 1));
        expect(events.map(({ id: _id, ...rest }) => rest)).toStrictEqual([
          event(1, 'created', at(1), { note: 'placed on Webshop' }),
          event(1, 'approved', at(5)),
          event(1, 'exported', at(5), { note: 'batch 7', systemId: 'erp' }),
        ]);
        expect(events[1]!.id).toBeLessThan(events[2]!.id);
      });
    });

    // ---- concurrency ----------------------------------------------------------------------

    describe('dependents', () => {
      it("name the documents that still refer to a customer, a variant or its product, and nothing of another brand's", async () => {
        const world = await anOrderWorld('Dependents brand');
        const [unused] = await someVariants(world.brand.id, 1);
        const [variant] = world.variants;
        const dependentsOf = () =>
          uow().read(async (r) => ({
            customer: await r.customers.dependentsOf(world.brand.id, world.customer.id),
            variant: await r.products.dependentsOfVariant(world.brand.id, variant!.id),
            product: await r.products.dependentsOfProduct(world.brand.id, variant!.productId),
            unusedVariant: await r.products.dependentsOfVariant(world.brand.id, unused!.id),
          }));
        expect(await dependentsOf()).toStrictEqual({ customer: [], variant: [], product: [], unusedVariant: [] });

        const order = await anOrder(world);
        expect(await dependentsOf()).toStrictEqual({
          customer: ['orders'],
          variant: ['orders'],
          product: ['orders'],
          unusedVariant: [],
        });

        await aShipment(order);
        await anInvoice(order);
        await aCreditNote(order);
        const all = ['orders', 'shipments', 'invoices', 'credit notes'];
        expect(await dependentsOf()).toStrictEqual({ customer: all, variant: all, product: all, unusedVariant: [] });

        const stranger = await aBrand('Stranger');
        expect(await uow().read((r) => r.customers.dependentsOf(stranger.id, world.customer.id))).toStrictEqual([]);
        expect(await uow().read((r) => r.products.dependentsOfVariant(stranger.id, variant!.id))).toStrictEqual([]);
      });

      it('refuse deleting a customer, variant or product that documents still refer to, and keep it', async () => {
        const world = await anOrderWorld('Delete refusals');
        const [variant] = world.variants;
        await anOrder(world);
        await expect(uow().run((tx) => tx.customers.delete(world.brand.id, world.customer.id))).rejects.toMatchObject({
          code: 'has_dependents',
        });
        await expect(uow().run((tx) => tx.products.deleteVariant(world.brand.id, variant!.id))).rejects.toMatchObject({
          code: 'has_dependents',
        });
        await expect(
          uow().run((tx) => tx.products.deleteProduct(world.brand.id, variant!.productId)),
        ).rejects.toMatchObject({ code: 'has_dependents' });
        expect(await uow().read((r) => r.customers.findById(world.brand.id, world.customer.id))).not.toBeNull();
        expect(await uow().read((r) => r.products.findVariantsByIds(world.brand.id, [variant!.id]))).toHaveLength(1);
      });
    });

    describe('concurrent writers', () => {
      it(
        'never lose an update of one order: 10 parallel read-modify-write transactions each ship one more piece',
        async () => {
          const world = await anOrderWorld();
          const order = await anOrder(world);
          await Promise.all(
            Array.from({ length: 10 }, () =>
              uow().run(async (tx) => {
                const [current] = await tx.orders.findByIds(world.brand.id, [order.id]);
                const [first, ...rest] = current!.lines;
                await tx.orders.save({
                  ...current!,
                  lines: [{ ...first!, shippedQuantity: first!.shippedQuantity + 1 }, ...rest],
                });
              }),
            ),
          );
          const [stored] = await uow().read((r) => r.orders.findByIds(world.brand.id, [order.id]));
          expect(stored!.lines[0]!.shippedQuantity).toBe(10);
        },
        SLOW,
      );

      it(
        'never reserve more than the stock: 20 parallel reservations of one piece against 10 in stock reserve exactly 10',
        async () => {
          const brand = await aBrand();
          const [variant] = await someVariants(brand.id, 1);
          const location = await aLocation(brand.id, { isDefault: true });
          const movement = (inStock: number, reserved: number) => ({
            brandId: brand.id,
            variantId: variant!.id,
            locationId: location.id,
            inStockDelta: inStock,
            reservedDelta: reserved,
            reason: reserved ? ('order_reserved' as const) : ('api_quantity' as const),
            note: null,
            documentType: reserved ? 'order' : null,
            documentId: null,
            userId: null,
          });
          await uow().run((tx) => tx.stock.apply(brand.id, [movement(10, 0)], T0));

          const outcomes = await Promise.all(
            Array.from({ length: 20 }, () =>
              uow().run(async (tx) => {
                const [balance] = await tx.stock.balances(brand.id, [variant!.id]);
                if (!balance || balance.inStock - balance.reserved < 1) return false;
                await tx.stock.apply(brand.id, [movement(0, 1)], T0);
                return true;
              }),
            ),
          );

          expect(outcomes.filter(Boolean)).toHaveLength(10);
          const [balance] = await uow().read((r) => r.stock.balances(brand.id, [variant!.id]));
          expect(balance).toMatchObject({ inStock: 10, reserved: 10 });
        },
        SLOW,
      );
    });
  });
}
