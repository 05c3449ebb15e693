import { OrderLine } from '../orders/order.entities';
import { DomainError, ViolationList, pointerToPath } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { ClaimType, Return, ReturnLine } from './return.entities';

/**
 * What the back-office and ad hoc returns share when they turn request lines into return lines:
 * claim types and causes checked, pieces spread over the order lines they were bought on, and
 * the lines priced and described as their order lines.
 */

/** A 422 naming one field, worded as `ViolationList` words it (`return.rma "X" is not …`), for checks that stop at once. */
export function refusal(pointer: string, message: string): DomainError {
  return DomainError.validation([{ pointer, detail: `${pointerToPath(pointer)} ${message}` }]);
}

/** The claim types a return line may have. */
export const CLAIM_TYPES: readonly ClaimType[] = ['return', 'claim'];

/** Reports a claim type that is not `return` or `claim` at `pointer`. */
export function checkClaimType(value: unknown, pointer: string, violations: ViolationList): value is ClaimType {
  if (CLAIM_TYPES.includes(value as ClaimType)) return true;
  violations.add(pointer, `must be one of ${CLAIM_TYPES.join(', ')}`);
  return false;
}

/**
 * Claim cause ids of request lines by their `claim_cause_code`, matched ignoring case (codes are
 * a brand's own list and not unique). An unknown code, or one shared by several causes, is
 * reported at the line's pointer; lines without a code get null.
 */
export async function resolveClaimCauseCodes(
  tx: Pick<Repositories, 'claimCauses'>,
  brandId: number,
  lines: ReadonlyArray<{ claimCauseCode?: string | null | undefined; pointer: string }>,
  violations: ViolationList,
): Promise<Array<number | null>> {
  const codes = [
    ...new Set(lines.flatMap((l) => (typeof l.claimCauseCode === 'string' ? [l.claimCauseCode.trim()] : []))),
  ];
  const causes = codes.length ? await tx.claimCauses.findByCodes(brandId, codes) : [];
  return lines.map((line) => {
    if (line.claimCauseCode === undefined || line.claimCauseCode === null) return null;
    const code = line.claimCauseCode.trim();
    const matches = causes.filter((c) => c.code.toLowerCase() === code.toLowerCase());
    if (matches.length === 0)
      violations.add(line.pointer, `${JSON.stringify(code)} is not a claim cause of this brand`);
    else if (matches.length > 1)
      violations.add(
        line.pointer,
        `${JSON.stringify(code)} is shared by ${matches.length} claim causes (ids ${matches.map((c) => c.id).join(', ')}); make the codes unique`,
      );
    return matches.length === 1 ? matches[0]!.id : null;
  });
}

/** Pieces of each order line already announced on returns (expected), by order line id. */
export function expectedByOrderLine(returns: readonly Return[]): Map<number, number> {
  const expected = new Map<number, number>();
  for (const line of returns.flatMap((r) => r.lines)) {
    if (line.orderLineId !== null)
      expected.set(line.orderLineId, (expected.get(line.orderLineId) ?? 0) + line.expectedQuantity);
  }
  return expected;
}

/**
 * Spreads `pieces` of a variant over the candidate order lines in line order, each taking at most
 * its `room`; the returned shares sum to `pieces` when the rooms allow it (the caller checked).
 */
export function spreadOverLines<L extends { id: number }>(
  pieces: number,
  candidates: ReadonlyArray<{ line: L; room: number }>,
): Array<{ line: L; pieces: number }> {
  const shares: Array<{ line: L; pieces: number }> = [];
  let remaining = pieces;
  for (const { line, room } of candidates) {
    if (remaining === 0) break;
    const taken = Math.min(room, remaining);
    if (taken > 0) shares.push({ line, pieces: taken });
    remaining -= taken;
  }
  return shares;
}

/** A return line for pieces bought on an order line: its catalog copies and its price (the order's VAT basis). */
export function returnLineFromOrderLine(
  orderLine: OrderLine,
  fields: {
    id: number;
    returnId: number;
    expectedQuantity: number;
    claimType: ClaimType;
    claimCauseId: number | null;
    regulateInventory: boolean;
    refundStorefront: boolean;
  },
): ReturnLine {
  return {
    id: fields.id,
    returnId: fields.returnId,
    orderLineId: orderLine.id,
    variantId: orderLine.variantId,
    productId: orderLine.productId,
    sku: orderLine.sku,
    ean: orderLine.ean,
    itemNumber: orderLine.itemNumber,
    productName: orderLine.productName,
    attributes: { ...orderLine.attributes },
    countryOfOrigin: orderLine.countryOfOrigin,
    composition: orderLine.composition,
    hsTariffCode: orderLine.hsTariffCode,
    expectedQuantity: fields.expectedQuantity,
    receivedQuantity: 0,
    claimType: fields.claimType,
    claimCauseId: fields.claimCauseId,
    unitPrice: orderLine.unitPrice,
    discountBasisPoints: orderLine.discountBasisPoints,
    unitPriceInclVat: null,
    comments: null,
    regulateInventory: fields.regulateInventory,
    refundStorefront: fields.refundStorefront,
  };
}
