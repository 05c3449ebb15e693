/**
 * Money arithmetic on minor units. Products and quotients go through BigInt and round half up
 * (away from zero), so no amount ever passes through a binary fraction.
 */

/** round(numerator / denominator), halves away from zero; both are integers, denominator > 0. */
export function divideRounded(numerator: bigint, denominator: bigint): number {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (magnitude * 2n + denominator) / (denominator * 2n);
  return Number(negative ? -rounded : rounded);
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
export function documentTotals(sumOfLines: number, vatRateBasisPoints: number, pricesIncludeVat: boolean): { netTotal: number; vatTotal: number; total: number } {
  const rate = BigInt(vatRateBasisPoints);
  if (pricesIncludeVat) {
    const net = divideRounded(BigInt(sumOfLines) * BASIS, BASIS + rate);
    return { netTotal: net, vatTotal: sumOfLines - net, total: sumOfLines };
  }
  const vat = divideRounded(BigInt(sumOfLines) * rate, BASIS);
  return { netTotal: sumOfLines, vatTotal: vat, total: sumOfLines + vat };
}
