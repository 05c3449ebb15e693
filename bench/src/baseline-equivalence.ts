/**
 * Issue 15: does the raw-SQL baseline (bench/src/baseline/) do the same work as the project? The
 * same requests go to both servers, each on its own copy of one seeded database, in the same
 * order; their answers are compared (status, body, the headers the pipeline adds), then, with the
 * servers stopped, the rows they wrote: row counts of every table, and the rows themselves of the
 * tables an order touches and of the rate-limit counters. Only what must differ is masked:
 * timestamps, generated request ids, a counter's window end (the wall clock of its first hit).
 *
 * The same-contract baseline also answers a revocation as the project does: once the catalog-only
 * token has been used (and is held verified in both servers' memory), it is revoked in both
 * databases from outside the servers, as another process would, and its next request must be
 * refused by both. The legacy baseline is checked without that probe (it trusts a verified token
 * for 2 s) and without comparing the counters (it counts rate limits in memory, writing none).
 * The check runs on SQLite and on Postgres (`CheckSide`: how to start a server on one database,
 * read its rows and revoke a token in it).
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { Client } from 'pg';
import { startServer, stopServer } from './harness';

/** What the check needs to know about the seeded database. */
export interface CheckData {
  /** Headers of a token with every scope (and its app key). */
  headers: Record<string, string>;
  /** Headers of a token of the same app that may only read the catalog. */
  catalogOnlyHeaders: Record<string, string>;
  /** The order channel of the shop (customers C1…, SKUs P<n>-<size>, see harness `seedShop`). */
  publicId: string;
  /** Customers in the list (ids 1…), and the id a deep page starts after. */
  customers: number;
  depth: number;
}

/** The baseline's entry point, for `startServer`. */
export const BASELINE_SERVER = 'baseline/server.js';

/** Requests per window on both servers during the check: low enough to reach a 429 quickly. */
export const CHECK_RATE_LIMIT = 40;

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

interface Probe {
  name: string;
  method?: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Masks what must differ between the two answers (generated timestamps). */
  mask?: (body: unknown) => unknown;
}

const COMPARED_HEADERS = ['content-type', 'www-authenticate', 'ratelimit-policy', 'x-request-id'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The baseline's contract (see baseline/auth.ts): `same` keeps the project's rules, `legacy` the first baseline's. */
export type Contract = 'same' | 'legacy';
/** Tables compared row by row (timestamps masked): everything an order writes, and the id counters. */
const ORDER_TABLES = [
  'orders',
  'order_lines',
  'stock_balances',
  'stock_movements',
  'timeline_events',
  'document_sequences',
  'id_counters',
  'events',
  // The kept totals an order moves (migration 0023).
  'row_counts',
  'event_feeds',
];

/** A row with its timestamps masked; an outbox event's object is compared as data, its own timestamps masked too. */
function comparable({ created_at: _created, updated_at: _updated, ...row }: Record<string, unknown>): unknown {
  if (typeof row['object'] !== 'string') return row;
  const { createdAt: _c, updatedAt: _u, ...object } = JSON.parse(row['object']) as Record<string, unknown>;
  return { ...row, object };
}

async function send(baseUrl: string, probe: Probe): Promise<Answer> {
  const response = await fetch(`${baseUrl}${probe.path}`, {
    method: probe.method ?? 'GET',
    headers: probe.headers,
    ...(probe.body !== undefined ? { body: probe.body } : {}),
  });
  const text = await response.text();
  const headers: Record<string, string | null> = {};
  for (const name of [...COMPARED_HEADERS, 'ratelimit', 'retry-after']) headers[name] = response.headers.get(name);
  let body: unknown = text;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // A non-JSON body is compared as text.
  }
  return { status: response.status, headers, body };
}

/** Two `RateLimit` headers agree: the same limit and remaining; the reset seconds may tick between the two requests. */
function sameRateLimit(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  const [x, y] = [a, b].map(
    (header) => Object.fromEntries(header.split(',').map((part) => part.trim().split('='))) as Record<string, string>,
  ) as [Record<string, string>, Record<string, string>];
  return x['limit'] === y['limit'] && x['remaining'] === y['remaining'] && sameSeconds(x['reset'], y['reset']);
}

/** Two counts of seconds (Retry-After, a reset) agree within one second. */
function sameSeconds(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  return Math.abs(Number(a) - Number(b)) <= 1;
}

function differences(probe: Probe, project: Answer, baseline: Answer, sentRequestId: string | undefined): string[] {
  const found: string[] = [];
  const say = (what: string, p: unknown, b: unknown) =>
    found.push(
      `${probe.name}: ${what} differs\n    project:  ${JSON.stringify(p)}\n    baseline: ${JSON.stringify(b)}`,
    );
  if (project.status !== baseline.status) say('status', project.status, baseline.status);
  const mask = probe.mask ?? ((body: unknown) => body);
  if (!isDeepStrictEqual(mask(project.body), mask(baseline.body))) say('body', project.body, baseline.body);
  for (const name of COMPARED_HEADERS.filter((h) => h !== 'x-request-id'))
    if (project.headers[name] !== baseline.headers[name])
      say(`header ${name}`, project.headers[name], baseline.headers[name]);
  for (const [server, answer] of [
    ['project', project],
    ['baseline', baseline],
  ] as const) {
    const id = answer.headers['x-request-id'];
    if (sentRequestId !== undefined ? id !== sentRequestId : !UUID.test(id ?? ''))
      found.push(`${probe.name}: the ${server} answered X-Request-Id ${JSON.stringify(id)}`);
  }
  if (!sameRateLimit(project.headers['ratelimit'] ?? null, baseline.headers['ratelimit'] ?? null))
    say('header RateLimit', project.headers['ratelimit'], baseline.headers['ratelimit']);
  if (!sameSeconds(project.headers['retry-after'], baseline.headers['retry-after']))
    say('header Retry-After', project.headers['retry-after'], baseline.headers['retry-after']);
  return found;
}

/** An order answer without its creation times (the order's and its timeline's), which the two servers stamp at slightly different instants. */
function withoutTimes(body: unknown): unknown {
  const order = (body as { order?: Record<string, unknown> }).order;
  if (!order) return body;
  const timeline = order['timeline'] as Record<string, unknown>[] | undefined;
  return {
    order: {
      ...order,
      created_at: '(time)',
      updated_at: '(time)',
      ...(timeline ? { timeline: timeline.map((entry) => ({ ...entry, created_at: '(time)' })) } : {}),
    },
  };
}

/** What a server left in its database: every table's row count, the compared rows, the request log. */
export interface Snapshot {
  counts: Record<string, number>;
  rows: Record<string, unknown[]>;
  log: unknown[];
  /** The rate-limit counters as (key, hits), by key. */
  counters: unknown[];
}

const TABLES_SQL = {
  sqlite: "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name",
  postgres: 'select tablename as name from pg_tables where schemaname = current_schema() order by tablename',
};
const LOG_SQL = 'select token_id, method, path, status from request_logs order by id';
const COUNTERS_SQL = 'select key, hits from rate_limit_counters order by key';

/** Every table's row count, and the rows of the order tables with their timestamps masked. */
export function sqliteSnapshot(databasePath: string): Snapshot {
  const db = new BetterSqlite3(databasePath, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare<[], string>(TABLES_SQL.sqlite).pluck().all();
    const counts = Object.fromEntries(
      tables.map((table) => [table, db.prepare<[], number>(`select count(*) from "${table}"`).pluck().get()!]),
    );
    const rows = Object.fromEntries(
      ORDER_TABLES.map((table) => [
        table,
        db.prepare<[], Record<string, unknown>>(`select * from "${table}" order by 1, 2`).all().map(comparable),
      ]),
    );
    return { counts, rows, log: db.prepare(LOG_SQL).all(), counters: db.prepare(COUNTERS_SQL).all() };
  } finally {
    db.close();
  }
}

/**
 * The same on Postgres, connected as a role that row-level security does not hold to one brand
 * (the admin URL pointed at the database). Postgres draws ids from sequences, not `id_counters`;
 * that table stays empty on both.
 */
export async function postgresSnapshot(adminUrl: string): Promise<Snapshot> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const all = async (text: string) => (await client.query<Record<string, unknown>>(text)).rows;
    const tables = (await all(TABLES_SQL.postgres)).map((r) => String(r['name']));
    const counts: Record<string, number> = {};
    for (const table of tables) counts[table] = Number((await all(`select count(*) as n from "${table}"`))[0]!['n']);
    const rows: Record<string, unknown[]> = {};
    for (const table of ORDER_TABLES)
      rows[table] = (await all(`select * from "${table}" order by 1, 2`)).map(comparable);
    const counters = (await all(COUNTERS_SQL)).map((r) => ({ key: r['key'], hits: Number(r['hits']) }));
    return { counts, rows, log: await all(LOG_SQL), counters };
  } finally {
    await client.end();
  }
}

/** The project's revocation (`accessTokens.revoke`), as another process commits it: the token's row, then the revision. */
const REVOKE_SQL = {
  token: 'update access_tokens set revoked_at = $1 where token_hash = $2 and revoked_at is null',
  revision: 'update credentials_revision set revision = revision + 1 where id = 1',
};

export function sqliteRevoke(databasePath: string, tokenHash: string): void {
  const db = new BetterSqlite3(databasePath, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    db.transaction(() => {
      db.prepare(REVOKE_SQL.token.replace('$1', '?').replace('$2', '?')).run(new Date().toISOString(), tokenHash);
      db.prepare(REVOKE_SQL.revision).run();
    }).immediate();
  } finally {
    db.close();
  }
}

export async function postgresRevoke(adminUrl: string, tokenHash: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(REVOKE_SQL.token, [new Date().toISOString(), tokenHash]);
    await client.query(REVOKE_SQL.revision);
    await client.query('commit');
  } finally {
    await client.end();
  }
}

/** One server of the check on its own database: how to start it, read what it wrote, and revoke a token in it. */
export interface CheckSide {
  start(env: Record<string, string>): Promise<{ baseUrl: string; stop(): Promise<void> }>;
  snapshot(): Promise<Snapshot>;
  revoke(tokenHash: string): Promise<void>;
}

/** A side on a SQLite copy: the server script forked by the harness (the project's bench server or the baseline). */
export function sqliteSide(databasePath: string, script?: string, env: Record<string, string> = {}): CheckSide {
  return {
    start: async (checkEnv) => {
      const server = await startServer({ ...checkEnv, ...env, DATABASE_URL: databasePath }, script);
      return { baseUrl: server.baseUrl, stop: () => stopServer(server.child) };
    },
    snapshot: async () => sqliteSnapshot(databasePath),
    revoke: async (tokenHash) => sqliteRevoke(databasePath, tokenHash),
  };
}

function rowDifferences(project: Snapshot, baseline: Snapshot, contract: Contract): string[] {
  const found: string[] = [];
  for (const table of new Set([...Object.keys(project.counts), ...Object.keys(baseline.counts)])) {
    // The legacy baseline counts rate limits in memory by design: it writes no counter rows.
    if (contract === 'legacy' && table === 'rate_limit_counters') continue;
    if (project.counts[table] !== baseline.counts[table])
      found.push(
        `table ${table}: ${project.counts[table]} rows written by the project, ${baseline.counts[table]} by the baseline`,
      );
  }
  for (const table of ORDER_TABLES) {
    const [p, b] = [project.rows[table] ?? [], baseline.rows[table] ?? []];
    const first = p.findIndex((row, i) => !isDeepStrictEqual(row, b[i]));
    if (first >= 0 || p.length !== b.length)
      found.push(
        `table ${table}: rows differ, first at ${first}\n    project:  ${JSON.stringify(p[first])}\n    baseline: ${JSON.stringify(b[first])}`,
      );
  }
  if (!isDeepStrictEqual(project.log, baseline.log))
    found.push(`request_logs: the recorded (token, method, path, status) differ`);
  if (contract === 'same' && !isDeepStrictEqual(project.counters, baseline.counters))
    found.push(
      `rate_limit_counters: (key, hits) differ\n    project:  ${JSON.stringify(project.counters)}\n    baseline: ${JSON.stringify(baseline.counters)}`,
    );
  return found;
}

/** The requests both servers answer, in order; every answer but the 429 loop's is compared. */
function probes(data: CheckData): Probe[] {
  const { headers, catalogOnlyHeaders, publicId, customers, depth } = data;
  const json = { ...headers, 'content-type': 'application/json' };
  const orders = `/v10/order-channels/${publicId}/orders`;
  const order = (body: unknown): Pick<Probe, 'method' | 'path' | 'headers' | 'body' | 'mask'> => ({
    method: 'POST',
    path: orders,
    headers: json,
    body: JSON.stringify(body),
    mask: withoutTimes,
  });
  const line = (sku: string, quantity: number) => ({ sku, quantity });
  return [
    { name: 'one-row list', path: '/v10/customers?limit=1', headers: { ...headers, 'x-request-id': 'check-one-row' } },
    { name: 'first page of 100', path: '/v10/customers?limit=100', headers },
    { name: 'default page size', path: '/v10/customers', headers },
    { name: `page of 100 after id ${depth}`, path: `/v10/customers?limit=100&starting_after=${depth}`, headers },
    { name: 'last page', path: `/v10/customers?limit=100&starting_after=${customers - 30}`, headers },
    { name: 'limit out of range', path: '/v10/customers?limit=0', headers },
    { name: 'two bad parameters', path: '/v10/customers?limit=abc&cursor=forged.cursor', headers },
    { name: 'cursor with starting_after', path: '/v10/customers?cursor=x.y&starting_after=3', headers },
    { name: 'no token', path: '/v10/customers?limit=1', headers: {} },
    { name: 'unknown token', path: '/v10/customers', headers: { ...headers, authorization: 'Bearer not-a-token' } },
    { name: 'malformed token', path: '/v10/customers', headers: { ...headers, authorization: 'Bearer a b' } },
    { name: 'basic scheme', path: '/v10/customers', headers: { ...headers, authorization: 'Basic Zm9vOmJhcg==' } },
    { name: 'wrong app key', path: '/v10/customers', headers: { ...headers, 'x-service-app-key': 'wrong' } },
    { name: 'token without customers:read', path: '/v10/customers', headers: catalogOnlyHeaders },
    { name: 'unknown route under /v10', path: '/v10/nothing-here', headers },
    {
      name: 'order with 3 lines',
      ...order({
        order: {
          customer_number: 'C1',
          reference: 'check',
          lines: [line('P1-XS', 1), line('P2-M', 2), line('P3-L', 3)],
        },
      }),
    },
    {
      name: 'order naming a variant twice',
      ...order({
        order: {
          customer_number: 'C2',
          email: 'c2@example.com',
          lines: [line('P4-S', 2), line('P4-S', 1), line('P5-XL', 1)],
        },
      }),
    },
    {
      name: 'order with an unknown SKU',
      ...order({ order: { customer_number: 'C1', lines: [line('P1-XS', 1), line('NOPE', 1)] } }),
    },
    {
      name: 'order for an unknown customer',
      ...order({ order: { customer_number: 'C-none', lines: [line('P1-XS', 1)] } }),
    },
    {
      name: 'order beyond the stock',
      ...order({ order: { customer_number: 'C3', lines: [line('P6-M', 2_000_000), line('P6-M', 5)] } }),
    },
    { name: 'order without customer and lines', ...order({ order: { reference: 7, lines: [] } }) },
    {
      name: 'order with bad lines',
      ...order({ order: { customer_number: 'C1', lines: [{ quantity: 0 }, { sku: 'P1-M', quantity: 1.5 }] } }),
    },
    { name: 'order without order', ...order({}) },
    {
      name: 'order on an unknown channel',
      ...order({ order: { customer_number: 'C1', lines: [line('P1-XS', 1)] } }),
      path: '/v10/order-channels/no-such-channel/orders',
    },
    { name: 'order of invalid JSON', method: 'POST', path: orders, headers: json, body: '{"order":' },
    {
      name: 'order as text',
      method: 'POST',
      path: orders,
      headers: { ...headers, 'content-type': 'text/plain' },
      body: 'order',
    },
    {
      name: 'order without orders:write',
      ...order({ order: { customer_number: 'C1', lines: [line('P1-XS', 1)] } }),
      headers: { ...catalogOnlyHeaders, 'content-type': 'application/json' },
    },
    { name: 'one-row list after the orders', path: '/v10/customers?limit=1', headers },
  ];
}

/**
 * Sends the probes to both servers (each on its own copy of the seeded database), then walks the
 * catalog-only token into its rate limit on both, under the same contract revokes it in both
 * databases and sends it once more, and compares answers and written rows. Throws, listing every
 * difference, when the baseline does not do the same work as the project.
 */
export async function checkBaselineEquivalence(
  sides: { project: CheckSide; baseline: CheckSide },
  data: CheckData,
  contract: Contract,
): Promise<{ requests: number }> {
  const env = { RATE_LIMIT_MAX: String(CHECK_RATE_LIMIT), LOG_LEVEL: 'info' };
  const project = await sides.project.start(env);
  const baseline = await sides.baseline.start({ ...env, BASELINE_CONTRACT: contract });
  const found: string[] = [];
  let requests = 0;
  const compare = async (probe: Probe) => {
    const [p, b] = [await send(project.baseUrl, probe), await send(baseline.baseUrl, probe)];
    requests += 1;
    found.push(...differences(probe, p, b, probe.headers['x-request-id']));
    return p;
  };
  try {
    for (const probe of probes(data)) await compare(probe);
    // The cursor the project hands out must walk the baseline the same way (both sign with the stored key).
    const start = await compare({
      name: 'walk start',
      path: `/v10/customers?limit=100&starting_after=${data.depth}`,
      headers: data.headers,
    });
    const cursor = (start.body as { next_cursor?: string }).next_cursor;
    if (typeof cursor !== 'string') found.push('walk start: the project handed out no next_cursor');
    else
      await compare({
        name: 'page by cursor',
        path: `/v10/customers?limit=100&cursor=${encodeURIComponent(cursor)}`,
        headers: data.headers,
      });
    // The catalog-only token made 2 requests above; each further one is counted before its 403.
    for (let sent = 2; sent <= CHECK_RATE_LIMIT; sent += 1)
      await compare({
        name: `request ${sent + 1} of the catalog-only token`,
        path: '/v10/customers',
        headers: data.catalogOnlyHeaders,
      });
    if (contract === 'same') {
      // Both servers hold the catalog-only token verified; revoked by another process, it must be refused at once.
      const token = /^Bearer (.+)$/.exec(data.catalogOnlyHeaders['authorization'] ?? '')?.[1] ?? '';
      const tokenHash = createHash('sha256').update(token, 'utf8').digest('hex');
      await sides.project.revoke(tokenHash);
      await sides.baseline.revoke(tokenHash);
      const answer = await compare({
        name: 'the catalog-only token right after its revocation',
        path: '/v10/customers',
        headers: data.catalogOnlyHeaders,
      });
      if (answer.status !== 401) found.push(`the revoked token was answered ${answer.status} by the project`);
    }
    // Give both request logs time to flush (every 200 ms) before the servers stop.
    await new Promise((resolve) => setTimeout(resolve, 600));
  } finally {
    await project.stop();
    await baseline.stop();
  }
  found.push(...rowDifferences(await sides.project.snapshot(), await sides.baseline.snapshot(), contract));
  if (found.length > 0)
    throw new Error(
      `the ${contract === 'same' ? 'same-contract' : 'legacy'} baseline does not do the same work as the project (${found.length} differences):\n${found.join('\n')}`,
    );
  return { requests };
}
