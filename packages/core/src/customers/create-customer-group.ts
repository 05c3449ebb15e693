import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { CustomerGroup } from './customer.entities';

/** Back office: adds a customer group; its code is unique within the brand. */
export async function createCustomerGroup(
  deps: { uow: UnitOfWork<Pick<Repositories, 'customerGroups' | 'ids'>>; clock: Clock },
  input: { brandId: number; code: string; name: string },
): Promise<CustomerGroup> {
  const violations = new ViolationList();
  if (input.code.trim() === '') violations.add('/code', 'must not be empty');
  if (input.name.trim() === '') violations.add('/name', 'must not be empty');
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    if ((await tx.customerGroups.findByCodes(input.brandId, [input.code.trim()])).length > 0) {
      throw new DomainError('duplicate', `a customer group with code ${input.code} already exists`, {
        violations: [{ pointer: '/code', detail: `code ${input.code} is taken` }],
      });
    }
    const [id] = await tx.ids.next('customer_groups');
    const now = deps.clock.now();
    const group: CustomerGroup = {
      id: id!,
      brandId: input.brandId,
      code: input.code.trim(),
      name: input.name.trim(),
      createdAt: now,
      updatedAt: now,
    };
    await tx.customerGroups.insert(group);
    return group;
  });
}
