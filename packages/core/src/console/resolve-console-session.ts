import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { User } from '../identity/identity.entities';
import { SecretHasher } from '../identity/identity.ports';
import { ConsoleSession, consoleSessionEnded, parseConsoleSessionCookie } from './console-session.entities';

/**
 * The session and user a session cookie stands for, recording the request as the session's last
 * activity; null for a malformed, unknown or ended cookie (an ended session is deleted) and for a
 * user who no longer exists.
 * @example const resolved = await resolveConsoleSession({ uow, clock, hasher }, { cookieValue: req.cookies['session'] });
 */
export async function resolveConsoleSession(
  deps: { uow: UnitOfWork<Pick<Repositories, 'consoleSessions' | 'users'>>; clock: Clock; hasher: SecretHasher },
  input: { cookieValue: string },
): Promise<{ session: ConsoleSession; user: User } | null> {
  const parsed = parseConsoleSessionCookie(input.cookieValue);
  if (!parsed) return null;
  const secretHash = deps.hasher.hash(parsed.secret);
  return deps.uow.run(async (tx) => {
    const session = await tx.consoleSessions.findByHash(parsed.brandId, secretHash);
    if (!session) return null;
    const now = deps.clock.now();
    const user = await tx.users.findById(session.brandId, session.userId);
    if (consoleSessionEnded(session, now) || !user) {
      await tx.consoleSessions.delete(session.brandId, session.id);
      return null;
    }
    await tx.consoleSessions.touch(session.brandId, session.id, now);
    return { session: { ...session, lastSeenAt: now }, user };
  });
}
