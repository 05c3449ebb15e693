import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { SecretHasher } from '../identity/identity.ports';
import { parseConsoleSessionCookie } from './console-session.entities';

/**
 * Ends (deletes) the session a cookie stands for (log out); false when there was none, so logging
 * out twice, or with a forged cookie, changes nothing.
 * @example await endConsoleSession({ uow, hasher }, { cookieValue });
 */
export async function endConsoleSession(
  deps: { uow: UnitOfWork<Pick<Repositories, 'consoleSessions'>>; hasher: SecretHasher },
  input: { cookieValue: string },
): Promise<boolean> {
  const parsed = parseConsoleSessionCookie(input.cookieValue);
  if (!parsed) return false;
  const secretHash = deps.hasher.hash(parsed.secret);
  return deps.uow.run(async (tx) => {
    const session = await tx.consoleSessions.findByHash(parsed.brandId, secretHash);
    return session ? tx.consoleSessions.delete(session.brandId, session.id) : false;
  });
}
