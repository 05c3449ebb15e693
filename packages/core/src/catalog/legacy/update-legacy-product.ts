import { recordEvents } from '../../events/record-events';
import { Clock } from '../../shared/clock.ports';
import { ViolationList } from '../../shared/errors';
import { UnitOfWork } from '../../shared/unit-of-work.ports';
import { ProductAggregate } from '../catalog.entities';
import { storedProductForm } from '../product-events';
import { applyProductFields } from './legacy-product-fields';
import {
  LegacyProductWriteRepositories,
  checkProductFields,
  checkProductReferences,
  ensureItemNumberFree,
  findProduct,
} from './legacy-product-rules';
import { LegacyProductView, loadLegacyProductRelations } from './legacy-product-view';
import { LegacyProductChanges } from './legacy-product.input';
import { sameData } from '../../shared/sync-outcome';

/**
 * `PUT /api/products/{id}`: changes the root product only (sub-brand, collection, item number,
 * name, description, image, images, active, colli); fields not sent keep their value, and
 * variants are changed through their own endpoints. A new item number must be free (1000002).
 * A request that changes nothing keeps `updated_at` and announces nothing; a change is announced
 * (`product.updated`, the whole product as saved) in the same transaction.
 */
export async function updateLegacyProduct(
  deps: { uow: UnitOfWork<LegacyProductWriteRepositories>; clock: Clock },
  input: { brandId: number; id: number; product: LegacyProductChanges },
): Promise<LegacyProductView> {
  const { brandId, product: changes } = input;
  return deps.uow.run(async (tx) => {
    const current = await findProduct(tx, brandId, input.id);
    const violations = new ViolationList();
    checkProductFields(changes, violations, 'update');
    await checkProductReferences(tx, brandId, changes, violations);
    violations.throwIfAny();
    const next = applyProductFields(current.product, changes);
    if (next.itemNumber !== current.product.itemNumber)
      await ensureItemNumberFree(tx, brandId, next.itemNumber, current.product.id, '/product/item_number');
    let aggregate: ProductAggregate = current;
    if (!sameData(next, current.product)) {
      const now = deps.clock.now();
      aggregate = { ...current, product: { ...next, updatedAt: now } };
      // Variants not in the aggregate are left alone, so only the product row is written.
      await tx.products.saveAll(brandId, [{ ...aggregate, variants: [] }]);
      await recordEvents(tx, brandId, now, [{ type: 'product.updated', object: storedProductForm(aggregate) }]);
    }
    return { aggregate, relations: await loadLegacyProductRelations(tx, brandId, [aggregate], ['variants.inventory']) };
  });
}
