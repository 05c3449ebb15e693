import pino, { Logger } from 'pino';

/**
 * How the server's JSON lines reach standard output: gathered into blocks and written by the
 * libuv thread pool, instead of one write per line. A line per request written alone cost a
 * thread-pool hand-off (two context switches) each; in blocks, a busy server pays it once for
 * several lines (docs/decisions/request-pipeline.md, "The log written in blocks").
 *
 * - A block is written once it holds `minLength` characters, or by `periodicFlush` at the latest,
 *   so a quiet server's lines (the "API listening" a supervisor waits for) are not held back.
 * - No write is longer than `maxWrite`, the size a pipe writes whole (PIPE_BUF on Linux): cluster
 *   workers share one standard output, and a longer write could interleave with another worker's.
 *   A block holds whole lines only; a single line longer than that is written alone.
 * - On exit, pino writes what is left synchronously (its exit hook for asynchronous
 *   destinations); a process killed with SIGKILL loses the lines still held, those of about
 *   its last tenth of a second.
 */
export const SERVER_LOG_DESTINATION = {
  dest: 1,
  sync: false,
  minLength: 2048,
  maxWrite: 4096,
  periodicFlush: 100,
} as const;

/** The logger of a server process (the API, a cluster's primary, the worker command). */
export function serverLogger(level: string): Logger {
  return pino({ level }, pino.destination({ ...SERVER_LOG_DESTINATION }));
}
