import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { SecretHasher } from '../identity/identity.ports';
import {
  CONSOLE_SESSION_ABSOLUTE_SECONDS,
  ConsoleSession,
  consoleSessionCookieValue,
} from './console-session.entities';

/**
 * Starts a console session for a user who just logged in (`logIn`) and answers it with the
 * cookie value, shown once: storage keeps only the hash of its secret.
 * @example const { cookieValue } = await startConsoleSession({ uow, clock, hasher }, { userId: user.id });
 */
export async function startConsoleSession(
  deps: {
    uow: UnitOfWork<Pick<Repositories, 'consoleSessions' | 'ids' | 'users'>>;
    clock: Clock;
    hasher: SecretHasher;
  },
  input: { brandId: number; userId: number },
): Promise<{ session: ConsoleSession; cookieValue: string }> {
  const secret = deps.hasher.randomSecret();
  const session = await deps.uow.run(async (tx) => {
    const user = await tx.users.findById(input.brandId, input.userId);
    if (!user) throw DomainError.notFound('user', input.userId);
    const [id] = await tx.ids.next('console_sessions');
    const now = deps.clock.now();
    const started: ConsoleSession = {
      brandId: user.brandId,
      id: id!,
      userId: user.id,
      secretHash: deps.hasher.hash(secret),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(Date.parse(now) + CONSOLE_SESSION_ABSOLUTE_SECONDS * 1000).toISOString(),
    };
    await tx.consoleSessions.insert(started);
    return started;
  });
  return { session, cookieValue: consoleSessionCookieValue(session.brandId, secret) };
}
