import { RequestHandler } from 'express';
import { Logger } from 'pino';
import { Principal, TokenRow, VerifiedTokens, checkStoredToken, principalOf, sha256 } from '../auth';
import { CURSOR_KEY_NAME, CursorCodec, cursorCodecOf, newCursorKey } from '../cursor';
import { CUSTOMER_COLUMNS, CustomerRow, parsePageRequest, presentPage } from '../customers';
import { CountHit, countInLeasesAsync } from '../rate-limit';
import { PgDatabase, named, rows } from './database';

/**
 * The Postgres baseline's request pipeline and list: the same contract as the SQLite baseline's
 * `same` mode (the credentials revision read on every request, rate limits leased from the shared
 * counters, the buffered request log), as named statements on pg.
 */
const SQL = named({
  credentials_revision: 'select revision from credentials_revision where id = 1',
  token_brand: "select brand_id from brand_lookups where kind = 'access_token' and value = $1",
  token:
    'select id, brand_id, user_id, app_id, scopes, expires_at, revoked_at from access_tokens where brand_id = $1 and token_hash = $2',
  app_key_hash: 'select app_key_hash from api_apps where brand_id = $1 and id = $2',
  // The project's hitCounter (rate-limit-counters.ts) with its parameters numbered once each.
  hit_counter:
    'insert into rate_limit_counters (key, hits, reset_at_ms) values ($1, $2, $3) on conflict (key) do update set ' +
    'hits = case when rate_limit_counters.reset_at_ms <= $4 then $2 else rate_limit_counters.hits + $2 end, ' +
    'reset_at_ms = case when rate_limit_counters.reset_at_ms <= $4 then $3 else rate_limit_counters.reset_at_ms end ' +
    'returning hits, reset_at_ms',
  customers_first_page: `select ${CUSTOMER_COLUMNS} from customers where brand_id = $1 order by id limit $2`,
  customers_page_after: `select ${CUSTOMER_COLUMNS} from customers where brand_id = $1 and id > $2 order by id limit $3`,
  customers_count: "select row_count from row_counts where brand_id = $1 and resource = 'customers'",
  store_cursor_key: 'insert into shared_secrets (name, value) values ($1, $2) on conflict (name) do nothing',
  read_cursor_key: 'select value from shared_secrets where name = $1',
  request_log_ids: "select nextval('ids_request_logs') as id from generate_series(1, $1)",
  // One statement for any number of entries: the columns as arrays, unnested into rows.
  request_log_insert:
    'insert into request_logs (id, brand_id, user_id, app_id, token_id, method, path, status, duration_ms, request_id, created_at) ' +
    'select * from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], ' +
    '$8::integer[], $9::integer[], $10::text[], $11::text[])',
});

/**
 * The project's stored-token verification (see `tokenVerifier` in ../auth.ts) on Postgres: each
 * request reads the credentials revision (a global row, no brand needed) and is answered from the
 * verified tokens while it has not moved; otherwise the token's brand from the look-up of global
 * values, then the token and its app's key hash within that brand.
 */
export function pgTokenVerifier(db: PgDatabase): (accessToken: string, appKey: string | null) => Promise<Principal> {
  const verified = new VerifiedTokens('same');
  return async (accessToken, appKey) => {
    const [{ revision } = { revision: 0 }] = await db.query<{ revision: number }>(
      undefined,
      SQL.credentials_revision,
      [],
    );
    const now = Date.now();
    const cacheKey = `${accessToken} ${appKey ?? ''}`;
    const cached = verified.lookup(cacheKey, now, Number(revision));
    if (cached) return cached;
    const hash = sha256(accessToken);
    const [found] = await db.query<{ brand_id: number }>(undefined, SQL.token_brand, [hash]);
    let token: TokenRow | undefined;
    let appKeyHash: string | undefined;
    if (found)
      await db.with(Number(found.brand_id), async (client) => {
        [token] = await rows<TokenRow>(client, SQL.token, [found.brand_id, hash]);
        if (token)
          appKeyHash = (
            await rows<{ app_key_hash: string }>(client, SQL.app_key_hash, [token.brand_id, token.app_id])
          )[0]?.app_key_hash;
      });
    const principal = checkStoredToken(token, appKeyHash, appKey, now);
    verified.keep(cacheKey, now, Number(revision), principal, token!.expires_at);
    return principal;
  };
}

/** Leased counting (the project's lease rule, ../rate-limit.ts) on the shared counters in Postgres. */
export function pgCounters(db: PgDatabase, max: number, windowMs: number): CountHit {
  return countInLeasesAsync(max, windowMs, async (key, window, nowMs, count) => {
    const [row] = await db.query<{ hits: number; reset_at_ms: number }>(undefined, SQL.hit_counter, [
      key,
      count,
      nowMs + window,
      nowMs,
    ]);
    return { hits: Number(row!.hits), resetAtMs: Number(row!.reset_at_ms) };
  });
}

/** The cursor key stored in `shared_secrets` (made here unless a process made it first). */
export async function pgCursorCodec(db: PgDatabase): Promise<CursorCodec> {
  await db.query(undefined, SQL.store_cursor_key, [CURSOR_KEY_NAME, newCursorKey()]);
  const [row] = await db.query<{ value: string }>(undefined, SQL.read_cursor_key, [CURSOR_KEY_NAME]);
  return cursorCodecOf(row!.value);
}

/** `GET /v10/customers` as ../customers.ts answers it, its page (and a first page's total) read on one client. */
export function pgListCustomers(db: PgDatabase, cursors: CursorCodec): RequestHandler {
  return (req, res, next) => {
    const brandId = principalOf(res)!.brandId;
    const { limit, after, walking } = parsePageRequest(req.query, cursors);
    db.with(brandId, async (client) => {
      const page =
        after === null
          ? await rows<CustomerRow>(client, SQL.customers_first_page, [brandId, limit + 1])
          : await rows<CustomerRow>(client, SQL.customers_page_after, [brandId, after, limit + 1]);
      const total = walking
        ? undefined
        : Number((await rows<{ row_count: number }>(client, SQL.customers_count, [brandId]))[0]?.row_count ?? 0);
      return presentPage(page, limit, cursors, total);
    }).then((answer) => res.json(answer), next);
  };
}

/** Entries written in one transaction at most (the project's REQUEST_LOG_BATCH_SIZE). */
const BATCH_SIZE = 500;

interface Entry {
  brandId: number;
  userId: number;
  appId: number;
  tokenId: number;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  createdAt: string;
}

/**
 * ../request-log.ts on Postgres: authenticated requests kept in memory and written every
 * `flushMs` (or once a batch is full), brand by brand, each brand's entries with ids from
 * `ids_request_logs` in one statement. A failed batch is logged and dropped.
 */
export class PgRequestLogBuffer {
  private pending: Entry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: PgDatabase,
    private readonly logger: Logger,
    private readonly flushMs: number,
  ) {}

  add(entry: Entry): void {
    this.pending.push(entry);
    if (this.pending.length >= BATCH_SIZE) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes what is pending (after any write still under way); resolves once written. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.pending;
    this.pending = [];
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  private async write(batch: Entry[]): Promise<void> {
    const brands = new Map<number, Entry[]>();
    for (const e of batch) brands.set(e.brandId, [...(brands.get(e.brandId) ?? []), e]);
    for (const [brandId, entries] of brands)
      for (let start = 0; start < entries.length; start += BATCH_SIZE) {
        const slice = entries.slice(start, start + BATCH_SIZE);
        try {
          await this.db.with(brandId, async (client) => {
            const ids = (await rows<{ id: number }>(client, SQL.request_log_ids, [slice.length])).map((r) => r.id);
            await rows(client, SQL.request_log_insert, [
              ids,
              slice.map((e) => e.brandId),
              slice.map((e) => e.userId),
              slice.map((e) => e.appId),
              slice.map((e) => e.tokenId),
              slice.map((e) => e.method),
              slice.map((e) => e.path),
              slice.map((e) => e.status),
              slice.map((e) => e.durationMs),
              slice.map((e) => e.requestId),
              slice.map((e) => e.createdAt),
            ]);
          });
        } catch (error) {
          this.logger.error({ err: error, entries: slice.length }, 'could not write the request log; entries dropped');
        }
      }
  }
}
