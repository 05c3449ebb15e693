import { Customer, isDomainError, Return, UnitOfWork, Variant } from '@brand/core';
import { LogEvent } from 'kysely';
import { Storage } from '../src';
import { openTestStorage, testDialects } from '../src/testing';
import { catalogBuilders, draftProducts, T0 } from './catalog-fixtures';

const SLOW = 30_000;

// What the shared returns contract cannot see: the dependents registry that keeps returned
// variants and customers with returns, and how many statements a return's save costs.
for (const dialect of testDialects()) {
  describe(`Kysely returns storage [${dialect}]`, () => {
    let storage: (Storage & { url: string }) | undefined;
    let statements: string[] = [];
    let counting = false;
    const uow = (): UnitOfWork => storage!.uow;
    const { aBrand } = catalogBuilders(uow);

    beforeAll(async () => {
      storage = await openTestStorage(dialect, {
        log: (event: LogEvent) => {
          if (counting && event.level === 'query') statements.push(event.query.sql);
        },
      });
    }, SLOW);

    afterAll(async () => {
      await storage?.close();
    }, SLOW);

    async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
      statements = [];
      counting = true;
      try {
        await work();
      } finally {
        counting = false;
      }
      return statements;
    }

    /** A brand with a customer and one product of two variants. */
    async function aWorld() {
      const brand = await aBrand();
      return uow().run(async (tx) => {
        const [customerId] = await tx.ids.next('customers');
        const customer: Customer = {
          id: customerId!,
          brandId: brand.id,
          customerNumber: `C-${customerId}`,
          name: 'Buyer',
          currency: 'EUR',
          discountBasisPoints: 0,
          active: true,
          customerGroupId: null,
          paymentTermsId: null,
          email: null,
          telephone: null,
          vatNumber: null,
          eoriNumber: null,
          addresses: [],
          createdAt: T0,
          updatedAt: T0,
        };
        await tx.customers.save(customer);
        const [product] = await draftProducts(tx, brand.id, 1, 2);
        await tx.products.saveAll(brand.id, [product!]);
        return { brand, customer, product: product!, variants: product!.variants.map((r) => r.variant) };
      });
    }

    type World = Awaited<ReturnType<typeof aWorld>>;

    async function aReturn(world: World, variants: Variant[]): Promise<Return> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('returns');
        const lineIds = await tx.ids.next('return_lines', variants.length);
        const number = await tx.documentNumbers.next(world.brand.id, 'return');
        const ret: Return = {
          id: id!,
          brandId: world.brand.id,
          returnNumber: number,
          rma: String(number),
          rmaNumber: number,
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
          lines: variants.map((v, i) => ({
            id: lineIds[i]!,
            returnId: id!,
            orderLineId: null,
            variantId: v.id,
            productId: v.productId,
            sku: v.sku,
            ean: v.ean,
            itemNumber: 'P',
            productName: 'Shirt',
            attributes: {},
            countryOfOrigin: null,
            composition: null,
            hsTariffCode: null,
            expectedQuantity: 1,
            receivedQuantity: 0,
            claimType: 'return',
            claimCauseId: null,
            unitPrice: 1000,
            discountBasisPoints: 0,
            unitPriceInclVat: null,
            comments: null,
            regulateInventory: true,
            refundStorefront: true,
          })),
        };
        await tx.returns.save(ret);
        return ret;
      });
    }

    describe('what refers to customers and variants', () => {
      it('a returned variant and its product cannot be deleted, and name returns as dependents', async () => {
        const world = await aWorld();
        const [returned, free] = world.variants;
        await aReturn(world, [returned!]);

        expect(await uow().read((r) => r.products.dependentsOfVariant(world.brand.id, returned!.id))).toEqual([
          'returns',
        ]);
        expect(
          await uow().read((r) => r.products.dependentsOfProduct(world.brand.id, world.product.product.id)),
        ).toEqual(['returns']);
        const refusal = await uow()
          .run((tx) => tx.products.deleteVariant(world.brand.id, returned!.id))
          .catch((e: unknown) => e);
        expect(isDomainError(refusal) && refusal.code).toBe('has_dependents');
        // The variant nobody returned still goes.
        await uow().run((tx) => tx.products.deleteVariant(world.brand.id, free!.id));
        expect(
          await uow().read((r) => r.products.findVariantsByIds(world.brand.id, [returned!.id, free!.id])),
        ).toHaveLength(1);
      });

      it('a customer with a return cannot be deleted and names its returns as dependents', async () => {
        const world = await aWorld();
        expect(await uow().read((r) => r.customers.dependentsOf(world.brand.id, world.customer.id))).toEqual([]);
        await aReturn(world, world.variants);
        expect(await uow().read((r) => r.customers.dependentsOf(world.brand.id, world.customer.id))).toEqual([
          'returns',
        ]);
        const refusal = await uow()
          .run((tx) => tx.customers.delete(world.brand.id, world.customer.id))
          .catch((e: unknown) => e);
        expect(isDomainError(refusal) && refusal.code).toBe('has_dependents');
      });
    });

    describe('statements', () => {
      it('a save writes the return and its lines in one statement each, plus a read and a delete of the lines left out', async () => {
        const world = await aWorld();
        const ret = await aReturn(world, world.variants);
        const sql = await statementsOf(() => uow().run((tx) => tx.returns.save({ ...ret, lines: [ret.lines[0]!] })));
        const issued = sql.filter((s) => /^(insert|update|delete|select)/i.test(s.trim()));
        expect(issued.filter((s) => /^insert into "returns"/i.test(s))).toHaveLength(1);
        expect(issued.filter((s) => /^insert into "return_lines"/i.test(s))).toHaveLength(1);
        expect(issued.filter((s) => /^delete from "return_lines"/i.test(s))).toHaveLength(1);
        expect((await uow().read((r) => r.returns.findByIds(world.brand.id, [ret.id])))[0]!.lines).toEqual([
          ret.lines[0],
        ]);

        // Nothing left out: nothing deleted.
        const unchanged = await statementsOf(() =>
          uow().run((tx) => tx.returns.save({ ...ret, lines: [ret.lines[0]!] })),
        );
        expect(unchanged.filter((s) => /^delete/i.test(s.trim()))).toEqual([]);
      });
    });
  });
}
