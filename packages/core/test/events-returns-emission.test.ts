import {
  AdHocReturnLineInput,
  AdHocReturnMode,
  DomainEvent,
  PortalReturnLineInput,
  UnitOfWork,
  approveReturn,
  createAdHocReturn,
  createReturn,
  createReturnPortal,
  creditNoteFromAlert,
  finalizePortalReturn,
  getCreditNote,
  getReturn,
  listAlerts,
  listEvents,
  receiveThirdPartyReturn,
  upsertPortalReturn,
} from '../src';
import { errorOf, product, setUpShop, variant } from './orders-shop.support';

/*
 * The returns module's events: return.created / updated / approved / received / credited,
 * alert.created / resolved, and credit_note.created for the credit notes a receipt or an alert drafts. Each is written in
 * the transaction of its change, with the object as storage has it afterwards.
 */

type ReturnsEvent = DomainEvent<
  | 'return.created'
  | 'return.updated'
  | 'return.approved'
  | 'return.received'
  | 'return.credited'
  | 'alert.created'
  | 'alert.resolved'
  | 'credit_note.created'
>;
const OWN_TYPES: ReadonlySet<string> = new Set([
  'return.created',
  'return.updated',
  'return.approved',
  'return.received',
  'return.credited',
  'alert.created',
  'alert.resolved',
  'credit_note.created',
]);

const EMAIL = 'anna@example.com';

/**
 * A B2C shop (prices incl. VAT) with TEE-M and TEE-L, an order of 3 × TEE-M and 1 × TEE-L by
 * EMAIL placed on a channel that approves at once (so it has a shipment), and a custom portal.
 */
async function aReturnsShop() {
  const shop = await setUpShop();
  await shop.products([product('TEE', { variants: [variant('TEE-M'), variant('TEE-L')] })]);
  await shop.customers([{ customerNumber: 'C-1', name: 'Anna', currency: 'EUR' }]);
  const channel = await shop.channel('b2c', { autoApprove: true });
  const { order, shipment } = await shop.place(channel, {
    customerNumber: 'C-1',
    email: EMAIL,
    lines: [
      { sku: 'TEE-M', quantity: 3 },
      { sku: 'TEE-L', quantity: 1 },
    ],
  });
  const portal = await createReturnPortal(
    { uow: shop.uow, clock: shop.clock, hasher: shop.hasher },
    { brandId: shop.brand.id, name: 'Webshop returns', type: 'custom' },
  );
  const by = { brandId: shop.brand.id, userId: shop.user.id };

  /** The brand's returns events, oldest first (other modules' events beside them are left out). */
  const events = async (): Promise<ReturnsEvent[]> =>
    (await listEvents(shop.deps, { brandId: shop.brand.id, query: { limit: '100' } })).page.items.filter(
      (event): event is ReturnsEvent => OWN_TYPES.has(event.type),
    );
  const readReturn = (returnId: number) => getReturn(shop.deps, { brandId: shop.brand.id, returnId });
  const readCreditNote = async (creditNoteId: number) =>
    (await getCreditNote(shop.deps, { brandId: shop.brand.id, creditNoteId })).creditNote;
  const readAlert = async (alertId: number) =>
    (await listAlerts(shop.deps, { brandId: shop.brand.id, query: {} })).page.items.find((a) => a.id === alertId)!;

  const upsert = (ret: { rma?: string; status?: string; notes?: string | null; lines?: PortalReturnLineInput[] }) =>
    upsertPortalReturn(shop.deps, {
      ...by,
      appInternalCode: null,
      publicId: portal.publicId,
      email: EMAIL,
      orderNumber: order.orderNumber,
      ret: { rma: 'RMA-0042', lines: [teeM()], ...ret },
    });
  const finalize = (rma: string, refundTotal: number) =>
    finalizePortalReturn(shop.deps, {
      ...by,
      appInternalCode: null,
      publicId: portal.publicId,
      rma,
      refundTotal,
      exchangeTotal: 0,
    });
  const adHoc = (lines: Array<Partial<AdHocReturnLineInput> & { quantity: number }>) =>
    createAdHocReturn(shop.deps, {
      ...by,
      shipmentNumber: shipment!.shipmentNumber,
      lines: lines.map((l) => ({ sku: 'TEE-M', claimType: 'return', returnToInventory: true, ...l })),
    });
  const inMode = (adHocReturnMode: AdHocReturnMode | null) => shop.settings({ adHocReturnMode });

  return { shop, order, by, events, readReturn, readCreditNote, readAlert, upsert, finalize, adHoc, inMode };
}

/** One TEE-M paid 49.95 incl. VAT, claim type return. */
const teeM = (extra: Partial<PortalReturnLineInput> = {}): PortalReturnLineInput => ({
  sku: 'TEE-M',
  quantity: 1,
  claimType: 'return',
  unitPriceInclVat: 4995,
  ...extra,
});

const event = (type: ReturnsEvent['type'], object: unknown, createdAt: string) => ({
  id: expect.any(Number),
  brandId: expect.any(Number),
  type,
  object,
  createdAt,
});

describe('back-office return events', () => {
  it('announces an RMA as created, approved and received, each with the return as read back, at the instant of its change', async () => {
    const t = await aReturnsShop();
    t.shop.clock.advance(60_000);
    const created = await createReturn(t.shop.deps, {
      ...t.by,
      orderNumber: t.order.orderNumber,
      notes: 'parcel by post',
      lines: [{ sku: 'TEE-M', quantity: 2, claimType: 'return' }],
    });
    const afterCreate = (await t.readReturn(created.id)).ret;
    const createdAt = t.shop.clock.now();
    t.shop.clock.advance(60_000);
    await approveReturn(t.shop.deps, { ...t.by, returnId: created.id });
    const afterApprove = (await t.readReturn(created.id)).ret;
    const approvedAt = t.shop.clock.now();
    t.shop.clock.advance(60_000);
    const { creditNote } = await receiveThirdPartyReturn(t.shop.deps, {
      ...t.by,
      rma: created.rma,
      lines: [{ sku: 'TEE-M', receivedQuantity: 1 }],
    });
    const afterReceipt = await t.readReturn(created.id);

    expect(afterCreate.status).toBe('open');
    expect(afterApprove.status).toBe('approved');
    expect(afterReceipt.ret.status).toBe('received');
    expect(afterReceipt.creditNotes).toHaveLength(1);
    expect(await t.events()).toEqual([
      event('return.created', afterCreate, createdAt),
      event('return.approved', afterApprove, afterApprove.approvedAt!),
      event('return.received', afterReceipt.ret, afterReceipt.ret.receivedAt!),
      event('credit_note.created', afterReceipt.creditNotes[0], afterReceipt.ret.receivedAt!),
    ]);
    expect(afterApprove.approvedAt).toBe(approvedAt);
    expect(afterReceipt.creditNotes[0]).toEqual(await t.readCreditNote(creditNote!.id));
    expect(afterReceipt.ret.receivedAt).toBe(t.shop.clock.now());
  });

  it('announces nothing for refused calls: too many pieces, approving twice, receiving an open RMA or more than it expects', async () => {
    const t = await aReturnsShop();
    const tooMany = await errorOf(
      createReturn(t.shop.deps, {
        ...t.by,
        orderNumber: t.order.orderNumber,
        lines: [{ sku: 'TEE-M', quantity: 4, claimType: 'return' }],
      }),
    );
    expect(tooMany.code).toBe('validation_failed');
    expect(await t.events()).toEqual([]);

    const open = await createReturn(t.shop.deps, {
      ...t.by,
      orderNumber: t.order.orderNumber,
      lines: [{ sku: 'TEE-M', quantity: 1, claimType: 'return' }],
    });
    const early = await errorOf(
      receiveThirdPartyReturn(t.shop.deps, { ...t.by, rma: open.rma, lines: [{ sku: 'TEE-M', receivedQuantity: 1 }] }),
    );
    expect(early.code).toBe('invalid_state_transition');
    await approveReturn(t.shop.deps, { ...t.by, returnId: open.id });
    const twice = await errorOf(approveReturn(t.shop.deps, { ...t.by, returnId: open.id }));
    expect(twice.code).toBe('invalid_state_transition');
    const over = await errorOf(
      receiveThirdPartyReturn(t.shop.deps, { ...t.by, rma: open.rma, lines: [{ sku: 'TEE-M', receivedQuantity: 2 }] }),
    );
    expect(over.code).toBe('validation_failed');

    expect((await t.events()).map((e) => e.type)).toEqual(['return.created', 'return.approved']);
  });

  it('announces nothing of a receipt that fails after its events were written: they roll back with it', async () => {
    const t = await aReturnsShop();
    const ret = await createReturn(t.shop.deps, {
      ...t.by,
      orderNumber: t.order.orderNumber,
      lines: [{ sku: 'TEE-M', quantity: 1, claimType: 'return' }],
    });
    await approveReturn(t.shop.deps, { ...t.by, returnId: ret.id });
    // The credit note is saved after return.received was recorded; its save fails.
    const failing = failingCreditNoteSaves(t.shop.uow);
    await expect(
      receiveThirdPartyReturn(
        { uow: failing, clock: t.shop.clock },
        { ...t.by, rma: ret.rma, lines: [{ sku: 'TEE-M', receivedQuantity: 1 }] },
      ),
    ).rejects.toThrow('credit note storage is down');

    expect((await t.readReturn(ret.id)).ret.status).toBe('approved');
    expect((await t.events()).map((e) => e.type)).toEqual(['return.created', 'return.approved']);
  });
});

/** A unit of work over `uow` whose transactions fail when they save a credit note. */
function failingCreditNoteSaves(uow: UnitOfWork): UnitOfWork {
  return {
    read: (work) => uow.read(work),
    run: (work) =>
      uow.run((tx) =>
        work(
          new Proxy(tx, {
            get(target, key, receiver) {
              if (key !== 'creditNotes') return Reflect.get(target, key, receiver);
              const creditNotes = target.creditNotes;
              return new Proxy(creditNotes, {
                get(repo, name) {
                  if (name === 'save') return () => Promise.reject(new Error('credit note storage is down'));
                  const value = Reflect.get(repo, name) as unknown;
                  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(repo) : value;
                },
              });
            },
          }),
        ),
      ),
  };
}

describe('portal return events', () => {
  it('announces a portal return as created at its first upsert (approved), not on replays, updated by an edit, then received and credited', async () => {
    const t = await aReturnsShop();
    t.shop.clock.advance(60_000);
    const first = await t.upsert({ notes: 'box is damaged' });
    expect(first.created).toBe(true);
    const afterCreate = (await t.readReturn(first.ret.id)).ret;
    const createdAt = t.shop.clock.now();

    t.shop.clock.advance(60_000);
    expect((await t.upsert({ notes: 'box is damaged' })).created).toBe(false);
    const edited = await t.upsert({ notes: 'box is fine', lines: [teeM({ quantity: 2 })] });
    expect(edited.ret.notes).toBe('box is fine');
    const afterEdit = (await t.readReturn(first.ret.id)).ret;
    expect(await t.events()).toEqual([
      event('return.created', afterCreate, createdAt),
      event('return.updated', afterEdit, t.shop.clock.now()),
    ]);
    expect(afterEdit.updatedAt).toBe(t.shop.clock.now());
    expect(afterCreate).toMatchObject({ status: 'approved', source: 'portal', rma: 'RMA-0042' });

    t.shop.clock.advance(60_000);
    const received = await t.upsert({ notes: 'box is fine', lines: [teeM({ quantity: 2 })], status: 'received' });
    const afterReceipt = await t.readReturn(first.ret.id);
    expect(received.ret).toEqual(afterReceipt.ret);
    const [creditNote] = afterReceipt.creditNotes;

    t.shop.clock.advance(60_000);
    await t.finalize('RMA-0042', creditNote!.total);
    const afterFinalize = (await t.readReturn(first.ret.id)).ret;
    expect(afterFinalize.status).toBe('credited');
    // Finalizing again books nothing and changes nothing: nothing to announce.
    t.shop.clock.advance(60_000);
    await t.finalize('RMA-0042', creditNote!.total);

    expect(await t.events()).toEqual([
      event('return.created', afterCreate, createdAt),
      event('return.updated', afterEdit, afterEdit.updatedAt),
      event('return.received', afterReceipt.ret, afterReceipt.ret.receivedAt!),
      event('credit_note.created', creditNote, afterReceipt.ret.receivedAt!),
      event('return.credited', afterFinalize, afterFinalize.creditedAt!),
    ]);
    expect(afterReceipt.ret.lines.map((l) => l.receivedQuantity)).toEqual([2]);
  });

  it('announces a return created received in one upsert as created (as made, nothing received), then received', async () => {
    const t = await aReturnsShop();
    const { ret, created } = await t.upsert({ status: 'received' });
    expect(created).toBe(true);
    const after = await t.readReturn(ret.id);

    const events = await t.events();
    expect(events.map((e) => e.type)).toEqual(['return.created', 'return.received', 'credit_note.created']);
    expect(events[0]!.object).toEqual({
      ...after.ret,
      status: 'approved',
      receivedAt: null,
      lines: after.ret.lines.map((l) => ({ ...l, receivedQuantity: 0 })),
    });
    expect(events[1]!.object).toEqual(after.ret);
    expect(events[2]!.object).toEqual(after.creditNotes[0]);
    expect(new Set(events.map((e) => e.createdAt))).toEqual(new Set([after.ret.createdAt]));
  });

  it('announces a receipt with the lines as storage keeps them (by id), though the portal listed a new line first', async () => {
    const t = await aReturnsShop();
    const { ret } = await t.upsert({});
    await t.upsert({ lines: [teeM({ sku: 'TEE-L' }), teeM()], status: 'received' });
    const after = await t.readReturn(ret.id);
    expect(after.ret.lines.map((l) => l.sku)).toEqual(['TEE-M', 'TEE-L']);

    const events = await t.events();
    expect(events.map((e) => e.type)).toEqual(['return.created', 'return.received', 'credit_note.created']);
    expect(events[1]!.object).toEqual(after.ret);
  });

  it('announces an edit received in the same upsert as received only (its object carries the edit), one timeline entry each', async () => {
    const t = await aReturnsShop();
    const { ret } = await t.upsert({});
    t.shop.clock.advance(60_000);
    await t.upsert({ notes: 'two after all', lines: [teeM({ quantity: 2 })], status: 'received' });
    const after = await t.readReturn(ret.id);
    // After the receipt the lines are fixed: a refused edit announces nothing.
    const refused = await errorOf(t.upsert({ lines: [teeM({ quantity: 1 })] }));
    expect(refused.code).toBe('validation_failed');

    const events = await t.events();
    expect(events.map((e) => e.type)).toEqual(['return.created', 'return.received', 'credit_note.created']);
    expect(events[1]!.object).toEqual(after.ret);
    expect(after.ret).toMatchObject({ notes: 'two after all', status: 'received' });
    expect(after.timeline.map((e) => e.kind)).toEqual(['created', 'updated', 'received']);
  });

  it('announces nothing for refused upserts and finalizes', async () => {
    const t = await aReturnsShop();
    const noDigit = await errorOf(t.upsert({ rma: 'RMA-X' }));
    expect(noDigit.code).toBe('validation_failed');
    const unknownSku = await errorOf(t.upsert({ lines: [teeM({ sku: 'NOPE' })] }));
    expect(unknownSku.code).toBe('validation_failed');
    expect(await t.events()).toEqual([]);

    await t.upsert({});
    const toCredited = await errorOf(t.upsert({ status: 'credited' }));
    expect(toCredited.code).toBe('invalid_state_transition');
    const notReceived = await errorOf(t.finalize('RMA-0042', 4995));
    expect(notReceived.code).toBe('validation_failed');
    await t.upsert({ status: 'received' });
    const wrongAmount = await errorOf(t.finalize('RMA-0042', 1000));
    expect(wrongAmount.code).toBe('validation_failed');

    expect((await t.events()).map((e) => e.type)).toEqual(['return.created', 'return.received', 'credit_note.created']);
  });
});

describe('ad hoc return and alert events', () => {
  it('always_credit_note: announces the new return as created (approved, nothing received), received, and its credit note', async () => {
    const t = await aReturnsShop();
    await t.inMode('always_credit_note');
    t.shop.clock.advance(60_000);
    const outcome = await t.adHoc([{ quantity: 2 }]);
    const after = await t.readReturn(outcome.ret.id);

    expect(await t.events()).toEqual([
      event(
        'return.created',
        {
          ...after.ret,
          status: 'approved',
          receivedAt: null,
          lines: after.ret.lines.map((l) => ({ ...l, receivedQuantity: 0 })),
        },
        t.shop.clock.now(),
      ),
      event('return.received', after.ret, t.shop.clock.now()),
      event('credit_note.created', await t.readCreditNote(outcome.creditNote!.id), t.shop.clock.now()),
    ]);
    expect(after.ret).toMatchObject({ source: 'ad_hoc', status: 'received', approvedAt: t.shop.clock.now() });
  });

  it('alert_if_no_rma: announces the return and its alert; the credit note drafted from the alert later, once', async () => {
    const t = await aReturnsShop();
    await t.inMode('alert_if_no_rma');
    const { ret, alert } = await t.adHoc([{ quantity: 1 }]);
    const after = await t.readReturn(ret.id);
    const alertAfter = await t.readAlert(alert!.id);
    const at = t.shop.clock.now();

    expect(await t.events()).toEqual([
      event('return.created', expect.objectContaining({ id: ret.id, status: 'approved' }), at),
      event('return.received', after.ret, at),
      event('alert.created', alertAfter, at),
    ]);
    expect(alertAfter).toMatchObject({ status: 'open', returnId: ret.id });

    t.shop.clock.advance(60_000);
    const { creditNote } = await creditNoteFromAlert(t.shop.deps, { ...t.by, alertId: alert!.id });
    const again = await errorOf(creditNoteFromAlert(t.shop.deps, { ...t.by, alertId: alert!.id }));
    expect(again.code).toBe('invalid_state_transition');

    const events = await t.events();
    expect(events.slice(3)).toEqual([
      event('credit_note.created', await t.readCreditNote(creditNote.id), t.shop.clock.now()),
      event('alert.resolved', await t.readAlert(alert!.id), t.shop.clock.now()),
    ]);
    expect(events[4]!.object).toMatchObject({ status: 'resolved', creditNoteId: creditNote.id });
    expect(creditNote.returnId).toBe(ret.id);
  });

  it('credit_note_if_no_rma: a matching RMA is announced received, not created', async () => {
    const t = await aReturnsShop();
    await t.inMode('credit_note_if_no_rma');
    const rma = await createReturn(t.shop.deps, {
      ...t.by,
      orderNumber: t.order.orderNumber,
      lines: [{ sku: 'TEE-M', quantity: 2, claimType: 'return' }],
    });
    await approveReturn(t.shop.deps, { ...t.by, returnId: rma.id });
    t.shop.clock.advance(60_000);
    const outcome = await t.adHoc([{ quantity: 2 }]);
    expect(outcome.matchedRma).toBe(true);
    const after = await t.readReturn(rma.id);

    expect((await t.events()).slice(2)).toEqual([
      event('return.received', after.ret, t.shop.clock.now()),
      event('credit_note.created', after.creditNotes[0], t.shop.clock.now()),
    ]);
  });

  it('announces nothing for refused ad hoc returns: mode off, or more pieces than the shipment holds', async () => {
    const t = await aReturnsShop();
    await t.inMode(null);
    expect((await errorOf(t.adHoc([{ quantity: 1 }]))).code).toBe('validation_failed');
    await t.inMode('alert_if_no_rma');
    expect((await errorOf(t.adHoc([{ quantity: 4 }]))).code).toBe('validation_failed');
    expect(await t.events()).toEqual([]);
  });
});
