import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Supplier } from './supplier.entities';
import {
  SupplierFields,
  applySupplierFields,
  checkSupplierFields,
  checkSupplierNumber,
  ensureSupplierNumberFree,
  supplierChanged,
} from './supplier-rules';

/** What `PATCH /v10/suppliers/{id}` may change: the number and the fields of a sync item; left out keeps its value. */
export interface SupplierChanges extends SupplierFields {
  supplierNumber?: string;
}

/**
 * Changes the fields sent of one supplier, by the rules a supplier sync applies to an existing
 * one. The number may change too (unlike in the sync, which matches by it), but not to one another
 * supplier of the brand holds (`duplicate`, naming `/supplier_number`). A supplier of another
 * brand is `not_found`, exactly like a missing one. A change to the values already stored writes
 * nothing and keeps `updatedAt`.
 *
 * @example
 * const supplier = await updateSupplier({ uow, clock }, { brandId, id: 7, changes: { email: null } });
 */
export async function updateSupplier(
  deps: { uow: UnitOfWork<Pick<Repositories, 'ids' | 'suppliers'>>; clock: Clock },
  input: { brandId: number; id: number; changes: SupplierChanges },
): Promise<Supplier> {
  const { brandId, changes } = input;
  return deps.uow.run(async (tx) => {
    const current = await tx.suppliers.findById(brandId, input.id);
    if (!current) throw DomainError.notFound('supplier', input.id);
    const violations = new ViolationList();
    const renumbered = changes.supplierNumber !== undefined && changes.supplierNumber !== current.supplierNumber;
    if (changes.supplierNumber !== undefined) checkSupplierNumber(changes.supplierNumber, '', violations);
    checkSupplierFields(changes, false, '', violations);
    violations.throwIfAny();
    if (renumbered) await ensureSupplierNumberFree(tx, brandId, changes.supplierNumber!, current.id);

    const next = await applySupplierFields(
      tx,
      renumbered ? { ...current, supplierNumber: changes.supplierNumber! } : current,
      changes,
    );
    if (!supplierChanged(next, current)) return current;
    const saved: Supplier = { ...next, updatedAt: deps.clock.now() };
    await tx.suppliers.save(saved);
    return saved;
  });
}
