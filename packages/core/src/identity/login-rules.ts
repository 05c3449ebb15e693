import { ViolationList } from '../shared/errors';

/** The shortest password accepted: length is what makes a password hard to guess. */
export const MIN_PASSWORD_LENGTH = 12;
/** The longest password accepted: enough for any passphrase, and a bound on the work one log-in costs. */
export const MAX_PASSWORD_LENGTH = 256;

/**
 * The password as it is hashed: Unicode NFC, so the same characters typed on systems that compose
 * accents differently (macOS decomposes "é") give the same password. Nothing else is changed:
 * spaces and case are part of the password.
 */
export function normalizedPassword(password: string): string {
  return password.normalize('NFC');
}

/**
 * The password policy: 12 to 256 characters (counted as Unicode code points, so an emoji is one),
 * nothing else. Length is the rule that measurably makes passwords strong (NIST SP 800-63B §3.1.1);
 * composition rules ("a digit and a symbol") do not, and push people to predictable patterns.
 */
export function checkPassword(password: string, violations: ViolationList, pointer = '/password'): void {
  const length = [...normalizedPassword(password)].length;
  if (length < MIN_PASSWORD_LENGTH) violations.add(pointer, `must be at least ${MIN_PASSWORD_LENGTH} characters`);
  else if (length > MAX_PASSWORD_LENGTH) violations.add(pointer, `must be at most ${MAX_PASSWORD_LENGTH} characters`);
}

/** The longest e-mail address a mailbox can have (RFC 5321's 256-octet path, less its angle brackets). */
export const MAX_EMAIL_LENGTH = 254;

/**
 * The e-mail address a user logs in with, as stored and looked up: trimmed and in lower case, so
 * `Anna@North.example` logs in as `anna@north.example` (`toLowerCase` is locale-independent).
 */
export function loginEmailOf(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * How failed log-ins are throttled: at most `failuresPerAccount` for one e-mail address and at
 * most `failuresPerAddress` from one client address within a window of `windowMs`; beyond either
 * the next attempt is refused until its window closes.
 */
export interface LoginThrottlePolicy {
  failuresPerAccount: number;
  failuresPerAddress: number;
  windowMs: number;
}

/**
 * 5 failures per account in 15 minutes lets a person who mistypes try again, and an attacker 480
 * guesses a day, hopeless against a 12-character password. 20 per client address leaves room for
 * the people of one office behind one address, and stops one machine guessing across accounts.
 */
export const DEFAULT_LOGIN_THROTTLE: LoginThrottlePolicy = {
  failuresPerAccount: 5,
  failuresPerAddress: 20,
  windowMs: 15 * 60 * 1000,
};

/** The counter of an account: the login e-mail, whether or not a user has it, so refusals tell nothing. */
export function accountThrottleKey(loginEmail: string): string {
  return `login:account:${loginEmail}`;
}

/** The counter of a client address (as the server saw it, e.g. Express's `req.ip`). */
export function addressThrottleKey(clientAddress: string): string {
  return `login:address:${clientAddress}`;
}
