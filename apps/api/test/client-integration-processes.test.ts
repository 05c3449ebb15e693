/**
 * @slow: starts an API server process per database and drives a whole integration through @brand/client; started first (tooling/config/jest-sequencer.js).
 * Runs the built server, so it waits for the build (tooling/config/jest-built-output.js).
 *
 * @needsBuild
 */
import { IncomingHttpHeaders, Server, createServer, request as httpRequest } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrandClient, BrandEvent, createClient, verifyWebhook } from '@brand/client';
import { createApiApp, issueAccessToken, systemClock } from '@brand/core';
import { Storage, openStorage } from '@brand/persistence-kysely';
import { openTestStorage, testDialects } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { Integrator, createIntegrator } from './support/integrator';
import { ServerProcess, startServerProcess, stopServerProcess } from './support/server-process';

/**
 * Issue 34's integration, as four integrators of one brand build it with nothing but
 * `@brand/client` against a real server process: the ERP creates customers and the catalog (with
 * opening stock) and subscribes a webhook; the webshop places orders; the warehouse ships and
 * delivers through `/3pl`; the ERP approves, books, exports and marks; a return portal upserts and
 * finalizes a return. Every webhook received is verified with `verifyWebhook`, and the feed read
 * with `paginate` is what happened. One order goes through a proxy that loses the answer to the
 * write: the client's retry, with the same idempotency key, still ends in exactly one order.
 */

const SERVER_ENV = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', RATE_LIMIT_MAX: '1000000' };
const ERP = 'erp';
const WMS = 'wms';
const EMAIL = 'anna@example.com';
/** The event types of what the story does, each checked against the feed by object id. */
const STORY_EVENT_TYPES = [
  'credit_note.booked',
  'credit_note.created',
  'customer.created',
  'invoice.booked',
  'invoice.created',
  'order.approved',
  'order.created',
  'product.created',
  'return.created',
  'return.credited',
  'return.received',
  'shipment.created',
  'shipment.delivered',
];

/** A webhook receiver on loopback that keeps every delivery as it arrived: headers and raw body. */
async function startReceiver() {
  const deliveries: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/brand`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A proxy in front of the API that, once armed, forwards the next POST, lets the server answer it
 * in full (the write committed), and then cuts the connection instead of passing the answer on:
 * the answer a caller loses when a load balancer or a mobile network drops it. It keeps the
 * idempotency key of every POST it forwarded.
 */
async function startLossyProxy(target: string) {
  const upstream = new URL(target);
  const keysOfPosts: string[] = [];
  let armed = false;
  const server: Server = createServer((req, res) => {
    const drop = armed && req.method === 'POST';
    if (drop) armed = false;
    if (req.method === 'POST') keysOfPosts.push(String(req.headers['idempotency-key']));
    const forwarded = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        if (drop) {
          // Read the whole answer, so the server finished the request, then lose it.
          answer.resume();
          answer.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keysOfPosts,
    dropTheNextAnswer: () => (armed = true),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Another API app of the integrator's brand (same user), with its own key and token: one integration each. */
async function anotherApp(storage: Storage, who: Integrator, name: string) {
  const deps = { uow: storage.uow, clock: systemClock, hasher: nodeSecretHasher };
  const { app, appKey } = await createApiApp(deps, { brandId: who.brandId, name });
  const { accessToken } = await issueAccessToken(deps, { userId: who.userId, appId: app.id });
  return { accessToken, appKey };
}

async function until(condition: () => boolean | Promise<boolean>, what: string, server: ServerProcess) {
  const deadline = Date.now() + 120_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${server.output().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What the feed says about one object: its event type and the object's id. */
const typeAndId = (event: { type: string; data: { object: unknown } }): [string, unknown] => [
  event.type,
  (event.data.object as { id?: unknown }).id,
];
const byTypeThenId = (a: [string, unknown], b: [string, unknown]) =>
  a[0] === b[0] ? Number(a[1]) - Number(b[1]) : a[0] < b[0] ? -1 : 1;

for (const dialect of testDialects()) {
  describe(`an integration through @brand/client against a server process [${dialect}]`, () => {
    // Room for the server start (up to 90 s on a busy machine) and the whole story.
    jest.setTimeout(300_000);
    let storage: Storage;
    let server: ServerProcess;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let proxy: Awaited<ReturnType<typeof startLossyProxy>>;
    let erp: BrandClient;
    let webshop: BrandClient;
    let webshopBehindProxy: BrandClient;
    let warehouse: BrandClient;
    let portal: BrandClient;

    /** What the story did, by the ids the API answered: compared with the feed and the webhooks. */
    const happened: [string, unknown][] = [];
    let webhookSecret: string;
    let channel: string;
    const orders: { id: number; order_number: number; etag: string }[] = [];

    beforeAll(async () => {
      let url: string;
      if (dialect === 'postgres') {
        const database = await openTestStorage('postgres');
        storage = database;
        url = database.url;
      } else {
        url = join(mkdtempSync(join(tmpdir(), 'brand-client-')), 'brand.sqlite');
        storage = await openStorage(url);
        await storage.migrate();
      }
      const brand = await createIntegrator(storage, systemClock);
      [server, receiver] = await Promise.all([startServerProcess(url, SERVER_ENV), startReceiver()]);
      proxy = await startLossyProxy(server.baseUrl);
      // Quick retries: the proxy's lost answer is retried at once, not after half a second.
      const retry = { baseDelayMs: 20, maxDelayMs: 200 };
      const clientOf = (credentials: { accessToken: string; appKey: string }, baseUrl = server.baseUrl) =>
        createClient({ baseUrl, ...credentials, retry });
      const webshopApp = await anotherApp(storage, brand, 'Webshop');
      erp = clientOf(brand);
      webshop = clientOf(webshopApp);
      webshopBehindProxy = clientOf(webshopApp, proxy.url);
      warehouse = clientOf(await anotherApp(storage, brand, 'Warehouse'));
      portal = clientOf(await anotherApp(storage, brand, 'Return portal'));
    });
    afterAll(async () => {
      if (server) await stopServerProcess(server);
      await Promise.all([receiver?.close(), proxy?.close()]);
      await storage?.close();
    });

    it('the ERP subscribes a webhook, sets in-service invoicing by If-Match, and creates customers and the catalog with opening stock', async () => {
      const subscribed = await erp.POST('/v10/webhook-endpoints', { body: { url: receiver.url, events: ['*'] } });
      expect(subscribed.status).toBe(201);
      webhookSecret = subscribed.data.webhook_endpoint.secret;

      const settings = await erp.GET('/v10/settings');
      const changed = await erp.PATCH('/v10/settings', { body: { invoicing: 'in_service' }, ifMatch: settings.etag! });
      expect(changed.data.settings.invoicing).toBe('in_service');
      expect(changed.etag).not.toBe(settings.etag);

      for (const [number, name] of [
        ['C-SHOP', 'Webshop customers'],
        ['C-B2B', 'Wholesale Ltd'],
      ] as const) {
        const created = await erp.POST('/v10/customers', { body: { customer_number: number, name, currency: 'EUR' } });
        expect(created.status).toBe(201);
        happened.push(['customer.created', created.data.customer.id]);
      }

      for (const [itemNumber, skus] of [
        ['TEE', ['TEE-S', 'TEE-M']],
        ['CAP', ['CAP-ONE']],
      ] as const) {
        const created = await erp.POST('/v10/products', {
          params: { query: { 'includes[]': ['variants.inventory'] } },
          body: {
            item_number: itemNumber,
            name: itemNumber,
            variants: skus.map((sku) => ({
              sku,
              attributes: { size: sku.split('-')[1]! },
              prices: { EUR: { sales_price: 10, rec_sales_price: 25 } },
              inventory: [{ quantity: 20, text: 'opening count' }],
            })),
          },
        });
        expect(created.status).toBe(201);
        happened.push(['product.created', created.data.product.id]);
      }
      const stock = [];
      for await (const row of erp.paginate('/v10/inventory-available', { params: { query: { limit: 2 } } }))
        stock.push([row.sku, row.available]);
      expect(stock.sort()).toEqual([
        ['CAP-ONE', 20],
        ['TEE-M', 20],
        ['TEE-S', 20],
      ]);

      const created = await erp.POST('/v10/order-channels', { body: { name: 'Webshop', order_type: 'b2c' } });
      channel = created.data.order_channel.public_id;
    });

    it('the webshop places orders; one whose answer a proxy loses is still placed exactly once', async () => {
      const place = (client: BrandClient, reference: string) =>
        client.POST('/v10/order-channels/{publicId}/orders', {
          params: { path: { publicId: channel } },
          body: {
            order: {
              customer_number: 'C-SHOP',
              email: EMAIL,
              reference,
              lines: [
                { sku: 'TEE-S', quantity: 2 },
                { sku: 'CAP-ONE', quantity: 1 },
              ],
            },
          },
        });
      for (const reference of ['WEB-1001', 'WEB-1002']) {
        const placed = await place(webshop, reference);
        expect(placed.status).toBe(201);
        orders.push({ ...placed.data.order, etag: placed.etag! });
      }

      proxy.dropTheNextAnswer();
      const postsBefore = proxy.keysOfPosts.length;
      const placed = await place(webshopBehindProxy, 'WEB-1003');
      expect(placed.status).toBe(201);
      orders.push({ ...placed.data.order, etag: placed.etag! });
      // The write was sent twice with one key: the second answered what the first did.
      const sent = proxy.keysOfPosts.slice(postsBefore);
      expect(sent).toHaveLength(2);
      expect(new Set(sent).size).toBe(1);

      const placedOrders = [];
      for await (const order of erp.paginate('/v10/orders', { params: { query: { limit: 2 } } }))
        placedOrders.push([order.reference, order.id]);
      expect(placedOrders.sort()).toEqual(orders.map((o, i) => [`WEB-100${i + 1}`, o.id]));
      for (const order of orders) happened.push(['order.created', order.id]);
      // Each order reserved its pieces once.
      const tee = await erp.GET('/v10/inventory-available', {
        params: { query: { filter_groups: [{ filters: [{ key: 'sku', operator: 'eq', value: 'TEE-S' }] }] } },
      });
      expect(tee.data.inventory.map((row) => [row.sku, row.in_stock, row.available])).toEqual([['TEE-S', 20, 14]]);
    });

    it('the ERP approves each order with the tag its creation answered, and a stale tag changes nothing', async () => {
      for (const order of orders) {
        const approved = await erp.POST('/v10/orders/{id}/approve', {
          params: { path: { id: String(order.id) } },
          body: {},
          ifMatch: order.etag,
        });
        expect(approved.data.order.status).toBe('approved');
        happened.push(['order.approved', order.id]);
      }
      const stale = await erp
        .POST('/v10/orders/{id}/cancel', { params: { path: { id: String(orders[0]!.id) } }, ifMatch: orders[0]!.etag })
        .catch((error: unknown) => error);
      expect(stale).toMatchObject({ status: 412, code: 'precondition_failed' });
      const shown = await erp.GET('/v10/orders/{id}', { params: { path: { id: String(orders[0]!.id) } } });
      expect(shown.data.order.status).toBe('approved');
    });

    it('the warehouse delivers every open shipment through /3pl and marks them exported', async () => {
      const toShip = [];
      for await (const shipment of warehouse.paginate('/3pl/shipments/export', {
        params: { query: { system_id: WMS } },
      }))
        toShip.push(shipment);
      expect(toShip.map((s) => s.reference).sort()).toEqual(['WEB-1001', 'WEB-1002', 'WEB-1003']);
      for (const shipment of toShip) {
        const delivered = await warehouse.POST('/3pl/shipments/deliver', {
          body: {
            delivery_note: {
              shipment_number: shipment.shipment_number,
              order_type: 'b2c',
              carrier: 'gls',
              colli: [
                {
                  track_trace: `GLS-${shipment.shipment_number}`,
                  lines: shipment.lines.map((l) => ({ sku: l.sku, quantity: l.quantity })),
                },
              ],
            },
          },
        });
        expect(delivered.data.shipment.status).toBe('completed');
        const shown = await erp.GET('/v10/shipments/{id}', { params: { path: { id: String(shipment.id) } } });
        expect(shown.data.shipment.status).toBe('completed');
        happened.push(['shipment.created', shipment.id], ['shipment.delivered', shipment.id]);
      }
      await warehouse.POST('/3pl/shipments/mark-as-exported', {
        body: { shipments: toShip.map((s) => ({ shipment_id: s.id, system_id: WMS })) },
      });
      const left = await warehouse.GET('/3pl/shipments/export', { params: { query: { system_id: WMS } } });
      expect(left.data.shipments).toEqual([]);
    });

    it('the ERP books the invoices the deliveries drafted, exports them and marks them exported', async () => {
      const drafted = [];
      for await (const invoice of erp.paginate('/v10/invoices', { params: { query: { limit: 2 } } }))
        drafted.push(invoice);
      expect(drafted.map((i) => i.status)).toEqual(['draft', 'draft', 'draft']);
      for (const invoice of drafted) {
        const booked = await erp.POST('/v10/invoices/{id}/book', { params: { path: { id: String(invoice.id) } } });
        expect(booked.data.invoice.status).toBe('booked');
        happened.push(['invoice.created', invoice.id], ['invoice.booked', invoice.id]);
      }
      const toExport = [];
      for await (const invoice of erp.paginate('/v10/invoices/export', { params: { query: { system_id: ERP } } }))
        toExport.push(invoice.id);
      expect(toExport.sort()).toEqual(drafted.map((i) => i.id).sort());
      await erp.POST('/v10/invoices/mark-as-exported', {
        body: { invoices: toExport.map((id) => ({ invoice_id: id, system_id: ERP })) },
      });
      const left = await erp.GET('/v10/invoices/export', { params: { query: { system_id: ERP } } });
      expect(left.data.invoices).toEqual([]);
    });

    it('a return portal upserts a return, receives and finalizes it, and the ERP exports its credit note', async () => {
      const created = await erp.POST('/v10/return-portals', { body: { name: 'Webshop returns', type: 'custom' } });
      const publicId = created.data.return_portal.public_id;
      const body = (status?: 'received') => ({
        email: EMAIL,
        order_number: orders[0]!.order_number,
        return: {
          rma: 'RMA-1',
          ...(status ? { status } : {}),
          lines: [{ sku: 'TEE-S', quantity: 1, claim_type: 'return' as const, unit_price_incl_vat: 25 }],
        },
      });
      const upsert = () =>
        portal.PUT('/v10/external-return-portals/{publicId}/returns', { params: { path: { publicId } }, body: body() });
      const first = await upsert();
      expect(first.status).toBe(201);
      const returnId = first.data.return.id;
      // The same upsert again changes nothing and answers 200.
      expect((await upsert()).status).toBe(200);

      const received = await portal.PUT('/v10/external-return-portals/{publicId}/returns', {
        params: { path: { publicId } },
        body: body('received'),
      });
      expect(received.data.return.return_status).toBe('received');
      const shown = await erp.GET('/v10/returns/{id}', { params: { path: { id: String(returnId) } } });
      const [creditNote] = shown.data.return.credit_notes ?? [];
      const note = await erp.GET('/v10/credit-notes/{id}', { params: { path: { id: String(creditNote!.id) } } });
      const finalized = await portal.POST('/v10/external-return-portals/{publicId}/returns/finalize', {
        params: { path: { publicId } },
        body: { rma: 'RMA-1', refund_total_price_after_vat: note.data.credit_note.total },
      });
      expect(finalized.status).toBe(200);
      const after = await erp.GET('/v10/returns/{id}', { params: { path: { id: String(returnId) } } });
      expect(after.data.return.status).toBe('credited');
      happened.push(
        ['return.created', returnId],
        ['return.received', returnId],
        ['credit_note.created', creditNote!.id],
        ['credit_note.booked', creditNote!.id],
        ['return.credited', returnId],
      );

      // Finalizing booked the credit note: the ERP exports it and marks it.
      const toExport = [];
      for await (const note of erp.paginate('/v10/credit-notes/export', { params: { query: { system_id: ERP } } }))
        toExport.push([note.id, note.status]);
      expect(toExport).toEqual([[creditNote!.id, 'booked']]);
      await erp.POST('/v10/credit-notes/mark-as-exported', {
        body: { credit_notes: [{ credit_note_id: creditNote!.id, system_id: ERP }] },
      });
      const left = await erp.GET('/v10/credit-notes/export', { params: { query: { system_id: ERP } } });
      expect(left.data.credit_notes).toEqual([]);
    });

    it('every webhook received verifies, and the feed read with paginate is what happened, once each', async () => {
      const feed: BrandEvent[] = [];
      for await (const event of erp.paginate('/v10/events', { params: { query: { limit: 7 } } }))
        feed.push(event as BrandEvent);
      expect(new Set(feed.map((e) => e.id)).size).toBe(feed.length);
      // Every kind of thing the story did is in the feed exactly as often as it happened.
      const kinds = new Set(happened.map(([type]) => type));
      expect([...kinds].sort()).toEqual(STORY_EVENT_TYPES);
      const shownKinds = feed.map(typeAndId).filter(([type]) => kinds.has(type));
      expect(shownKinds.sort(byTypeThenId)).toEqual([...happened].sort(byTypeThenId));
      // And nothing else but what those changes imply: stock moved, orders updated and archived by their invoices.
      const implied = ['inventory.changed', 'order.updated', 'order.archived'];
      expect(feed.map((e) => e.type).filter((type) => !kinds.has(type) && !implied.includes(type))).toEqual([]);

      // The webhook saw the whole feed (the endpoint came first), each delivery signed with the secret.
      await until(() => receiver.deliveries.length >= feed.length, `${feed.length} webhook deliveries`, server);
      const received = receiver.deliveries.map((delivery) => {
        const event = verifyWebhook(webhookSecret, delivery.headers, delivery.body);
        expect(event.id).toBe(delivery.headers['webhook-id']);
        return event;
      });
      expect(new Set(received.map((e) => e.id))).toEqual(new Set(feed.map((e) => e.id)));
      const fromFeed = new Map(feed.map((e) => [e.id, e]));
      for (const event of received) expect(event).toEqual(fromFeed.get(event.id));
      // A delivery whose body was changed on the way is refused.
      const tampered = Buffer.from(receiver.deliveries[0]!.body.toString().replace('"', ' "'));
      expect(() => verifyWebhook(webhookSecret, receiver.deliveries[0]!.headers, tampered)).toThrow(
        expect.objectContaining({ reason: 'invalid_signature' }),
      );
    });
  });
}
