import { ClaimCause, Return, ReturnLine, approveReturn, createReturn } from '../src';
import { LineSpec, World, anOrder, aShipment } from './orders-fixtures';

/** Test data for the returns flow, on top of the orders fixtures (orders and shipments saved straight through the repositories). */

/** TEE-M (variant 11) at 10.00 and CAP-S (variant 12, EAN 4006) at 5.00. */
export const TEE: LineSpec = { variantId: 11, sku: 'TEE-M', quantity: 3, unitPrice: 1000 };
export const CAP: LineSpec = { variantId: 12, sku: 'CAP-S', ean: '4006', quantity: 2, unitPrice: 500 };

/** A claim cause saved straight through the repository (codes are not unique: a test may save two alike). */
export async function aClaimCause(world: World, code: string, name = code): Promise<ClaimCause> {
  return world.uow.run(async (tx) => {
    const [id] = await tx.ids.next('claim_causes');
    const cause: ClaimCause = {
      id: id!,
      brandId: world.brand.id,
      code,
      name,
      createdAt: world.clock.now(),
      updatedAt: world.clock.now(),
    };
    await tx.claimCauses.insert(cause);
    return cause;
  });
}

/** An approved B2B order of 3 × TEE-M and 2 × CAP-S, delivered in one shipment. */
export async function aDeliveredOrder(
  world: World,
  lines: LineSpec[] = [TEE, CAP],
  options: { orderType?: 'b2b' | 'b2c' } = {},
) {
  const order = await anOrder(world, { lines, ...(options.orderType ? { orderType: options.orderType } : {}) });
  const shipment = await aShipment(world, order);
  return { order, shipment };
}

/** A back-office RMA of the order for `lines`, approved unless told otherwise. */
export async function anRma(
  world: World,
  orderNumber: number,
  lines: Array<{ sku?: string; ean?: string; quantity: number; claimType?: string; claimCauseCode?: string }>,
  options: { approve?: boolean } = {},
): Promise<Return> {
  const created = await createReturn(world.deps, {
    brandId: world.brand.id,
    userId: 7,
    orderNumber,
    lines: lines.map((l) => ({ claimType: 'return', ...l })),
  });
  if (options.approve === false) return created;
  return approveReturn(world.deps, { brandId: world.brand.id, userId: 7, returnId: created.id });
}

/** A return as storage has it now. */
export async function returnNow(world: World, returnId: number): Promise<Return> {
  const [ret] = await world.uow.read((r) => r.returns.findByIds(world.brand.id, [returnId]));
  return ret!;
}

/** Line summaries for compact assertions: [sku, expected, received, claim type]. */
export const lineSummary = (lines: readonly ReturnLine[]) =>
  lines.map((l) => [l.sku, l.expectedQuantity, l.receivedQuantity, l.claimType]);
