import { DomainError } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { User } from './identity.entities';
import { loginEmailOf } from './login-rules';

/**
 * Stores a user's password hash under the user's login e-mail, in `tx`; `duplicate` when another
 * user (of any brand) already logs in with that address.
 */
export async function storePassword(tx: Pick<Repositories, 'users'>, user: User, passwordHash: string): Promise<void> {
  const loginEmail = loginEmailOf(user.email);
  const holder = await tx.users.findByLoginEmail(loginEmail);
  if (holder && holder.user.id !== user.id)
    throw new DomainError(
      'duplicate',
      `another user already logs in with ${loginEmail}: e-mail addresses are unique among users with a password`,
    );
  await tx.users.setPassword(user.brandId, user.id, { passwordHash, loginEmail });
}
