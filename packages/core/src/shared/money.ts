import { DomainError } from './errors';

/**
 * Money arithmetic on minor units. Products and quotients go through BigInt and round half up
 * (away from zero), so no amount ever passes through a binary fraction.
 */

const LARGEST_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * An amount as a number, refused (422) when it is beyond what a number holds exactly: about
 * 90 trillion in minor units. Every input is bounded on its own, but a line multiplies a
 * quantity by a price and a document adds lines, and a total past that point would be stored
 * rounded (or overflow the column) instead of exact.
 */
function exactAmount(amount: bigint): number {
  if (amount > LARGEST_AMOUNT || amount < -LARGEST_AMOUNT) throw amountTooLarge(String(amount));
  return Number(amount);
}

function amountTooLarge(amount: string): DomainError {
  const detail = `an amount of this document comes to ${amount} minor units, more than the ${Number.MAX_SAFE_INTEGER} the platform can keep exact`;
  return new DomainError('validation_failed', detail, { violations: [{ pointer: '', detail }] });
}

/** round(numerator / denominator), halves away from zero; both are integers, denominator > 0. */
export function divideRounded(numerator: bigint, denominator: bigint): number {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (magnitude * 2n + denominator) / (denominator * 2n);
  return exactAmount(negative ? -rounded : rounded);
}

const BASIS = 10_000n;

/**
 * quantity × unit price less a discount in basis points, rounded once for the whole line.
 * @example lineTotal(3, 1999, 1000) // 3 × 19.99 − 10 % = 53.97 → 5397
 */
export function lineTotal(quantity: number, unitPrice: number, discountBasisPoints: number): number {
  return divideRounded(BigInt(quantity) * BigInt(unitPrice) * (BASIS - BigInt(discountBasisPoints)), BASIS);
}

/**
 * Net, VAT and total of a document from the sum of its line totals (shipping and fees included).
 * Net prices get VAT added; gross prices (B2C) have the VAT inside them taken out, so the total
 * is exactly what the customer was shown.
 * @example documentTotals(10000, 2500, false) // { netTotal: 10000, vatTotal: 2500, total: 12500 }
 * @example documentTotals(12500, 2500, true)  // { netTotal: 10000, vatTotal: 2500, total: 12500 }
 */
export function documentTotals(
  sumOfLines: number,
  vatRateBasisPoints: number,
  pricesIncludeVat: boolean,
): { netTotal: number; vatTotal: number; total: number } {
  // Line totals are added as numbers by the callers: a sum past the exact range is no longer an integer one can trust.
  if (!Number.isSafeInteger(sumOfLines)) throw amountTooLarge(String(sumOfLines));
  const rate = BigInt(vatRateBasisPoints);
  if (pricesIncludeVat) {
    const net = divideRounded(BigInt(sumOfLines) * BASIS, BASIS + rate);
    return { netTotal: net, vatTotal: sumOfLines - net, total: sumOfLines };
  }
  const vat = divideRounded(BigInt(sumOfLines) * rate, BASIS);
  return { netTotal: sumOfLines, vatTotal: vat, total: exactAmount(BigInt(sumOfLines) + BigInt(vat)) };
}
