import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { isCurrencyCode } from '../shared/codes';
import { Brand } from './identity.entities';

/** What `createBrand` needs: a name and the base currency (ISO 4217). */
export interface CreateBrandInput {
  name: string;
  currency: string;
}

/** Registers a brand (tenant) with its base currency. */
export async function createBrand(
  deps: { uow: UnitOfWork<Pick<Repositories, 'brands' | 'ids'>>; clock: Clock },
  input: CreateBrandInput,
): Promise<Brand> {
  const violations = new ViolationList();
  if (input.name.trim() === '') violations.add('/name', 'must not be empty');
  if (!isCurrencyCode(input.currency)) violations.add('/currency', 'must be a 3-letter ISO 4217 code such as EUR');
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    const [id] = await tx.ids.next('brands');
    const now = deps.clock.now();
    const brand: Brand = { id: id!, name: input.name.trim(), currency: input.currency, createdAt: now, updatedAt: now };
    await tx.brands.insert(brand);
    return brand;
  });
}
