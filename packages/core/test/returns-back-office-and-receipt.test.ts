import {
  Return,
  approveReturn,
  createReturn,
  exportThirdPartyReturns,
  getReturn,
  listReturns,
  listThirdPartyReturns,
  markDocumentsExported,
  receiveThirdPartyReturn,
} from '../src';
import { receiveReturnPieces } from '../src/returns/receive-return-pieces';
import { World, aWorld, anOrder, domainErrorOf, listOf, stockOf } from './orders-fixtures';
import { TEE, aClaimCause, aDeliveredOrder, anRma, lineSummary, returnNow } from './returns.support';

const receive = (world: World, rma: string, lines: Array<{ sku?: string; ean?: string; receivedQuantity: number }>) =>
  receiveThirdPartyReturn(world.deps, { brandId: world.brand.id, userId: 9, rma, lines });

describe('announcing a return in the back office', () => {
  it('creates an open RMA numbered from the brand series, priced and described as the order lines', async () => {
    const world = await aWorld();
    const { order } = await aDeliveredOrder(world);
    const cause = await aClaimCause(world, 'TOO_SMALL');

    const ret = await createReturn(world.deps, {
      brandId: world.brand.id,
      userId: 7,
      orderNumber: order.orderNumber,
      notes: 'parcel via post',
      lines: [
        { sku: 'TEE-M', quantity: 2, claimType: 'return', claimCauseCode: 'too_small' },
        { ean: '4006', quantity: 1, claimType: 'claim' },
      ],
    });

    expect(ret).toMatchObject({
      status: 'open',
      source: 'back_office',
      returnNumber: 1,
      rma: '1',
      rmaNumber: 1,
      orderId: order.id,
      orderNumber: order.orderNumber,
      customerId: order.customerId,
      currency: 'EUR',
      vatRateBasisPoints: 2500,
      pricesIncludeVat: false,
      notes: 'parcel via post',
      createdByUserId: 7,
    });
    expect(
      ret.lines.map((l) => [
        l.sku,
        l.expectedQuantity,
        l.claimType,
        l.claimCauseId,
        l.unitPrice,
        l.orderLineId,
        l.regulateInventory,
      ]),
    ).toEqual([
      ['TEE-M', 2, 'return', cause.id, 1000, order.lines[0]!.id, true],
      ['CAP-S', 1, 'claim', null, 500, order.lines[1]!.id, true],
    ]);
    const detail = await getReturn(world.deps, { brandId: world.brand.id, returnId: ret.id });
    expect(detail.timeline.map((e) => e.kind)).toEqual(['created']);
    expect(detail.creditNotes).toEqual([]);
  });

  it('spreads the pieces of a variant over its order lines and prices each share as its line', async () => {
    const world = await aWorld();
    const order = await anOrder(world, {
      lines: [
        { ...TEE, quantity: 1, unitPrice: 1000 },
        { ...TEE, quantity: 2, unitPrice: 800, discountBasisPoints: 1000 },
      ],
    });

    const ret = await createReturn(world.deps, {
      brandId: world.brand.id,
      userId: null,
      orderNumber: order.orderNumber,
      lines: [{ sku: 'TEE-M', quantity: 3, claimType: 'return' }],
    });

    expect(ret.lines.map((l) => [l.orderLineId, l.expectedQuantity, l.unitPrice, l.discountBasisPoints])).toEqual([
      [order.lines[0]!.id, 1, 1000, 0],
      [order.lines[1]!.id, 2, 800, 1000],
    ]);
  });

  it('refuses more pieces than the order holds less what its other returns expect, naming the line, and creates nothing', async () => {
    const world = await aWorld();
    const { order } = await aDeliveredOrder(world);
    await anRma(world, order.orderNumber, [{ sku: 'TEE-M', quantity: 2 }]);

    const error = await domainErrorOf(
      createReturn(world.deps, {
        brandId: world.brand.id,
        userId: null,
        orderNumber: order.orderNumber,
        lines: [
          { sku: 'CAP-S', quantity: 2, claimType: 'return' },
          { sku: 'TEE-M', quantity: 2, claimType: 'return' },
        ],
      }),
    );

    expect(error.code).toBe('validation_failed');
    expect(error.violations).toEqual([
      {
        pointer: '/lines/1/quantity',
        detail: expect.stringContaining('order 1 has 3 and other returns already expect 2'),
      },
    ]);
    expect((await listReturns(world.deps, listOf(world))).page.items).toHaveLength(1);
  });

  it('refuses an unknown order, a draft order, a variant not on the order, a bad claim type and unknown or ambiguous claim causes', async () => {
    const world = await aWorld();
    const { order } = await aDeliveredOrder(world);
    const draft = await anOrder(world, { status: 'draft', lines: [TEE] });
    await aClaimCause(world, 'damaged');
    await aClaimCause(world, 'DAMAGED');

    const unknown = await domainErrorOf(
      createReturn(world.deps, {
        brandId: world.brand.id,
        userId: null,
        orderNumber: 999,
        lines: [{ sku: 'TEE-M', quantity: 1, claimType: 'return' }],
      }),
    );
    expect(unknown.violations).toEqual([
      { pointer: '/order_number', detail: 'order_number 999 is not an order of this brand' },
    ]);
    const notReturnable = await domainErrorOf(
      createReturn(world.deps, {
        brandId: world.brand.id,
        userId: null,
        orderNumber: draft.orderNumber,
        lines: [{ sku: 'TEE-M', quantity: 1, claimType: 'return' }],
      }),
    );
    expect(notReturnable.violations[0]).toMatchObject({
      pointer: '/order_number',
      detail: expect.stringContaining('is draft'),
    });

    const lines = await domainErrorOf(
      createReturn(world.deps, {
        brandId: world.brand.id,
        userId: null,
        orderNumber: order.orderNumber,
        lines: [
          { sku: 'SOCK-L', quantity: 1, claimType: 'return' },
          { sku: 'TEE-M', quantity: 1, claimType: 'refund' },
          { sku: 'TEE-M', quantity: 1, claimType: 'claim', claimCauseCode: 'Damaged' },
          { sku: 'CAP-S', quantity: 1, claimType: 'claim', claimCauseCode: 'lost' },
        ],
      }),
    );
    expect(lines.violations.map((v) => v.pointer)).toEqual([
      '/lines/0/sku',
      '/lines/1/claim_type',
      '/lines/2/claim_cause_code',
      '/lines/3/claim_cause_code',
    ]);
    expect(lines.violations[2]!.detail).toContain('shared by 2 claim causes');
    expect((await listReturns(world.deps, listOf(world))).page.items).toHaveLength(0);
  });

  it('approves an open return once: approving again is an invalid state transition', async () => {
    const world = await aWorld();
    const { order } = await aDeliveredOrder(world);
    const open = await anRma(world, order.orderNumber, [{ sku: 'TEE-M', quantity: 1 }], { approve: false });

    const approved = await approveReturn(world.deps, { brandId: world.brand.id, userId: 7, returnId: open.id });

    expect(approved).toMatchObject({ status: 'approved', approvedAt: world.clock.now() });
    const again = await domainErrorOf(
      approveReturn(world.deps, { brandId: world.brand.id, userId: 7, returnId: open.id }),
    );
    expect(again.code).toBe('invalid_state_transition');
    expect(
      (await domainErrorOf(approveReturn(world.deps, { brandId: world.brand.id, userId: 7, returnId: 999 }))).code,
    ).toBe('not_found');
  });
});

describe('the warehouse receiving an RMA (POST /3pl/returns/receive)', () => {
  it('receives the pieces, puts returned ones back in stock and drafts a credit note for them', async () => {
    const world = await aWorld();
    const { order } = await aDeliveredOrder(world);
    const rma = await anRma(world, order.orderNumber, [
      { sku: 'TEE-M', quantity: 2 },
      { sku: 'CAP-S', quantity: 2, claimType: 'claim' },
    ]);
    const before = { tee: await stockOf(world, 11), cap: await stockOf(world, 12) };

    const { ret, creditNote } = await receive(world, rma.rma, [
      { sku: 'TEE-M', receivedQuantity: 2 },
      { ean: '4006', receivedQuantity: 1 },
    ]);

    expect(ret).toMatchObject({ status: 'received', receivedAt: world.clock.now() });
    expect(lineSummary(ret.lines)).toEqual([
      ['TEE-M', 2, 2, 'return'],
      ['CAP-S', 2, 1, 'claim'],
    ]);
    // Only the returned (not the claimed) pieces go back on the shelf.
    expect(await stockOf(world, 11)).toEqual({ inStock: before.tee.inStock + 2, available: before.tee.available + 2 });
    expect(await stockOf(world, 12)).toEqual(before.cap);
    // 2 × 10.00 + 1 × 5.00 net, 25 % VAT.
    expect(creditNote).toMatchObject({
      status: 'draft',
      returnId: ret.id,
      invoiceId: null,
      orderId: order.id,
      netTotal: 2500,
      vatTotal: 625,
      total: 3125,
    });
    expect(creditNote!.lines.map((l) => [l.kind, l.sku, l.quantity, l.totalPrice])).toEqual([
      ['product', 'TEE-M', 2, 2000],
      ['product', 'CAP-S', 1, 500],
    ]);
    const detail = await getReturn(world.deps, { brandId: world.brand.id, returnId: ret.id });
    expect(detail.creditNotes.map((c) => c.id)).toEqual([creditNote!.id]);
    expect(detail.timeline.map((e) => e.kind)).toEqual(['created', 'approved', 'received']);
  });

  it('receives 0 of the lines the warehouse left out', async () => {
    const world = await aWorld();
    const { order } = await aDeliveredOrder(world);
    const rma = await anRma(world, order.orderNumber, [
      { sku: 'TEE-M', quantity: 2 },
      { sku: 'CAP-S', quantity: 1 },
    ]);

    const { ret, creditNote } = await receive(world, rma.rma, [{ sku: 'TEE-M', receivedQuantity: 1 }]);

    expect(lineSummary(ret.lines)).toEqual([
      ['TEE-M', 2, 1, 'return'],
      ['CAP-S', 1, 0, 'return'],
    ]);
    expect(creditNote!.lines.map((l) => l.sku)).toEqual(['TEE-M']);
  });

  it('refuses a receipt with a bad line as a whole: nothing received, no stock moved, no credit note', async () => {
    const world = await aWorld();
    const { order } = await aDeliveredOrder(world);
    const rma = await anRma(world, order.orderNumber, [
      { sku: 'TEE-M', quantity: 2 },
      { sku: 'CAP-S', quantity: 1 },
    ]);
    const before = await stockOf(world, 11);

    const error = await domainErrorOf(
      receive(world, rma.rma, [
        { sku: 'TEE-M', receivedQuantity: 2 },
        { sku: 'CAP-S', receivedQuantity: 2 },
        { sku: 'SOCK-L', receivedQuantity: 1 },
        { sku: 'TEE-M', receivedQuantity: -1 },
      ]),
    );

    expect(error.violations.map((v) => v.pointer)).toEqual([
      '/return/lines/2/sku',
      '/return/lines/1/received_quantity',
      '/return/lines/3/received_quantity',
    ]);
    expect(error.violations[1]!.detail).toContain('2 pieces received, but return 1 expects 1');
    expect((await returnNow(world, rma.id)).status).toBe('approved');
    expect(await stockOf(world, 11)).toEqual(before);
    expect((await getReturn(world.deps, { brandId: world.brand.id, returnId: rma.id })).creditNotes).toEqual([]);
  });

  it('refuses a receipt of nothing, an unknown rma, an rma several returns share and a return that is not approved', async () => {
    const world = await aWorld();
    const { order } = await aDeliveredOrder(world);
    const open = await anRma(world, order.orderNumber, [{ sku: 'TEE-M', quantity: 1 }], { approve: false });
    const approved = await anRma(world, order.orderNumber, [{ sku: 'CAP-S', quantity: 1 }]);

    expect(
      (await domainErrorOf(receive(world, approved.rma, [{ sku: 'CAP-S', receivedQuantity: 0 }]))).violations,
    ).toEqual([{ pointer: '/return/lines', detail: 'return.lines must report at least one piece received' }]);
    expect(
      (await domainErrorOf(receive(world, 'RMA-404', [{ sku: 'CAP-S', receivedQuantity: 1 }]))).violations[0]!.pointer,
    ).toBe('/return/rma');
    const notApproved = await domainErrorOf(receive(world, open.rma, [{ sku: 'TEE-M', receivedQuantity: 1 }]));
    expect(notApproved).toMatchObject({
      code: 'invalid_state_transition',
      message: expect.stringContaining('is open'),
    });

    // A portal return may carry an rma equal to a back-office one.
    await world.uow.run(async (tx) => {
      const [id] = await tx.ids.next('returns');
      await tx.returns.save({ ...approved, id: id!, source: 'portal', returnPortalId: 1, returnNumber: 99, lines: [] });
    });
    const shared = await domainErrorOf(receive(world, approved.rma, [{ sku: 'CAP-S', receivedQuantity: 1 }]));
    expect(shared.violations[0]).toMatchObject({
      pointer: '/return/rma',
      detail: expect.stringContaining('is the RMA of 2 returns'),
    });
  });

  it('cannot receive a return twice', async () => {
    const world = await aWorld();
    const { order } = await aDeliveredOrder(world);
    const rma = await anRma(world, order.orderNumber, [{ sku: 'TEE-M', quantity: 1 }]);
    await receive(world, rma.rma, [{ sku: 'TEE-M', receivedQuantity: 1 }]);

    expect((await domainErrorOf(receive(world, rma.rma, [{ sku: 'TEE-M', receivedQuantity: 1 }]))).code).toBe(
      'invalid_state_transition',
    );
  });
});

describe("a return's credit note", () => {
  /** An approved return of one piece at `unitPrice` with the given fees, received in full. */
  async function receivedWithFees(
    world: World,
    spec: {
      orderType: 'b2b' | 'b2c';
      unitPrice: number;
      returnFee?: number;
      exchangeFee?: number;
      regulateInventory?: boolean;
    },
  ) {
    const order = await anOrder(world, {
      orderType: spec.orderType,
      lines: [{ ...TEE, quantity: 1, unitPrice: spec.unitPrice }],
    });
    const rma = await anRma(world, order.orderNumber, [{ sku: 'TEE-M', quantity: 1 }]);
    const withFees: Return = {
      ...rma,
      returnFeeInclVat: spec.returnFee ?? null,
      exchangeFeeInclVat: spec.exchangeFee ?? null,
      lines: rma.lines.map((l) => ({ ...l, regulateInventory: spec.regulateInventory ?? true })),
    };
    return world.uow.run((tx) =>
      receiveReturnPieces(tx, {
        ret: withFees,
        received: new Map([[rma.lines[0]!.id, 1]]),
        userId: null,
        at: world.clock.now(),
      }),
    );
  }

  it('deducts the return fee incl. VAT: an item of 100.00 with a 25.00 fee credits 75.00 (gross prices)', async () => {
    const world = await aWorld();
    const { creditNote } = await receivedWithFees(world, { orderType: 'b2c', unitPrice: 10000, returnFee: 2500 });
    expect(creditNote).toMatchObject({ total: 7500, netTotal: 6000, vatTotal: 1500 });
    expect(creditNote!.lines.map((l) => [l.kind, l.description, l.totalPrice])).toEqual([
      ['product', 'Product TEE-M', 10000],
      ['fee', 'Return fee', -2500],
    ]);
  });

  it('takes the VAT out of the fees on net prices, so the total is the goods incl. VAT less the fees incl. VAT', async () => {
    const world = await aWorld();
    // 100.00 net = 125.00 incl. VAT; return fee 25.00 incl. = 20.00 net; exchange fee 12.50 incl. = 10.00 net.
    const { creditNote } = await receivedWithFees(world, {
      orderType: 'b2b',
      unitPrice: 10000,
      returnFee: 2500,
      exchangeFee: 1250,
    });
    expect(creditNote).toMatchObject({ netTotal: 7000, vatTotal: 1750, total: 8750 });
    expect(creditNote!.lines.map((l) => [l.description, l.totalPrice])).toEqual([
      ['Product TEE-M', 10000],
      ['Return fee', -2000],
      ['Exchange fee', -1000],
    ]);
  });

  it('caps fees larger than the goods so the credit note is never negative', async () => {
    const world = await aWorld();
    const { creditNote } = await receivedWithFees(world, {
      orderType: 'b2c',
      unitPrice: 3000,
      returnFee: 2500,
      exchangeFee: 1000,
    });
    expect(creditNote).toMatchObject({ total: 0, netTotal: 0, vatTotal: 0 });
    expect(creditNote!.lines.map((l) => [l.description, l.totalPrice])).toEqual([
      ['Product TEE-M', 3000],
      ['Return fee', -2500],
      ['Exchange fee', -500],
    ]);
  });

  it('leaves stock alone for lines that must not regulate inventory', async () => {
    const world = await aWorld();
    const before = await stockOf(world, 11);
    const { ret } = await receivedWithFees(world, { orderType: 'b2c', unitPrice: 3000, regulateInventory: false });
    expect(ret.status).toBe('received');
    // The order reserved its piece (Available −1); the receipt adds nothing to In stock.
    expect((await stockOf(world, 11)).inStock).toBe(before.inStock);
  });
});

describe('the warehouse lists and exports returns', () => {
  it('lists returns with their customer, and exports approved RMAs until the system marks them', async () => {
    const world = await aWorld();
    const { order } = await aDeliveredOrder(world);
    const open = await anRma(world, order.orderNumber, [{ sku: 'TEE-M', quantity: 1 }], { approve: false });
    const approved = await anRma(world, order.orderNumber, [{ sku: 'TEE-M', quantity: 1 }]);
    const received = await anRma(world, order.orderNumber, [{ sku: 'CAP-S', quantity: 1 }]);
    await receive(world, received.rma, [{ sku: 'CAP-S', receivedQuantity: 1 }]);

    const listed = await listThirdPartyReturns(world.deps, listOf(world));
    expect(listed.page.items.map((v) => [v.ret.id, v.customer.customerNumber])).toEqual([
      [open.id, 'C-1'],
      [approved.id, 'C-1'],
      [received.id, 'C-1'],
    ]);
    expect(listed.page.total).toBe(3);

    const exportOf = (flags: { includeDrafts?: boolean; includeReceived?: boolean } = {}) =>
      exportThirdPartyReturns(world.deps, { list: listOf(world), systemId: 'wms', ...flags }).then((r) =>
        r.page.items.map((v) => v.ret.id),
      );
    expect(await exportOf()).toEqual([approved.id]);
    expect(await exportOf({ includeDrafts: true })).toEqual([open.id, approved.id]);
    expect(await exportOf({ includeReceived: true })).toEqual([approved.id, received.id]);

    await markDocumentsExported(world.deps, {
      brandId: world.brand.id,
      userId: null,
      documentType: 'return',
      arrayKey: 'returns',
      idKey: 'return_id',
      items: [{ documentId: approved.id, systemId: 'wms', note: 'in WMS' }],
    });
    expect(await exportOf()).toEqual([]);
    const detail = await getReturn(world.deps, { brandId: world.brand.id, returnId: approved.id });
    expect(detail.exports).toEqual([expect.objectContaining({ systemId: 'wms', note: 'in WMS' })]);
    expect(detail.timeline.map((e) => e.kind)).toEqual(['created', 'approved', 'exported']);
  });
});
