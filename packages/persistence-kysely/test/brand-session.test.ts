import { Kysely, PostgresDialect, sql } from 'kysely';
import { Pool, PoolClient } from 'pg';
import { brandScopedPool, withinBrand } from '../src/brand-session';

/**
 * A pool of recording clients, standing in for pg's: which pool a statement's client came from,
 * and every statement each client was sent, `brand.id` settings included. No server is needed:
 * what is under test is which client the brand's setting lands on, not Postgres's policies
 * (row-level-security.test.ts checks those on a real server).
 */
function recordingPool(name: string) {
  const sent: { pool: string; client: number; text: string; values: unknown[] }[] = [];
  const clients: PoolClient[] = [];
  const idle: PoolClient[] = [];
  const pool = {
    sent,
    connect: async (): Promise<PoolClient> => {
      const reused = idle.pop();
      if (reused) return reused;
      const number = clients.length + 1;
      const client = {
        query: async (text: string, values: unknown[] = []) => {
          sent.push({ pool: name, client: number, text, values });
          return { rows: /citus/.test(text) ? [{ citus: false }] : [], command: 'SELECT', rowCount: 0 };
        },
        release: () => void idle.push(client),
      } as unknown as PoolClient;
      clients.push(client);
      return client;
    },
    end: async () => undefined,
  };
  return pool;
}

const settings = (sent: { text: string; values: unknown[] }[]) =>
  sent.filter((statement) => statement.text.includes("set_config('brand.id'")).map((statement) => statement.values[0]);
const statementsOf = (sent: { text: string; values: unknown[] }[]) =>
  sent.filter((statement) => statement.text.startsWith('select') && !/set_config|citus/.test(statement.text));

describe('the brand a pooled Postgres client carries', () => {
  const open = () => {
    const unscoped = recordingPool('unscoped');
    const scoped = recordingPool('scoped');
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({
        pool: brandScopedPool({ unscoped: unscoped as unknown as Pool, scoped: scoped as unknown as Pool }),
      }),
    });
    const read = (label: string) => sql`select ${label} as label`.execute(db);
    return { db, unscoped, scoped, read };
  };

  it("takes a brand's reads and the reads for no brand from different pools, so neither undoes the other's setting", async () => {
    const { db, unscoped, scoped, read } = open();
    // A request's shape: the credentials (no brand), the brand's list, and so on request after request.
    for (let request = 0; request < 3; request++) {
      await read('credentials');
      await withinBrand(db, 7, () => read('customers'));
    }

    expect(statementsOf(unscoped.sent).map((s) => s.values[0])).toEqual(['credentials', 'credentials', 'credentials']);
    expect(statementsOf(scoped.sent).map((s) => s.values[0])).toEqual(['customers', 'customers', 'customers']);
    // Each client is set once, on its first checkout, and never again.
    expect(settings(unscoped.sent)).toEqual(['']);
    expect(settings(scoped.sent)).toEqual(['7']);
  });

  it("sets a scoped client anew only when another brand's read takes it", async () => {
    const { db, scoped, read } = open();
    await withinBrand(db, 7, () => read('brand 7'));
    await withinBrand(db, 7, () => read('brand 7 again'));
    await withinBrand(db, 8, () => read('brand 8'));

    expect(settings(scoped.sent)).toEqual(['7', '8']);
    expect(statementsOf(scoped.sent).map((s) => s.values[0])).toEqual(['brand 7', 'brand 7 again', 'brand 8']);
  });

  it('runs a transaction begun for no brand on a client of no brand, its brand set locally', async () => {
    const { db, unscoped, scoped } = open();
    await db.transaction().execute(async (trx) => {
      await withinBrand(trx, 7, () => sql`select ${'order'} as label`.execute(trx));
    });

    expect(scoped.sent).toEqual([]);
    expect(unscoped.sent.map((s) => s.text)).toEqual([
      "select exists (select 1 from pg_extension where extname = 'citus') as citus",
      "select set_config('brand.id', $1, false)",
      'begin',
      "set local brand.id = '7'",
      'select $1 as label',
      'commit',
    ]);
  });
});
