import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Subbrand } from './catalog.entities';

/**
 * Back office: adds a sub-brand, which products (mostly those of the older interface) refer to
 * by `subbrand_id`. Names need not be unique: sub-brands are referred to by id only.
 *
 * @example
 * const subbrand = await createSubbrand({ uow, clock }, { brandId, name: 'Kids' });
 */
export async function createSubbrand(
  deps: { uow: UnitOfWork<Pick<Repositories, 'ids' | 'subbrands'>>; clock: Clock },
  input: { brandId: number; name: string },
): Promise<Subbrand> {
  const name = input.name.trim();
  const violations = new ViolationList();
  if (name === '') violations.add('/name', 'must not be empty');
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    const [id] = await tx.ids.next('subbrands');
    const now = deps.clock.now();
    const subbrand: Subbrand = { id: id!, brandId: input.brandId, name, createdAt: now, updatedAt: now };
    await tx.subbrands.insert(subbrand);
    return subbrand;
  });
}
