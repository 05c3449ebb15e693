import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ClaimCause } from './return.entities';

/**
 * Back office: adds a claim cause (why customers return or claim). Codes are not unique: a brand
 * may keep two causes with one code, and a return line naming that code is then refused as
 * ambiguous, so the back office never has to delete one to add the other.
 *
 * @example
 * const cause = await createClaimCause({ uow, clock }, { brandId, code: 'damaged', name: 'Damaged on arrival' });
 */
export async function createClaimCause(
  deps: { uow: UnitOfWork<Pick<Repositories, 'claimCauses' | 'ids'>>; clock: Clock },
  input: { brandId: number; code: string; name: string },
): Promise<ClaimCause> {
  const code = input.code.trim();
  const name = input.name.trim();
  const violations = new ViolationList();
  if (code === '') violations.add('/code', 'must not be empty');
  if (name === '') violations.add('/name', 'must not be empty');
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    const [id] = await tx.ids.next('claim_causes');
    const now = deps.clock.now();
    const cause: ClaimCause = { id: id!, brandId: input.brandId, code, name, createdAt: now, updatedAt: now };
    await tx.claimCauses.insert(cause);
    return cause;
  });
}
