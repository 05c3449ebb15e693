import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import {
  CONSOLE_REQUESTS_PER_PAGE,
  RequestLogEntry,
  createApiApp,
  createBrand,
  createUser,
  issueAccessToken,
} from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { CursorCodec } from '../src/listing/cursor-codec';
import { logInToConsole } from './support/console-agent';
import { useTestApp } from './support/test-app';
import { testPasswordHasher } from './support/test-password-hasher';

const PASSWORD = 'correct horse battery staple';

/** The request log's rows: each request id with the text of its cells (tags dropped, entities kept). */
function rowsOf(html: string): { requestId: string; cells: string[] }[] {
  return [...html.matchAll(/<tr data-request-id="([^"]*)">(.*?)<\/tr>/g)].map((row) => ({
    requestId: row[1]!,
    cells: [...row[2]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((cell) =>
      cell[1]!.replace(/<br>/g, ' ').replace(/<[^>]+>/g, ''),
    ),
  }));
}

const requestIdsOf = (html: string): string[] => rowsOf(html).map((row) => row.requestId);

/** The href of the page's link named `label`, decoded from its HTML. */
function linkOf(html: string, label: string): string | null {
  const href = new RegExp(`<a href="([^"]+)"[^>]*>${label}</a>`).exec(html)?.[1];
  return href === undefined ? null : href.replace(/&amp;/g, '&');
}

for (const dialect of testDialects()) {
  describe(`console: request log [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const deps = () => ({
      uow: t.storage.uow,
      clock: t.clock,
      hasher: nodeSecretHasher,
      passwordHasher: testPasswordHasher,
    });
    let brands = 0;

    /**
     * A brand with two users, two apps and a token for each (user, app) pair named below. Anna can
     * log in; Bert too when asked.
     */
    async function aBrand(name: string, options: { bertLogsIn?: boolean } = {}) {
      brands += 1;
      const brand = await createBrand(deps(), { name, currency: 'EUR' });
      const anna = await createUser(deps(), {
        brandId: brand.id,
        email: `anna${brands}@${name.toLowerCase()}.example`,
        name: `Anna of ${name}`,
        password: PASSWORD,
      });
      const bert = await createUser(deps(), {
        brandId: brand.id,
        email: `bert${brands}@${name.toLowerCase()}.example`,
        name: `Bert of ${name}`,
        ...(options.bertLogsIn ? { password: PASSWORD } : {}),
      });
      const erp = await createApiApp(deps(), { brandId: brand.id, name: `${name} ERP <Sync>` });
      const shop = await createApiApp(deps(), { brandId: brand.id, name: `${name} Shop` });
      const annaErp = await issueAccessToken(deps(), { userId: anna.id, appId: erp.app.id });
      const bertShop = await issueAccessToken(deps(), { userId: bert.id, appId: shop.app.id });
      return {
        brand,
        anna,
        bert,
        erp: erp.app,
        shop: shop.app,
        annaErp: { ...annaErp, appKey: erp.appKey },
        bertShop: { ...bertShop, appKey: shop.appKey },
      };
    }
    type World = Awaited<ReturnType<typeof aBrand>>;

    /** A fresh browser logged in as `email`. */
    const loggedIn = async (email: string) => (await logInToConsole(t.server, email, PASSWORD)).agent;

    /** An API request made with a token, one second after the previous one, its request id given. */
    async function callApi(
      token: { accessToken: string; appKey: string },
      path: string,
      requestId: string,
    ): Promise<number> {
      t.clock.advance(1000);
      const answer = await request(t.server)
        .get(path)
        .set({ Authorization: `Bearer ${token.accessToken}`, 'X-Service-App-Key': token.appKey })
        .set('X-Request-Id', requestId);
      return answer.status;
    }

    /** Entries written straight to the log (statuses the API cannot be made to answer on purpose, or many of them). */
    async function record(world: World, entries: Partial<RequestLogEntry>[]): Promise<void> {
      await t.storage.uow.run((tx) =>
        tx.requestLogs.append(
          entries.map((entry) => ({
            brandId: world.brand.id,
            userId: world.anna.id,
            appId: world.erp.id,
            tokenId: world.annaErp.token.id,
            method: 'GET',
            path: '/v10/orders',
            route: null,
            status: 200,
            durationMs: 7,
            requestId: 'unnamed',
            traceId: null,
            createdAt: t.clock.now(),
            ...entry,
          })),
        ),
      );
    }

    it('redirects to the login page without a session', async () => {
      for (const path of ['/console/requests', '/console/requests?status=errors&app_id=1']) {
        const answer = await request(t.server).get(path);
        expect(answer.status).toBe(303);
        expect(answer.headers['location']).toBe('/console/login');
      }
    });

    it("shows every request of the brand's users and apps newest first with their columns, and never another brand's", async () => {
      const north = await aBrand('North', { bertLogsIn: true });
      const south = await aBrand('South');
      const shown = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
      expect(await callApi(north.annaErp, '/v10/customers?limit=5', 'north-customers')).toBe(200);
      const customersAt = shown(t.clock.now());
      expect(await callApi(south.annaErp, '/v10/customers', 'south-customers')).toBe(200);
      expect(await callApi(north.bertShop, '/v10/nothing-here', 'north-missing')).toBe(404);
      const missingAt = shown(t.clock.now());
      expect(await callApi(south.bertShop, '/v10/nothing-here', 'south-missing')).toBe(404);
      await t.flushRequestLog();

      const annas = await (await loggedIn(north.anna.email)).get('/console/requests');
      expect(annas.status).toBe(200);
      expect(annas.headers['content-type']).toMatch(/^text\/html/);
      expect(annas.headers['cache-control']).toBe('no-store');
      expect(annas.text).toContain('<a href="/console/requests" aria-current="page">Request log</a>');
      expect(rowsOf(annas.text)).toStrictEqual([
        {
          requestId: 'north-missing',
          cells: [
            missingAt,
            'GET',
            '/v10/nothing-here',
            '404',
            expect.stringMatching(/^\d+$/),
            'North Shop',
            'Bert of North',
            'north-missing',
          ],
        },
        {
          requestId: 'north-customers',
          cells: [
            customersAt,
            'GET',
            '/v10/customers',
            '200',
            expect.stringMatching(/^\d+$/),
            'North ERP &lt;Sync&gt;',
            'Anna of North',
            'north-customers',
          ],
        },
      ]);
      expect(annas.text).not.toContain('South');

      // Any user of the brand sees the same log: a colleague's requests included.
      const berts = await (await loggedIn(north.bert.email)).get('/console/requests');
      expect(requestIdsOf(berts.text)).toStrictEqual(['north-missing', 'north-customers']);
      const souths = await (await loggedIn(south.anna.email)).get('/console/requests');
      expect(requestIdsOf(souths.text)).toStrictEqual(['south-missing', 'south-customers']);
      expect(souths.text).not.toContain('North');
    });

    it('shows the path as recorded: without the query string (never the access token) and escaped', async () => {
      const west = await aBrand('West');
      const port = (t.server.address() as AddressInfo).port;
      // A raw request: HTTP clients would percent-encode these characters, a hostile caller need not.
      const hostilePath = `/v10/"><img/src=x/onerror=alert(1)>?access_token=${encodeURIComponent(west.annaErp.accessToken)}&note=<b>`;
      t.clock.advance(1000);
      const status = await new Promise<number>((resolve, reject) => {
        const sent = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: hostilePath,
            headers: { 'X-Service-App-Key': west.annaErp.appKey, 'X-Request-Id': 'hostile' },
          },
          (answer) => {
            answer.resume();
            answer.on('end', () => resolve(answer.statusCode ?? 0));
          },
        );
        sent.on('error', reject);
        sent.end();
      });
      expect(status).toBe(404);
      await t.flushRequestLog();

      const page = await (await loggedIn(west.anna.email)).get('/console/requests');
      expect(rowsOf(page.text)[0]?.cells.slice(1, 4)).toStrictEqual([
        'GET',
        '/v10/&quot;&gt;&lt;img/src=x/onerror=alert(1)&gt;',
        '404',
      ]);
      expect(page.text).not.toContain('<img');
      expect(page.text).not.toContain(west.annaErp.accessToken);
      expect(page.text).not.toContain('access_token');
      expect(page.text).not.toContain('note=');
    });

    it('shows a traced request’s trace id under its request id', async () => {
      const east = await aBrand('Traced');
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      await record(east, [
        { requestId: 'traced', traceId },
        { requestId: 'untraced', createdAt: new Date(Date.parse(t.clock.now()) - 1000).toISOString() },
      ]);
      const page = await (await loggedIn(east.anna.email)).get('/console/requests');
      expect(rowsOf(page.text).map((row) => [row.requestId, row.cells.at(-1)])).toStrictEqual([
        ['traced', `traced trace ${traceId}`],
        ['untraced', 'untraced'],
      ]);
    });

    it('filters by status class (errors, 2xx, 4xx, 5xx) and by app, and keeps the choice in the form', async () => {
      const east = await aBrand('East', { bertLogsIn: true });
      expect(await callApi(east.annaErp, '/v10/customers', 'erp-ok')).toBe(200);
      expect(await callApi(east.annaErp, '/v10/nothing-here', 'erp-missing')).toBe(404);
      expect(await callApi(east.bertShop, '/v10/customers', 'shop-ok')).toBe(200);
      t.clock.advance(1000);
      await record(east, [
        { requestId: 'shop-failed', status: 503, appId: east.shop.id, userId: east.bert.id },
        { requestId: 'erp-redirected', status: 304 },
      ]);
      await t.flushRequestLog();
      const agent = await loggedIn(east.bert.email);
      const ids = async (query: string) => {
        const page = await agent.get(`/console/requests${query}`);
        expect(page.status).toBe(200);
        return requestIdsOf(page.text);
      };

      // The last two were recorded at one instant: the later recorded comes first.
      expect(await ids('')).toStrictEqual(['erp-redirected', 'shop-failed', 'shop-ok', 'erp-missing', 'erp-ok']);
      expect(await ids('?status=errors')).toStrictEqual(['shop-failed', 'erp-missing']);
      expect(await ids('?status=2xx')).toStrictEqual(['shop-ok', 'erp-ok']);
      expect(await ids('?status=4xx')).toStrictEqual(['erp-missing']);
      expect(await ids('?status=5xx')).toStrictEqual(['shop-failed']);
      expect(await ids(`?app_id=${east.shop.id}`)).toStrictEqual(['shop-failed', 'shop-ok']);
      expect(await ids(`?app_id=${east.erp.id}&status=2xx`)).toStrictEqual(['erp-ok']);
      // The filter form's "any" choices send empty values: no filter.
      expect(await ids('?status=&app_id=')).toHaveLength(5);

      const filtered = await agent.get(`/console/requests?status=errors&app_id=${east.erp.id}`);
      expect(filtered.text).toContain('<option value="errors" selected>');
      expect(filtered.text).toContain(`<option value="${east.erp.id}" selected>East ERP &lt;Sync&gt;</option>`);
      const none = await agent.get(`/console/requests?status=5xx&app_id=${east.erp.id}`);
      expect(requestIdsOf(none.text)).toStrictEqual([]);
      expect(none.text).toContain('No requests match these filters.');
    });

    it(`pages ${CONSOLE_REQUESTS_PER_PAGE} at a time through an "Older requests" link that keeps the filters`, async () => {
      const north = await aBrand('Pager');
      // Two requests per instant, so a page ends between two requests of one instant; the shop's
      // requests between them are filtered out.
      const start = Date.parse(t.clock.now());
      const erpRequests = CONSOLE_REQUESTS_PER_PAGE + 3;
      await record(
        north,
        Array.from({ length: erpRequests }, (_, i) => {
          const n = i + 1;
          return {
            requestId: `erp-${n}`,
            createdAt: new Date(start + Math.floor((n + 1) / 2) * 1000).toISOString(),
          };
        }),
      );
      await record(
        north,
        Array.from({ length: 10 }, (_, i) => ({
          requestId: `shop-${i + 1}`,
          appId: north.shop.id,
          createdAt: new Date(start + (i + 1) * 1000).toISOString(),
        })),
      );
      const agent = await loggedIn(north.anna.email);

      const first = await agent.get(`/console/requests?app_id=${north.erp.id}`);
      const expected = Array.from({ length: erpRequests }, (_, i) => `erp-${erpRequests - i}`);
      expect(requestIdsOf(first.text)).toStrictEqual(expected.slice(0, CONSOLE_REQUESTS_PER_PAGE));
      expect(linkOf(first.text, 'Newest requests')).toBeNull();
      const older = linkOf(first.text, 'Older requests');
      expect(older).toMatch(new RegExp(`^/console/requests\\?app_id=${north.erp.id}&cursor=`));

      const second = await agent.get(older!);
      expect(second.status).toBe(200);
      expect(requestIdsOf(second.text)).toStrictEqual(expected.slice(CONSOLE_REQUESTS_PER_PAGE));
      expect(linkOf(second.text, 'Older requests')).toBeNull();
      expect(linkOf(second.text, 'Newest requests')).toBe(`/console/requests?app_id=${north.erp.id}`);

      // Unfiltered, the same brand's log holds both apps' requests.
      const all = await agent.get('/console/requests');
      expect(requestIdsOf(all.text)).toHaveLength(CONSOLE_REQUESTS_PER_PAGE);
      expect(requestIdsOf(all.text)).toContain('shop-10');
    });

    it('says when the brand has no requests yet', async () => {
      const quiet = await aBrand('Quiet');
      const page = await (await loggedIn(quiet.anna.email)).get('/console/requests');
      expect(page.status).toBe(200);
      expect(requestIdsOf(page.text)).toStrictEqual([]);
      expect(page.text).toContain('No requests yet');
    });

    let strict: World | undefined;
    it.each([
      ['an unknown status class', 'status=3xx', 'status'],
      ['a status in other case', 'status=ERRORS', 'status'],
      ['a repeated status', 'status=2xx&status=4xx', 'status'],
      ['a status given as an object', 'status[a]=2xx', 'status'],
      ['an app id that is not a number', 'app_id=erp', 'app_id'],
      ['an app id of zero', 'app_id=0', 'app_id'],
      ['a fractional app id', 'app_id=1.5', 'app_id'],
      ['a garbled cursor', 'cursor=not-a-cursor', 'cursor'],
    ])('refuses %s with a 400 page naming the parameter', async (_case, query, parameter) => {
      strict ??= await aBrand('Strict');
      const page = await (await loggedIn(strict.anna.email)).get(`/console/requests?${query}`);
      expect(page.status).toBe(400);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain(`${parameter}:`);
      expect(page.text).toContain('<a href="/console/requests">Show the newest requests</a>');
    });

    it("refuses another list's cursor, signed by the same key, with a 400 page naming it", async () => {
      const world = await aBrand('Signed');
      const foreign = await new CursorCodec(t.storage.secrets).encode({
        resource: 'webhook_endpoints',
        sort: 'id:DESC',
        values: [5],
      });
      const page = await (await loggedIn(world.anna.email)).get(
        `/console/requests?cursor=${encodeURIComponent(foreign)}`,
      );
      expect(page.status).toBe(400);
      expect(page.text).toContain('cursor:');
    });

    it("answers another brand's app, or an app that does not exist, with a 404 page listing nothing", async () => {
      const mine = await aBrand('Mine');
      const theirs = await aBrand('Theirs');
      expect(await callApi(theirs.annaErp, '/v10/customers', 'theirs-ok')).toBe(200);
      expect(await callApi(mine.annaErp, '/v10/customers', 'mine-ok')).toBe(200);
      await t.flushRequestLog();
      const agent = await loggedIn(mine.anna.email);
      for (const appId of [theirs.erp.id, 987_654_321]) {
        const page = await agent.get(`/console/requests?app_id=${appId}`);
        expect(page.status).toBe(404);
        expect(page.text).toContain('There is no such app in your brand.');
        expect(requestIdsOf(page.text)).toStrictEqual([]);
        expect(page.text).not.toContain('theirs-ok');
      }
      // The brand's own log is unaffected.
      expect(requestIdsOf((await agent.get('/console/requests')).text)).toStrictEqual(['mine-ok']);
    });
  });
}
