import { Pool, PoolClient, QueryResultRow, types } from 'pg';

// As the project reads them (persistence-kysely's connection.ts): int8 and numeric as numbers.
types.setTypeParser(20, (value) => Number(value));
types.setTypeParser(1700, (value) => Number(value));

/** A statement prepared once per connection under its name (pg's named queries). */
export interface Named {
  name: string;
  text: string;
}

/** Names each statement by its key: `named({ page: 'select …' })` gives `{ page: { name: 'page', text } }`. */
export function named<K extends string>(statements: Record<K, string>): Record<K, Named> {
  return Object.fromEntries(
    Object.entries<string>(statements).map(([key, text]) => [key, { name: key, text }]),
  ) as Record<K, Named>;
}

/** Runs a named statement on a client and answers its rows. */
export async function rows<R extends QueryResultRow>(
  client: PoolClient,
  statement: Named,
  values: unknown[],
): Promise<R[]> {
  return (await client.query<R>({ name: statement.name, text: statement.text, values })).rows;
}

/** The client's `brand.id` as last set on its session. */
const sessionBrand = new WeakMap<PoolClient, string>();
const SET_BRAND: Named = { name: 'set_brand', text: "select set_config('brand.id', $1, false)" };

/**
 * The project's database on Postgres, connected as its app role, which row-level security holds
 * to the brand in the session's `brand.id` setting (DESIGN §9). A client is checked out per
 * request step (or per transaction) with the brand set on its session only when it differs from
 * what that client had, as the project's pool does (brand-session.ts).
 */
export class PgDatabase {
  readonly pool: Pool;

  constructor(url: string, poolSize: number) {
    this.pool = new Pool({ connectionString: url, max: poolSize });
  }

  /** A client acting for `brandId` (none: global tables only); released by the caller. */
  async client(brandId?: number): Promise<PoolClient> {
    const client = await this.pool.connect();
    const wanted = brandId === undefined ? undefined : String(brandId);
    if (wanted !== undefined && sessionBrand.get(client) !== wanted) {
      try {
        await client.query({ name: SET_BRAND.name, text: SET_BRAND.text, values: [wanted] });
      } catch (error) {
        client.release(error instanceof Error ? error : true);
        throw error;
      }
      sessionBrand.set(client, wanted);
    }
    return client;
  }

  /** `work` on one client acting for `brandId`. */
  async with<T>(brandId: number | undefined, work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.client(brandId);
    try {
      return await work(client);
    } finally {
      client.release();
    }
  }

  /** One named statement on a client of its own. */
  query<R extends QueryResultRow>(brandId: number | undefined, statement: Named, values: unknown[]): Promise<R[]> {
    return this.with(brandId, (client) => rows<R>(client, statement, values));
  }

  /** `work` in a transaction (read committed, as the project's) on one client acting for `brandId`. */
  async transaction<T>(brandId: number, work: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.with(brandId, async (client) => {
      await client.query('begin');
      try {
        const result = await work(client);
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
    });
  }

  /** Draws `count` ids of a kind from its sequence `ids_<kind>`, as the project's Postgres id generator does. */
  async nextIds(client: PoolClient, kind: string, count: number): Promise<number[]> {
    const drawn = await rows<{ id: number }>(client, NEXT_IDS, [`ids_${kind}`, count]);
    return drawn.map((r) => Number(r.id));
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

const NEXT_IDS: Named = {
  name: 'next_ids',
  text: 'select nextval($1::regclass) as id from generate_series(1, $2)',
};
