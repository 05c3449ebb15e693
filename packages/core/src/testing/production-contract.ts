import { Variant } from '../catalog/catalog.entities';
import { ExportScope } from '../documents/document.entities';
import { Brand } from '../identity/identity.entities';
import { RawListQuery } from '../listing/list-query';
import { runList } from '../listing/run-list';
import { DeliveryNote, ProductionOrder, ProductionOrderLine } from '../production/production.entities';
import {
  deliveryNoteListDefinition,
  productionOrderExportListDefinition,
  productionOrderListDefinition,
  thirdPartyDeliveryNoteListDefinition,
} from '../production/production.list-definitions';
import { Supplier } from '../suppliers/supplier.entities';
import { contractBuilders } from './contract-builders';
import { ContractStorage, saveProductWithVariants, SLOW, useContractStorage, walkByCursor } from './contract-support';

const T0 = '2026-03-01T00:00:00.000Z';
const at = (minute: number): string => new Date(Date.parse(T0) + minute * 60_000).toISOString();

/**
 * The repository contract of the production ports (production orders, delivery notes), run
 * against every storage adapter like `describeOrdersContract`. What every adapter promises:
 * - Aggregates read back exactly as saved (meta, sales order ids, attributes, nulls), lines by id
 *   ascending; a save upserts lines by id and never removes one.
 * - Lookups return documents by id ascending; another brand's documents are never found, listed
 *   or exported, and saving under another brand's id fails.
 * - Lists always carry lines and honour filters, sorts and cursors.
 * - The production order export keeps the scope's statuses and drops orders marked by the
 *   scope's system at or before `notExportedSince`; it never counts.
 *
 * @example
 * describeProductionContract('in-memory production', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeProductionContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, aSupplier } = contractBuilders(uow, { at: T0 });

    // ---- builders -------------------------------------------------------------------------

    interface World {
      brand: Brand;
      supplier: Supplier;
      variants: Variant[];
    }

    async function aWorld(label = 'Production brand'): Promise<World> {
      const brand = await aBrand(label);
      const supplier = await aSupplier(brand.id);
      // The second variant has no EAN.
      const variants = await uow().run((tx) =>
        saveProductWithVariants(tx, brand.id, {
          count: 2,
          at: T0,
          eanOf: (id, index) => (index === 0 ? `57${String(id).padStart(11, '0')}` : null),
        }),
      );
      return { brand, supplier, variants };
    }

    async function anOrder(
      world: World,
      fields: Partial<Omit<ProductionOrder, 'id' | 'brandId' | 'lines'>> = {},
    ): Promise<ProductionOrder> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('production_orders');
        const lineIds = await tx.ids.next('production_order_lines', world.variants.length);
        const order: ProductionOrder = {
          id: id!,
          brandId: world.brand.id,
          productionOrderNumber: await tx.documentNumbers.next(world.brand.id, 'production_order'),
          status: 'draft',
          supplierId: world.supplier.id,
          supplierNumber: world.supplier.supplierNumber,
          currency: 'EUR',
          expectedDelivery: '2026-04-01',
          notes: null,
          productionOrderMeta: { season: 'SS27', nested: { a: 1 } },
          salesOrderIds: [],
          approvedAt: null,
          closedAt: null,
          createdByUserId: null,
          createdAt: T0,
          updatedAt: T0,
          ...fields,
          lines: world.variants.map(
            (v, i): ProductionOrderLine => ({
              id: lineIds[i]!,
              productionOrderId: id!,
              variantId: v.id,
              productId: v.productId,
              sku: v.sku,
              ean: v.ean,
              itemNumber: `P-${v.productId}`,
              productName: 'Shirt',
              attributes: v.attributes,
              countryOfOrigin: i === 0 ? 'PT' : null,
              composition: null,
              hsTariffCode: null,
              quantity: 10 * (i + 1),
              unitCost: i === 0 ? 1250 : null,
              expectedQuantity: 0,
              receivedQuantity: 0,
            }),
          ),
        };
        await tx.productionOrders.save(order);
        return order;
      });
    }

    async function aNote(
      order: ProductionOrder,
      fields: Partial<Omit<DeliveryNote, 'id' | 'brandId' | 'lines'>> = {},
    ): Promise<DeliveryNote> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('delivery_notes');
        const lineIds = await tx.ids.next('delivery_note_lines', order.lines.length);
        const note: DeliveryNote = {
          id: id!,
          brandId: order.brandId,
          deliveryNoteNumber: await tx.documentNumbers.next(order.brandId, 'delivery_note'),
          productionOrderId: order.id,
          productionOrderNumber: order.productionOrderNumber,
          supplierId: order.supplierId,
          status: 'expected',
          currency: order.currency,
          expectedDelivery: null,
          notes: 'first batch',
          meta: { pallet: 'A' },
          receivedAt: null,
          createdByUserId: 7,
          createdAt: T0,
          updatedAt: T0,
          ...fields,
          lines: order.lines.map((l, i) => ({
            id: lineIds[i]!,
            deliveryNoteId: id!,
            productionOrderLineId: l.id,
            variantId: l.variantId,
            sku: l.sku,
            ean: l.ean,
            itemNumber: l.itemNumber,
            productName: l.productName,
            attributes: l.attributes,
            countryOfOrigin: l.countryOfOrigin,
            composition: l.composition,
            hsTariffCode: l.hsTariffCode,
            expectedQuantity: 5,
            receivedQuantity: 0,
          })),
        };
        await tx.deliveryNotes.save(note);
        return note;
      });
    }

    const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

    // ---- production orders ------------------------------------------------------------------

    it(
      'reads a production order back exactly as saved, lines by id ascending',
      async () => {
        const world = await aWorld();
        const order = await anOrder(world, { notes: 'rush', salesOrderIds: [3, 1] });
        const [found] = await uow().read((r) => r.productionOrders.findByIds(world.brand.id, [order.id]));
        expect(found).toEqual(order);
      },
      SLOW,
    );

    it(
      'upserts lines by id on save and never removes one',
      async () => {
        const world = await aWorld();
        const order = await anOrder(world);
        const changed: ProductionOrder = {
          ...order,
          status: 'open',
          approvedAt: at(5),
          updatedAt: at(5),
          lines: [{ ...order.lines[1]!, expectedQuantity: 4, receivedQuantity: 2 }],
        };
        await uow().run((tx) => tx.productionOrders.save(changed));
        const [found] = await uow().read((r) => r.productionOrders.findByIds(world.brand.id, [order.id]));
        expect(found!.status).toBe('open');
        expect(found!.approvedAt).toBe(at(5));
        expect(found!.lines).toEqual([order.lines[0], { ...order.lines[1], expectedQuantity: 4, receivedQuantity: 2 }]);
      },
      SLOW,
    );

    it(
      "never finds, lists or exports another brand's production orders, and refuses saving under its id",
      async () => {
        const mine = await aWorld();
        const theirs = await aWorld('Other brand');
        const order = await anOrder(theirs, { status: 'open' });
        await expect(uow().read((r) => r.productionOrders.findByIds(mine.brand.id, [order.id]))).resolves.toEqual([]);
        const { page } = await uow().read((r) =>
          runList(productionOrderListDefinition, { brandId: mine.brand.id, query: {} }, (q) =>
            r.productionOrders.list(mine.brand.id, q),
          ),
        );
        expect(page.items).toEqual([]);
        const scope: ExportScope = { systemId: 'erp', notExportedSince: at(60), statuses: ['open'] };
        const exported = await uow().read((r) =>
          runList(productionOrderExportListDefinition, { brandId: mine.brand.id, query: {} }, (q) =>
            r.productionOrders.listForExport(mine.brand.id, q, scope),
          ),
        );
        expect(exported.page.items).toEqual([]);
        await expect(
          uow().run((tx) => tx.productionOrders.save({ ...order, brandId: mine.brand.id })),
        ).rejects.toThrow();
      },
      SLOW,
    );

    it(
      'lists production orders with lines, filtered by status and supplier, sorted by updated_at, walked by cursor',
      async () => {
        const world = await aWorld();
        const a = await anOrder(world, { updatedAt: at(3) });
        const b = await anOrder(world, { status: 'open', updatedAt: at(1) });
        const c = await anOrder(world, { status: 'open', updatedAt: at(2) });
        const list = (raw: RawListQuery, cursor?: Parameters<typeof runList>[1]['cursor']) =>
          uow().read((r) =>
            runList(productionOrderListDefinition, { brandId: world.brand.id, query: raw, cursor }, (q) =>
              r.productionOrders.list(world.brand.id, q),
            ),
          );

        const open = await list({
          filter_groups: [
            {
              filters: [
                { key: 'status', value: 'open' },
                { key: 'supplier_id', value: String(world.supplier.id) },
              ],
            },
          ],
        });
        expect(ids(open.page.items)).toEqual([b.id, c.id]);
        expect(open.page.total).toBe(2);
        expect(open.page.items[0]!.lines).toHaveLength(2);

        const pages = await walkByCursor(productionOrderListDefinition, list, {
          sort: [{ key: 'updated_at', direction: 'DESC' }],
          limit: 2,
        });
        expect(pages.map(ids)).toEqual([[a.id, c.id], [b.id]]);
      },
      SLOW,
    );

    it(
      "exports the scope's statuses, hides orders marked by the system at or before not_exported_since, never counts",
      async () => {
        const world = await aWorld();
        const draft = await anOrder(world);
        const open = await anOrder(world, { status: 'open' });
        const marked = await anOrder(world, { status: 'open' });
        const markedLater = await anOrder(world, { status: 'open' });
        const closed = await anOrder(world, { status: 'closed' });
        await uow().run((tx) =>
          tx.exportMarks.mark([
            {
              brandId: world.brand.id,
              documentType: 'production_order',
              documentId: marked.id,
              systemId: 'erp',
              exportedAt: at(10),
              note: null,
            },
            {
              brandId: world.brand.id,
              documentType: 'production_order',
              documentId: markedLater.id,
              systemId: 'erp',
              exportedAt: at(30),
              note: null,
            },
            {
              brandId: world.brand.id,
              documentType: 'production_order',
              documentId: open.id,
              systemId: 'other',
              exportedAt: at(10),
              note: null,
            },
          ]),
        );
        const exportOf = (scope: ExportScope) =>
          uow().read((r) =>
            runList(productionOrderExportListDefinition, { brandId: world.brand.id, query: {} }, (q) =>
              r.productionOrders.listForExport(world.brand.id, q, scope),
            ),
          );

        const defaults = await exportOf({ systemId: 'erp', notExportedSince: at(20), statuses: ['open'] });
        expect(ids(defaults.page.items)).toEqual([open.id, markedLater.id]);
        expect(defaults.page.total).toBeNull();
        expect(defaults.page.items[0]!.lines).toHaveLength(2);

        const all = await exportOf({ systemId: 'erp', notExportedSince: at(5), statuses: ['draft', 'open', 'closed'] });
        expect(ids(all.page.items)).toEqual([draft.id, open.id, marked.id, markedLater.id, closed.id]);

        const none = await exportOf({ systemId: 'erp', notExportedSince: at(5), statuses: [] });
        expect(none.page.items).toEqual([]);
      },
      SLOW,
    );

    // ---- dependents --------------------------------------------------------------------------

    it('a production order holds its supplier and its variants, a delivery note its variants, for their brand only', async () => {
      const world = await aWorld('Dependents');
      const [variant] = world.variants;
      const dependentsOf = (brandId: number) =>
        uow().read(async (r) => ({
          supplier: await r.suppliers.dependentsOf(brandId, world.supplier.id),
          variant: await r.products.dependentsOfVariant(brandId, variant!.id),
        }));
      expect(await dependentsOf(world.brand.id)).toStrictEqual({ supplier: [], variant: [] });
      const order = await anOrder(world);
      expect(await dependentsOf(world.brand.id)).toStrictEqual({
        supplier: ['production orders'],
        variant: ['production orders'],
      });
      await aNote(order);
      expect(await dependentsOf(world.brand.id)).toStrictEqual({
        supplier: ['production orders'],
        variant: ['production orders', 'delivery notes'],
      });
      await expect(uow().run((tx) => tx.suppliers.delete(world.brand.id, world.supplier.id))).rejects.toMatchObject({
        code: 'has_dependents',
      });
      expect(await uow().read((r) => r.suppliers.findById(world.brand.id, world.supplier.id))).not.toBeNull();
      expect(await dependentsOf((await aWorld('Stranger')).brand.id)).toStrictEqual({ supplier: [], variant: [] });
    });

    // ---- delivery notes ---------------------------------------------------------------------

    it(
      'reads a delivery note back exactly as saved, by id, number and production order',
      async () => {
        const world = await aWorld();
        const order = await anOrder(world, { status: 'open' });
        const first = await aNote(order);
        const second = await aNote(order, { meta: {}, notes: null, createdByUserId: null });
        const byIds = await uow().read((r) => r.deliveryNotes.findByIds(world.brand.id, [second.id, first.id]));
        expect(byIds).toEqual([first, second]);
        await expect(
          uow().read((r) => r.deliveryNotes.findByNumbers(world.brand.id, [second.deliveryNoteNumber])),
        ).resolves.toEqual([second]);
        await expect(
          uow().read((r) => r.deliveryNotes.findByProductionOrderIds(world.brand.id, [order.id])),
        ).resolves.toEqual([first, second]);
      },
      SLOW,
    );

    it(
      "updates a delivery note's receipt and its lines, never removing a line",
      async () => {
        const world = await aWorld();
        const order = await anOrder(world, { status: 'open' });
        const note = await aNote(order);
        const received: DeliveryNote = {
          ...note,
          status: 'received',
          receivedAt: at(9),
          updatedAt: at(9),
          meta: { pallet: 'B', dock: 3 },
          lines: [{ ...note.lines[0]!, receivedQuantity: 6 }],
        };
        await uow().run((tx) => tx.deliveryNotes.save(received));
        const [found] = await uow().read((r) => r.deliveryNotes.findByIds(world.brand.id, [note.id]));
        expect(found).toEqual({ ...received, lines: [{ ...note.lines[0]!, receivedQuantity: 6 }, note.lines[1]] });
      },
      SLOW,
    );

    it(
      "never finds or lists another brand's delivery notes",
      async () => {
        const mine = await aWorld();
        const theirs = await aWorld('Other brand');
        const note = await aNote(await anOrder(theirs, { status: 'open' }));
        await expect(uow().read((r) => r.deliveryNotes.findByIds(mine.brand.id, [note.id]))).resolves.toEqual([]);
        await expect(
          uow().read((r) => r.deliveryNotes.findByNumbers(mine.brand.id, [note.deliveryNoteNumber])),
        ).resolves.toEqual([]);
        await expect(
          uow().read((r) => r.deliveryNotes.findByProductionOrderIds(mine.brand.id, [note.productionOrderId])),
        ).resolves.toEqual([]);
        const { page } = await uow().read((r) =>
          runList(deliveryNoteListDefinition, { brandId: mine.brand.id, query: {} }, (q) =>
            r.deliveryNotes.list(mine.brand.id, q),
          ),
        );
        expect(page.items).toEqual([]);
      },
      SLOW,
    );

    it(
      'lists delivery notes with lines, filtered by production order, status and supplier, by offset and by cursor',
      async () => {
        const world = await aWorld();
        const first = await anOrder(world, { status: 'open' });
        const second = await anOrder(world, { status: 'open' });
        const a = await aNote(first);
        const b = await aNote(second, { status: 'received', receivedAt: at(1) });
        const c = await aNote(first, { createdAt: at(5) });
        const list = (raw: RawListQuery) =>
          uow().read((r) =>
            runList(deliveryNoteListDefinition, { brandId: world.brand.id, query: raw }, (q) =>
              r.deliveryNotes.list(world.brand.id, q),
            ),
          );

        const ofFirst = await list({
          filter_groups: [{ filters: [{ key: 'production_order_id', value: String(first.id) }] }],
        });
        expect(ids(ofFirst.page.items)).toEqual([a.id, c.id]);
        expect(ofFirst.page.items[0]!.lines).toHaveLength(2);
        const received = await list({ filter_groups: [{ filters: [{ key: 'status', value: 'received' }] }] });
        expect(ids(received.page.items)).toEqual([b.id]);

        const warehouse = (raw: RawListQuery, cursor?: Parameters<typeof runList>[1]['cursor']) =>
          uow().read((r) =>
            runList(thirdPartyDeliveryNoteListDefinition, { brandId: world.brand.id, query: raw, cursor }, (q) =>
              r.deliveryNotes.list(world.brand.id, q),
            ),
          );
        const bySupplier = await warehouse({
          filter_groups: [{ filters: [{ key: 'supplier_id', value: String(world.supplier.id) }] }],
          limit: 2,
        });
        expect(ids(bySupplier.page.items)).toEqual([a.id, b.id]);
        expect(bySupplier.page.total).toBe(3);
        const pages = await walkByCursor(thirdPartyDeliveryNoteListDefinition, warehouse, { limit: 2 });
        expect(pages.map(ids)).toEqual([[a.id, b.id], [c.id]]);
        const since = await warehouse({
          filter_groups: [{ filters: [{ key: 'created_at', operator: 'gt', value: at(1) }] }],
        });
        expect(ids(since.page.items)).toEqual([c.id]);
      },
      SLOW,
    );
  });
}
