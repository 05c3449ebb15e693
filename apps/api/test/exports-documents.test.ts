import request from 'supertest';
import { DocumentType, Scope } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { OrderingBrand, approveOrder, changeSettings, getOk, placeOrder, seedOrderingBrand } from './support/orders';
import { TestContext, useTestApp } from './support/test-app';

/*
 * The export flow of shipments, invoices, credit notes and accounting entries (orders have their
 * own file). One brand holds documents of every kind and status; every test exports to its own
 * system_id, so the marks of one test never hide documents from another.
 */

type Body = Record<string, unknown>;
interface Page {
  has_more: boolean;
  next_cursor: string | null;
  total?: number;
  [key: string]: unknown;
}
const MINUTE = 60_000;
const filter = (key: string, value: string, operator = 'eq') =>
  `filter_groups[0][filters][0][key]=${key}&filter_groups[0][filters][0][operator]=${operator}&filter_groups[0][filters][0][value]=${encodeURIComponent(value)}`;

/** The documents of one brand, by kind, in creation order. */
interface Documents {
  shipments: { open: Body[]; completed: Body[]; cancelled: Body[] };
  invoices: { booked: Body[]; draft: Body[] };
  creditNotes: { booked: Body[]; draft: Body[] };
  accountingEntries: Body[];
}

async function expectStatus(t: TestContext, who: Integrator, path: string, status: number, body?: Body): Promise<Body> {
  const call = request(t.server).post(path).set(who.headers);
  const response = await (body === undefined ? call : call.send(body));
  if (response.status !== status)
    throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Body;
}

/**
 * A brand invoicing in the service with `orders` one-piece orders, each approved (one shipment
 * each): the first `delivered` shipments are delivered (a draft invoice each), of which the first
 * `booked` invoices are booked (an accounting entry each) and credited in full (a draft credit
 * note each), of which the first `bookedCredits` are booked (an entry each); the last shipment is
 * cancelled. The clock moves a minute between documents, so their times differ.
 */
async function seedDocuments(
  t: TestContext,
  plan: { orders: number; delivered: number; booked: number; bookedCredits: number },
): Promise<{ shop: OrderingBrand; documents: Documents }> {
  const shop = await seedOrderingBrand(t, { stock: { 'TEE-S': 100 } });
  const who = shop.brand;
  await changeSettings(t, who, { invoicing: 'in_service' });
  const shipments: Body[] = [];
  for (let i = 0; i < plan.orders; i += 1) {
    const order = await placeOrder(t, who, shop.channels.b2b, {
      customer_number: 'C-B2B',
      lines: [{ sku: 'TEE-S', quantity: 1 }],
    });
    await approveOrder(t, who, order['id'] as number);
    t.clock.advance(MINUTE);
  }
  shipments.push(...((await getOk(t, who, '/v10/shipments?limit=100'))['shipments'] as Body[]));
  for (const shipment of shipments.slice(0, plan.delivered)) {
    await expectStatus(t, who, '/3pl/shipments/deliver', 200, {
      delivery_note: {
        shipment_number: shipment['shipment_number'],
        order_type: 'b2b',
        carrier: 'gls',
        colli: [{ track_trace: 'T1', lines: [{ sku: 'TEE-S', quantity: 1 }] }],
      },
    });
    t.clock.advance(MINUTE);
  }
  const cancelled = shipments[shipments.length - 1]!;
  await expectStatus(t, who, '/3pl/shipments/cancel', 200, { shipment_id: cancelled['id'] });
  t.clock.advance(MINUTE);
  const invoices = (await getOk(t, who, '/v10/invoices?limit=100'))['invoices'] as Body[];
  const creditNotes: Body[] = [];
  for (const invoice of invoices.slice(0, plan.booked)) {
    await expectStatus(t, who, `/v10/invoices/${invoice['id']}/book`, 200);
    t.clock.advance(MINUTE);
    creditNotes.push(
      (await expectStatus(t, who, `/v10/invoices/${invoice['id']}/credit-notes`, 201))['credit_note'] as Body,
    );
    t.clock.advance(MINUTE);
  }
  for (const creditNote of creditNotes.slice(0, plan.bookedCredits)) {
    await expectStatus(t, who, `/v10/credit-notes/${creditNote['id']}/book`, 200);
    t.clock.advance(MINUTE);
  }
  const reread = async (path: string, key: string) => (await getOk(t, who, `${path}?limit=100`))[key] as Body[];
  const allShipments = await reread('/v10/shipments', 'shipments');
  const allInvoices = await reread('/v10/invoices', 'invoices');
  const allCreditNotes = await reread('/v10/credit-notes', 'credit_notes');
  const byStatus = (items: Body[], status: string) => items.filter((item) => item['status'] === status);
  return {
    shop,
    documents: {
      shipments: {
        open: byStatus(allShipments, 'open'),
        completed: byStatus(allShipments, 'completed'),
        cancelled: byStatus(allShipments, 'cancelled'),
      },
      invoices: { booked: byStatus(allInvoices, 'booked'), draft: byStatus(allInvoices, 'draft') },
      creditNotes: { booked: byStatus(allCreditNotes, 'booked'), draft: byStatus(allCreditNotes, 'draft') },
      accountingEntries: await reread('/v10/accounting-entries', 'accounting_entries'),
    },
  };
}

/** How one resource exports: its paths and keys, which documents each flag shows, and where its timeline is read. */
interface Resource {
  name: string;
  path: string;
  key: string;
  idKey: string;
  documentType: DocumentType;
  read: Scope;
  write: Scope;
  /** What a plain export shows. */
  base: (d: Documents) => Body[];
  /** Each flag with what the export shows with it. */
  flags: [query: string, shows: (d: Documents) => Body[]][];
  /** The query adding every flag, and what it shows (for walks and filters). */
  everything: [query: string, shows: (d: Documents) => Body[]];
  /** Whether lines come only with includes[]=lines (accounting entries always carry theirs). */
  linesOnRequest: boolean;
  /** The singular key of `GET path/{id}`, where the timeline shows; null when there is no such route. */
  detailKey: string | null;
}

const RESOURCES: Resource[] = [
  {
    name: 'shipments',
    path: '/v10/shipments',
    key: 'shipments',
    idKey: 'shipment_id',
    documentType: 'shipment',
    read: 'fulfilment:read',
    write: 'fulfilment:write',
    base: (d) => d.shipments.open,
    flags: [
      ['include_completed=1', (d) => [...d.shipments.completed, ...d.shipments.open]],
      ['include_cancelled=1', (d) => [...d.shipments.open, ...d.shipments.cancelled]],
    ],
    everything: [
      'include_completed=1&include_cancelled=1',
      (d) => [...d.shipments.completed, ...d.shipments.open, ...d.shipments.cancelled],
    ],
    linesOnRequest: true,
    detailKey: 'shipment',
  },
  {
    name: 'invoices',
    path: '/v10/invoices',
    key: 'invoices',
    idKey: 'invoice_id',
    documentType: 'invoice',
    read: 'finance:read',
    write: 'finance:write',
    base: (d) => d.invoices.booked,
    flags: [['include_non_booked=1', (d) => [...d.invoices.booked, ...d.invoices.draft]]],
    everything: ['include_non_booked=1', (d) => [...d.invoices.booked, ...d.invoices.draft]],
    linesOnRequest: true,
    detailKey: 'invoice',
  },
  {
    name: 'credit notes',
    path: '/v10/credit-notes',
    key: 'credit_notes',
    idKey: 'credit_note_id',
    documentType: 'credit_note',
    read: 'finance:read',
    write: 'finance:write',
    base: (d) => d.creditNotes.booked,
    flags: [['include_non_booked=1', (d) => [...d.creditNotes.booked, ...d.creditNotes.draft]]],
    everything: ['include_non_booked=1', (d) => [...d.creditNotes.booked, ...d.creditNotes.draft]],
    linesOnRequest: true,
    detailKey: 'credit_note',
  },
  {
    name: 'accounting entries',
    path: '/v10/accounting-entries',
    key: 'accounting_entries',
    idKey: 'accounting_entry_id',
    documentType: 'accounting_entry',
    read: 'finance:read',
    write: 'finance:write',
    base: (d) => d.accountingEntries,
    flags: [],
    everything: ['', (d) => d.accountingEntries],
    linesOnRequest: false,
    detailKey: null,
  },
];

const idsOf = (items: Body[]) => items.map((item) => item['id']).sort((a, b) => (a as number) - (b as number));

for (const dialect of testDialects()) {
  describe(`export and mark-as-exported of shipments, invoices, credit notes and accounting entries [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;
    let documents: Documents;
    let other: { shop: OrderingBrand; documents: Documents };

    beforeAll(async () => {
      ({ shop, documents } = await seedDocuments(t, { orders: 6, delivered: 4, booked: 3, bookedCredits: 2 }));
      other = await seedDocuments(t, { orders: 3, delivered: 1, booked: 1, bookedCredits: 1 });
    });

    it('has documents of every kind and status to export', () => {
      expect([
        documents.shipments.open.length,
        documents.shipments.completed.length,
        documents.shipments.cancelled.length,
      ]).toEqual([1, 4, 1]);
      expect([documents.invoices.booked.length, documents.invoices.draft.length]).toEqual([3, 1]);
      expect([documents.creditNotes.booked.length, documents.creditNotes.draft.length]).toEqual([2, 1]);
      expect(documents.accountingEntries).toHaveLength(5);
    });

    for (const resource of RESOURCES) {
      describe(resource.name, () => {
        const exported = async (system: string, query = '', who: Integrator = shop.brand) => {
          const body = (await getOk(
            t,
            who,
            `${resource.path}/export?system_id=${encodeURIComponent(system)}${query ? `&${query}` : ''}`,
          )) as Page;
          return body;
        };
        const items = (page: Page) => page[resource.key] as Body[];
        const ids = (page: Page) => items(page).map((item) => item['id']);
        const mark = (marks: Body[], who: Integrator = shop.brand) =>
          request(t.server)
            .post(`${resource.path}/mark-as-exported`)
            .set(who.headers)
            .send({ [resource.key]: marks });
        const item = (id: unknown, system: string, note?: string) => ({
          [resource.idKey]: id,
          system_id: system,
          ...(note !== undefined ? { note } : {}),
        });
        const timelineOf = async (id: number) =>
          resource.detailKey === null
            ? (
                await t.storage.uow.read((repos) =>
                  repos.timeline.eventsOf(shop.brand.brandId, resource.documentType, id),
                )
              ).map((e) => ({
                kind: e.kind,
                note: e.note,
                system_id: e.systemId,
                user_id: e.userId,
                created_at: e.createdAt,
              }))
            : (((await getOk(t, shop.brand, `${resource.path}/${id}`))[resource.detailKey] as Body)[
                'timeline'
              ] as Body[]);

        it('exports a document until the system marks it; another system still sees it and not_exported_since re-exports it', async () => {
          const system = `${resource.key}-flow`;
          const base = resource.base(documents);
          const first = base[0]!;
          const before = await exported(system);
          expect(before).toEqual({
            [resource.key]: base.map((doc) => ({ ...doc, exports: [] })),
            has_more: false,
            next_cursor: null,
          });

          t.clock.advance(MINUTE);
          const beforeMark = t.clock.now();
          t.clock.advance(MINUTE);
          const markedAt = t.clock.now();
          const response = await mark([item(first['id'], system, 'booked in ERP')]);
          expect(response.status).toBe(200);
          const mine = { system_id: system, exported_at: markedAt, note: 'booked in ERP' };
          expect(response.body).toEqual({
            [resource.key]: [expect.objectContaining({ id: first['id'], exports: [mine] })],
          });

          expect(ids(await exported(system))).toEqual(idsOf(base.slice(1)));
          expect(ids(await exported(`${system}-other`))).toEqual(idsOf(base));
          expect(ids(await exported(system, `not_exported_since=${encodeURIComponent(beforeMark)}`))).toEqual(
            idsOf(base),
          );
          expect(
            items(await exported(system, `not_exported_since=${encodeURIComponent(beforeMark)}`))[0]!['exports'],
          ).toEqual([mine]);
          expect(await timelineOf(first['id'] as number)).toContainEqual({
            kind: 'exported',
            note: 'booked in ERP',
            system_id: system,
            user_id: shop.brand.userId,
            created_at: markedAt,
          });
        });

        it('adds documents of other statuses only on their flags', async () => {
          const system = `${resource.key}-flags`;
          expect(ids(await exported(system))).toEqual(idsOf(resource.base(documents)));
          for (const [query, shows] of resource.flags) {
            expect(ids(await exported(system, query))).toEqual(idsOf(shows(documents)));
            expect(ids(await exported(system, query.replace('=1', '=0')))).toEqual(idsOf(resource.base(documents)));
            const flagName = query.split('=')[0]!;
            const wrong = await request(t.server)
              .get(`${resource.path}/export?system_id=${system}&${flagName}=true`)
              .set(shop.brand.headers);
            expect(wrong.status).toBe(422);
            expect(wrong.body.errors).toEqual([
              expect.objectContaining({ source: { parameter: flagName }, detail: `${flagName} must be 0 or 1` }),
            ]);
          }
        });

        it('shows lines, filters on created_at and updated_at, and walks every page by next_cursor', async () => {
          const system = `${resource.key}-walk`;
          const [everything, shows] = resource.everything;
          const all = shows(documents);
          const plain = items(await exported(system, `${everything}&limit=1`))[0]!;
          if (resource.linesOnRequest) {
            expect(plain).not.toHaveProperty('lines');
            const withLines = items(await exported(system, `${everything}&limit=1&includes[]=lines`))[0]!;
            expect(withLines['lines']).toEqual([expect.objectContaining({ sku: 'TEE-S', quantity: 1 })]);
          } else {
            expect((plain['lines'] as Body[]).length).toBeGreaterThan(1);
            const refused = await request(t.server)
              .get(`${resource.path}/export?system_id=${system}&includes[]=lines`)
              .set(shop.brand.headers);
            expect(refused.status).toBe(422);
          }

          const sorted = [...all].sort((a, b) => (a['id'] as number) - (b['id'] as number));
          const from = sorted[1]!['created_at'] as string;
          expect(ids(await exported(system, `${everything}&${filter('created_at', from, 'gte')}`))).toEqual(
            idsOf(all.filter((doc) => (doc['created_at'] as string) >= from)),
          );
          const updatedFrom = [...all]
            .map((doc) => doc['updated_at'] as string)
            .sort()
            .reverse()[0]!;
          expect(ids(await exported(system, `${everything}&${filter('updated_at', updatedFrom, 'gte')}`))).toEqual(
            idsOf(all.filter((doc) => doc['updated_at'] === updatedFrom)),
          );

          const walked: unknown[] = [];
          let page = await exported(system, `${everything}&limit=2`);
          expect(page).not.toHaveProperty('total');
          walked.push(...ids(page));
          while (page.has_more) {
            page = await exported(system, `${everything}&limit=2&cursor=${encodeURIComponent(page.next_cursor!)}`);
            walked.push(...ids(page));
          }
          expect(walked).toEqual(idsOf(all));
        });

        it("refuses more than 10 documents, or an unknown or another brand's one, marking nothing of that call", async () => {
          const system = `${resource.key}-refused`;
          const [first] = resource.base(documents);
          const tooMany = await mark(Array.from({ length: 11 }, () => item(first!['id'], system)));
          expect(tooMany.status).toBe(422);
          expect(tooMany.body.errors).toEqual([
            expect.objectContaining({
              source: { pointer: `/${resource.key}` },
              detail: `${resource.key} must contain at most 10 documents`,
            }),
          ]);

          const foreign = resource.base(other.documents)[0]!;
          for (const id of [foreign['id'], 999999]) {
            const response = await mark([item(first!['id'], system), item(id, system)]);
            expect(response.status).toBe(422);
            expect(response.body.errors).toEqual([
              expect.objectContaining({
                code: 'validation_failed',
                source: { pointer: `/${resource.key}/1/${resource.idKey}` },
              }),
            ]);
          }
          expect(ids(await exported(system))).toEqual(idsOf(resource.base(documents)));
          expect(ids(await exported(system, '', other.shop.brand))).toEqual(idsOf(resource.base(other.documents)));

          const missing = await request(t.server).get(`${resource.path}/export`).set(shop.brand.headers);
          expect(missing.status).toBe(422);
          expect(missing.body.errors).toEqual([expect.objectContaining({ source: { parameter: 'system_id' } })]);
          const shape = await mark([{ [resource.idKey]: 'one', note: 3 }]);
          expect(shape.status).toBe(422);
          expect(shape.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual(
            [`/${resource.key}/0/${resource.idKey}`, `/${resource.key}/0/note`, `/${resource.key}/0/system_id`].sort(),
          );
        });

        it('marks twice harmlessly: one mark per system, with the latest time and note', async () => {
          const system = `${resource.key}-twice`;
          const [first] = resource.base(documents);
          expect((await mark([item(first!['id'], system, 'one')])).status).toBe(200);
          t.clock.advance(MINUTE);
          const again = await mark([item(first!['id'], system, 'two'), item(first!['id'], system, 'two')]);
          expect(again.status).toBe(200);
          expect(again.body[resource.key]).toEqual([expect.objectContaining({ id: first!['id'] })]);
          // Other tests' systems marked it too; this system has one mark, the latest.
          expect((again.body[resource.key][0].exports as Body[]).filter((e) => e['system_id'] === system)).toEqual([
            { system_id: system, exported_at: t.clock.now(), note: 'two' },
          ]);
          expect(ids(await exported(system))).not.toContain(first!['id']);
        });

        it(`needs ${resource.read} to export and ${resource.write} to mark`, async () => {
          const reader = await createIntegrator(t.storage, t.clock, { scopes: [resource.read] });
          expect((await request(t.server).get(`${resource.path}/export?system_id=x`).set(reader.headers)).status).toBe(
            200,
          );
          const refused = await request(t.server)
            .post(`${resource.path}/mark-as-exported`)
            .set(reader.headers)
            .send({ [resource.key]: [] });
          expect(refused.status).toBe(403);
          expect(refused.body.errors[0].meta).toEqual({ missing_scopes: [resource.write] });
          const stranger = await createIntegrator(t.storage, t.clock, { scopes: ['orders:read'] });
          expect(
            (await request(t.server).get(`${resource.path}/export?system_id=x`).set(stranger.headers)).status,
          ).toBe(403);
        });
      });
    }
  });
}
