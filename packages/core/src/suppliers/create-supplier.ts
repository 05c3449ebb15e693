import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Supplier } from './supplier.entities';
import {
  SupplierFields,
  applySupplierFields,
  blankSupplier,
  checkSupplierFields,
  checkSupplierNumber,
  ensureSupplierNumberFree,
} from './supplier-rules';

/** A new supplier (`POST /v10/suppliers`): its number, and the fields of a sync item. */
export interface NewSupplier extends SupplierFields {
  supplierNumber: string;
}

/**
 * Adds one supplier, by the rules a supplier sync applies to a new one (name and currency
 * required, the same checks of every field). Unlike the sync it never updates: a supplier number
 * the brand already uses is refused (`duplicate`, naming `/supplier_number`), also when a
 * concurrent request took it a moment earlier. Suppliers have no event types.
 *
 * @example
 * const supplier = await createSupplier({ uow, clock }, { brandId, supplier: { supplierNumber: 'S-1', name: 'Mill', currency: 'EUR' } });
 */
export async function createSupplier(
  deps: { uow: UnitOfWork<Pick<Repositories, 'ids' | 'suppliers'>>; clock: Clock },
  input: { brandId: number; supplier: NewSupplier },
): Promise<Supplier> {
  const { brandId, supplier: fields } = input;
  const violations = new ViolationList();
  checkSupplierNumber(fields.supplierNumber, '', violations);
  checkSupplierFields(fields, true, '', violations);
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    await ensureSupplierNumberFree(tx, brandId, fields.supplierNumber);
    const now = deps.clock.now();
    const [id] = await tx.ids.next('suppliers');
    const supplier = await applySupplierFields(tx, blankSupplier(id!, brandId, fields.supplierNumber, now), fields);
    await tx.suppliers.save(supplier);
    return supplier;
  });
}
