import {
  AdHocReturnLineInput,
  AdHocReturnMode,
  createAdHocReturn,
  creditNoteFromAlert,
  getReturn,
  listAlerts,
  listCreditNotes,
  listReturns,
  updateBrandSettings,
} from '../src';
import { World, aWorld, domainErrorOf, listOf, stockOf } from './orders-fixtures';
import { aClaimCause, aDeliveredOrder, anRma, lineSummary, returnNow } from './returns.support';

async function inMode(mode: AdHocReturnMode | null): Promise<World> {
  const world = await aWorld();
  await updateBrandSettings(world.deps, { brandId: world.brand.id, changes: { adHocReturnMode: mode } });
  return world;
}

const adHoc = (
  world: World,
  shipmentNumber: number,
  lines: Array<Partial<AdHocReturnLineInput> & { quantity: number }>,
) =>
  createAdHocReturn(world.deps, {
    brandId: world.brand.id,
    userId: 9,
    shipmentNumber,
    lines: lines.map((l) => ({ claimType: 'return', returnToInventory: true, ...l })),
  });

describe('ad hoc returns (POST /3pl/returns/create-ad-hoc-return)', () => {
  it('are refused while the brand has no ad hoc return mode', async () => {
    const world = await inMode(null);
    const { shipment } = await aDeliveredOrder(world);
    const error = await domainErrorOf(adHoc(world, shipment.shipmentNumber, [{ sku: 'TEE-M', quantity: 1 }]));
    expect(error).toMatchObject({
      code: 'validation_failed',
      message: 'ad hoc returns are off: set ad_hoc_return_mode',
    });
    expect((await listReturns(world.deps, listOf(world))).page.items).toEqual([]);
  });

  it('always_credit_note: makes a received ad hoc return with a credit note, restocking only returned pieces sent back to inventory', async () => {
    const world = await inMode('always_credit_note');
    const { order, shipment } = await aDeliveredOrder(world);
    const cause = await aClaimCause(world, 'damaged');
    // An approved RMA that would match is ignored in this mode.
    await anRma(world, order.orderNumber, [{ sku: 'TEE-M', quantity: 1 }]);
    const before = { tee: await stockOf(world, 11), cap: await stockOf(world, 12) };

    const outcome = await adHoc(world, shipment.shipmentNumber, [
      { sku: 'TEE-M', quantity: 1 },
      { ean: '4006', quantity: 1, claimType: 'claim', claimCauseCode: 'DAMAGED', shouldRefundStorefront: false },
    ]);

    expect(outcome).toMatchObject({ matchedRma: false, alert: null });
    expect(outcome.ret).toMatchObject({
      source: 'ad_hoc',
      status: 'received',
      shipmentId: shipment.id,
      orderId: order.id,
      returnNumber: 2,
      rma: '2',
    });
    expect(lineSummary(outcome.ret.lines)).toEqual([
      ['TEE-M', 1, 1, 'return'],
      ['CAP-S', 1, 1, 'claim'],
    ]);
    expect(outcome.ret.lines.map((l) => [l.claimCauseId, l.refundStorefront, l.unitPrice])).toEqual([
      [null, true, 1000],
      [cause.id, false, 500],
    ]);
    expect(outcome.creditNote).toMatchObject({
      returnId: outcome.ret.id,
      status: 'draft',
      netTotal: 1500,
      total: 1875,
    });
    expect((await stockOf(world, 11)).inStock).toBe(before.tee.inStock + 1);
    expect(await stockOf(world, 12)).toEqual(before.cap);
  });

  it('does not restock pieces the warehouse keeps out of inventory', async () => {
    const world = await inMode('always_credit_note');
    const { shipment } = await aDeliveredOrder(world);
    const before = await stockOf(world, 11);
    await adHoc(world, shipment.shipmentNumber, [{ sku: 'TEE-M', quantity: 2, returnToInventory: false }]);
    expect(await stockOf(world, 11)).toEqual(before);
  });

  it('credit_note_if_no_rma: receives the approved RMA of the order that expects the pieces instead of making a return', async () => {
    const world = await inMode('credit_note_if_no_rma');
    const { order, shipment } = await aDeliveredOrder(world);
    const tooSmall = await anRma(world, order.orderNumber, [{ sku: 'TEE-M', quantity: 1 }]);
    const matching = await anRma(world, order.orderNumber, [
      { sku: 'TEE-M', quantity: 2 },
      { sku: 'CAP-S', quantity: 1 },
    ]);

    const outcome = await adHoc(world, shipment.shipmentNumber, [{ sku: 'TEE-M', quantity: 2 }]);

    expect(outcome.matchedRma).toBe(true);
    expect(outcome.ret.id).toBe(matching.id);
    expect(lineSummary(outcome.ret.lines)).toEqual([
      ['TEE-M', 2, 2, 'return'],
      ['CAP-S', 1, 0, 'return'],
    ]);
    expect(outcome.creditNote).toMatchObject({ returnId: matching.id, netTotal: 2000 });
    expect((await returnNow(world, tooSmall.id)).status).toBe('approved');
    expect((await listReturns(world.deps, listOf(world))).page.items).toHaveLength(2);
    const timeline = (await getReturn(world.deps, { brandId: world.brand.id, returnId: matching.id })).timeline.map(
      (e) => e.kind,
    );
    expect(timeline).toEqual(['created', 'approved', 'received', 'ad_hoc_matched']);
  });

  it('credit_note_if_no_rma: makes an ad hoc return with a credit note when no RMA matches', async () => {
    const world = await inMode('credit_note_if_no_rma');
    const { order, shipment } = await aDeliveredOrder(world);
    await anRma(world, order.orderNumber, [{ sku: 'TEE-M', quantity: 1 }], { approve: false });

    const outcome = await adHoc(world, shipment.shipmentNumber, [{ sku: 'TEE-M', quantity: 1 }]);

    expect(outcome).toMatchObject({ matchedRma: false, alert: null, ret: { source: 'ad_hoc', status: 'received' } });
    expect(outcome.creditNote).not.toBeNull();
  });

  it('alert_if_no_rma: makes the return without a credit note and an open alert, from which staff issue the credit note once', async () => {
    const world = await inMode('alert_if_no_rma');
    const { shipment } = await aDeliveredOrder(world);

    const outcome = await adHoc(world, shipment.shipmentNumber, [{ sku: 'TEE-M', quantity: 1 }]);

    expect(outcome.creditNote).toBeNull();
    expect(outcome.alert).toMatchObject({
      kind: 'ad_hoc_return_without_rma',
      status: 'open',
      returnId: outcome.ret.id,
      creditNoteId: null,
    });
    expect(outcome.ret.status).toBe('received');
    expect((await listCreditNotes(world.deps, listOf(world))).page.items).toEqual([]);
    expect(
      (
        await listAlerts(
          world.deps,
          listOf(world, { filter_groups: [{ filters: [{ key: 'status', operator: 'eq', value: 'open' }] }] }),
        )
      ).page.items,
    ).toHaveLength(1);

    const { alert, creditNote } = await creditNoteFromAlert(world.deps, {
      brandId: world.brand.id,
      userId: 7,
      alertId: outcome.alert!.id,
    });

    expect(alert).toMatchObject({ status: 'resolved', creditNoteId: creditNote.id, resolvedAt: world.clock.now() });
    expect(creditNote).toMatchObject({ returnId: outcome.ret.id, status: 'draft', netTotal: 1000, total: 1250 });
    const again = await domainErrorOf(
      creditNoteFromAlert(world.deps, { brandId: world.brand.id, userId: 7, alertId: alert.id }),
    );
    expect(again.code).toBe('invalid_state_transition');
    expect((await listCreditNotes(world.deps, listOf(world))).page.items).toHaveLength(1);
    expect(
      (await domainErrorOf(creditNoteFromAlert(world.deps, { brandId: world.brand.id, userId: 7, alertId: 999 }))).code,
    ).toBe('not_found');
  });

  it('refuses an unknown shipment, a variant not on it, more pieces than it holds and a bad claim type, all at once and writing nothing', async () => {
    const world = await inMode('always_credit_note');
    const { shipment } = await aDeliveredOrder(world);
    const before = await stockOf(world, 11);

    const unknown = await domainErrorOf(adHoc(world, 999, [{ sku: 'TEE-M', quantity: 1 }]));
    expect(unknown.violations).toEqual([
      { pointer: '/return/shipment_number', detail: 'return.shipment_number 999 is not a shipment of this brand' },
    ]);

    const error = await domainErrorOf(
      adHoc(world, shipment.shipmentNumber, [
        { sku: 'TEE-M', quantity: 4 },
        { sku: 'SOCK-L', quantity: 1 },
        { sku: 'CAP-S', quantity: 1, claimType: 'refund' },
        { sku: 'CAP-S', quantity: 1, claimCauseCode: 'nope' },
      ]),
    );
    expect(error.violations.map((v) => v.pointer)).toEqual([
      '/return/lines/1/sku',
      '/return/lines/2/claim_type',
      '/return/lines/3/claim_cause_code',
      '/return/lines/0/quantity',
    ]);
    expect(error.violations[3]!.detail).toContain('4 pieces reported, but shipment 1 holds 3');
    expect((await listReturns(world.deps, listOf(world))).page.items).toEqual([]);
    expect(await stockOf(world, 11)).toEqual(before);
  });
});
