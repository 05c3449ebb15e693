import { PoolClient } from 'pg';

/**
 * Kept statements (kept-statements.ts, the list pages of list-sql.ts) prepared once per Postgres
 * connection as named statements, as a raw `pg` program prepares its hot statements.
 *
 * Why: sent unnamed, every run of a statement makes the server parse, analyse and (for a statement
 * without parameters, such as the credentials revision every request reads) plan it again. A
 * named statement is parsed once per connection, and its plan is cached when the planner finds a
 * generic plan as good as the custom ones (Postgres's `plan_cache_mode = auto`), so a statement
 * whose best plan depends on its values is still planned for them.
 *
 * Only kept texts are named (kept reads, list pages, the small inserts `bulkInsert` keeps, a few
 * constant texts run by every write): they are few and fixed (a statement's text depends on its
 * shape, never on its values), so the statements a connection holds stay bounded. Everything
 * else runs unnamed.
 */
const names = new Map<string, string>();

/** Marks a kept statement's text for preparing on every connection that runs it. */
export function prepareOnPostgres(text: string): void {
  if (!names.has(text)) names.set(text, `brand_kept_${names.size + 1}`);
}

/** A statement of this connection renamed after its cached plan could no longer be used. */
const renamed = new WeakMap<PoolClient, Map<string, string>>();
let renamings = 0;

/**
 * Postgres refuses to run a prepared statement whose result columns changed since it was prepared
 * (a migration added a column to a table it reads with `select *`, while this process ran).
 */
function cachedPlanChanged(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === '0A000' &&
    /cached plan must not change result type/.test(String((error as { message?: unknown }).message))
  );
}

type Query = (text: unknown, values?: unknown, ...rest: unknown[]) => Promise<unknown>;

const preparing = new WeakSet<PoolClient>();

/**
 * Makes `client` run kept statements as named ones. A statement whose cached plan went stale
 * takes a new name on this client and runs once more; inside a transaction that second run fails
 * too (the transaction is aborted), and the first error goes up, which the unit of work retries
 * as a whole (storage-errors.ts) on the new name.
 */
export function preparingKeptStatements(client: PoolClient): void {
  if (preparing.has(client)) return;
  preparing.add(client);
  // pg's query has many overloads; every form Kysely uses is (text, values).
  const query = client.query.bind(client) as Query;
  const run: Query = async (text, values, ...rest) => {
    // A call in another of pg's forms (a callback, a query config, a cursor) goes through as it came.
    const plain = typeof text === 'string' && (values === undefined || Array.isArray(values)) && rest.length === 0;
    const kept = plain ? names.get(text) : undefined;
    if (kept === undefined) return query(text, values, ...rest);
    const name = renamed.get(client)?.get(kept) ?? kept;
    try {
      return await query({ name, text, values: values ?? [] });
    } catch (error) {
      if (!cachedPlanChanged(error)) throw error;
      let own = renamed.get(client);
      if (!own) renamed.set(client, (own = new Map<string, string>()));
      const fresh = `${kept}_${++renamings}`;
      own.set(kept, fresh);
      try {
        return await query({ name: fresh, text, values: values ?? [] });
      } catch {
        throw error;
      }
    }
  };
  (client as unknown as { query: Query }).query = run;
}

/** Whether a failure is a stale prepared statement, which a fresh attempt of the transaction resolves. */
export const isStalePreparedStatement = cachedPlanChanged;
