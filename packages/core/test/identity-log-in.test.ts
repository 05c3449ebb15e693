import {
  DEFAULT_LOGIN_THROTTLE,
  DomainError,
  FixedClock,
  createBrand,
  createUser,
  isDomainError,
  logIn,
  setUserPassword,
} from '../src';
import { FakePasswordHasher, InMemoryUnitOfWork } from '../src/testing';

const START = '2026-03-02T09:00:00.000Z';
const MINUTE = 60_000;
const PASSWORD = 'correct horse battery staple';
const WRONG = 'incorrect horse battery';

async function setUp(passwordHasher = new FakePasswordHasher()) {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock(START);
  const deps = { uow, clock, passwordHasher };
  const brand = await createBrand(deps, { name: 'North Knits', currency: 'EUR' });
  const anna = await createUser(deps, {
    brandId: brand.id,
    email: 'Anna@North.example',
    name: 'Anna',
    password: PASSWORD,
  });
  const attempt = (email: string, password: string, clientAddress = '198.51.100.7') =>
    logIn(deps, { email, password, clientAddress });
  return { uow, clock, passwordHasher, deps, brand, anna, attempt };
}

/** The DomainError `outcome` rejects with. */
async function failureOf(outcome: Promise<unknown>): Promise<DomainError> {
  try {
    await outcome;
  } catch (error) {
    if (isDomainError(error)) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('passwords', () => {
  it('refuses a password under 12 or over 256 characters, naming the field, and creates no user', async () => {
    const { deps, brand, uow, anna } = await setUp();

    for (const [password, detail] of [
      ['eleven char', 'password must be at least 12 characters'],
      ['x'.repeat(257), 'password must be at most 256 characters'],
    ]) {
      const refused = await failureOf(
        createUser(deps, { brandId: brand.id, email: 'bo@north.example', name: 'Bo', password }),
      );
      expect(refused).toMatchObject({ code: 'validation_failed', violations: [{ pointer: '/password', detail }] });
    }
    expect(await uow.read((r) => r.users.findByLoginEmail('bo@north.example'))).toBeNull();
    expect(await uow.read((r) => r.users.findByIdAnyBrand(anna.id + 1))).toBeNull();
  });

  it('accepts 12 and 256 characters, counting an emoji as one', async () => {
    const { deps, brand } = await setUp();

    for (const [i, password] of ['twelve chars', 'y'.repeat(256), `${'🧶'.repeat(11)}!`].entries()) {
      const user = await createUser(deps, { brandId: brand.id, email: `u${i}@north.example`, name: 'U', password });
      await expect(logIn(deps, { email: user.email, password, clientAddress: '192.0.2.1' })).resolves.toEqual(user);
    }
  });

  it('sets a new password on an existing user: the old one fails, the new one logs in', async () => {
    const { deps, anna, attempt } = await setUp();

    const user = await setUserPassword(deps, { userId: anna.id, password: 'knitting since 1987' });

    expect(user).toEqual(anna);
    expect((await failureOf(attempt('anna@north.example', PASSWORD))).code).toBe('invalid_credentials');
    await expect(attempt('anna@north.example', 'knitting since 1987')).resolves.toEqual(anna);
  });

  it('refuses a short new password and a user that does not exist', async () => {
    const { deps, anna } = await setUp();

    expect(await failureOf(setUserPassword(deps, { userId: anna.id, password: 'short' }))).toMatchObject({
      code: 'validation_failed',
      violations: [{ pointer: '/password' }],
    });
    expect((await failureOf(setUserPassword(deps, { userId: 987_654, password: PASSWORD }))).code).toBe('not_found');
  });

  it('logs in with the password however its accents were composed (NFC)', async () => {
    const { deps, brand } = await setUp();
    const composed = 'café au lait, très chaud';
    const user = await createUser(deps, {
      brandId: brand.id,
      email: 'cafe@north.example',
      name: 'C',
      password: composed,
    });

    await expect(
      logIn(deps, { email: 'cafe@north.example', password: composed.normalize('NFD'), clientAddress: '192.0.2.1' }),
    ).resolves.toEqual(user);
  });

  it('lets a user without a password hold tokens but not log in', async () => {
    const { deps, brand } = await setUp();
    await createUser(deps, { brandId: brand.id, email: 'tokens@north.example', name: 'T' });

    expect(
      (await failureOf(logIn(deps, { email: 'tokens@north.example', password: PASSWORD, clientAddress: 'a' }))).code,
    ).toBe('invalid_credentials');
  });
});

describe('logging in', () => {
  it('answers the user for the right password, the e-mail in any case and with spaces around', async () => {
    const { anna, attempt } = await setUp();

    await expect(attempt('  ANNA@north.EXAMPLE ', PASSWORD)).resolves.toEqual(anna);
  });

  it('gives one answer for a wrong password and an unknown e-mail, each after one password check', async () => {
    const { attempt, passwordHasher } = await setUp();
    const checks = passwordHasher.verifications;

    const wrongPassword = await failureOf(attempt('anna@north.example', WRONG));
    const afterWrongPassword = passwordHasher.verifications;
    const unknownEmail = await failureOf(attempt('nobody@north.example', PASSWORD));

    expect(wrongPassword).toMatchObject({ code: 'invalid_credentials', message: 'Invalid email or password' });
    expect(unknownEmail).toMatchObject({ code: 'invalid_credentials', message: 'Invalid email or password' });
    expect(wrongPassword.data).toEqual(unknownEmail.data);
    expect(afterWrongPassword - checks).toBe(1);
    expect(passwordHasher.verifications - afterWrongPassword).toBe(1);
  });

  it('refuses an oversized e-mail or password as invalid without hashing or counting it', async () => {
    const { attempt, passwordHasher } = await setUp();
    const checks = passwordHasher.verifications;

    for (let i = 0; i < 10; i++) {
      expect((await failureOf(attempt(`${'a'.repeat(250)}@north.example`, PASSWORD))).code).toBe('invalid_credentials');
      expect((await failureOf(attempt('anna@north.example', 'p'.repeat(257)))).code).toBe('invalid_credentials');
    }

    expect(passwordHasher.verifications).toBe(checks);
    await expect(attempt('anna@north.example', PASSWORD)).resolves.toMatchObject({ email: 'Anna@North.example' });
  });

  it('replaces a hash made with older parameters at the next log-in, and keeps it working', async () => {
    const { uow, deps, anna } = await setUp(new FakePasswordHasher(1));
    const upgraded = { ...deps, passwordHasher: new FakePasswordHasher(2) };

    await expect(logIn(upgraded, { email: anna.email, password: PASSWORD, clientAddress: 'a' })).resolves.toEqual(anna);

    const stored = await uow.read((r) => r.users.findByLoginEmail('anna@north.example'));
    expect(stored?.passwordHash).toMatch(/^fake\$2\$/);
    await expect(logIn(upgraded, { email: anna.email, password: PASSWORD, clientAddress: 'a' })).resolves.toEqual(anna);
  });
});

describe('throttling failed log-ins', () => {
  const WINDOW = DEFAULT_LOGIN_THROTTLE.windowMs;

  it('refuses the attempt after 5 failures for an account, even with the right password, unchecked, until the window passes', async () => {
    const { clock, attempt, passwordHasher, anna } = await setUp();
    for (let i = 0; i < 5; i++) {
      clock.advance(MINUTE);
      expect((await failureOf(attempt('anna@north.example', WRONG, `192.0.2.${i}`))).code).toBe('invalid_credentials');
    }
    const checks = passwordHasher.verifications;

    const refused = await failureOf(attempt('anna@north.example', PASSWORD, '203.0.113.9'));

    // The window opened with the first failure, a minute after START, and it is now 5 minutes after START.
    expect(refused).toMatchObject({ code: 'too_many_login_attempts', data: { retry_after_seconds: 11 * 60 } });
    expect(passwordHasher.verifications).toBe(checks);
    clock.advance(WINDOW - 4 * MINUTE - 1);
    expect((await failureOf(attempt('ANNA@north.example', PASSWORD))).data).toEqual({ retry_after_seconds: 1 });
    clock.advance(1);
    await expect(attempt('anna@north.example', PASSWORD)).resolves.toEqual(anna);
  });

  it('throttles an e-mail address nobody has exactly like one that has an account', async () => {
    const { attempt } = await setUp();
    const outcomes: string[] = [];
    for (const email of ['anna@north.example', 'ghost@north.example']) {
      for (let i = 0; i < 6; i++) outcomes.push((await failureOf(attempt(email, WRONG, `192.0.2.${i}`))).code);
    }

    const fiveFailuresThenRefused = [...Array(5).fill('invalid_credentials'), 'too_many_login_attempts'];
    expect(outcomes).toEqual([...fiveFailuresThenRefused, ...fiveFailuresThenRefused]);
  });

  it("clears the account's failures with a success", async () => {
    const { attempt, anna } = await setUp();
    for (let i = 0; i < 4; i++) await failureOf(attempt('anna@north.example', WRONG));
    await expect(attempt('anna@north.example', PASSWORD)).resolves.toEqual(anna);

    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) outcomes.push((await failureOf(attempt('anna@north.example', WRONG))).code);

    expect(outcomes).toEqual([...Array(5).fill('invalid_credentials'), 'too_many_login_attempts']);
  });

  it('refuses the attempt after 20 failures from one address, whichever accounts they tried, and no other address', async () => {
    const { attempt, anna } = await setUp();
    for (let i = 0; i < 20; i++) await failureOf(attempt(`guess${i}@north.example`, WRONG, '198.51.100.66'));

    const refused = await failureOf(attempt('anna@north.example', PASSWORD, '198.51.100.66'));

    expect(refused).toMatchObject({ code: 'too_many_login_attempts', data: { retry_after_seconds: WINDOW / 1000 } });
    await expect(attempt('anna@north.example', PASSWORD, '198.51.100.67')).resolves.toEqual(anna);
  });

  it('does not count successes against an address, nor let them wipe its failures', async () => {
    const { attempt, anna } = await setUp();
    const office = '198.51.100.10';
    for (let i = 0; i < 19; i++) await failureOf(attempt(`guess${i}@north.example`, WRONG, office));
    for (let i = 0; i < 30; i++) await expect(attempt('anna@north.example', PASSWORD, office)).resolves.toEqual(anna);

    const twentieth = await failureOf(attempt('guess@north.example', WRONG, office));
    const refused = await failureOf(attempt('anna@north.example', PASSWORD, office));

    expect([twentieth.code, refused.code]).toEqual(['invalid_credentials', 'too_many_login_attempts']);
  });

  it("does not charge an address for attempts refused by an account's lock", async () => {
    const { attempt } = await setUp();
    const office = '198.51.100.20';
    for (let i = 0; i < 5; i++) await failureOf(attempt('anna@north.example', WRONG, office));
    for (let i = 0; i < 30; i++)
      expect((await failureOf(attempt('anna@north.example', WRONG, office))).code).toBe('too_many_login_attempts');

    const outcomes: string[] = [];
    for (let i = 0; i < 16; i++)
      outcomes.push((await failureOf(attempt(`other${i}@north.example`, WRONG, office))).code);

    // 5 + 15 failures make the address's 20; the 16th is refused.
    expect(outcomes).toEqual([...Array(15).fill('invalid_credentials'), 'too_many_login_attempts']);
  });

  it('follows a policy given instead of the default', async () => {
    const { deps } = await setUp();
    const strict = { ...deps, throttle: { failuresPerAccount: 1, failuresPerAddress: 10, windowMs: MINUTE } };

    await failureOf(logIn(strict, { email: 'anna@north.example', password: WRONG, clientAddress: 'a' }));
    const refused = await failureOf(
      logIn(strict, { email: 'anna@north.example', password: PASSWORD, clientAddress: 'a' }),
    );

    expect(refused).toMatchObject({ code: 'too_many_login_attempts', data: { retry_after_seconds: 60 } });
  });

  it('lets a locked-out user in at once after an admin sets a new password', async () => {
    const { deps, attempt, anna } = await setUp();
    for (let i = 0; i < 5; i++) await failureOf(attempt('anna@north.example', WRONG, `192.0.2.${i}`));

    await setUserPassword(deps, { userId: anna.id, password: 'a fresh start for anna' });

    await expect(attempt('anna@north.example', 'a fresh start for anna')).resolves.toEqual(anna);
  });
});
