import { endConsoleSession } from '../console/end-console-session';
import { resolveConsoleSession } from '../console/resolve-console-session';
import { startConsoleSession } from '../console/start-console-session';
import {
  CONSOLE_SESSION_ABSOLUTE_SECONDS,
  CONSOLE_SESSION_IDLE_SECONDS,
  consoleSessionCookieValue,
} from '../console/console-session.entities';
import { createUser } from '../identity/create-user';
import { User } from '../identity/identity.entities';
import { FixedClock } from '../shared/clock.ports';
import { ContractStorage, insertBrand, useContractStorage } from './contract-support';
import { FakeSecretHasher } from './fake-secret-hasher';

const T0 = '2026-09-01T08:00:00.000Z';
const HOUR_MS = 60 * 60 * 1000;

/**
 * The contract of console sessions on every storage adapter, through their use cases: a session
 * is stored as the hash of its cookie's secret and found within its brand only; it ends after
 * `CONSOLE_SESSION_IDLE_SECONDS` without a request or `CONSOLE_SESSION_ABSOLUTE_SECONDS` after it
 * began, and at log out, after which its cookie resolves to nothing.
 *
 * @example
 * describeConsoleSessionsContract('in-memory console sessions', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeConsoleSessionsContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const hasher = new FakeSecretHasher();

    async function aUser(clock: FixedClock, label = 'Console brand'): Promise<User> {
      const brand = await insertBrand(uow(), label, clock.now());
      return createUser({ uow: uow(), clock }, { brandId: brand.id, email: 'anna@north.example', name: 'Anna' });
    }

    it('stores only the hash of the cookie secret, and resolves the cookie to its user', async () => {
      const clock = new FixedClock(T0);
      const user = await aUser(clock);
      const { session, cookieValue } = await startConsoleSession(
        { uow: uow(), clock, hasher },
        { brandId: user.brandId, userId: user.id },
      );
      const secret = cookieValue.slice(cookieValue.indexOf('.') + 1);
      expect(cookieValue).toBe(consoleSessionCookieValue(user.brandId, secret));
      const stored = await uow().read((r) => r.consoleSessions.findByHash(user.brandId, hasher.hash(secret)));
      expect(stored).toEqual(session);
      expect(session).toMatchObject({ userId: user.id, createdAt: T0, lastSeenAt: T0 });
      expect(Date.parse(session.expiresAt) - Date.parse(T0)).toBe(CONSOLE_SESSION_ABSOLUTE_SECONDS * 1000);

      clock.advance(HOUR_MS);
      const resolved = await resolveConsoleSession({ uow: uow(), clock, hasher }, { cookieValue });
      expect(resolved?.user).toEqual(user);
      const touched = await uow().read((r) => r.consoleSessions.findByHash(user.brandId, hasher.hash(secret)));
      expect(touched!.lastSeenAt).toBe(clock.now());
    });

    it('finds a session only under its own brand', async () => {
      const clock = new FixedClock(T0);
      const user = await aUser(clock);
      const other = await aUser(clock, 'Other console brand');
      const { cookieValue } = await startConsoleSession(
        { uow: uow(), clock, hasher },
        { brandId: user.brandId, userId: user.id },
      );
      const secret = cookieValue.slice(cookieValue.indexOf('.') + 1);
      const forged = consoleSessionCookieValue(other.brandId, secret);
      expect(await resolveConsoleSession({ uow: uow(), clock, hasher }, { cookieValue: forged })).toBeNull();
      expect(await endConsoleSession({ uow: uow(), hasher }, { cookieValue: forged })).toBe(false);
      expect(await resolveConsoleSession({ uow: uow(), clock, hasher }, { cookieValue })).not.toBeNull();
    });

    it('ends a session idle for 12 hours, and deletes it', async () => {
      const clock = new FixedClock(T0);
      const user = await aUser(clock);
      const { cookieValue } = await startConsoleSession(
        { uow: uow(), clock, hasher },
        { brandId: user.brandId, userId: user.id },
      );
      clock.advance(CONSOLE_SESSION_IDLE_SECONDS * 1000 - 1);
      expect(await resolveConsoleSession({ uow: uow(), clock, hasher }, { cookieValue })).not.toBeNull();
      clock.advance(CONSOLE_SESSION_IDLE_SECONDS * 1000);
      expect(await resolveConsoleSession({ uow: uow(), clock, hasher }, { cookieValue })).toBeNull();
      const secret = cookieValue.slice(cookieValue.indexOf('.') + 1);
      expect(await uow().read((r) => r.consoleSessions.findByHash(user.brandId, hasher.hash(secret)))).toBeNull();
    });

    it('ends a busy session 7 days after it began', async () => {
      const clock = new FixedClock(T0);
      const user = await aUser(clock);
      const { cookieValue } = await startConsoleSession(
        { uow: uow(), clock, hasher },
        { brandId: user.brandId, userId: user.id },
      );
      // A request every 10 hours keeps it from idling out, but not past its absolute end.
      for (let hours = 10; hours < CONSOLE_SESSION_ABSOLUTE_SECONDS / 3600; hours += 10) {
        clock.advance(10 * HOUR_MS);
        expect(await resolveConsoleSession({ uow: uow(), clock, hasher }, { cookieValue })).not.toBeNull();
      }
      clock.advance(10 * HOUR_MS);
      expect(await resolveConsoleSession({ uow: uow(), clock, hasher }, { cookieValue })).toBeNull();
    });

    it('logs out: the cookie resolves to nothing afterwards, and a second log out changes nothing', async () => {
      const clock = new FixedClock(T0);
      const user = await aUser(clock);
      const first = await startConsoleSession(
        { uow: uow(), clock, hasher },
        { brandId: user.brandId, userId: user.id },
      );
      const second = await startConsoleSession(
        { uow: uow(), clock, hasher },
        { brandId: user.brandId, userId: user.id },
      );
      expect(await endConsoleSession({ uow: uow(), hasher }, { cookieValue: first.cookieValue })).toBe(true);
      expect(await resolveConsoleSession({ uow: uow(), clock, hasher }, { cookieValue: first.cookieValue })).toBeNull();
      expect(await endConsoleSession({ uow: uow(), hasher }, { cookieValue: first.cookieValue })).toBe(false);
      // Another session of the same user (another browser) goes on.
      expect(
        await resolveConsoleSession({ uow: uow(), clock, hasher }, { cookieValue: second.cookieValue }),
      ).not.toBeNull();
    });

    it('resolves a malformed cookie to nothing', async () => {
      const clock = new FixedClock(T0);
      for (const cookieValue of [
        '',
        'abc',
        '1.',
        '0.abcdefghijklmnopqrstu',
        '1.short',
        '99999999999999999.abcdefghijklmnopqrstuv',
      ])
        expect(await resolveConsoleSession({ uow: uow(), clock, hasher }, { cookieValue })).toBeNull();
    });
  });
}
