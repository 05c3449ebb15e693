import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Node flags the API server runs with: `server.node-flags` at the package root, one per line,
 * `#` lines being comments. `npm start` reads the same file; the benchmarks and the tests start
 * their server processes with these flags, so they measure and test what production runs.
 */
export function serverNodeFlags(): string[] {
  return readFileSync(join(__dirname, '..', 'server.node-flags'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
