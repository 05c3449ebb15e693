import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { User } from './identity.entities';
import { PasswordHasher } from './identity.ports';
import {
  DEFAULT_LOGIN_THROTTLE,
  LoginThrottlePolicy,
  MAX_EMAIL_LENGTH,
  MAX_PASSWORD_LENGTH,
  accountThrottleKey,
  addressThrottleKey,
  loginEmailOf,
  normalizedPassword,
} from './login-rules';

/** What `logIn` checks: the e-mail address and password typed, and the client address the attempt came from. */
export interface LogInInput {
  email: string;
  password: string;
  /** Where the attempt came from as the server sees it (Express's `req.ip`); failures are counted per address too. */
  clientAddress: string;
}

const INVALID_CREDENTIALS = 'Invalid email or password';

function invalidCredentials(): DomainError {
  return new DomainError('invalid_credentials', INVALID_CREDENTIALS);
}

function tooManyAttempts(resetAtMs: number, nowMs: number): DomainError {
  const seconds = Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
  return new DomainError(
    'too_many_login_attempts',
    `Too many failed log-ins; try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
    { data: { retry_after_seconds: seconds } },
  );
}

/**
 * A hash of nothing anyone types, made once per hasher with its current parameters: an unknown
 * e-mail address is checked against it, so that an answer takes as long whether the address has
 * an account or not.
 */
const standInHashes = new WeakMap<PasswordHasher, Promise<string>>();
function standInHash(hasher: PasswordHasher): Promise<string> {
  let hash = standInHashes.get(hasher);
  if (!hash) {
    hash = hasher.hash('no account has this password, it only costs what checking one costs');
    standInHashes.set(hasher, hash);
  }
  return hash;
}

/**
 * Logs a user in with e-mail address (any case) and password, and answers the user. Every
 * failure is the one `invalid_credentials` "Invalid email or password", and costs one password
 * check whether or not the address has an account.
 *
 * Failed log-ins are throttled per account and per client address (`DEFAULT_LOGIN_THROTTLE`: 5
 * and 20 in 15 minutes). Each attempt is counted before the password is checked, in the database,
 * so attempts racing in parallel or through other processes are counted too; an attempt over
 * either limit is refused with `too_many_login_attempts` (`data.retry_after_seconds`) without the
 * password being checked, and is not counted. A success clears the account's counter and takes its attempt back from
 * the address's (the address counter still holds the failures, so one good account cannot be used
 * to reset guessing from an address); a hash made with older parameters is replaced.
 *
 * @example
 * const user = await logIn({ uow, clock, passwordHasher }, { email: 'anna@north.example', password, clientAddress: req.ip });
 */
export async function logIn(
  deps: {
    uow: UnitOfWork<Pick<Repositories, 'loginAttempts' | 'users'>>;
    clock: Clock;
    passwordHasher: PasswordHasher;
    throttle?: LoginThrottlePolicy;
  },
  input: LogInInput,
): Promise<User> {
  const policy = deps.throttle ?? DEFAULT_LOGIN_THROTTLE;
  const loginEmail = loginEmailOf(input.email);
  const password = normalizedPassword(input.password);
  // Neither can belong to an account (create-user and the password policy refuse them): refused
  // before anything is counted or hashed, so oversized input costs no password check.
  if (loginEmail.length > MAX_EMAIL_LENGTH || [...password].length > MAX_PASSWORD_LENGTH) throw invalidCredentials();
  const accountKey = accountThrottleKey(loginEmail);
  const addressKey = addressThrottleKey(input.clientAddress);
  const nowMs = Date.parse(deps.clock.now());

  // The address first, always: two attempts lock the counters in the same order (no deadlock),
  // and an address over its limit does not get to count against (or lock) the account. A refusal
  // rolls the transaction back, so a refused attempt leaves both counters as they were: it made
  // no guess, and the window it waits for does not move.
  const addressWindow = await deps.uow.run(async (tx) => {
    const address = await tx.loginAttempts.count(addressKey, policy.windowMs, nowMs);
    if (address.attempts > policy.failuresPerAddress) throw tooManyAttempts(address.resetAtMs, nowMs);
    const account = await tx.loginAttempts.count(accountKey, policy.windowMs, nowMs);
    if (account.attempts > policy.failuresPerAccount) throw tooManyAttempts(account.resetAtMs, nowMs);
    return address.resetAtMs;
  });

  const found = await deps.uow.read((repositories) => repositories.users.findByLoginEmail(loginEmail));
  if (!found) {
    await deps.passwordHasher.verify(password, await standInHash(deps.passwordHasher));
    throw invalidCredentials();
  }
  // A failure is already counted: its attempts stay on both counters.
  if (!(await deps.passwordHasher.verify(password, found.passwordHash))) throw invalidCredentials();

  const rehashed = deps.passwordHasher.needsRehash(found.passwordHash)
    ? await deps.passwordHasher.hash(password)
    : null;
  await deps.uow.run(async (tx) => {
    await tx.loginAttempts.clear(accountKey);
    await tx.loginAttempts.takeBack(addressKey, addressWindow);
    if (rehashed !== null)
      await tx.users.setPassword(found.user.brandId, found.user.id, { passwordHash: rehashed, loginEmail });
  });
  return found.user;
}
