import {
  PortalReturnLineInput,
  ReturnLine,
  ViolationList,
  createReturnPortal,
  finalizePortalReturn,
  netOfVat,
  upsertPortalReturn,
} from '../src';
import { DesiredPortalLine, matchPortalLines } from '../src/returns/portal-return-lines';
import { rmaNumberOf } from '../src/returns/upsert-portal-return';
import { errorOf, product, setUpShop, variant, violationsOf } from './orders-shop.support';

/** A B2C shop (prices incl. VAT) with TEE-M and TEE-L, a delivered-enough (approved) order of 2 × TEE-M by anna@example.com, and a custom portal. */
async function aPortalShop(options: { portalType?: string; requiresClaimCauses?: boolean } = {}) {
  const shop = await setUpShop();
  await shop.products([product('TEE', { variants: [variant('TEE-M'), variant('TEE-L')] })]);
  await shop.customers([{ customerNumber: 'C-1', name: 'Anna', currency: 'EUR' }]);
  const channel = await shop.channel('b2c', { autoApprove: true });
  const { order } = await shop.place(channel, {
    customerNumber: 'C-1',
    email: 'Anna@Example.com',
    lines: [{ sku: 'TEE-M', quantity: 2 }],
  });
  const portal = await createReturnPortal(
    { uow: shop.uow, clock: shop.clock, hasher: shop.hasher },
    {
      brandId: shop.brand.id,
      name: 'Webshop returns',
      type: options.portalType ?? 'custom',
      ...(options.requiresClaimCauses ? { requiresClaimCauses: true } : {}),
    },
  );
  const upsert = (
    ret: Partial<Parameters<typeof upsertPortalReturn>[1]['ret']>,
    extra: { email?: string; orderNumber?: number; appInternalCode?: string | null } = {},
  ) =>
    upsertPortalReturn(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      appInternalCode: extra.appInternalCode ?? null,
      publicId: portal.publicId,
      email: 'email' in extra ? extra.email : 'anna@example.com',
      orderNumber: 'orderNumber' in extra ? extra.orderNumber : order.orderNumber,
      ret: { rma: 'RMA-0042', lines: [teeM()], ...ret },
    });
  const finalize = (rma: string, refundTotal: number, exchangeTotal = 0) =>
    finalizePortalReturn(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      appInternalCode: null,
      publicId: portal.publicId,
      rma,
      refundTotal,
      exchangeTotal,
    });
  return { shop, order, portal, upsert, finalize };
}

const teeM = (extra: Partial<PortalReturnLineInput> = {}): PortalReturnLineInput => ({
  sku: 'TEE-M',
  quantity: 1,
  claimType: 'return',
  unitPriceInclVat: 4995,
  ...extra,
});

describe('upserting a portal return', () => {
  it('creates an approved return on the first call, with the rma digits as rma_number and the order copied', async () => {
    const { upsert, order, portal } = await aPortalShop();
    const { ret, created } = await upsert({ notes: 'box is damaged', returnFeeInclVat: 500 });
    expect(created).toBe(true);
    expect(ret).toMatchObject({
      status: 'approved',
      source: 'portal',
      returnPortalId: portal.id,
      rma: 'RMA-0042',
      rmaNumber: 42,
      orderId: order.id,
      customerId: order.customerId,
      pricesIncludeVat: true,
      notes: 'box is damaged',
      returnFeeInclVat: 500,
      returnNumber: 1,
    });
    expect(ret.lines.map((l) => [l.sku, l.expectedQuantity, l.unitPriceInclVat, l.unitPrice, l.orderLineId])).toEqual([
      ['TEE-M', 1, 4995, 4995, order.lines[0]!.id],
    ]);
  });

  it('changes nothing on a replay of the same body: same ids, updated_at unchanged', async () => {
    const { upsert, shop } = await aPortalShop();
    const first = await upsert({ lines: [teeM(), teeM({ sku: 'TEE-L', text: 'too big' })] });
    shop.clock.advance(60_000);
    const replay = await upsert({ lines: [teeM(), teeM({ sku: 'TEE-L', text: 'too big' })] });
    expect(replay.created).toBe(false);
    expect(replay.ret).toEqual(first.ret);
  });

  it('matches lines by the three levels, keeping ids, and deletes the unclaimed ones', async () => {
    const { upsert } = await aPortalShop();
    const { ret } = await upsert({ lines: [teeM({ text: 'a' }), teeM({ sku: 'TEE-L' })] });
    const [m, l] = ret.lines;
    const { ret: next } = await upsert({ lines: [teeM({ text: 'changed', quantity: 2 })] });
    expect(next.lines.map((x) => [x.id, x.sku, x.expectedQuantity, x.comments])).toEqual([
      [m!.id, 'TEE-M', 2, 'changed'],
    ]);
    expect(next.lines.some((x) => x.id === l!.id)).toBe(false);
  });

  it('refuses an rma without a digit, a wrong e-mail and an unknown SKU with the fields named, creating nothing', async () => {
    const { upsert } = await aPortalShop();
    expect(await violationsOf(upsert({ rma: 'RMA-X' }))).toEqual({
      '/return/rma': expect.stringContaining('at least one digit'),
    });
    expect(await violationsOf(upsert({ lines: [teeM({ sku: 'NOPE' })] }, { email: 'bob@example.com' }))).toEqual({
      '/email': expect.stringContaining('does not match'),
      '/return/lines/0/sku': expect.stringContaining('is not a variant of this brand'),
    });
  });

  it('receives every expected piece when the portal moves the return to received, issuing a credit note net of the fee', async () => {
    const { upsert, shop } = await aPortalShop();
    await upsert({ returnFeeInclVat: 500 });
    const { ret, creditNotes } = await upsert({ status: 'received', returnFeeInclVat: 500 });
    expect(ret.status).toBe('received');
    expect(ret.lines.map((l) => l.receivedQuantity)).toEqual([1]);
    expect(creditNotes.map((n) => [n.status, n.total])).toEqual([['draft', 4495]]);
    // The order reserved its pieces without taking them out of In stock (10); the returned piece comes on top.
    expect(await shop.stock('TEE-M')).toMatchObject({ inStock: 11 });
    const again = await violationsOf(
      upsert({ status: 'received', lines: [teeM({ quantity: 2 })], returnFeeInclVat: 500 }),
    );
    expect(Object.keys(again)).toEqual(['/return/lines']);
    const back = await errorOf(upsert({ status: 'approved', returnFeeInclVat: 500 }));
    expect(back.code).toBe('invalid_state_transition');
  });

  it('lets only the partner app use a partner portal, and nobody the internal service portal', async () => {
    const partner = await aPortalShop({ portalType: 'returnista' });
    expect((await errorOf(partner.upsert({}))).code).toBe('forbidden');
    expect((await partner.upsert({}, { appInternalCode: 'returnista' })).created).toBe(true);
    const service = await aPortalShop({ portalType: 'service' });
    expect((await errorOf(service.upsert({}))).code).toBe('validation_failed');
  });
});

describe('finalizing a portal return', () => {
  it('books the draft credit notes and credits the return; a second call books nothing more', async () => {
    const { upsert, finalize } = await aPortalShop();
    await upsert({ status: 'received' });
    const first = await finalize('RMA-0042', 4995);
    expect(first.ret.status).toBe('credited');
    expect(first.booked.map((n) => n.status)).toEqual(['booked']);
    const second = await finalize('RMA-0042', 4995);
    expect(second.booked).toEqual([]);
    expect(second.ret.status).toBe('credited');
  });

  it('refuses amounts more than 0.01 away from the credited total, showing the amounts', async () => {
    const { upsert, finalize } = await aPortalShop();
    await upsert({ status: 'received' });
    expect(await violationsOf(finalize('RMA-0042', 4993))).toEqual({
      '/refund_total_price_after_vat': expect.stringContaining(
        'refund 49.93 + exchange 0.00 = 49.93, credited 49.95 EUR',
      ),
    });
    expect((await finalize('RMA-0042', 4994)).ret.status).toBe('credited');
  });
});

describe('finalizing a portal return without a credit note', () => {
  it('refuses a received return that has no credit note, naming rma', async () => {
    const { upsert, finalize, shop } = await aPortalShop();
    const { ret } = await upsert({});
    // Not reachable through a portal (its receipt always drafts one); a return received without one stands in for the rule.
    await shop.uow.run((tx) => tx.returns.save({ ...ret, status: 'received', receivedAt: shop.clock.now() }));
    expect(await violationsOf(finalize('RMA-0042', 0))).toEqual({
      '/rma': expect.stringContaining('has no credit note'),
    });
  });
});

describe('portal return helpers', () => {
  it('takes all digits of an rma as its number', () => {
    const v = new ViolationList();
    expect(rmaNumberOf('R-00-12-3', v)).toBe(123);
    expect(v.isEmpty).toBe(true);
  });

  it('computes the net price half up', () => {
    expect(netOfVat(10000, 2500)).toBe(8000);
    expect(netOfVat(4995, 2100)).toBe(4128);
  });

  it('lets an exact match win over a looser one of an earlier line', () => {
    const stored = [
      { id: 1, variantId: 5, claimType: 'return', claimCauseId: null, comments: null, unitPriceInclVat: 1000 },
      { id: 2, variantId: 5, claimType: 'return', claimCauseId: null, comments: null, unitPriceInclVat: 2000 },
    ] as ReturnLine[];
    const wanted = (price: number) =>
      ({
        variant: { variant: { id: 5 } },
        claimType: 'return',
        claimCauseId: null,
        comments: null,
        unitPriceInclVat: price,
      }) as unknown as DesiredPortalLine;
    expect(matchPortalLines(stored, [wanted(1500), wanted(1000)]).map((l) => l?.id)).toEqual([2, 1]);
  });
});
