import { Kysely, sql } from 'kysely';
import { Database } from '../database';

/**
 * Counts `count` hits on `key` in the fixed window containing `nowMs` (a window of `windowMs`
 * opens when the previous one has closed) and answers the window's hits, these included, and its
 * end. One statement, so concurrent hits from any number of processes each count exactly once: the
 * API's rate limits (`Storage.rateLimits`) and the log-in throttle (`loginAttempts`) both count here.
 */
export async function hitCounter(
  db: Kysely<Database>,
  key: string,
  windowMs: number,
  nowMs: number,
  count: number,
): Promise<{ hits: number; resetAtMs: number }> {
  const row = await db
    .insertInto('rate_limit_counters')
    .values({ key, hits: count, reset_at_ms: nowMs + windowMs })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql`case when rate_limit_counters.reset_at_ms <= ${nowMs} then ${count} else rate_limit_counters.hits + ${count} end`,
        reset_at_ms: sql`case when rate_limit_counters.reset_at_ms <= ${nowMs} then ${nowMs + windowMs} else rate_limit_counters.reset_at_ms end`,
      }),
    )
    .returning(['hits', 'reset_at_ms'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), resetAtMs: Number(row.reset_at_ms) };
}

/** Forgets every hit on `key`. */
export async function resetCounter(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('rate_limit_counters').where('key', '=', key).execute();
}
