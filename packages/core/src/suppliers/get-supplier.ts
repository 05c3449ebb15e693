import { validateListQuery } from '../listing/validate-list-query';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Supplier } from './supplier.entities';
import { supplierListDefinition } from './supplier.list-definitions';

/**
 * One supplier of the brand (`GET /v10/suppliers/{id}`) and the includes of the supplier list it
 * was read with (`addresses`). A supplier of another brand is `not_found`, exactly like a missing
 * one; an unknown include is `invalid_list_query`.
 *
 * @example
 * const { supplier } = await getSupplier({ uow }, { brandId, id: 7, includes: ['addresses'] });
 */
export async function getSupplier(
  deps: { uow: UnitOfWork<Pick<Repositories, 'suppliers'>> },
  input: { brandId: number; id: number; includes?: unknown },
): Promise<{ supplier: Supplier; includes: string[] }> {
  const { includes } = validateListQuery(supplierListDefinition, { includes: input.includes });
  return deps.uow.read(async (repos) => {
    const supplier = await repos.suppliers.findById(input.brandId, input.id);
    if (!supplier) throw DomainError.notFound('supplier', input.id);
    return { supplier, includes };
  });
}
