import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Drop } from './catalog.entities';

/**
 * Back office: adds a drop (a delivery window or season). Its code is unique within the brand;
 * orders and the product sync refer to a drop by id or by code.
 *
 * @example
 * const drop = await createDrop({ uow, clock }, { brandId, code: 'SS27', name: 'Spring/Summer 2027' });
 */
export async function createDrop(
  deps: { uow: UnitOfWork<Pick<Repositories, 'drops' | 'ids'>>; clock: Clock },
  input: { brandId: number; code: string; name: string },
): Promise<Drop> {
  const code = input.code.trim();
  const name = input.name.trim();
  const violations = new ViolationList();
  if (code === '') violations.add('/code', 'must not be empty');
  if (name === '') violations.add('/name', 'must not be empty');
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    if ((await tx.drops.findByCodes(input.brandId, [code])).length > 0) {
      throw new DomainError('duplicate', `a drop with code ${code} already exists`, {
        violations: [{ pointer: '/code', detail: `code ${code} is taken` }],
      });
    }
    const [id] = await tx.ids.next('drops');
    const now = deps.clock.now();
    const drop: Drop = { id: id!, brandId: input.brandId, code, name, createdAt: now, updatedAt: now };
    await tx.drops.insert(drop);
    return drop;
  });
}
