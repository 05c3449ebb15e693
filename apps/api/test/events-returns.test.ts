import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator } from './support/integrator';
import { changeSettings, getOk, seedOrderingBrand } from './support/orders';
import { EMAIL, finalize, line, seedPortalShop, upsert } from './support/return-portals';
import { storageFailingBeforeCommit } from './support/failing-storage';
import { aDeliveredOrder } from './support/returns';
import { TestContext, buildApp, closeServer, listenOnLoopback, useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
const MINUTE = 60_000;

/** The returns module's event types. */
const OWN_TYPES = [
  'return.created',
  'return.updated',
  'return.approved',
  'return.received',
  'return.credited',
  'alert.created',
  'alert.resolved',
  'credit_note.created',
] as const;

/** A resource as `GET` shows it, without what an event leaves out (history, export marks, embedded documents). */
const asInEvent = (body: Body): Body => {
  const { timeline: _timeline, exports: _exports, credit_notes: _notes, accounting_entry: _entry, ...rest } = body;
  return rest;
};

/** The feed's events of the returns module's types, oldest first (`GET /v10/events` filtered on type). */
async function ownEvents(t: TestContext, who: Integrator): Promise<Body[]> {
  const types = OWN_TYPES.map((type, i) => `filter_groups[0][filters][0][value][${i}]=${type}`).join('&');
  const response = await request(t.server)
    .get(
      `/v10/events?limit=100&filter_groups[0][filters][0][key]=type&filter_groups[0][filters][0][operator]=in&${types}`,
    )
    .set(who.headers);
  if (response.status !== 200)
    throw new Error(`GET /v10/events answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.events as Body[];
}

/** The feed's events of one type (`?type eq`). */
async function eventsOfType(t: TestContext, who: Integrator, type: string): Promise<Body[]> {
  return (
    await getOk(
      t,
      who,
      `/v10/events?filter_groups[0][filters][0][key]=type&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=${type}`,
    )
  )['events'] as Body[];
}

const anEvent = (type: string, object: Body, createdAt: string) => ({
  id: expect.stringMatching(/^evt_\d+$/),
  type,
  created_at: createdAt,
  data: { object },
});

for (const dialect of testDialects()) {
  describe(`return, alert and return credit note events [${dialect}]`, () => {
    const t = useTestApp(dialect);

    const returnOf = async (who: Integrator, id: number) =>
      (await getOk(t, who, `/v10/returns/${id}`))['return'] as Body & { credit_notes: Array<Body & { id: number }> };
    const creditNoteOf = async (who: Integrator, id: number) =>
      (await getOk(t, who, `/v10/credit-notes/${id}`))['credit_note'] as Body;

    it('announces a back-office RMA created, approved and received, each as GET showed it then, and its credit note; refusals add nothing', async () => {
      const shop = await seedOrderingBrand(t);
      const { order } = await aDeliveredOrder(t, shop);
      const post = (path: string, body: Body = {}) => request(t.server).post(path).set(shop.brand.headers).send(body);

      t.clock.advance(MINUTE);
      const tooMany = await post('/v10/returns', {
        order_number: order.order_number,
        lines: [{ sku: 'TEE-S', quantity: 4, claim_type: 'return' }],
      });
      expect(tooMany.status).toBe(422);
      expect(await ownEvents(t, shop.brand)).toEqual([]);

      const created = await post('/v10/returns', {
        order_number: order.order_number,
        lines: [
          { sku: 'TEE-S', quantity: 2, claim_type: 'return' },
          { sku: 'CAP-ONE', quantity: 1, claim_type: 'claim' },
        ],
      });
      expect(created.status).toBe(201);
      const id = created.body.return.id as number;
      const rma = created.body.return.rma as string;
      const afterCreate = await returnOf(shop.brand, id);
      const createdAt = t.clock.now();

      const early = await post('/3pl/returns/receive', {
        return: { rma, lines: [{ sku: 'TEE-S', received_quantity: 1 }] },
      });
      expect(early.status).toBe(422);

      t.clock.advance(MINUTE);
      expect((await post(`/v10/returns/${id}/approve`)).status).toBe(200);
      const afterApprove = await returnOf(shop.brand, id);
      const approvedAt = t.clock.now();
      const twice = await post(`/v10/returns/${id}/approve`);
      expect(twice.status).toBe(422);
      expect(twice.body.errors[0].code).toBe('invalid_state_transition');

      t.clock.advance(MINUTE);
      const over = await post('/3pl/returns/receive', {
        return: { rma, lines: [{ sku: 'TEE-S', received_quantity: 3 }] },
      });
      expect(over.status).toBe(422);
      const received = await post('/3pl/returns/receive', {
        return: { rma, lines: [{ sku: 'TEE-S', received_quantity: 2 }] },
      });
      expect(received.status).toBe(200);
      const afterReceipt = await returnOf(shop.brand, id);
      const receivedAt = t.clock.now();
      const again = await post('/3pl/returns/receive', {
        return: { rma, lines: [{ sku: 'TEE-S', received_quantity: 1 }] },
      });
      expect(again.status).toBe(422);

      expect(afterReceipt.credit_notes).toHaveLength(1);
      const creditNote = await creditNoteOf(shop.brand, afterReceipt.credit_notes[0]!.id);
      expect(await ownEvents(t, shop.brand)).toEqual([
        anEvent('return.created', asInEvent(afterCreate), createdAt),
        anEvent('return.approved', asInEvent(afterApprove), approvedAt),
        anEvent('return.received', asInEvent(afterReceipt), receivedAt),
        anEvent('credit_note.created', asInEvent(creditNote), receivedAt),
      ]);
      expect([afterCreate['status'], afterApprove['status'], afterReceipt['status']]).toEqual([
        'open',
        'approved',
        'received',
      ]);
      expect(creditNote).toMatchObject({ status: 'draft', return_id: id });
    });

    it('announces a portal return created at its first upsert, not on replays, updated by an edit, then received and credited as GET showed it', async () => {
      const shop = await seedPortalShop(t);
      const body = (ret: Body) => ({ email: EMAIL, order_number: shop.order.order_number, return: ret });

      const refused = await upsert(t, shop.brand, shop.portal, body({ rma: 'NO-DIGITS', lines: [line('TEE-S')] }));
      expect(refused.status).toBe(422);
      expect(await ownEvents(t, shop.brand)).toEqual([]);

      t.clock.advance(MINUTE);
      const first = await upsert(t, shop.brand, shop.portal, body({ rma: 'RMA-7', lines: [line('TEE-S')] }));
      expect(first.status).toBe(201);
      const id = first.body.return.id as number;
      const afterCreate = await returnOf(shop.brand, id);
      const createdAt = t.clock.now();

      t.clock.advance(MINUTE);
      const replay = await upsert(t, shop.brand, shop.portal, body({ rma: 'RMA-7', lines: [line('TEE-S')] }));
      expect(replay.status).toBe(200);
      const edited = await upsert(
        t,
        shop.brand,
        shop.portal,
        body({ rma: 'RMA-7', notes: 'second thoughts', lines: [line('TEE-S', { quantity: 2 })] }),
      );
      expect(edited.status).toBe(200);
      const afterEdit = await returnOf(shop.brand, id);
      const editedAt = t.clock.now();
      expect(await eventsOfType(t, shop.brand, 'return.created')).toEqual([
        anEvent('return.created', asInEvent(afterCreate), createdAt),
      ]);
      expect(afterCreate).toMatchObject({ status: 'approved', source: 'portal', rma: 'RMA-7', notes: null });
      expect(await ownEvents(t, shop.brand)).toHaveLength(2);

      t.clock.advance(MINUTE);
      const toCredited = await upsert(
        t,
        shop.brand,
        shop.portal,
        body({ rma: 'RMA-7', status: 'credited', lines: [line('TEE-S', { quantity: 2 })] }),
      );
      expect(toCredited.status).toBe(422);
      const receiving = await upsert(
        t,
        shop.brand,
        shop.portal,
        body({ rma: 'RMA-7', status: 'received', lines: [line('TEE-S', { quantity: 2 })] }),
      );
      expect(receiving.status).toBe(200);
      const afterReceipt = await returnOf(shop.brand, id);
      const receivedAt = t.clock.now();
      const creditNote = await creditNoteOf(shop.brand, afterReceipt.credit_notes[0]!.id);

      t.clock.advance(MINUTE);
      const wrong = await finalize(t, shop.brand, shop.portal, { rma: 'RMA-7', refund_total_price_after_vat: 1 });
      expect(wrong.status).toBe(422);
      const settled = { rma: 'RMA-7', refund_total_price_after_vat: creditNote['total'] };
      expect((await finalize(t, shop.brand, shop.portal, settled)).status).toBe(200);
      const afterFinalize = await returnOf(shop.brand, id);
      const creditedAt = t.clock.now();
      t.clock.advance(MINUTE);
      expect((await finalize(t, shop.brand, shop.portal, settled)).status).toBe(200);

      expect(await ownEvents(t, shop.brand)).toEqual([
        anEvent('return.created', asInEvent(afterCreate), createdAt),
        anEvent('return.updated', asInEvent(afterEdit), editedAt),
        anEvent('return.received', asInEvent(afterReceipt), receivedAt),
        anEvent('credit_note.created', asInEvent(creditNote), receivedAt),
        anEvent('return.credited', asInEvent(afterFinalize), creditedAt),
      ]);
      expect(afterEdit).toMatchObject({ notes: 'second thoughts', updated_at: editedAt });
      expect(afterFinalize['status']).toBe('credited');
      expect(await eventsOfType(t, shop.brand, 'return.credited')).toHaveLength(1);
    });

    it('announces a return once when a portal sends its first upsert 10 times at once', async () => {
      const shop = await seedPortalShop(t);
      const body = {
        email: EMAIL,
        order_number: shop.order.order_number,
        return: { rma: 'RACE-9', lines: [line('TEE-S')] },
      };
      const responses = await Promise.all(Array.from({ length: 10 }, () => upsert(t, shop.brand, shop.portal, body)));
      expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
      expect(responses.filter((r) => r.status === 200)).toHaveLength(9);
      const id = responses[0]!.body.return.id as number;

      expect(await ownEvents(t, shop.brand)).toEqual([
        anEvent('return.created', asInEvent(await returnOf(shop.brand, id)), t.clock.now()),
      ]);
    });

    it('announces an ad hoc return without RMA as created and received with its alert, and the credit note drafted from the alert once', async () => {
      const shop = await seedOrderingBrand(t);
      const { shipment } = await aDeliveredOrder(t, shop);
      const post = (path: string, body: Body = {}) => request(t.server).post(path).set(shop.brand.headers).send(body);
      const adHoc = () =>
        post('/3pl/returns/create-ad-hoc-return', {
          return: {
            shipment_number: shipment.shipment_number,
            lines: [{ sku: 'TEE-S', quantity: 1, claim_type: 'return', return_to_inventory: true }],
          },
        });

      const off = await adHoc();
      expect(off.status).toBe(422);
      expect(await ownEvents(t, shop.brand)).toEqual([]);

      await changeSettings(t, shop.brand, { ad_hoc_return_mode: 'alert_if_no_rma' });
      t.clock.advance(MINUTE);
      const made = await adHoc();
      expect(made.status).toBe(201);
      const id = made.body.return.id as number;
      const alertId = made.body.alert_id as number;
      const afterReceipt = await returnOf(shop.brand, id);
      const alert = ((await getOk(t, shop.brand, '/v10/alerts'))['alerts'] as Body[]).find((a) => a['id'] === alertId)!;
      const at = t.clock.now();

      expect(await ownEvents(t, shop.brand)).toEqual([
        anEvent(
          'return.created',
          {
            ...asInEvent(afterReceipt),
            status: 'approved',
            received_at: null,
            lines: (afterReceipt['lines'] as Body[]).map((l) => ({ ...l, received_quantity: 0 })),
          },
          at,
        ),
        anEvent('return.received', asInEvent(afterReceipt), at),
        anEvent('alert.created', alert, at),
      ]);
      expect(alert).toMatchObject({ status: 'open', return_id: id, credit_note_id: null });

      t.clock.advance(MINUTE);
      const issued = await post(`/v10/alerts/${alertId}/credit-note`);
      expect(issued.status).toBe(201);
      const creditNote = await creditNoteOf(shop.brand, issued.body.credit_note.id as number);
      const twice = await post(`/v10/alerts/${alertId}/credit-note`);
      expect(twice.status).toBe(422);

      const resolved = ((await getOk(t, shop.brand, '/v10/alerts'))['alerts'] as Body[]).find(
        (a) => a['id'] === alertId,
      )!;

      expect(await eventsOfType(t, shop.brand, 'credit_note.created')).toEqual([
        anEvent('credit_note.created', asInEvent(creditNote), t.clock.now()),
      ]);
      expect(await eventsOfType(t, shop.brand, 'alert.resolved')).toEqual([
        anEvent('alert.resolved', resolved, t.clock.now()),
      ]);
      expect(resolved).toMatchObject({
        status: 'resolved',
        credit_note_id: creditNote['id'],
        resolved_at: t.clock.now(),
      });
      expect((await ownEvents(t, shop.brand)).map((e) => e['type'])).toEqual([
        'return.created',
        'return.received',
        'alert.created',
        'credit_note.created',
        'alert.resolved',
      ]);
    });

    it('announces return.updated only for a portal upsert that changes the return; not for one that changes nothing, a refused or a rolled-back one', async () => {
      const shop = await seedPortalShop(t);
      const body = (ret: Body) => ({ return: { rma: 'RMA-8', lines: [line('TEE-S')], ...ret } });
      const first = await upsert(t, shop.brand, shop.portal, {
        email: EMAIL,
        order_number: shop.order.order_number,
        ...body({ track_trace: 'PN1' }),
      });
      expect(first.status).toBe(201);
      const id = first.body.return.id as number;

      t.clock.advance(MINUTE);
      // The same fields again (left-out ones keep their value): nothing changed, nothing announced.
      expect((await upsert(t, shop.brand, shop.portal, body({}))).status).toBe(200);
      expect((await upsert(t, shop.brand, shop.portal, body({ track_trace: 'PN1' }))).status).toBe(200);
      const unknownSku = await upsert(t, shop.brand, shop.portal, body({ lines: [line('NOPE')] }));
      expect(unknownSku.status).toBe(422);
      const wrongOrder = await upsert(t, shop.brand, shop.portal, { order_number: 999_999, ...body({ notes: 'x' }) });
      expect(wrongOrder.status).toBe(422);
      const failing = storageFailingBeforeCommit(t.storage);
      const server = await listenOnLoopback(buildApp(failing.storage, t.clock));
      try {
        failing.failNext('returns');
        const rolledBack = await request(server)
          .put(`/v10/external-return-portals/${shop.portal}/returns`)
          .set(shop.brand.headers)
          .send(body({ notes: 'never' }));
        expect(rolledBack.status).toBe(500);
      } finally {
        await closeServer(server);
      }
      expect((await ownEvents(t, shop.brand)).map((e) => e['type'])).toEqual(['return.created']);
      expect((await returnOf(shop.brand, id))['notes']).toBeNull();

      t.clock.advance(MINUTE);
      const changed = await upsert(t, shop.brand, shop.portal, body({ track_trace: 'PN2', return_fee_incl_vat: 2.5 }));
      expect(changed.status).toBe(200);
      const afterChange = await returnOf(shop.brand, id);
      expect(await eventsOfType(t, shop.brand, 'return.updated')).toEqual([
        anEvent('return.updated', asInEvent(afterChange), t.clock.now()),
      ]);
      expect(afterChange).toMatchObject({ track_trace: 'PN2', return_fee_incl_vat: 2.5, updated_at: t.clock.now() });
      // One timeline entry for the change: the event's.
      expect((afterChange['timeline'] as Body[]).map((e) => e['kind'])).toEqual(['created', 'updated']);
    });
  });
}
