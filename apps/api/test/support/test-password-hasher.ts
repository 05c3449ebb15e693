import { createScryptPasswordHasher } from '../../src/infrastructure/node-password-hasher';

/**
 * The production password hasher's code with scrypt's cost turned down (N = 2^10, r = 8, p = 1:
 * under a millisecond instead of about 300 ms per hash). Tests of log-ins, the console and the
 * OAuth pages create and check passwords dozens of times per file; with the production cost they
 * spent most of their time in scrypt. `password-hasher.test.ts` checks the production parameters,
 * and the CLI tests hash with them in the processes they start.
 */
export const testPasswordHasher = createScryptPasswordHasher({ N: 2 ** 10, r: 8, p: 1 });
