import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LogConfig, LogEvent } from 'kysely';

/** Texts this process wrote already: one file per process, each distinct statement in it once. */
const capturedTexts = new Set<string>();

/**
 * With `BRAND_STATEMENT_LOG_DIR` set (the test command sets it for the Postgres run), the query
 * log of a Postgres test storage: every distinct statement it sends is appended, as one JSON line
 * `{"sql": …}`, to `statements-<pid>.jsonl` in that directory, and `statement-brand-check.test.ts`
 * reads them all after every other test has run. The caller's own log (`log`) still sees every
 * event. Without the variable, or in the check's own run (`BRAND_STATEMENT_CHECK=1`), the caller's
 * log is returned as it is and nothing is added.
 */
export function capturingStatements(log: LogConfig | undefined): LogConfig | undefined {
  const dir = process.env.BRAND_STATEMENT_LOG_DIR;
  if (!dir || process.env.BRAND_STATEMENT_CHECK === '1') return log;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `statements-${process.pid}.jsonl`);
  return (event: LogEvent) => {
    // Failed statements too: a statement Postgres refused was still sent.
    const sql = event.query.sql;
    if (!capturedTexts.has(sql)) {
      capturedTexts.add(sql);
      appendFileSync(file, `${JSON.stringify({ sql })}\n`);
    }
    if (typeof log === 'function') void log(event);
    else if (log?.includes(event.level)) {
      // A caller that asked for Kysely's printed log of these levels still gets them printed.
      if (event.level === 'error') console.error(event.error, event.query.sql);
      else console.log(event.query.sql);
    }
  };
}
