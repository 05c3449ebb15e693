import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, PostgresAdapter, sql } from 'kysely';
import { Pool, PoolClient } from 'pg';
import { preparingKeptStatements } from './prepared-statements';

/**
 * Row-level security on Postgres (DESIGN §9): every tenant table's policy admits only rows whose
 * brand_id equals the connection's `brand.id` setting. This module sets it.
 *
 * - Outside a transaction, a statement runs on whichever pooled client it gets, so the brand is
 *   handed to the pool through the async call chain (`brandScope`) and set on the client when it
 *   is checked out, only when it differs from what that client has (one brand's traffic sets it
 *   once per client, not once per statement). No brand in scope sets it empty: tenant rows are
 *   then invisible, so a forgotten brand filter shows nothing instead of everything.
 * - Statements for no brand (the token look-up and the credentials revision every request reads,
 *   and every transaction, which sets its brand locally) take their clients from a pool of their
 *   own, whose clients therefore stay set to no brand. With one pool, a request's brand-less read
 *   and its brand's read each found the other's setting on the client and paid a round trip to
 *   change it, twice a request.
 * - Inside a transaction the client is already checked out: the brand is set for the rest of the
 *   transaction (`SET LOCAL`), and reverts to the client's own at its end.
 * - On Citus the policies run on the workers, which never see the coordinator's session settings;
 *   Citus hands a transaction's `SET LOCAL` on to them (`citus.propagate_set_commands = local`)
 *   and nothing else. So there a statement outside a transaction that acts for a brand runs in a
 *   transaction of its own that sets the brand first, and a transaction begun for a brand sets
 *   it at once (`citusBrandClient`). Whether the database is Citus is read once per pool.
 *
 * SQLite has no row-level security; none of this runs there.
 */
const scope = new AsyncLocalStorage<number>();

/** A Kysely instance of any schema: only `SET LOCAL` runs on it here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is irrelevant to SET LOCAL, and Kysely<Database> is not assignable to Kysely<unknown>
type AnySchema = Kysely<any>;

/** The client's `brand.id` as last set on its session ('' for none). */
const sessionBrand = new WeakMap<PoolClient, string>();

const SET_SESSION_BRAND = "select set_config('brand.id', $1, false)";

/** The brand the current call chain acts for, if it named one. */
export const currentBrand = (): number | undefined => scope.getStore();

/**
 * A pool whose clients come out with the call chain's brand set (see above): those for no brand
 * from `unscoped`, those for a brand from `scoped`. The shape is what Kysely's Postgres dialect
 * asks of a pool.
 */
export function brandScopedPool(pools: { unscoped: Pool; scoped: Pool }): {
  connect(): Promise<PoolClient>;
  end(): Promise<void>;
} {
  let citus: Promise<boolean> | undefined;
  return {
    async connect() {
      const wanted = String(scope.getStore() ?? '');
      const client = await (wanted === '' ? pools.unscoped : pools.scoped).connect();
      try {
        preparingKeptStatements(client);
        citus ??= isCitus(client);
        if (await citus) return await citusBrandClient(client, wanted);
        if (sessionBrand.get(client) !== wanted) {
          await client.query(SET_SESSION_BRAND, [wanted]);
          sessionBrand.set(client, wanted);
        }
      } catch (error) {
        // A client that cannot take the setting is broken: discarded, never handed out unset.
        client.release(error instanceof Error ? error : true);
        throw error;
      }
      return client;
    },
    end: async () => {
      await Promise.all([pools.unscoped.end(), pools.scoped.end()]);
    },
  };
}

async function isCitus(client: PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ citus: boolean }>(
    "select exists (select 1 from pg_extension where extname = 'citus') as citus",
  );
  return rows[0]?.citus === true;
}

/** `SET LOCAL` takes no parameters: the brand is written into the statement, as the integer it is. */
function setLocalBrand(brandId: number | string): string {
  const value = String(brandId);
  if (value !== '' && !/^[0-9]+$/.test(value)) throw new Error(`a brand id must be an integer, not ${value}`);
  return `set local brand.id = '${value}'`;
}

/** Clients of a Citus pool that propagate SET LOCAL (set once per client). */
const propagatingClients = new WeakSet<PoolClient>();
/** Clients of a Citus pool inside a transaction begun through them. */
const clientsInTransaction = new WeakSet<PoolClient>();

const BEGINS = /^\s*(begin|start\s+transaction)\b/i;
const ENDS = /^\s*(commit|rollback|end|abort)\s*;?\s*$/i;

/**
 * The client, on Citus, with its `query` acting for `wanted` (see the module's comment): a
 * transaction's `begin` is followed by `SET LOCAL brand.id`, and a statement outside a
 * transaction runs inside `begin; SET LOCAL …; <statement>; commit`. With no brand wanted it
 * runs as it is, and (as everywhere) sees no tenant row.
 */
async function citusBrandClient(client: PoolClient, wanted: string): Promise<PoolClient> {
  if (!propagatingClients.has(client)) {
    await client.query('set citus.propagate_set_commands = local');
    propagatingClients.add(client);
  }
  if (wanted === '') return client;
  const setBrand = setLocalBrand(wanted);
  // pg's query has many overloads; every form Kysely uses is (text, values).
  const query = client.query.bind(client) as (text: unknown, values?: unknown) => Promise<unknown>;
  const acting = async (text: unknown, values?: unknown): Promise<unknown> => {
    if (typeof text === 'string' && BEGINS.test(text)) {
      const begun = await query(text, values);
      clientsInTransaction.add(client);
      await query(setBrand);
      return begun;
    }
    if (typeof text === 'string' && ENDS.test(text)) {
      clientsInTransaction.delete(client);
      return query(text, values);
    }
    if (clientsInTransaction.has(client)) return query(text, values);
    await query(`begin; ${setBrand}`);
    try {
      const result = await query(text, values);
      await query('commit');
      return result;
    } catch (error) {
      await query('rollback').catch(() => undefined);
      throw error;
    }
  };
  return new Proxy(client, {
    get: (target, key, receiver): unknown => (key === 'query' ? acting : Reflect.get(target, key, receiver)),
  });
}

/** Per transaction: the brand set on it last, so repeated calls for one brand set it once. */
const transactionBrand = new WeakMap<object, number>();

/**
 * Runs `work` acting for `brandId`: in a transaction the brand is set on it (and stays until the
 * next brand is entered), otherwise on the clients `work`'s statements check out. On SQLite (no
 * row-level security) `work` simply runs.
 */
export async function withinBrand<T>(db: AnySchema, brandId: number, work: () => Promise<T>): Promise<T> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return work();
  if (!db.isTransaction) return scope.run(brandId, work);
  // The transaction's Kysely instance is one object for its whole life: a key for its brand.
  if (transactionBrand.get(db) !== brandId) {
    // SET LOCAL rather than set_config(…, true): the same on one Postgres, and on Citus the only
    // form handed on to the workers.
    await sql.raw(setLocalBrand(brandId)).execute(db);
    transactionBrand.set(db, brandId);
  }
  return work();
}

/** Repositories of global rows, whose first argument is never a brand. */
const GLOBAL_REPOSITORIES: ReadonlySet<string> = new Set(['brands', 'ids', 'loginAttempts', 'transaction']);

/**
 * The brand a repository call acts for, read from its first argument as the ports are written: a
 * brand id (`findById(brandId, id)`), an entity or query that names its brand (`save(order)`,
 * `listForBrand({ brandId, … })`), or a list of them (`insert(deliveries)`). Methods named
 * `…AnyBrand`, and calls whose first argument names no brand (`findByHash(hash)`,
 * `claimDue(now, …)`), act for none: they read global look-ups, or enter each brand themselves.
 */
function brandOfCall(method: string, args: readonly unknown[]): number | undefined {
  if (method.endsWith('AnyBrand')) return undefined;
  let first = args[0];
  if (typeof first === 'number') return first;
  if (Array.isArray(first)) first = first[0];
  if (typeof first === 'object' && first !== null) {
    const brandId = (first as { brandId?: unknown }).brandId;
    if (typeof brandId === 'number') return brandId;
  }
  return undefined;
}

/**
 * On Postgres, a repository whose every call runs within the brand it names (`withinBrand`), so
 * row-level security holds each call to that brand whatever its SQL says.
 */
export function actingForCalledBrand<R extends object>(
  name: string,
  repository: R,
  db: AnySchema,
  dialect: 'sqlite' | 'postgres',
): R {
  if (dialect !== 'postgres' || GLOBAL_REPOSITORIES.has(name)) return repository;
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(repository, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      let wrapper = wrapped.get(key);
      if (!wrapper) {
        const method = String(key);
        const call = value as (...args: unknown[]) => unknown;
        wrapper = (...args: unknown[]) => {
          const brandId = brandOfCall(method, args);
          return brandId === undefined
            ? call.apply(target, args)
            : withinBrand(db, brandId, async () => call.apply(target, args));
        };
        wrapped.set(key, wrapper);
      }
      return wrapper;
    },
  });
}
