import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { User } from './identity.entities';

/** What `createUser` needs: the brand, an e-mail address and a name. */
export interface CreateUserInput {
  brandId: number;
  email: string;
  name: string;
}

/** Adds a user to a brand; tokens are later issued on the user's behalf. */
export async function createUser(
  deps: { uow: UnitOfWork<Pick<Repositories, 'brands' | 'ids' | 'users'>>; clock: Clock },
  input: CreateUserInput,
): Promise<User> {
  const violations = new ViolationList();
  if (!/^[^@\s]+@[^@\s]+$/.test(input.email)) violations.add('/email', 'must be an e-mail address');
  if (input.name.trim() === '') violations.add('/name', 'must not be empty');
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    if (!(await tx.brands.findById(input.brandId))) throw DomainError.notFound('brand', input.brandId);
    const [id] = await tx.ids.next('users');
    const user: User = {
      id: id!,
      brandId: input.brandId,
      email: input.email,
      name: input.name.trim(),
      createdAt: deps.clock.now(),
    };
    await tx.users.insert(user);
    return user;
  });
}
