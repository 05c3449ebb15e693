import {
  FixedClock,
  Supplier,
  UnitOfWork,
  approveProductionOrder,
  createDeliveryNote,
  createProductionOrder,
  isDomainError,
  receiveDeliveryNote,
} from '@brand/core';
import { Storage } from '../src';
import { openTestStorage, testDialects } from '../src/testing';
import { catalogBuilders, draftProducts, T0 } from './catalog-fixtures';

const SLOW = 30_000;

// What the shared production contract cannot see: the dependents registry and foreign keys that
// keep suppliers and variants of production documents, and a receipt's writes all-or-nothing on SQL.
for (const dialect of testDialects()) {
  describe(`Kysely production storage [${dialect}]`, () => {
    let storage: Storage | undefined;
    const uow = (): UnitOfWork => storage!.uow;
    const { aBrand } = catalogBuilders(uow);
    const clock = new FixedClock(T0);

    beforeAll(async () => {
      storage = await openTestStorage(dialect);
    }, SLOW);

    afterAll(async () => {
      await storage?.close();
    }, SLOW);

    /** A brand with a supplier and one product of two variants, the first on an open production order with a delivery note. */
    async function aWorld() {
      const brand = await aBrand();
      const { supplier, variants, productId } = await uow().run(async (tx) => {
        const [supplierId] = await tx.ids.next('suppliers');
        const supplier: Supplier = {
          id: supplierId!,
          brandId: brand.id,
          supplierNumber: `S-${supplierId}`,
          name: 'Mill',
          currency: 'EUR',
          active: true,
          email: null,
          addresses: [],
          createdAt: T0,
          updatedAt: T0,
        };
        await tx.suppliers.save(supplier);
        const [product] = await draftProducts(tx, brand.id, 1, 2);
        await tx.products.saveAll(brand.id, [product!]);
        return { supplier, variants: product!.variants.map((r) => r.variant), productId: product!.product.id };
      });
      const deps = { uow: uow(), clock };
      const at = { brandId: brand.id, userId: null };
      const draft = await createProductionOrder(deps, {
        ...at,
        productionOrder: { supplierNumber: supplier.supplierNumber, lines: [{ sku: variants[0]!.sku, quantity: 5 }] },
      });
      const order = await approveProductionOrder(deps, { ...at, productionOrderId: draft.id });
      const { deliveryNote } = await createDeliveryNote(deps, {
        ...at,
        productionOrderId: order.id,
        deliveryNote: { lines: [{ sku: variants[0]!.sku, quantity: 5 }] },
      });
      return { brand, supplier, variants, productId, order, deliveryNote, deps, at };
    }

    it(
      'a supplier and a variant of production documents cannot be deleted, and name them as dependents',
      async () => {
        const world = await aWorld();
        const [made, free] = world.variants;
        expect(await uow().read((r) => r.suppliers.dependentsOf(world.brand.id, world.supplier.id))).toEqual([
          'production orders',
        ]);
        expect(await uow().read((r) => r.products.dependentsOfVariant(world.brand.id, made!.id))).toEqual([
          'production orders',
          'delivery notes',
        ]);
        expect(await uow().read((r) => r.products.dependentsOfVariant(world.brand.id, free!.id))).toEqual([]);
        const refusal = await uow()
          .run((tx) => tx.products.deleteVariant(world.brand.id, made!.id))
          .catch((e: unknown) => e);
        expect(isDomainError(refusal) && refusal.code).toBe('has_dependents');
        await uow().run((tx) => tx.products.deleteVariant(world.brand.id, free!.id));
        expect(
          await uow().read((r) => r.products.findVariantsByIds(world.brand.id, [made!.id, free!.id])),
        ).toHaveLength(1);
      },
      SLOW,
    );

    it(
      'books a receipt on note, production order and stock together, and a refused one not at all',
      async () => {
        const world = await aWorld();
        const sku = world.variants[0]!.sku;
        const receive = (lines: { sku: string; receivedQuantity: number }[]) =>
          receiveDeliveryNote(world.deps, {
            ...world.at,
            receipt: { deliveryNoteNumber: world.deliveryNote.deliveryNoteNumber, lines },
          });
        const inStock = async () =>
          (await uow().read((r) => r.stock.balances(world.brand.id, [world.variants[0]!.id]))).reduce(
            (sum, b) => sum + b.inStock,
            0,
          );

        await expect(
          receive([
            { sku, receivedQuantity: 2 },
            { sku: 'NOT-ON-NOTE', receivedQuantity: 1 },
          ]),
        ).rejects.toMatchObject({ code: 'validation_failed' });
        expect(await inStock()).toBe(0);

        await receive([{ sku, receivedQuantity: 2 }]);
        await receive([{ sku, receivedQuantity: 4 }]);
        expect(await inStock()).toBe(6);
        const [note] = await uow().read((r) => r.deliveryNotes.findByIds(world.brand.id, [world.deliveryNote.id]));
        expect(note).toMatchObject({ status: 'received', lines: [{ expectedQuantity: 5, receivedQuantity: 6 }] });
        const [order] = await uow().read((r) => r.productionOrders.findByIds(world.brand.id, [world.order.id]));
        expect(order!.lines.map((l) => [l.expectedQuantity, l.receivedQuantity])).toEqual([[5, 6]]);
      },
      SLOW,
    );
  });
}
