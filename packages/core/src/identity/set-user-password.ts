import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { User } from './identity.entities';
import { PasswordHasher } from './identity.ports';
import { accountThrottleKey, checkPassword, loginEmailOf, normalizedPassword } from './login-rules';
import { storePassword } from './store-password';

/** What `setUserPassword` needs: the user and the new password. */
export interface SetUserPasswordInput {
  userId: number;
  /** 12 to 256 characters. */
  password: string;
}

/**
 * Sets (or replaces) a user's password, so the user can log in with their e-mail address. The
 * account's failed log-ins are forgotten: a locked-out user given a new password can use it at once.
 * @example const user = await setUserPassword({ uow, passwordHasher }, { userId: 3, password: 'correct horse battery staple' });
 */
export async function setUserPassword(
  deps: { uow: UnitOfWork<Pick<Repositories, 'loginAttempts' | 'users'>>; passwordHasher: PasswordHasher },
  input: SetUserPasswordInput,
): Promise<User> {
  const violations = new ViolationList();
  checkPassword(input.password, violations);
  violations.throwIfAny();
  // Hashed before the transaction opens: the hash takes a while and needs no row held.
  const passwordHash = await deps.passwordHasher.hash(normalizedPassword(input.password));
  return deps.uow.run(async (tx) => {
    const user = await tx.users.findByIdAnyBrand(input.userId);
    if (!user) throw DomainError.notFound('user', input.userId);
    await storePassword(tx, user, passwordHash);
    await tx.loginAttempts.clear(accountThrottleKey(loginEmailOf(user.email)));
    return user;
  });
}
