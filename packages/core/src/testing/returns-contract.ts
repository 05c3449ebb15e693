import { Variant } from '../catalog/catalog.entities';
import { Customer } from '../customers/customer.entities';
import { ExportMark, ExportScope } from '../documents/document.entities';
import { Brand } from '../identity/identity.entities';
import { ListDefinition, ListQuery, ListRows, RawListQuery } from '../listing/list-query';
import { runList } from '../listing/run-list';
import { DecodedCursor } from '../listing/validate-list-query';
import { Order, OrderChannel } from '../orders/order.entities';
import { Alert, ClaimCause, Return, ReturnLine, ReturnPortal } from '../returns/return.entities';
import {
  alertListDefinition,
  claimCauseListDefinition,
  returnListDefinition,
  returnPortalListDefinition,
  thirdPartyReturnExportListDefinition,
  thirdPartyReturnListDefinition,
} from '../returns/return.list-definitions';
import { Repositories } from '../shared/unit-of-work.ports';
import { contractBuilders } from './contract-builders';
import { ContractStorage, saveProductWithVariants, SLOW, useContractStorage, walkByCursor } from './contract-support';

const T0 = '2026-04-01T00:00:00.000Z';
const at = (minute: number): string => new Date(Date.parse(T0) + minute * 60_000).toISOString();

/**
 * The repository contract of the returns ports (returns, claim causes, return portals, alerts),
 * run against every storage adapter like `describeOrdersContract`. What every adapter promises:
 * - Returns read back exactly as saved (JSON fields, nulls), lines by id ascending; a save makes
 *   the stored lines exactly the aggregate's (updated, added, and removed when left out).
 * - Lookups (ids, rma, portal + rma, order ids) return returns by id ascending, never another brand's.
 * - (brand, portal, rma) is unique among portal returns: a second save is refused; returns without
 *   a portal may share an rma. Twenty concurrent "find or create" transactions of one new portal
 *   rma through the unit of work make exactly one return (the SQL adapters retry the losers).
 * - Lists always carry lines; the export keeps the scope's statuses and drops the returns its
 *   system marked at or before `notExportedSince`, never counting.
 * - Claim cause codes match ignoring case; portals are found by public id across brands, and a
 *   public id is taken once; alerts save as upserts.
 *
 * @example
 * describeReturnsContract('in-memory returns', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeReturnsContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);

    // ---- builders -------------------------------------------------------------------------

    const { aBrand, aCustomer } = contractBuilders(uow, { at: T0, brandLabel: 'Returns brand' });

    async function someVariants(brandId: number, count = 3): Promise<Variant[]> {
      return uow().run((tx) => saveProductWithVariants(tx, brandId, { count, at: T0 }));
    }

    async function aPortal(
      brandId: number,
      fields: Partial<Omit<ReturnPortal, 'id' | 'brandId'>> = {},
    ): Promise<ReturnPortal> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('return_portals');
        const portal: ReturnPortal = {
          id: id!,
          brandId,
          publicId: `rp-${brandId}-${id}-${Math.random().toString(36).slice(2, 10)}`,
          name: `Portal ${id}`,
          type: 'custom',
          requiresClaimCauses: false,
          createdAt: T0,
          updatedAt: T0,
          ...fields,
        };
        await tx.returnPortals.insert(portal);
        return portal;
      });
    }

    async function aCause(brandId: number, code: string, name = code): Promise<ClaimCause> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('claim_causes');
        const cause: ClaimCause = { id: id!, brandId, code, name, createdAt: T0, updatedAt: T0 };
        await tx.claimCauses.insert(cause);
        return cause;
      });
    }

    /** A minimal approved order of the customer with one line per variant (returns refer to orders and order lines). */
    async function anOrder(world: ReturnWorld): Promise<Order> {
      return uow().run(async (tx) => {
        const [channelId] = await tx.ids.next('order_channels');
        const channel: OrderChannel = {
          id: channelId!,
          brandId: world.brand.id,
          publicId: `oc-${world.brand.id}-${channelId}-${Math.random().toString(36).slice(2, 10)}`,
          name: 'Webshop',
          orderType: 'b2c',
          autoApprove: false,
          dropId: null,
          createdAt: T0,
          updatedAt: T0,
        };
        await tx.orderChannels.insert(channel);
        const [id] = await tx.ids.next('orders');
        const lineIds = await tx.ids.next('order_lines', world.variants.length);
        const order: Order = {
          id: id!,
          brandId: world.brand.id,
          orderNumber: await tx.documentNumbers.next(world.brand.id, 'order'),
          status: 'approved',
          orderType: 'b2c',
          orderChannelId: channel.id,
          customerId: world.customer.id,
          customerNumber: world.customer.customerNumber,
          dropId: null,
          currency: 'EUR',
          vatRateBasisPoints: 2500,
          pricesIncludeVat: true,
          email: 'buyer@example.com',
          telephone: null,
          reference: null,
          notes: null,
          invoiceAddress: null,
          deliveryAddress: null,
          shippingCode: null,
          shippingCost: null,
          responsiblePerson: null,
          orderMeta: {},
          netTotal: 0,
          vatTotal: 0,
          total: 0,
          approvedAt: T0,
          cancelledAt: null,
          archivedAt: null,
          createdByUserId: null,
          createdAt: T0,
          updatedAt: T0,
          lines: world.variants.map((v, i) => ({
            id: lineIds[i]!,
            orderId: id!,
            variantId: v.id,
            productId: v.productId,
            sku: v.sku,
            ean: v.ean,
            itemNumber: `P-${v.productId}`,
            productName: 'Shirt',
            attributes: v.attributes,
            countryOfOrigin: null,
            composition: null,
            hsTariffCode: null,
            tracksInventory: true,
            quantity: 2,
            unitPrice: 2500,
            discountBasisPoints: 0,
            totalPrice: 5000,
            reservations: [],
            shippedQuantity: 2,
            deliveredQuantity: 2,
            invoicedQuantity: 0,
            regulatedQuantity: 0,
          })),
        };
        await tx.orders.save(order);
        return order;
      });
    }

    interface ReturnWorld {
      brand: Brand;
      customer: Customer;
      variants: Variant[];
    }

    async function aWorld(label?: string): Promise<ReturnWorld> {
      const brand = await aBrand(label);
      return { brand, customer: await aCustomer(brand.id), variants: await someVariants(brand.id) };
    }

    function lineFor(variant: Variant, returnId: number, id: number, fields: Partial<ReturnLine> = {}): ReturnLine {
      return {
        id,
        returnId,
        orderLineId: null,
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
        expectedQuantity: 1,
        receivedQuantity: 0,
        claimType: 'return',
        claimCauseId: null,
        unitPrice: 2000,
        discountBasisPoints: 0,
        unitPriceInclVat: null,
        comments: null,
        regulateInventory: true,
        refundStorefront: true,
        ...fields,
      };
    }

    /** Draws ids and a number inside `tx` and builds a back-office return with one line per variant (not saved). */
    async function draftReturn(
      tx: Pick<Repositories, 'documentNumbers' | 'ids'>,
      world: ReturnWorld,
      fields: Partial<Omit<Return, 'id' | 'brandId' | 'lines'>> = {},
      lineCount = world.variants.length,
    ): Promise<Return> {
      const [id] = await tx.ids.next('returns');
      const lineIds = await tx.ids.next('return_lines', lineCount);
      const returnNumber = await tx.documentNumbers.next(world.brand.id, 'return');
      return {
        id: id!,
        brandId: world.brand.id,
        returnNumber,
        rma: String(returnNumber),
        rmaNumber: returnNumber,
        status: 'open',
        source: 'back_office',
        returnPortalId: null,
        orderId: null,
        orderNumber: null,
        shipmentId: null,
        customerId: world.customer.id,
        currency: 'EUR',
        vatRateBasisPoints: 2500,
        pricesIncludeVat: true,
        notes: null,
        returnMeta: {},
        shippingMethod: null,
        trackTrace: null,
        trackTraceLink: null,
        carrierCode: null,
        carrierLabel: null,
        labellessCode: null,
        returnFeeInclVat: null,
        exchangeFeeInclVat: null,
        storefrontRefundGiftCard: false,
        storefrontRefundGiftCardBonusType: null,
        storefrontRefundGiftCardBonusValue: null,
        storefrontRefundGiftCardFreeShipping: false,
        approvedAt: null,
        receivedAt: null,
        creditedAt: null,
        createdByUserId: null,
        createdAt: T0,
        updatedAt: T0,
        ...fields,
        lines: world.variants.slice(0, lineCount).map((v, i) => lineFor(v, id!, lineIds[i]!)),
      };
    }

    async function aReturn(
      world: ReturnWorld,
      fields: Partial<Omit<Return, 'id' | 'brandId' | 'lines'>> = {},
    ): Promise<Return> {
      return uow().run(async (tx) => {
        const ret = await draftReturn(tx, world, fields);
        await tx.returns.save(ret);
        return ret;
      });
    }

    const read = <T>(work: (r: Repositories) => Promise<T>): Promise<T> => uow().read(work);

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

    const mark = (brandId: number, documentId: number, systemId: string, exportedAt: string): ExportMark => ({
      brandId,
      documentType: 'return',
      documentId,
      systemId,
      exportedAt,
      note: null,
    });

    const ids = <T extends { id: number }>(items: T[]): number[] => items.map((i) => i.id);

    // ---- returns --------------------------------------------------------------------------

    describe('returns', () => {
      it('read back exactly as saved, every field and JSON structure included, by ids, rma, portal rma and order', async () => {
        const world = await aWorld();
        const portal = await aPortal(world.brand.id, { type: 'returnista' });
        const cause = await aCause(world.brand.id, 'damaged', 'Damaged on arrival');
        const order = await anOrder(world);
        const ret = await uow().run(async (tx) => {
          const draft = await draftReturn(tx, world, {
            rma: 'WEB-00042',
            rmaNumber: 42,
            status: 'credited',
            source: 'portal',
            returnPortalId: portal.id,
            orderId: order.id,
            orderNumber: order.orderNumber,
            currency: 'DKK',
            vatRateBasisPoints: 2500,
            pricesIncludeVat: false,
            notes: 'Box was wet',
            returnMeta: { portal: { ref: 'x-1' }, tags: ['a', 'b'] },
            shippingMethod: 'PostNord drop-off',
            trackTrace: 'TT123',
            trackTraceLink: 'https://track.example/TT123',
            carrierCode: 'postnord',
            carrierLabel: 'PostNord',
            labellessCode: 'QR-9',
            returnFeeInclVat: 495,
            exchangeFeeInclVat: 250,
            storefrontRefundGiftCard: true,
            storefrontRefundGiftCardBonusType: 'percentage',
            storefrontRefundGiftCardBonusValue: '10.5',
            storefrontRefundGiftCardFreeShipping: true,
            approvedAt: at(1),
            receivedAt: at(2),
            creditedAt: at(3),
            createdAt: at(0),
            updatedAt: at(3),
          });
          draft.lines[0] = {
            ...draft.lines[0]!,
            orderLineId: order.lines[0]!.id,
            countryOfOrigin: 'PT',
            composition: '100% cotton',
            hsTariffCode: '6109100010',
            expectedQuantity: 2,
            receivedQuantity: 1,
            claimType: 'claim',
            claimCauseId: cause.id,
            unitPrice: 1999,
            discountBasisPoints: 1000,
            unitPriceInclVat: 2499,
            comments: 'Seam open',
            regulateInventory: false,
            refundStorefront: false,
            attributes: { size: 'L', color: 'Navy' },
          };
          await tx.returns.save(draft);
          return draft;
        });
        const other = await aReturn(world);

        expect(await read((r) => r.returns.findByIds(world.brand.id, [other.id, ret.id]))).toStrictEqual([ret, other]);
        expect(await read((r) => r.returns.findByRma(world.brand.id, 'WEB-00042'))).toStrictEqual([ret]);
        expect(await read((r) => r.returns.findByRma(world.brand.id, 'web-00042'))).toStrictEqual([]);
        expect(await read((r) => r.returns.findByPortalRma(world.brand.id, portal.id, 'WEB-00042'))).toStrictEqual(ret);
        expect(await read((r) => r.returns.findByPortalRma(world.brand.id, portal.id, 'WEB-00043'))).toBeNull();
        expect(await read((r) => r.returns.findByOrderIds(world.brand.id, [order.id]))).toStrictEqual([ret]);
        expect(await read((r) => r.returns.findByRma(world.brand.id, other.rma))).toStrictEqual([other]);
      });

      it("never find, list or export another brand's returns", async () => {
        const world = await aWorld();
        const foreignWorld = await aWorld('Other');
        const foreignPortal = await aPortal(foreignWorld.brand.id);
        const foreign = await aReturn(foreignWorld, {
          status: 'approved',
          rma: 'SHARED-1',
          source: 'portal',
          returnPortalId: foreignPortal.id,
        });
        const own = await aReturn(world, { status: 'approved', rma: 'SHARED-1' });
        const brandId = world.brand.id;

        expect(await read((r) => r.returns.findByIds(brandId, [foreign.id]))).toStrictEqual([]);
        expect(await read((r) => r.returns.findByRma(brandId, 'SHARED-1'))).toStrictEqual([own]);
        expect(await read((r) => r.returns.findByPortalRma(brandId, foreignPortal.id, 'SHARED-1'))).toBeNull();
        expect(
          (await listOf(returnListDefinition, brandId, (r, q) => r.returns.list(brandId, q))({})).page.items,
        ).toStrictEqual([own]);
        const exported = await listOf(thirdPartyReturnExportListDefinition, brandId, (r, q) =>
          r.returns.listForExport(brandId, q, scope('wms', ['approved'])),
        )({});
        expect(exported.page.items).toStrictEqual([own]);
      });

      it('store exactly the saved lines: changed lines update, new ones appear, lines left out are deleted', async () => {
        const world = await aWorld();
        const ret = await aReturn(world);
        const [first] = ret.lines;
        const changed = await uow().run(async (tx) => {
          const [lineId] = await tx.ids.next('return_lines');
          const next: Return = {
            ...ret,
            status: 'approved',
            approvedAt: at(5),
            updatedAt: at(5),
            lines: [
              { ...first!, expectedQuantity: 4 },
              lineFor(world.variants[1]!, ret.id, lineId!, { expectedQuantity: 7, comments: 'new' }),
            ],
          };
          await tx.returns.save(next);
          return next;
        });
        expect(await read((r) => r.returns.findByIds(world.brand.id, [ret.id]))).toStrictEqual([changed]);

        // Saving with no lines leaves none.
        await uow().run((tx) => tx.returns.save({ ...changed, lines: [] }));
        expect((await read((r) => r.returns.findByIds(world.brand.id, [ret.id])))[0]!.lines).toStrictEqual([]);
      });

      it('refuse a second return with a taken (portal, rma); other portals and portal-less returns may share the rma', async () => {
        const world = await aWorld();
        const portal = await aPortal(world.brand.id);
        const otherPortal = await aPortal(world.brand.id);
        const first = await aReturn(world, {
          rma: 'R-77',
          rmaNumber: 77,
          source: 'portal',
          returnPortalId: portal.id,
          status: 'approved',
        });

        await expect(
          aReturn(world, { rma: 'R-77', rmaNumber: 77, source: 'portal', returnPortalId: portal.id }),
        ).rejects.toThrow();
        const elsewhere = await aReturn(world, {
          rma: 'R-77',
          rmaNumber: 77,
          source: 'portal',
          returnPortalId: otherPortal.id,
        });
        const adHoc1 = await aReturn(world, { rma: 'R-77', rmaNumber: 77, source: 'ad_hoc' });
        const adHoc2 = await aReturn(world, { rma: 'R-77', rmaNumber: 77, source: 'ad_hoc' });
        // The refused save left nothing behind; saving the first again (an update) is no conflict.
        await uow().run((tx) => tx.returns.save({ ...first, notes: 'again', updatedAt: at(9) }));

        expect(ids(await read((r) => r.returns.findByRma(world.brand.id, 'R-77')))).toStrictEqual([
          first.id,
          elsewhere.id,
          adHoc1.id,
          adHoc2.id,
        ]);
        expect(await read((r) => r.returns.findByPortalRma(world.brand.id, portal.id, 'R-77'))).toMatchObject({
          id: first.id,
          notes: 'again',
        });
      });

      it('list with lines, filters and sorts; the 3PL list and a keyset walk see the same returns', async () => {
        const world = await aWorld();
        const otherCustomer = await aCustomer(world.brand.id);
        const order = await anOrder(world);
        const open = await aReturn(world, { updatedAt: at(3) });
        const approved = await aReturn(world, {
          status: 'approved',
          orderId: order.id,
          orderNumber: order.orderNumber,
          updatedAt: at(1),
        });
        const received = await aReturn(world, {
          status: 'received',
          customerId: otherCustomer.id,
          createdAt: at(5),
          updatedAt: at(5),
        });
        const brandId = world.brand.id;
        const list = listOf(returnListDefinition, brandId, (r, q) => r.returns.list(brandId, q));
        const thirdParty = listOf(thirdPartyReturnListDefinition, brandId, (r, q) => r.returns.list(brandId, q));
        const filter = (key: string, value: string | number, operator = 'eq'): RawListQuery => ({
          filter_groups: [{ filters: [{ key, operator, value }] }],
        });

        expect((await list({})).page).toMatchObject({ items: [open, approved, received], total: 3 });
        expect((await list(filter('status', 'approved'))).page.items).toStrictEqual([approved]);
        expect((await list(filter('order_id', order.id))).page.items).toStrictEqual([approved]);
        expect((await list(filter('customer_id', otherCustomer.id))).page.items).toStrictEqual([received]);
        expect(ids((await list({ sort: [{ key: 'updated_at', direction: 'DESC' }] })).page.items)).toStrictEqual([
          received.id,
          open.id,
          approved.id,
        ]);
        expect((await thirdParty(filter('created_at', at(4), 'gte'))).page.items).toStrictEqual([received]);
        const pages = await walkByCursor(returnListDefinition, list, { limit: 2 });
        expect(pages.map(ids)).toStrictEqual([[open.id, approved.id], [received.id]]);
      });

      it("export only the scope's statuses and never those the system marked at or before notExportedSince", async () => {
        const world = await aWorld();
        const open = await aReturn(world);
        const approved1 = await aReturn(world, { status: 'approved' });
        const approved2 = await aReturn(world, { status: 'approved' });
        const received = await aReturn(world, { status: 'received' });
        const brandId = world.brand.id;
        const exportOf = (s: ExportScope) =>
          listOf(thirdPartyReturnExportListDefinition, brandId, (r, q) => r.returns.listForExport(brandId, q, s))({});

        const first = await exportOf(scope('wms', ['approved']));
        expect(first.page).toMatchObject({ items: [approved1, approved2], total: null });
        expect(ids((await exportOf(scope('wms', ['open', 'approved', 'received']))).page.items)).toStrictEqual([
          open.id,
          approved1.id,
          approved2.id,
          received.id,
        ]);
        expect((await exportOf(scope('wms', []))).page.items).toStrictEqual([]);

        await uow().run((tx) =>
          tx.exportMarks.mark([
            mark(brandId, approved1.id, 'wms', at(10)),
            { ...mark(brandId, approved2.id, 'wms', at(10)), documentType: 'order' },
          ]),
        );
        expect(ids((await exportOf(scope('wms', ['approved']))).page.items)).toStrictEqual([approved2.id]);
        expect(ids((await exportOf(scope('erp', ['approved']))).page.items)).toStrictEqual([
          approved1.id,
          approved2.id,
        ]);
        expect(ids((await exportOf(scope('wms', ['approved'], at(9)))).page.items)).toStrictEqual([
          approved1.id,
          approved2.id,
        ]);
      });
    });

    // ---- reference data -------------------------------------------------------------------

    describe('claim causes', () => {
      it('are found by ids and by codes ignoring case (codes are not unique), and list with filters', async () => {
        const brand = await aBrand();
        const other = await aBrand();
        const damaged = await aCause(brand.id, 'damaged', 'Damaged');
        const small = await aCause(brand.id, 'Too_Small', 'Too small');
        const again = await aCause(brand.id, 'DAMAGED', 'Damaged (again)');
        await aCause(other.id, 'damaged');

        expect(await read((r) => r.claimCauses.findByIds(brand.id, [small.id, damaged.id]))).toStrictEqual([
          damaged,
          small,
        ]);
        expect(await read((r) => r.claimCauses.findByCodes(brand.id, ['Damaged']))).toStrictEqual([damaged, again]);
        expect(await read((r) => r.claimCauses.findByCodes(brand.id, ['too_small', 'nope']))).toStrictEqual([small]);
        expect(await read((r) => r.claimCauses.findByCodes(brand.id, []))).toStrictEqual([]);
        const list = listOf(claimCauseListDefinition, brand.id, (r, q) => r.claimCauses.list(brand.id, q));
        expect((await list({})).page).toMatchObject({ items: [damaged, small, again], total: 3 });
        expect(
          (await list({ filter_groups: [{ filters: [{ key: 'name', operator: 'ct', value: 'small' }] }] })).page.items,
        ).toStrictEqual([small]);
      });
    });

    describe('return portals', () => {
      it('are found by public id across brands and by ids within the brand, list with filters, and take a public id once', async () => {
        const brand = await aBrand();
        const other = await aBrand();
        const custom = await aPortal(brand.id, { name: 'Webshop returns', requiresClaimCauses: true });
        const service = await aPortal(brand.id, { name: 'Service desk', type: 'service' });
        const foreign = await aPortal(other.id);

        expect(await read((r) => r.returnPortals.findByPublicIdAnyBrand(foreign.publicId))).toStrictEqual(foreign);
        expect(await read((r) => r.returnPortals.findByPublicIdAnyBrand('nope'))).toBeNull();
        expect(
          await read((r) => r.returnPortals.findByIds(brand.id, [service.id, foreign.id, custom.id])),
        ).toStrictEqual([custom, service]);
        const list = listOf(returnPortalListDefinition, brand.id, (r, q) => r.returnPortals.list(brand.id, q));
        expect((await list({})).page).toMatchObject({ items: [custom, service], total: 2 });
        expect(
          (await list({ filter_groups: [{ filters: [{ key: 'type', operator: 'eq', value: 'service' }] }] })).page
            .items,
        ).toStrictEqual([service]);
        expect(
          (
            await list({
              filter_groups: [{ filters: [{ key: 'requires_claim_causes', operator: 'eq', value: 'true' }] }],
            })
          ).page.items,
        ).toStrictEqual([custom]);

        await expect(aPortal(brand.id, { publicId: foreign.publicId })).rejects.toThrow();
        expect((await list({})).page.total).toBe(2);
      });
    });

    describe('alerts', () => {
      it('save as upserts, are found by ids and list by status', async () => {
        const world = await aWorld();
        const ret = await aReturn(world, { source: 'ad_hoc', status: 'received' });
        const alert = (id: number, fields: Partial<Alert> = {}): Alert => ({
          id,
          brandId: world.brand.id,
          kind: 'ad_hoc_return_without_rma',
          returnId: ret.id,
          message: `Return ${ret.returnNumber} came back without an RMA`,
          status: 'open',
          creditNoteId: null,
          resolvedAt: null,
          createdAt: at(1),
          updatedAt: at(1),
          ...fields,
        });
        const [firstId, secondId] = await uow().run((tx) => tx.ids.next('alerts', 2));
        await uow().run(async (tx) => {
          await tx.alerts.save(alert(firstId!));
          await tx.alerts.save(alert(secondId!, { createdAt: at(2), updatedAt: at(2) }));
        });
        const resolved = alert(firstId!, { status: 'resolved', resolvedAt: at(3), updatedAt: at(3) });
        await uow().run((tx) => tx.alerts.save(resolved));

        expect(await read((r) => r.alerts.findByIds(world.brand.id, [secondId!, firstId!]))).toStrictEqual([
          resolved,
          alert(secondId!, { createdAt: at(2), updatedAt: at(2) }),
        ]);
        expect(await read((r) => r.alerts.findByIds(world.brand.id + 100000, [firstId!]))).toStrictEqual([]);
        const list = listOf(alertListDefinition, world.brand.id, (r, q) => r.alerts.list(world.brand.id, q));
        expect(
          ids(
            (await list({ filter_groups: [{ filters: [{ key: 'status', operator: 'eq', value: 'open' }] }] })).page
              .items,
          ),
        ).toStrictEqual([secondId]);
        expect((await list({})).page.total).toBe(2);
      });
    });

    // ---- concurrency ----------------------------------------------------------------------

    describe('dependents', () => {
      it('a return holds its customer and the variants on its lines, for its brand only', async () => {
        const world = await aWorld('Dependents');
        const [variant] = world.variants;
        const dependentsOf = (brandId: number) =>
          read(async (r) => ({
            customer: await r.customers.dependentsOf(brandId, world.customer.id),
            variant: await r.products.dependentsOfVariant(brandId, variant!.id),
          }));
        expect(await dependentsOf(world.brand.id)).toStrictEqual({ customer: [], variant: [] });
        await aReturn(world);
        expect(await dependentsOf(world.brand.id)).toStrictEqual({ customer: ['returns'], variant: ['returns'] });
        expect(await dependentsOf((await aBrand('Stranger')).id)).toStrictEqual({ customer: [], variant: [] });
      });
    });

    describe('concurrent writers', () => {
      it(
        'make exactly one return of 20 parallel "find or create" transactions of one new portal rma',
        async () => {
          const world = await aWorld();
          const portal = await aPortal(world.brand.id);
          const made = await Promise.all(
            Array.from({ length: 20 }, () =>
              uow().run(async (tx) => {
                const existing = await tx.returns.findByPortalRma(world.brand.id, portal.id, 'RACE-1');
                if (existing) return existing.id;
                const ret = await draftReturn(tx, world, {
                  rma: 'RACE-1',
                  rmaNumber: 1,
                  source: 'portal',
                  returnPortalId: portal.id,
                  status: 'approved',
                });
                await tx.returns.save(ret);
                return ret.id;
              }),
            ),
          );

          const stored = await read((r) => r.returns.findByRma(world.brand.id, 'RACE-1'));
          expect(stored).toHaveLength(1);
          expect(new Set(made)).toStrictEqual(new Set([stored[0]!.id]));
        },
        SLOW,
      );

      it(
        'never lose an update of one return: 10 parallel read-modify-write transactions each receive one more piece',
        async () => {
          const world = await aWorld();
          const ret = await aReturn(world, { status: 'approved' });
          await Promise.all(
            Array.from({ length: 10 }, () =>
              uow().run(async (tx) => {
                const [current] = await tx.returns.findByIds(world.brand.id, [ret.id]);
                const [first, ...rest] = current!.lines;
                await tx.returns.save({
                  ...current!,
                  lines: [{ ...first!, receivedQuantity: first!.receivedQuantity + 1 }, ...rest],
                });
              }),
            ),
          );
          const [stored] = await read((r) => r.returns.findByIds(world.brand.id, [ret.id]));
          expect(stored!.lines[0]!.receivedQuantity).toBe(10);
          expect(stored!.lines).toHaveLength(ret.lines.length);
        },
        SLOW,
      );
    });
  });
}
