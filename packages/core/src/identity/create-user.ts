import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { User } from './identity.entities';
import { PasswordHasher } from './identity.ports';
import { MAX_EMAIL_LENGTH, checkPassword, normalizedPassword } from './login-rules';
import { storePassword } from './store-password';

/** What `createUser` needs: the brand, an e-mail address, a name and, for a user who logs in, a password. */
export interface CreateUserInput {
  brandId: number;
  email: string;
  name: string;
  /** Lets the user log in (console, OAuth); 12 to 256 characters. Without it the user only holds tokens. */
  password?: string;
}

/**
 * Adds a user to a brand; tokens are later issued on the user's behalf. With a password the user
 * can log in too: no other user (of any brand) may then log in with the same e-mail address.
 * @example const user = await createUser({ uow, clock, passwordHasher }, { brandId, email: 'anna@north.example', name: 'Anna', password });
 */
export async function createUser(
  deps: {
    uow: UnitOfWork<Pick<Repositories, 'brands' | 'ids' | 'users'>>;
    clock: Clock;
    /** Needed only when a password is given. */
    passwordHasher?: PasswordHasher;
  },
  input: CreateUserInput,
): Promise<User> {
  const violations = new ViolationList();
  if (!/^[^@\s]+@[^@\s]+$/.test(input.email)) violations.add('/email', 'must be an e-mail address');
  else if (input.email.length > MAX_EMAIL_LENGTH)
    violations.add('/email', `must be at most ${MAX_EMAIL_LENGTH} characters`);
  if (input.name.trim() === '') violations.add('/name', 'must not be empty');
  if (input.password !== undefined) checkPassword(input.password, violations);
  violations.throwIfAny();
  let passwordHash: string | null = null;
  if (input.password !== undefined) {
    if (!deps.passwordHasher) throw new Error('createUser needs a password hasher to store a password');
    // Hashed before the transaction opens: the hash takes a while and needs no row held.
    passwordHash = await deps.passwordHasher.hash(normalizedPassword(input.password));
  }
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
    if (passwordHash !== null) await storePassword(tx, user, passwordHash);
    return user;
  });
}
